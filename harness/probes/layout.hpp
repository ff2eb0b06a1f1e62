#pragma once
// Element layout per backend, fixed at compile time: host spaces give each work item one
// contiguous block (vectorisable, cache-friendly, first-touch local); device spaces interleave so
// that neighbouring threads touch neighbouring elements (coalesced). The device stream kernels
// use GridStride below instead of BlockLayout.
#include <Kokkos_Core.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "backends/spaces.hpp"
#include "harness/probes/device_clock.hpp"
#include "harness/probes/stream_kernels.hpp"
#include "harness/probes/vector_isa.hpp"

namespace ridgeline {

template <class Space>
struct BlockLayout {
  std::size_t items = 0;     // parallel work items
  std::size_t per_item = 0;  // elements each item owns

  KOKKOS_INLINE_FUNCTION std::size_t index(std::size_t item, std::size_t j) const {
    if constexpr (kIsDeviceSpace<Space>) {
      return j * items + item;
    } else {
      return item * per_item + j;
    }
  }
  std::size_t elements() const { return items * per_item; }
};

// The device streams' layout: R resident threads walk the array together in 16-byte vectors of V
// elements, vector (c·R + t) of chunk c to thread t, so at any moment the grid streams one
// contiguous window of each array (BlockLayout's interleave streamed each array as W regions
// n/W apart: power-of-two apart for n a power of two, those kernels ran 4.00-4.04 TB/s on the
// H200 where the others ran 4.19). U vectors per thread are in flight per round.
//
// A pass visits `span` slots from vector `offset`: thread t takes slots t, t + R, t + 2R, …;
// slot s is vector (s + offset) mod vectors(). span = vectors() visits every vector once; a
// multiple of vectors() visits each that many times (replicated reads of a small cache set). The
// `tail()` elements past the last whole vector go one to each of the first threads (for_tail). A
// pure function of its fields: tests/harness/grid_stride_test.cpp runs it on the host.
template <std::size_t V, std::size_t U>
struct GridStride {
  static constexpr std::size_t kVector = V;      // elements per 16-byte access
  static constexpr std::size_t kRound = U;       // vectors in flight per thread and array
  static constexpr std::size_t kReduceRows = 2;  // reductions: accumulator vectors per thread
  std::size_t n = 0;                             // elements
  std::size_t threads = 1;                       // R

  KOKKOS_INLINE_FUNCTION std::size_t vectors() const { return n / V; }
  KOKKOS_INLINE_FUNCTION std::size_t tail() const { return n % V; }

