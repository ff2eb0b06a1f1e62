#pragma once
// Element layout per backend, fixed at compile time: host spaces give each work item one
// contiguous block (vectorisable, cache-friendly, first-touch local); device spaces interleave so
// that neighbouring threads touch neighbouring elements (coalesced).
#include <Kokkos_Core.hpp>
#include <nlohmann/json.hpp>

#include <cstddef>

#include "probes/vector_isa.hpp"
#include "spaces.hpp"

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
  static constexpr unsigned kBlockSize = kIsDeviceSpace<Space> ? 128 : 0;
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
  // A streaming kernel's chunk is its vector of independent accumulators.
  template <class T>
  static BlockLayout<Space> stream(std::size_t n, int concurrency) {
    return chunked(n, lanes<T>(), concurrency);
  }
};

}  // namespace ridgeline
