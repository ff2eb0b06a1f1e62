#pragma once
// The bandwidth family (BabelStream's kernels plus read-only and write-only) and the cache family
// (the same kernels swept over working-set sizes, several passes per call so that small sets
// outlast the launch overhead). Each kernel's FLOPs and bytes per element sit in kStreamKernels.
#include <Kokkos_Core.hpp>

#include <cmath>
#include <string>

#include "compat/kokkos_compat.hpp"
#include "probes/dtype.hpp"
#include "probes/layout.hpp"
#include "probes/point_name.hpp"
#include "probes/probe.hpp"

namespace ridgeline {

enum class StreamOp { kCopy, kScale, kAdd, kTriad, kDot, kRead, kFill };

struct StreamKernel {
  StreamOp op;
  const char* name;
  int flops;   // per element
  int arrays;  // arrays touched per element (bytes = arrays · sizeof(T))
  bool reduces;
};

inline constexpr StreamKernel kStreamKernels[] = {
    {StreamOp::kCopy, "copy", 0, 2, false}, {StreamOp::kScale, "scale", 1, 2, false},
    {StreamOp::kAdd, "add", 1, 3, false},   {StreamOp::kTriad, "triad", 2, 3, false},
    {StreamOp::kDot, "dot", 2, 2, true},    {StreamOp::kRead, "read", 1, 1, true},
    {StreamOp::kFill, "fill", 0, 1, false},
};

const StreamKernel* find_stream_kernel(const std::string& name);

// Initial values: index-dependent (a wrong index shows up in verification), exact in binary.
template <class T>
KOKKOS_INLINE_FUNCTION T stream_init_a(std::size_t i) {
  return T(1) + T(i % 7) * T(0.125);
}
template <class T>
KOKKOS_INLINE_FUNCTION T stream_init_b(std::size_t i) {
  return T(2) - T(i % 5) * T(0.25);
}
template <class T>
inline constexpr T kStreamScalar = T(0.375);

template <class Space, class T>
class StreamProbe final : public Probe {
 public:
  using View = Kokkos::View<T*, typename Space::memory_space>;

  StreamProbe(const StreamKernel& kernel, const std::string& family, std::size_t elements,
              int passes)
      : kernel_(kernel), passes_(passes) {
    layout_ = LaunchShape<Space>::template stream<T>(elements, Space().concurrency());
    const std::size_t n = layout_.elements();
    info_.probe = family == "cache" ? std::string("cache_") + kernel.name : kernel.name;
    info_.family = family;
    info_.space = Space::name();
    info_.dtype = dtype_name<T>();
    info_.elements = n;
    info_.working_set_bytes = n * sizeof(T) * kernel.arrays;
    info_.flops = double(n) * kernel.flops * passes;
    info_.bytes = double(n) * sizeof(T) * kernel.arrays * passes;
    info_.params = {
        {"passes", passes}, {"items", layout_.items}, {"elements_per_item", layout_.per_item}};
    if (kernel.reduces) info_.params["accumulators"] = LaunchShape<Space>::template lanes<T>();
    info_.params.update(LaunchShape<Space>::isa_json());
    info_.name =
        point_name(info_.probe, info_.space, info_.dtype,
                   family == "cache" ? grade("ws", info_.working_set_bytes) : grade("n", n));
  }

  const PointInfo& info() const override { return info_; }

  void setup() override {
    const std::size_t n = layout_.elements();
    a_ = View(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ridgeline::a"), n);
    if (kernel_.arrays >= 2)
      b_ = View(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ridgeline::b"), n);
    if (kernel_.arrays >= 3)
      c_ = View(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ridgeline::c"), n);
    // First touch in the kernels' own layout, so host pages land near the threads that use them.
    const auto l = layout_;
    View a = a_, b = b_, c = c_;
    Kokkos::parallel_for(
        "ridgeline::stream_init", Kokkos::RangePolicy<Space>(0, l.items),
        KOKKOS_LAMBDA(const std::size_t item) {
          for (std::size_t j = 0; j < l.per_item; ++j) {
            const std::size_t i = l.index(item, j);
            a(i) = stream_init_a<T>(i);
            if (b.extent(0)) b(i) = stream_init_b<T>(i);
            if (c.extent(0)) c(i) = T(0);
          }
        });
    fence();
  }

  void run() override;

  void fence() override { compat::fence(Space(), "ridgeline::stream"); }

  Verification verify() override;

  void corrupt_output_for_test() override {
    if (kernel_.reduces) {
      result_ = T(2) * result_ + T(1);
    } else {
      auto out = output();
      Kokkos::deep_copy(Kokkos::subview(out, std::make_pair(0, 1)), T(-7));
    }
  }

 private:
  View output() const {
    switch (kernel_.op) {
      case StreamOp::kCopy:
        return b_;
      case StreamOp::kScale:
        return b_;
      case StreamOp::kAdd:
        return c_;
      case StreamOp::kTriad:
        return c_;
      default:
        return a_;  // fill
    }
  }

  StreamKernel kernel_;
  int passes_;
  BlockLayout<Space> layout_;
  PointInfo info_;
  View a_, b_, c_;
  T result_ = T(0);
};

}  // namespace ridgeline

#include "probes/stream_probe_impl.hpp"