  // `round(first)`: U vectors, first[u] the index of the first element of each; `one(first)`:
  // the thread's slots after its last whole round, one vector each.
  //
  // Slot s's vector (s + offset) mod nv is a 32-bit counter that steps by R mod nv, or by that
  // less nv where it would pass nv: one compare, one select and one add per vector, no division.
  // A division per vector (x mod nv wherever x >= 2·nv: every replicated read of a set smaller
  // than a round of the grid, i.e. the whole on-chip pyramid) put 264 integer instructions in
  // sm_89's read loop of 8 vectors, an int32 ceiling of 31 B/clk per SM, a quarter of L1's 128;
  // now 37 (selecting the result rather than the step took 46). scripts/check-gpu-codegen holds
  // it to its arithmetic ceiling. 32 bits hold any vector count DeviceSweep accepts
  // (kMaxGridVectors: the counter plus a step stays below 2^32).
  //
  // `step`: R mod nv, computed once on the host (DeviceSweep::step), not per pass and thread.
  //
  // `Once`: for dot, which reads every vector once per pass (a bandwidth probe only: no cache
  // probe reduces two arrays, and StreamProbe marks a replicated dot unfit), so span <= nv and
  // slot s's vector is s + offset, less nv where that passes nv: a 32-bit add, compare and
  // select per vector from the slot itself, no counter carried from slot to slot and no
  // division. Its two-array rounds sit at the edge of 64 registers: with the counter they
  // spilled (3 local-memory accesses on sm_90 with LaunchBounds<256, 4> and the rounds unrolled
  // twice, 6 to 10 AGPRs on gfx908 under Kokkos 3.4's launch); with a division per vector (the
  // general x mod nv) the division's code sat in the loop, an issue ceiling on gfx90a of 13.0
  // B/clk per CU, 1.48 x the MI250X's DRAM rate per CU where scripts/check-gpu-codegen asks 1.5.
  template <bool Once = false, class Round, class One>
  KOKKOS_INLINE_FUNCTION void pass(std::size_t t, std::size_t span, std::size_t offset,
                                   std::size_t step, Round&& round, One&& one) const {
    const std::size_t nv = vectors();
    if (nv == 0) return;
    const std::size_t rounds = span / (U * threads);  // rounds in which every thread has U slots
    if constexpr (Once) {
      const std::uint32_t n32 = static_cast<std::uint32_t>(nv);
      const std::uint32_t r32 = static_cast<std::uint32_t>(threads);
      const std::uint32_t o32 = static_cast<std::uint32_t>(offset);
      // s + offset < 2·nv <= 2^32: s < span <= nv and offset < nv.
      const auto vector = [&](std::uint32_t s) {
        const std::uint32_t x = s + o32;
        return std::size_t(x >= n32 ? x - n32 : x) * V;
      };
      std::uint32_t s = static_cast<std::uint32_t>(t);
      // One round per iteration: nvcc unrolled two, and the two arrays' 8 vectors in flight
      // twice over spilled fp32's dot on sm_90 (8 local-memory accesses at 64 registers).
      RIDGELINE_DEVICE_UNROLL(1)
      for (std::size_t r = 0; r < rounds; ++r) {
        std::size_t first[U];
        for (std::size_t u = 0; u < U; ++u, s += r32) first[u] = vector(s);
        round(first);
      }
      for (; s < span; s += r32) one(vector(s));
      return;
    }
    const std::uint32_t forward = static_cast<std::uint32_t>(step);
    const std::uint32_t wraps_from = static_cast<std::uint32_t>(nv) - forward;  // passes nv
    const std::uint32_t back = forward - static_cast<std::uint32_t>(nv);        // mod 2^32
    std::uint32_t v = static_cast<std::uint32_t>((t + offset) % nv);
    const auto next = [&]() { v += v >= wraps_from ? back : forward; };
    for (std::size_t r = 0; r < rounds; ++r) {
      std::size_t first[U];
      for (std::size_t u = 0; u < U; ++u, next()) first[u] = std::size_t(v) * V;
      round(first);
    }
    // The slot index only here: counted through the rounds it took two more VGPRs, and
    // update_xy fp64 on gfx908 spilled 2 into AGPRs.
    for (std::size_t s = t + rounds * U * threads; s < span; s += threads, next())
      one(std::size_t(v) * V);
  }
  // `f(i)` for the tail elements of thread t: t, t + R, … past the last whole vector (one or none
  // whenever R >= V).
  template <class F>
  KOKKOS_INLINE_FUNCTION void for_tail(std::size_t t, F&& f) const {
    for (std::size_t i = vectors() * V + t; i < n; i += threads) f(i);
  }
};

// V elements of T as one 16-byte access (LDG.E.128 / STG.E.128 on CUDA, global_load_dwordx4 on
// HIP): element offsets that are multiples of V keep it aligned, View data is at least 64-byte
// aligned.
template <class T>
struct alignas(16) Vector16 {
  static constexpr std::size_t kLanes = 16 / sizeof(T);
  static_assert(kLanes * sizeof(T) == 16, "a 16-byte vector holds whole elements");
  T lane[kLanes];
};

// Launch shape per backend: how many elements one work item owns (`granule`, a multiple of the
// inner vector width) and how many items a host space uses.
//
// GPU thread blocks: 128 threads (kBlockSize), passed to Kokkos as LaunchBounds. Kokkos' block
// size deduction walks down from the bound and keeps the smallest size >= 128 that reaches the
// highest occupancy, so with the bound at 128 it launches exactly 128 whenever 128-thread blocks
// reach full occupancy: 16 blocks = 2048 threads per SM on sm_90 (needs <= 32 registers), 12 blocks
// = 1536 threads on sm_89 (<= 40 registers); ptxas gives the fma/peak kernels 26-32 on sm_90
// with no spills (backends/README.md). Why
// 128 and not Kokkos' unbounded choice: it is the size Kokkos would pick anyway at full occupancy,
// written down so it is recorded per point and does not change silently with register counts;
// small blocks also spread a probe's work over all SMs for the smaller ladder rungs.
template <class Space>
struct LaunchShape {
  static constexpr unsigned kBlockSize = kIsDeviceSpace<Space> ? unsigned(kDeviceBlockSize) : 0;
  // The policy of one work item per index, with the block bound on device spaces.
  using Policy =
      Kokkos::RangePolicy<Space, Kokkos::LaunchBounds<kBlockSize, kIsDeviceSpace<Space> ? 1 : 0>>;
  // Launch facts recorded in a point's params (block_size null on host spaces).
  static nlohmann::json block_size_json() {
    return kBlockSize ? nlohmann::json(kBlockSize) : nlohmann::json(nullptr);
  }
  // The vector ISA the kernels were compiled for (probes/vector_isa.hpp).
  static constexpr VectorIsa kIsa = kIsDeviceSpace<Space> ? kDeviceIsa : kHostIsa;
  // Recorded in a point's params: which ISA chose its chain and accumulator counts.
  static nlohmann::json isa_json() {
    return {{"isa", kIsa.name},
            {"vector_bytes",
             kIsa.vector_bytes ? nlohmann::json(kIsa.vector_bytes) : nlohmann::json(nullptr)}};
  }
  // Independent accumulators in flight: kIsa.accumulator_vectors registers' worth on hosts (8 zmm
  // on AVX-512, 8 ymm on AVX2); 8 per thread on GPUs (with thousands of threads per SM the rest of
  // the latency is hidden by warps).
  template <class T>
  static constexpr std::size_t lanes() {
    return kIsDeviceSpace<Space> ? kDeviceChains
                                 : kHostIsa.accumulator_vectors * kHostIsa.vector_bytes / sizeof(T);
  }
  // Work items that own whole chunks of `chunk` elements, n rounded down to whole chunks: one
  // chunk per GPU thread (coalesced), or `items_per_thread` contiguous runs per host thread.
  static BlockLayout<Space> chunked(std::size_t n, std::size_t chunk, int concurrency,
                                    std::size_t items_per_thread = 1) {
    BlockLayout<Space> l;
    if constexpr (kIsDeviceSpace<Space>) {
      l.per_item = chunk;
      l.items = n / chunk;
    } else {
      l.items = static_cast<std::size_t>(concurrency) * items_per_thread;
      l.per_item = n / (l.items * chunk) * chunk;
    }
    return l;
  }
  // Device streams: threads resident at once, occupancy-sized: half the space's concurrency (1024
  // threads per SM on sm_90) with blocks bounded to 8 per SM (LaunchBounds<128, 8>: up to 64
  // registers, so a kernel's whole grid is resident and no partial second wave trails it), each
  // with U = 4 vectors (64 bytes) per array in flight: 64 KiB per SM and array, as the fp32 dot
  // that reached 4.42 TB/s on the H200.
  static constexpr std::size_t kStreamRound = 4;
  // The second launch bound: CUDA reads it as blocks per SM, HIP as waves per SIMD (4 SIMDs per
  // CU): 4 waves per SIMD are the same 1024 threads per CU, with up to 128 VGPRs (8 capped them at
  // 64 and spilled add/triad fp64 on gfx90a).
#if defined(KOKKOS_ENABLE_HIP)
  static constexpr unsigned kStreamMinBlocks = 4;
#else
  static constexpr unsigned kStreamMinBlocks = 8;
#endif
  using StreamPolicy =
      Kokkos::RangePolicy<Space,
                          Kokkos::LaunchBounds<kIsDeviceSpace<Space> ? 128 : 0,
                                               kIsDeviceSpace<Space> ? kStreamMinBlocks : 0>>;
  static std::size_t resident_threads(long long concurrency) {
    if constexpr (kIsDeviceSpace<Space>) return device_resident_threads(concurrency);
    return static_cast<std::size_t>(std::max(concurrency, 1LL));
  }
  template <class T>
  using Grid = GridStride<Vector16<T>::kLanes, kStreamRound>;

  // A streaming kernel's chunk is its vector of independent accumulators.
  template <class T>
  static BlockLayout<Space> stream(std::size_t n, int concurrency) {
    return chunked(n, lanes<T>(), concurrency);
  }
};

}  // namespace ridgeline
