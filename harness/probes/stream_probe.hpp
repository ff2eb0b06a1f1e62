#pragma once
// The bandwidth family (BabelStream's kernels plus read-only, write-only and an in-place update)
// and the cache family (the same kernels swept over working-set sizes, several passes per call so
// that small sets outlast the launch overhead). Each kernel's FLOPs and bytes per element sit in
// kStreamKernels; which probes run them, in the probe catalog.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#if defined(__x86_64__) && defined(__SSE2__) && !defined(__NVCC__) && !defined(__HIPCC__)
#include <immintrin.h>
#endif

#include "harness/compat/kokkos_compat.hpp"
#include "harness/probes/dtype.hpp"
#include "harness/probes/fma_recurrence.hpp"
#include "harness/probes/layout.hpp"
#include "harness/probes/point_name.hpp"
#include "harness/probes/probe.hpp"
#include "harness/probes/stream_kernels.hpp"
#include "harness/probes/word_sum.hpp"

namespace ridgeline {

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
template <class T>
inline constexpr T kStreamScalarNegated = -kStreamScalar<T>;  // update_alpha's: no run-time op
// The initial values repeat with this period (i mod 7 and i mod 5), and so does every output.
inline constexpr std::size_t kStreamPeriod = 35;

// Streaming stores (copy_nt, StreamCounts::nontemporal in the catalog) on x86-64 hosts: the
// widest non-temporal store the build's ISA has (AVX-512, AVX, SSE2: vmovntpd/vmovntps), and
// movnti for the elements before the first aligned vector and after the last. Not in nvcc/hipcc
// builds (the device kernels store plainly: a GPU allocates no line on a write) nor for other
// types or ISAs: those copy plainly, and the point's params.streaming_stores says so.
#if defined(__x86_64__) && defined(__SSE2__) && !defined(__NVCC__) && !defined(__HIPCC__)
#define RIDGELINE_STREAMING_STORES 1
template <class T>
inline constexpr bool kStreamingStores = std::is_same_v<T, double> || std::is_same_v<T, float>;
#if defined(__AVX512F__)
inline constexpr std::size_t kStreamingBytes = 64;
inline void store_streaming(double* to, const double* from) {
  _mm512_stream_pd(to, _mm512_loadu_pd(from));
}
inline void store_streaming(float* to, const float* from) {
  _mm512_stream_ps(to, _mm512_loadu_ps(from));
}
#elif defined(__AVX__)
inline constexpr std::size_t kStreamingBytes = 32;
inline void store_streaming(double* to, const double* from) {
  _mm256_stream_pd(to, _mm256_loadu_pd(from));
}
inline void store_streaming(float* to, const float* from) {
  _mm256_stream_ps(to, _mm256_loadu_ps(from));
}
#else
inline constexpr std::size_t kStreamingBytes = 16;
inline void store_streaming(double* to, const double* from) {
  _mm_stream_pd(to, _mm_loadu_pd(from));
}
inline void store_streaming(float* to, const float* from) { _mm_stream_ps(to, _mm_loadu_ps(from)); }
#endif
// One element (movnti): the bits through a general register.
inline void store_streaming_one(double* to, const double* from) {
  long long bits;
  std::memcpy(&bits, from, sizeof bits);
  _mm_stream_si64(reinterpret_cast<long long*>(to), bits);
}
inline void store_streaming_one(float* to, const float* from) {
  int bits;
  std::memcpy(&bits, from, sizeof bits);
  _mm_stream_si32(reinterpret_cast<int*>(to), bits);
}
#else
template <class T>
inline constexpr bool kStreamingStores = false;
#endif

// b[j] = a[j] for j < n, with streaming stores only where kStreamingStores<T>; they are weakly
// ordered, so an sfence ends the run (the fence after the kernel must find them done).
template <class T>
KOKKOS_INLINE_FUNCTION void copy_streaming(const T* a, T* b, std::size_t n) {
#if defined(RIDGELINE_STREAMING_STORES)
  if constexpr (kStreamingStores<T>) {
    constexpr std::size_t L = kStreamingBytes / sizeof(T);
    std::size_t j = 0;
    for (; j < n && reinterpret_cast<std::uintptr_t>(b + j) % kStreamingBytes != 0; ++j)
      store_streaming_one(b + j, a + j);
    for (; j + L <= n; j += L) store_streaming(b + j, a + j);
    for (; j < n; ++j) store_streaming_one(b + j, a + j);
    _mm_sfence();
    return;
  }
#endif
  for (std::size_t j = 0; j < n; ++j) b[j] = a[j];
}

// Whether the kernel reads the second array b (update_xy: y, which it also writes). Device code
// calls it too (no --expt-relaxed-constexpr in Kokkos' CUDA builds).
KOKKOS_INLINE_FUNCTION constexpr bool stream_reads_b(StreamOp op) {
  return op == StreamOp::kAdd || op == StreamOp::kTriad || op == StreamOp::kUpdateXy;
}

// update_xy keeps y from call to call, so its coefficients change with the call (1-based) to
// keep every call visible in y without letting it settle or grow: α = ±q alternates in sign, so
// y swings between about y0 and y0 + q·x instead of growing by q·x per call; β is the in-place
// ladder's α (1 - 2^-16 on odd calls, 1 + 2^-16 on even ones, fma_recurrence.hpp), so a pair of
// calls does not bring y back (with β = 1 a kernel that skipped two calls would go unseen) but
// moves it up by about 2^-16·q·x, tens of fp32 ulps, towards a bound near 2^16·q·x.
template <class T>
constexpr T update_alpha(long call) {
  return call % 2 ? kStreamScalar<T> : kStreamScalarNegated<T>;
}
template <class T>
constexpr T update_beta(long call) {
  return in_place_alpha<T>(call);
}

// One update_xy step, the same operations in the kernels and in the host replay: β·y rounded,
// then one FMA.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION T update_step(T alpha, T beta, T x, T y) {
  return compat::fma(alpha, x, beta * y);
}

