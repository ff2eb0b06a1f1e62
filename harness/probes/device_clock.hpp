#pragma once
// What a device kernel can read of its own clocks: the SM cycle counter and a nanosecond wall
// clock. A thread that reads both before and after its work measures the SM clock while the work
// ran (nvbench's method), which NVML's idle-time readings and spec sheets cannot tell.
#include <Kokkos_Core.hpp>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <utility>
#include <vector>

#include "core/stats.hpp"

// Unroll factors of device loops, `RIDGELINE_DEVICE_UNROLL(n)` before the loop (empty n: fully):
// a loop's own counter and branch cost ~3-5 issue slots per iteration, so the peak loops unroll
// until those are under 1 % of the FMAs, and the half ladder keeps a loop at every K (1: not
// unrolled) where full unrolling made straight-line code that outgrew the instruction cache. Host
// compilers keep their own choice.
#define RIDGELINE_PRAGMA(x) _Pragma(#x)
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define RIDGELINE_DEVICE_UNROLL(n) RIDGELINE_PRAGMA(unroll n)
#else
#define RIDGELINE_DEVICE_UNROLL(n)
#endif
// clang's loop vectorizer also packs the lanes of neighbouring iterations on AMD GPUs
// (v_pk_fma_f32 over two SRAM words, then the results stored 4 bytes at a time):
// `RIDGELINE_HIP_NO_VECTORIZE` before a loop keeps each iteration's data in its own registers.
#if defined(__HIP_DEVICE_COMPILE__)
#define RIDGELINE_HIP_NO_VECTORIZE \
  RIDGELINE_PRAGMA(clang loop vectorize(disable) interleave(disable))
#else
#define RIDGELINE_HIP_NO_VECTORIZE
#endif

namespace ridgeline {

struct ClockStamp {
  std::uint64_t cycles = 0;  // SM clock cycles
  std::uint64_t wall = 0;    // wall clock ticks (wall_clock_tick_ns in backends/spaces.hpp)
};

// Zero on host spaces (they have nothing to measure this way).
KOKKOS_INLINE_FUNCTION ClockStamp device_clock() {
  ClockStamp s;
#if defined(__CUDA_ARCH__)
  s.cycles = static_cast<std::uint64_t>(clock64());
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
  s.wall = t;  // nanoseconds
#elif defined(__HIP_DEVICE_COMPILE__)
  s.cycles = static_cast<std::uint64_t>(clock64());
  s.wall = static_cast<std::uint64_t>(wall_clock64());  // the REALTIME counter's ticks
#endif
  return s;
}

// Median SM clock in MHz over the threads that stamped their work (begin, end pairs), with
// `tick_ns` nanoseconds per wall tick, or 0 when none ran long enough for the wall clock's
// resolution (~1 µs on some GPUs). The project's one median (core/stats.hpp): of an even count
// of stamps, the mean of the two middle clocks.
inline double median_clock_mhz(const std::vector<ClockStamp>& begin,
                               const std::vector<ClockStamp>& end, double tick_ns) {
  std::vector<double> mhz;
  for (std::size_t i = 0; i < begin.size() && i < end.size(); ++i) {
    const double ns = (double(end[i].wall) - double(begin[i].wall)) * tick_ns;
    const double cycles = double(end[i].cycles) - double(begin[i].cycles);
    if (ns >= 2000 && cycles > 0) mhz.push_back(1e3 * cycles / ns);
  }
  return median(std::move(mhz));
}

// Threads that stamp their work: one per 128 (one per thread block on GPUs), begin and end.
template <class Space>
using ClockStamps = Kokkos::View<ClockStamp* [2], typename Space::memory_space>;
inline constexpr std::size_t kClockStride = 128;
inline std::size_t clock_stamp_count(std::size_t items) {
  return (items + kClockStride - 1) / kClockStride;
}

// {"sm_clock_mhz", "clock_samples"} from a kernel's stamps, or null when there are none.
template <class Stamps>
nlohmann::json observed_clock(const Stamps& stamps, double tick_ns) {
  if (!stamps.extent(0)) return nullptr;
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), stamps);
  std::vector<ClockStamp> begin(h.extent(0)), end(h.extent(0));
  for (std::size_t i = 0; i < h.extent(0); ++i) {
    begin[i] = h(i, 0);
    end[i] = h(i, 1);
  }
  const double mhz = median_clock_mhz(begin, end, tick_ns);
  if (!(mhz > 0)) return nullptr;
  return {{"sm_clock_mhz", mhz}, {"clock_samples", h.extent(0)}};
}

}  // namespace ridgeline
