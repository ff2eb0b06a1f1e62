#pragma once
// The bandwidth family (BabelStream's kernels plus read-only and write-only) and the cache family
// (the same kernels swept over working-set sizes, several passes per call so that small sets
// outlast the launch overhead). Each kernel's FLOPs and bytes per element sit in kStreamKernels.
#include <Kokkos_Core.hpp>

#include <algorithm>
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

// The value a non-reducing stream kernel leaves in element i of its output array.
template <class T>
KOKKOS_INLINE_FUNCTION T expected_element(StreamOp op, T q, std::size_t i) {
  const T a = stream_init_a<T>(i), b = stream_init_b<T>(i);
  switch (op) {
    case StreamOp::kCopy:
      return a;
    case StreamOp::kScale:
      return q * a;
    case StreamOp::kAdd:
      return a + b;
    case StreamOp::kTriad:
      return compat::fma(q, b, a);
    default:
      return q;  // fill
  }
}

// How a device-space stream kernel maps threads to chunks (W consecutive elements of a thread,
// interleaved across threads). Thread g works on chunk c = g mod items, then on c + rotation,
// c + 2·rotation, … (mod items), one chunk per pass. Bandwidth points: one pass, one thread per
// chunk. Cache points: every pass sweeps the whole array, and consecutive passes of a thread move
// to chunks owned by other thread blocks, so a pass re-reads data from the level of the hierarchy
// the working set fits in (an SM's L1 only if the whole set fits there), not from the thread's own
// L1 lines; small sets are read by `replicas` threads per chunk so that every launch fills at
// least two waves of the device.
struct DeviceSweep {
  std::size_t replicas = 1;  // threads per chunk
  std::size_t rotation = 0;  // chunk offset between a thread's passes (< items)
  int passes = 1;

  std::size_t threads(std::size_t items) const { return items * replicas; }

  static DeviceSweep make(std::size_t items, bool cache, int passes, long long concurrency) {
    DeviceSweep s;
    s.passes = passes;
    if (!cache || items == 0) return s;
    const std::size_t two_waves = 2 * static_cast<std::size_t>(std::max(concurrency, 1LL));
    s.replicas = std::max<std::size_t>(1, (two_waves + items - 1) / items);
    // The planner sized `passes` for one thread per chunk.
    s.passes = static_cast<int>(std::max<std::size_t>(1, std::size_t(passes) / s.replicas));
    // About half the array away, plus one block, so a pass never lands on the same block.
    s.rotation = (items / 2 + 128) % items;
    return s;
  }
};

template <class Space, class T>
class StreamProbe final : public Probe {
 public:
  using View = Kokkos::View<T*, typename Space::memory_space>;

  // `passes`: sweeps over the array per call. On device spaces a cache point reads each chunk from
  // `replicas` threads (see DeviceSweep), and `passes` is divided among them so that a call moves
  // about the bytes the planner asked for.
  StreamProbe(const StreamKernel& kernel, const std::string& family, std::size_t elements,
              int passes)
      : kernel_(kernel), passes_(passes) {
    layout_ = LaunchShape<Space>::template stream<T>(elements, Space().concurrency());
    const std::size_t n = layout_.elements();
    if constexpr (kIsDeviceSpace<Space>) {
      sweep_ = DeviceSweep::make(layout_.items, family == "cache", passes, Space().concurrency());
      passes_ = sweep_.passes;
    }
    info_.probe = family == "cache" ? std::string("cache_") + kernel.name : kernel.name;
    info_.family = family;
    info_.space = Space::name();
    info_.dtype = dtype_name<T>();
    info_.elements = n;
    info_.working_set_bytes = n * sizeof(T) * kernel.arrays;
    const double touched = double(n) * double(passes_) * double(sweep_.replicas);
    info_.flops = touched * kernel.flops;
    info_.bytes = touched * sizeof(T) * kernel.arrays;
    info_.params = {
        {"passes", passes_}, {"items", layout_.items}, {"elements_per_item", layout_.per_item}};
    if constexpr (kIsDeviceSpace<Space>) {
      info_.params["replicas"] = sweep_.replicas;
      info_.params["rotation"] = sweep_.rotation;
      info_.params["block_size"] = LaunchShape<Space>::block_size_json();
      info_.params["loads_before_stores"] = true;
    }
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
    if (kernel_.reduces) result_ = decltype(result_)("ridgeline::stream_result");
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
  // Device spaces: each thread loads its whole chunk before the first store, so W loads per
  // array are in flight per thread (the pointers are lambda captures, where nvcc ignores
  // restrict, so a store could otherwise hold back the next element's load).
  void run_device();
  template <StreamOp Op>
  void run_device_op();
  std::string kernel_label() const { return std::string("ridgeline::") + kernel_.name; }

  void fence() override { compat::fence(Space(), "ridgeline::stream"); }

  Verification verify() override;
  Verification verify_on_device();

  void corrupt_output_for_test() override {
    if (kernel_.reduces) {
      Kokkos::deep_copy(result_, T(2) * read_result() + T(1));
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

  // The reduction's result stays on the device until verify(): reducing into a host scalar would
  // put a host synchronisation inside the timed window.
  T read_result() const {
    T r{};
    Kokkos::deep_copy(r, result_);
    return r;
  }

  StreamKernel kernel_;
  int passes_;
  BlockLayout<Space> layout_;
  DeviceSweep sweep_;
  PointInfo info_;
  View a_, b_, c_;
  Kokkos::View<T, typename Space::memory_space> result_;
};

}  // namespace ridgeline

#include "probes/stream_probe_impl.hpp"
