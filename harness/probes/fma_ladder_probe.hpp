#pragma once
// The graded-intensity ladder: per element K FMAs on independent chains between a load and a
// store. FLOPs 2·K·n, bytes 2·n·sizeof(T), so intensity K/sizeof(T): fp64 K=1 is 1/8, K=8192 1024.
//
// Two forms (LadderForm):
// - in place ("fma", the reference ladder, ERT's kernel): load x, K FMAs, store back to x. The
//   store hits the line just read, so counted bytes are moved bytes on every machine, write-
//   allocate caches included: its memory-bound rungs define the bandwidth roof B. With `passes`
//   and a swept working set it is also the cache family's `cache_update`, B per memory level.
// - two arrays ("fma_xy"): load x, K FMAs, store y. On a write-allocate CPU the store to y first
//   reads y's line, so it moves 3 bytes for every 2 counted: a named ceiling, not a roof.
//
// Code generation (host): the first FMA reads x and the last writes the output, so no loop is a
// plain copy (GCC turns a copy loop over a 1 KiB chunk into memcpy through the stack), and α, β
// are lambda locals, so a store through the output pointer cannot alias them (GCC otherwise
// reloads them per element and gives up vectorising). scripts/check-hot-loops checks the result.
#include <Kokkos_Core.hpp>

#include <string>

#include "harness/compat/kokkos_compat.hpp"
#include "harness/probes/device_clock.hpp"
#include "harness/probes/dtype.hpp"
#include "harness/probes/fma_recurrence.hpp"
#include "harness/probes/layout.hpp"
#include "harness/probes/point_name.hpp"
#include "harness/probes/probe.hpp"
#include "results/probe_catalog.hpp"

namespace ridgeline {

enum class LadderForm { kInPlace, kTwoArrays };

template <class Space, class T, int K, LadderForm Form = LadderForm::kInPlace>
class FmaLadderProbe final : public Probe {
  static_assert(K >= 1, "a rung has at least one FMA per element");

 public:
  using View = Kokkos::View<T*, typename Space::memory_space>;
  static constexpr std::size_t C = fma_chains<Space, T>();
  static constexpr bool kInPlace = Form == LadderForm::kInPlace;

  // `family` "fma": a ladder rung over `elements`; "cache" (in-place only): `passes` passes per
  // call over a working set that the cache sweep chooses.
  explicit FmaLadderProbe(std::size_t elements, int passes = 1, const std::string& family = "fma")
      : passes_(passes) {
    layout_ = LaunchShape<Space>::chunked(elements, C, Space().concurrency());
    const std::size_t n = layout_.elements();
    const bool cache = sweeps_working_set(family);
    info_.probe = cache ? "cache_update" : kInPlace ? "fma" : "fma_xy";
    info_.family = family;
    info_.space = Space::name();
    info_.dtype = dtype_name<T>();
    info_.elements = n;
    info_.working_set_bytes = (kInPlace ? 1 : 2) * n * sizeof(T);
    info_.flops = 2.0 * K * double(n) * passes;
    info_.bytes = 2.0 * double(n) * sizeof(T) * passes;
    info_.params = {{"k", K},
                    {"form", kInPlace ? "in_place" : "two_arrays"},
                    {"chains", C},
                    {"items", layout_.items},
                    {"elements_per_item", layout_.per_item},
                    {"block_size", LaunchShape<Space>::block_size_json()}};
    info_.params.update(LaunchShape<Space>::isa_json());
    if (cache) info_.params["passes"] = passes;
    info_.name = point_name(info_.probe, info_.space, info_.dtype,
                            cache ? grade("ws", info_.working_set_bytes) : grade("k", K));
  }

  const PointInfo& info() const override { return info_; }

  void release() override {
    x_ = View();
    y_ = View();
  }

