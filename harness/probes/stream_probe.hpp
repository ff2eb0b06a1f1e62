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
// interleaved across threads) and repeats its sweeps. Bandwidth points: one thread per chunk,
// one pass. Cache points:
//   - working sets above the last-level cache: one launch per pass, so every chunk's next read
//     comes a whole array later (in-kernel passes let another thread read a chunk again while
//     it was still in L2: a 4 GiB read showed 6.8 TB/s on H200, above HBM's 4.8);
//   - smaller sets: in-kernel passes, thread g on chunk (g + p·rotation) mod items in pass p, the
//     rotation ~0.618 of the array (golden ratio: passes spread over the array before any chunk
//     comes back near where it was), so a pass re-reads data from the level the whole working set
//     fits in, not from the thread's own L1 lines (which every size did before);
//   - reading kernels read each chunk from `replicas` threads so a launch fills two waves of the
//     device; writing kernels are not replicated (thousands of threads storing to one line
//     measure the contention, not the cache), so below two waves of chunks they are not planned.
struct DeviceSweep {
  std::size_t replicas = 1;  // threads per chunk
  std::size_t rotation = 0;  // chunk offset between a thread's passes (< items)
  int passes = 1;            // sweeps per launch
  int launches = 1;          // launches per call
  std::string unfit;         // why the point cannot be measured this way; empty if it can

  std::size_t threads(std::size_t items) const { return items * replicas; }

  // `passes`: the planner's sweeps per call for one thread per chunk.
  static DeviceSweep make(std::size_t items, std::size_t working_set, bool cache, bool writes,
                          int passes, long long concurrency, std::uint64_t llc_bytes) {
    DeviceSweep s;
    s.passes = passes;
    if (!cache || items == 0) return s;
    if (llc_bytes && working_set > llc_bytes) {
      s.launches = passes;
      s.passes = 1;
      return s;
    }
    const std::size_t two_waves = 2 * static_cast<std::size_t>(std::max(concurrency, 1LL));
    if (writes && items < two_waves) {
      s.unfit = "a writing kernel needs two waves of threads (" + std::to_string(two_waves) +
                " chunks) without replicated stores; this working set has " + std::to_string(items);
      return s;
    }
    if (!writes) s.replicas = std::max<std::size_t>(1, (two_waves + items - 1) / items);
    s.passes = static_cast<int>(std::max<std::size_t>(1, std::size_t(passes) / s.replicas));
    s.rotation = static_cast<std::size_t>(0.6180339887 * double(items)) % items;
    return s;
  }
};

template <class Space, class T>
class StreamProbe final : public Probe {
 public:
  using View = Kokkos::View<T*, typename Space::memory_space>;

  // `passes`: sweeps over the array per call. On device spaces a cache point may read each chunk
  // from several threads or sweep in several launches (see DeviceSweep); a call still moves about
  // the bytes the planner asked for. `llc_bytes`: the space's last-level cache (0: unknown).
  StreamProbe(const StreamKernel& kernel, const std::string& family, std::size_t elements,
              int passes, std::uint64_t llc_bytes = 0)
      : kernel_(kernel), passes_(passes) {
    layout_ = LaunchShape<Space>::template stream<T>(elements, Space().concurrency());
    const std::size_t n = layout_.elements();
    if constexpr (kIsDeviceSpace<Space>) {
      const bool writes = !kernel.reduces;
      sweep_ = DeviceSweep::make(layout_.items, n * sizeof(T) * kernel.arrays, family == "cache",
                                 writes, passes, Space().concurrency(), llc_bytes);
      passes_ = sweep_.passes;
      if (!sweep_.unfit.empty()) info_.unfit_reason = sweep_.unfit;
    }
    info_.probe = family == "cache" ? std::string("cache_") + kernel.name : kernel.name;
    info_.family = family;
    info_.space = Space::name();
    info_.dtype = dtype_name<T>();
    info_.elements = n;
    info_.working_set_bytes = n * sizeof(T) * kernel.arrays;
    const double touched =
        double(n) * double(passes_) * double(sweep_.replicas) * double(sweep_.launches);
    info_.flops = touched * kernel.flops;
    info_.bytes = touched * sizeof(T) * kernel.arrays;
    info_.params = {
        {"passes", passes_}, {"items", layout_.items}, {"elements_per_item", layout_.per_item}};
    if (kernel.reduces) info_.params["accumulators"] = LaunchShape<Space>::template lanes<T>();
    info_.params.update(LaunchShape<Space>::isa_json());
    if constexpr (kIsDeviceSpace<Space>) {
      info_.params["replicas"] = sweep_.replicas;
      info_.params["rotation"] = sweep_.rotation;
      info_.params["launches"] = sweep_.launches;
      info_.params["block_size"] = LaunchShape<Space>::block_size_json();
      info_.params["loads_before_stores"] = true;
    }
    info_.name =
        point_name(info_.probe, info_.space, info_.dtype,
                   family == "cache" ? grade("ws", info_.working_set_bytes) : grade("n", n));
  }

  const PointInfo& info() const override { return info_; }

  void release() override {
    a_ = View();
    b_ = View();
    c_ = View();
    result_ = {};
  }

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
  void run_host();
  // Device spaces: each thread loads its whole chunk before the first store, so W loads per
  // array are in flight per thread (the pointers are lambda captures, where nvcc ignores
  // restrict, so a store could otherwise hold back the next element's load).
  void run_device();
  void run_device_launch();
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
