#pragma once
// The graded-intensity ladder: per element, load x, K FMAs on independent chains, store y.
// FLOPs 2·K·n, bytes 2·n·sizeof(T), so intensity K/sizeof(T): fp64 K=1 is 1/8, K=8192 is 1024.
#include <Kokkos_Core.hpp>

#include <string>

#include "compat/kokkos_compat.hpp"
#include "probes/dtype.hpp"
#include "probes/fma_recurrence.hpp"
#include "probes/layout.hpp"
#include "probes/point_name.hpp"
#include "probes/probe.hpp"

namespace ridgeline {

template <class Space, class T, int K>
class FmaLadderProbe final : public Probe {
 public:
  using View = Kokkos::View<T*, typename Space::memory_space>;
  static constexpr std::size_t C = fma_chains<Space, T>();

  explicit FmaLadderProbe(std::size_t elements) {
    layout_ = LaunchShape<Space>::chunked(elements, C, Space().concurrency());
    const std::size_t n = layout_.elements();
    info_.probe = "fma";
    info_.family = "fma";
    info_.space = Space::name();
    info_.dtype = dtype_name<T>();
    info_.elements = n;
    info_.working_set_bytes = 2 * n * sizeof(T);
    info_.flops = 2.0 * K * double(n);
    info_.bytes = 2.0 * double(n) * sizeof(T);
    info_.params = {{"k", K},
                    {"chains", C},
                    {"items", layout_.items},
                    {"elements_per_item", layout_.per_item},
                    {"block_size", LaunchShape<Space>::block_size_json()}};
    info_.params.update(LaunchShape<Space>::isa_json());
    info_.name = point_name("fma", info_.space, info_.dtype, grade("k", K));
  }

  const PointInfo& info() const override { return info_; }

  void setup() override {
    const std::size_t n = layout_.elements();
    x_ = View(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ridgeline::fma_x"), n);
    y_ = View(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ridgeline::fma_y"), n);
    const auto l = layout_;
    View x = x_, y = y_;
    Kokkos::parallel_for(
        "ridgeline::fma_init", Kokkos::RangePolicy<Space>(0, l.items),
        KOKKOS_LAMBDA(const std::size_t item) {
          for (std::size_t j = 0; j < l.per_item; ++j) {
            x(l.index(item, j)) = fma_input<T>(l.index(item, j));
            y(l.index(item, j)) = T(0);
          }
        });
    fence();
  }

  void run() override {
    const auto l = layout_;
    const T* KOKKOS_RESTRICT x = x_.data();
    T* KOKKOS_RESTRICT y = y_.data();
    const T alpha = kFmaAlpha<T>, beta = kFmaBeta<T>;
    Kokkos::parallel_for(
        "ridgeline::fma", typename LaunchShape<Space>::Policy(0, l.items),
        KOKKOS_LAMBDA(const std::size_t item) {
          for (std::size_t j0 = 0; j0 < l.per_item; j0 += C) {
            T v[C];
            for (std::size_t c = 0; c < C; ++c) v[c] = x[l.index(item, j0 + c)];
            for (int k = 0; k < K; ++k) {
              for (std::size_t c = 0; c < C; ++c) v[c] = compat::fma(v[c], alpha, beta);
            }
            for (std::size_t c = 0; c < C; ++c) y[l.index(item, j0 + c)] = v[c];
          }
        });
  }

  void fence() override { compat::fence(Space(), "ridgeline::fma"); }

  Verification verify() override {
    const auto ref = fma_reference<T>(K);
    const auto y = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y_);
    for (std::size_t i = 0; i < y.extent(0); ++i)
      if (y(i) != ref[i % 16])
        return {false, "fma k=" + std::to_string(K) + ": element " + std::to_string(i) + " is " +
                           std::to_string((double)y(i)) + ", expected " +
                           std::to_string((double)ref[i % 16])};
    return {};
  }

  void corrupt_output_for_test() override {
    Kokkos::deep_copy(Kokkos::subview(y_, std::make_pair(0, 1)), T(-7));
  }

 private:
  BlockLayout<Space> layout_;
  PointInfo info_;
  View x_, y_;
};

}  // namespace ridgeline