// The kStreamPeriod values y holds after `calls` calls of `passes` steps each, replayed on the
// host: the check demands identical bits, as the in-place ladder's.
template <class T>
Kokkos::Array<T, kStreamPeriod> update_reference(long calls, int passes) {
  Kokkos::Array<T, kStreamPeriod> y;
  for (std::size_t r = 0; r < kStreamPeriod; ++r) y[r] = stream_init_b<T>(r);
  for (long c = 1; c <= calls; ++c)
    for (int p = 0; p < passes; ++p)
      for (std::size_t r = 0; r < kStreamPeriod; ++r)
        y[r] = update_step(update_alpha<T>(c), update_beta<T>(c), stream_init_a<T>(r), y[r]);
  return y;
}

// The value a non-reducing stream kernel leaves in element i of its output array, whatever the
// calls before (update_xy's depends on them: update_reference).
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

// `GridLayout`: the device kernels and layout (GridStride, DeviceSweep); true on device spaces.
// Tests set it on a host space to run the device kernels, their counts and their checks on the
// CPU.
template <class Space, class T, bool GridLayout = kIsDeviceSpace<Space>>
class StreamProbe final : public Probe {
 public:
  using View = Kokkos::View<T*, typename Space::memory_space>;

  // `passes`: sweeps over the array per call. On device spaces a small reading cache set is read
  // several times per pass, with fewer passes (see DeviceSweep); a call still moves about the
  // bytes the planner asked for. `llc_bytes`: the space's last-level cache (0: unknown).
  // `threads`: the grid layout's resident threads (0: the space's, LaunchShape).
  StreamProbe(const StreamKernel& kernel, const std::string& family, std::size_t elements,
              int passes, std::uint64_t llc_bytes = 0, std::size_t threads = 0)
      : kernel_(kernel), passes_(passes) {
    const bool swept = sweeps_working_set(family);  // the cache sweep
    std::size_t n = 0;
    double touched = 0;  // elements per array per call
    if constexpr (GridLayout) {
      constexpr std::size_t V = Grid::kVector;
      // Cache sets in whole vectors (the working set is the point); bandwidth arrays keep their
      // length and a tail.
      grid_.n = swept ? elements / V * V : elements;
      grid_.threads =
          threads ? threads : LaunchShape<Space>::resident_threads(Space().concurrency());
      n = grid_.n;
      sweep_ = DeviceSweep::make(grid_.vectors(), Grid::kRound, grid_.threads,
                                 n * sizeof(T) * kernel.arrays, swept, !kernel.reduces, passes,
                                 llc_bytes);
      passes_ = sweep_.passes;
      if (!sweep_.unfit.empty()) info_.unfit_reason = sweep_.unfit;
      // dot's walk reads each vector once per pass (GridStride::pass<true>): no replicated span.
      if (kernel.op == StreamOp::kDot && sweep_.span > grid_.vectors())
        info_.unfit_reason =
            "dot reads each vector once per pass; a working set smaller than a "
            "round of the grid would need it read several times";
      touched = double(passes_) * double(sweep_.span * V + grid_.tail());
    } else {
      layout_ = LaunchShape<Space>::template stream<T>(elements, Space().concurrency());
      n = layout_.elements();
      touched = double(n) * double(passes_);
    }
    info_.probe = swept ? std::string("cache_") + kernel.name : kernel.name;
    info_.family = family;
    info_.space = Space::name();
    info_.dtype = dtype_name<T>();
    info_.elements = n;
    info_.working_set_bytes = n * sizeof(T) * kernel.arrays;
    // Host spaces' read combines words with bitwise XORs and integer adds (word_sum.hpp): no FLOPs.
    info_.flops = sums_words() ? 0.0 : touched * kernel.flops;
    info_.bytes = touched * sizeof(T) * kernel.accesses;
    info_.params = {{"passes", passes_}};
    if constexpr (GridLayout) {
      info_.params["layout"] = "grid_stride";
      info_.params["resident_threads"] = grid_.threads;
      info_.params["access_bytes"] = sizeof(Vector16<T>);
      info_.params["vectors_in_flight"] = Grid::kRound;
      info_.params["reads_per_pass"] = sweep_.reads_per_pass(grid_.vectors());
      info_.params["rotation"] = sweep_.rotation;
      info_.params["block_size"] = LaunchShape<Space>::block_size_json();
      info_.params["loads_before_stores"] = true;
    } else {
      info_.params["items"] = layout_.items;
      info_.params["elements_per_item"] = layout_.per_item;
    }
    if (kernel.reduces)
      info_.params["accumulators"] = GridLayout     ? Grid::kReduceRows * Grid::kVector
                                     : sums_words() ? LaunchShape<Space>::template lanes<SumWord>()
                                                    : LaunchShape<Space>::template lanes<T>();
    // What the partial sums combine: the 32-bit words of the elements (XOR within a pass, lanes
    // and passes added mod 2^32: word_sum.hpp) or the elements (the dtype's adds).
    if (kernel.reduces && kernel.host_words)
      info_.params["sum"] = sums_words() ? "u32_words_xor3" : info_.dtype;
    info_.params.update(LaunchShape<Space>::isa_json());
    if (kernel.nontemporal) info_.params["streaming_stores"] = !GridLayout && kStreamingStores<T>;
    info_.name = point_name(info_.probe, info_.space, info_.dtype,
                            swept ? grade("ws", info_.working_set_bytes) : grade("n", n));
  }