  void setup() override {
    const std::size_t n = layout_.elements();
    x_ = View(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ridgeline::fma_x"), n);
    if (!kInPlace)
      y_ = View(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ridgeline::fma_y"), n);
    const auto l = layout_;
    View x = x_, y = y_;
    // First touch in the kernel's own layout, so host pages land near the threads that use them.
    Kokkos::parallel_for(
        "ridgeline::fma_init", Kokkos::RangePolicy<Space>(0, l.items),
        KOKKOS_LAMBDA(const std::size_t item) {
          for (std::size_t j = 0; j < l.per_item; ++j) {
            x(l.index(item, j)) = fma_input<T>(l.index(item, j));
            if (!kInPlace) y(l.index(item, j)) = T(0);
          }
        });
    calls_ = 0;
    fence();
  }

  void run() override {
    const auto l = layout_;
    const int passes = passes_;
    T* const x = x_.data();
    T* const y = y_.data();
    const T alpha = runtime_value(kInPlace ? in_place_alpha<T>(++calls_) : kFmaAlpha<T>);
    const T beta = runtime_value(kFmaBeta<T>);
    Kokkos::parallel_for(
        kInPlace ? "ridgeline::fma" : "ridgeline::fma_xy",
        typename LaunchShape<Space>::Policy(0, l.items), KOKKOS_LAMBDA(const std::size_t item) {
          const T a = alpha, b = beta;  // locals: stores cannot alias them
          // Captured outside the `if constexpr`: nvcc refuses a lambda's first capture inside one.
          T* const in = x;
          [[maybe_unused]] T* const out = y;
          for (int p = 0; p < passes; ++p)
            for (std::size_t j0 = 0; j0 < l.per_item; j0 += C) {
              // In place, one pointer (same index, nothing to alias); two arrays never
              // overlap, and restrict-qualified parameters say so (else GCC adds a scalar
              // fallback behind a runtime overlap check).
              if constexpr (kInPlace)
                chunk<T*, T*>(l, item, j0, in, in, a, b);
              else
                chunk<const T * KOKKOS_RESTRICT, T * KOKKOS_RESTRICT>(l, item, j0, in, out, a, b);
            }
        });
  }

  void fence() override { compat::fence(Space(), "ridgeline::fma"); }

  Verification verify() override {
    const auto ref =
        kInPlace ? in_place_reference<T>(long(K) * passes_, calls_) : fma_reference<T>(K);
    const auto out = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), kInPlace ? x_ : y_);
    for (std::size_t i = 0; i < out.extent(0); ++i)
      if (out(i) != ref[i % 16])
        return {false, info_.probe + " k=" + std::to_string(K) + " after " +
                           std::to_string(calls_) + " calls: element " + std::to_string(i) +
                           " is " + std::to_string((double)out(i)) + ", expected " +
                           std::to_string((double)ref[i % 16])};
    return {};
  }

  void corrupt_output_for_test() override {
    Kokkos::deep_copy(Kokkos::subview(kInPlace ? x_ : y_, std::make_pair(0, 1)), T(-7));
  }

 private:
  // One chunk of C elements: K FMAs each, the first fused with the load, the last with the store.
  // On device spaces all of a thread's loads come before its stores, also at K = 1.
  template <class In, class Out>
  KOKKOS_FORCEINLINE_FUNCTION static void chunk(const BlockLayout<Space>& l, std::size_t item,
                                                std::size_t j0, In in, Out out, const T a,
                                                const T b) {
    if constexpr (K == 1 && !kIsDeviceSpace<Space>) {
      for (std::size_t c = 0; c < C; ++c) {
        const std::size_t i = l.index(item, j0 + c);
        out[i] = compat::fma(in[i], a, b);
      }
    } else {
      T v[C];
      for (std::size_t c = 0; c < C; ++c) v[c] = compat::fma(in[l.index(item, j0 + c)], a, b);
      // Unrolled 16x on devices: left to itself, clang unrolls the K - 2 steps
      // by the largest small factor of K - 2, so K = 64, 256, 4096 (62 = 2·31, ...) got 2x (16
      // FMAs in 20 instructions on gfx90a) and K = 1024, 8192 14x (112 in 116).
      RIDGELINE_DEVICE_UNROLL(16)
      for (int k = 2; k < K; ++k)
        for (std::size_t c = 0; c < C; ++c) v[c] = compat::fma(v[c], a, b);
      if constexpr (K == 1) {
        for (std::size_t c = 0; c < C; ++c) out[l.index(item, j0 + c)] = v[c];
      } else {
        for (std::size_t c = 0; c < C; ++c) out[l.index(item, j0 + c)] = compat::fma(v[c], a, b);
      }
    }
  }

  int passes_;
  long calls_ = 0;  // run() calls since setup(): the in-place ladder's α alternates with them
  BlockLayout<Space> layout_;
  PointInfo info_;
  View x_, y_;
};

}  // namespace ridgeline