  const PointInfo& info() const override { return info_; }

  void release() override {
    a_ = View();
    b_ = View();
    c_ = View();
    result_ = {};
    words_result_ = {};
  }

  void setup() override {
    const std::size_t n = info_.elements;
    a_ = View(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ridgeline::a"), n);
    if (kernel_.arrays >= 2)
      b_ = View(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ridgeline::b"), n);
    if (kernel_.arrays >= 3)
      c_ = View(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ridgeline::c"), n);
    if (kernel_.reduces && sums_words())
      words_result_ = decltype(words_result_)("ridgeline::stream_word_sum");
    else if (kernel_.reduces)
      result_ = decltype(result_)("ridgeline::stream_result");
    View a = a_, b = b_, c = c_;
    if constexpr (GridLayout) {
      Kokkos::parallel_for(
          "ridgeline::stream_init", Kokkos::RangePolicy<Space>(0, n),
          KOKKOS_LAMBDA(const std::size_t i) { init_element(a, b, c, i); });
    } else {
      // First touch in the kernels' own layout, so host pages land near the threads that use them.
      const auto l = layout_;
      Kokkos::parallel_for(
          "ridgeline::stream_init", Kokkos::RangePolicy<Space>(0, l.items),
          KOKKOS_LAMBDA(const std::size_t item) {
            for (std::size_t j = 0; j < l.per_item; ++j) init_element(a, b, c, l.index(item, j));
          });
    }
    calls_ = 0;
    fence();
  }

  KOKKOS_INLINE_FUNCTION static void init_element(const View& a, const View& b, const View& c,
                                                  std::size_t i) {
    a(i) = stream_init_a<T>(i);
    if (b.extent(0)) b(i) = stream_init_b<T>(i);
    if (c.extent(0)) c(i) = T(0);
  }

  void run() override;
  void run_host();
  // read on host spaces: the XOR sum of a's 32-bit words (word_sum.hpp).
  void run_host_read();
  // Device spaces: each thread loads its round of U vectors before the first store, so U·16
  // bytes per array are in flight per thread (the pointers are lambda captures, where nvcc
  // ignores restrict, so a store could otherwise hold back the next vector's load).
  void run_device();
  template <StreamOp Op>
  void run_device_op();
  std::string kernel_label() const { return std::string("ridgeline::") + kernel_.name; }

  void fence() override { compat::fence(Space(), "ridgeline::stream"); }

  Verification verify() override;
  Verification verify_on_device(const Kokkos::Array<T, kStreamPeriod>& want, T rel);

  // Tests: a wrong word sum planted in place of the kernel's (verify_words' blind spots).
  void plant_words_result_for_test(SumWord v) { Kokkos::deep_copy(words_result_, v); }

  void corrupt_output_for_test() override {
    if (kernel_.reduces && sums_words()) {
      Kokkos::deep_copy(words_result_, SumWord(read_words_result() + 1));
    } else if (kernel_.reduces) {
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
      case StreamOp::kUpdateXy:
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
  SumWord read_words_result() const {
    SumWord r = 0;
    Kokkos::deep_copy(r, words_result_);
    return r;
  }

  // Whether this probe's kernel sums words: read (its catalog entry says so) in fp64 or fp32 on
  // a host layout.
  bool sums_words() const { return !GridLayout && kSumsWords<T> && kernel_.host_words; }
  Verification verify_words();

  // What a non-reducing kernel's output holds at i, by i mod kStreamPeriod, and the relative
  // tolerance: update_xy's is replayed bit for bit, the others' are one operation on exact inputs.
  Kokkos::Array<T, kStreamPeriod> expected_period() const {
    if (kernel_.op == StreamOp::kUpdateXy) return update_reference<T>(calls_, passes_);
    Kokkos::Array<T, kStreamPeriod> want;
    for (std::size_t r = 0; r < kStreamPeriod; ++r)
      want[r] = expected_element(kernel_.op, kStreamScalar<T>, r);
    return want;
  }
  T tolerance() const { return kernel_.op == StreamOp::kUpdateXy ? T(0) : 4 * epsilon<T>(); }
  // Values with every digit their type has: a replay that differs by an ulp must show it.
  std::string error_at(std::size_t i, T got, T want) const {
    const auto digits = [](T v) {
      char text[40];
      std::snprintf(text, sizeof text, "%.*g", std::numeric_limits<T>::max_digits10, double(v));
      return std::string(text);
    };
    return std::string(kernel_.name) + ": element " + std::to_string(i) + " is " + digits(got) +
           ", expected " + digits(want) +
           (kernel_.op == StreamOp::kUpdateXy ? " after " + std::to_string(calls_) + " calls"
                                              : std::string());
  }

  using Grid = typename LaunchShape<Space>::template Grid<T>;

  StreamKernel kernel_;
  int passes_;
  long calls_ = 0;  // run() calls since setup(): update_xy's coefficients change with them
  BlockLayout<Space> layout_;  // host spaces
  Grid grid_;                  // device spaces
  DeviceSweep sweep_;          // device spaces
  PointInfo info_;
  View a_, b_, c_;
  Kokkos::View<T, typename Space::memory_space> result_;
  Kokkos::View<SumWord, typename Space::memory_space> words_result_;  // sums_words()
};

}  // namespace ridgeline

#include "harness/probes/stream_probe_impl.hpp"
