#pragma once
// How the planner sizes a space's points, as plain functions of the profile and the machine's
// facts. The planner (plan.cpp) sizes its probes with them, and the device outline
// (plan_outline.hpp) sizes the points of a GPU space this build lacks with the same ones, so an
// estimate made on a CPU build counts and sizes what the GPU build will plan. No Kokkos.
#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "backends/vendor_gemm.hpp"
#include "harness/context/machine_facts.hpp"
#include "harness/sweep/sweep_profile.hpp"

namespace ridgeline {

struct SpaceLimits {
  std::uint64_t llc_bytes = 0;     // last-level cache: a GPU's L2, or every LLC copy of the host
  std::uint64_t memory_bytes = 0;  // what a point may allocate; 0 = unknown
  // Hosts: one thread's share of its L1 data cache (0 = unknown), where its scratch must stay.
  std::uint64_t l1d_per_thread = 0;
  // GPUs: the capacities the cache sweep samples densely around (L1 per SM/CU, L2, LLC).
  std::vector<std::uint64_t> dense_around;
  // Where the run's memory plateau search put the DRAM points (SpaceFacts); 0: not searched.
  std::uint64_t dram_plateau_bytes = 0;
  // GPUs: what bounds the blocks per SM (CU), for the SRAM launch (sram_launch below).
  DeviceResidency residency;
};

// The limits of `space`: its GPU's capacities where `machine` describes one for it, else the
// host's caches and memory.
SpaceLimits space_limits(const MachineFacts& machine, const std::string& space);

// GPUs finish a call ~100x sooner than a CPU host: per-call budgets scale by this there.
double work_scale(const SweepProfile& profile, bool device);

// The DRAM working set of a space's bandwidth, ladder and library points, in bytes: on the
// measured plateau where the run searched it, else max(dram_min_bytes, dram_llc_multiple × LLC).
std::uint64_t dram_working_set(const SweepProfile& profile, const SpaceLimits& limits, bool device);

// The memory plateau search's first working set: dram_llc_multiple × the LLC where the LLC is
// known and trusted (a GPU's always, a host's unless memory_plateau.use_llc is false), at least
// dram_min_bytes; else dram_min_bytes.
double plateau_first_set_bytes(const SweepProfile& profile, const SpaceLimits& limits, bool device);

// Where a plateau search that finds its first set on the plateau puts the DRAM points (one
// doubling inside it): the DRAM size a plan made without measuring (`ridgeline plan`'s outline of
// a GPU) expects, so its estimate sizes the points as a run will at the earliest. 0 where the
// profile does not search.
std::uint64_t expected_dram_plateau_bytes(const SweepProfile& profile, const SpaceLimits& limits,
                                          bool device);

// Elements of the FMA ladder's rung K (`arrays`: 1 in place, 2 for fma_xy; `dtype_bytes`:
// sizeof(T)). Rungs below 1 FLOP/byte always use the DRAM working set: they define B.
std::size_t ladder_elements(const SweepProfile& profile, std::uint64_t dram_bytes,
                            std::size_t arrays, std::size_t dtype_bytes, int k, double scale);

// Lanes of the packed half-precision ladder's rung K (two 2-byte arrays).
std::size_t half_ladder_elements(const SweepProfile& profile, std::uint64_t dram_bytes, int k,
                                 double scale);

// Passes over a cache working set of `ws` bytes per call; InputError (cache.bytes_per_call)
// past kMaxCachePasses.
int cache_passes(const SweepProfile& profile, double scale, double ws);
inline constexpr double kMaxCachePasses = 1e9;  // passes are an int; counts stay exact

// The launch of a device SRAM point: enough 128-thread teams that every SM (CU) holds as many
// blocks as its shared memory allows, for kSramWaves waves, so the scratch of every unit is busy
// and no wave runs part-full. One block's shared memory is its scratch (the words and the
// alignment pad), Kokkos' team shared memory ((team size + 2) doubles and an int64: Kokkos 4.6.99
// Kokkos_Cuda_Parallel_Team.hpp, m_shmem_begin; Kokkos 3.4 HIP the same), rounded up to the
// allocation unit (128 bytes on CUDA, the occupancy calculator's for sm_70 on; 512 on HIP, gfx9's
// LDS granularity of 128 dwords), plus the driver's reserve per block. Kokkos sets the kernel's
// shared-memory carveout for the blocks its occupancy wants (Kokkos_Cuda_KernelLaunch.hpp), so
// the SM's whole shared memory is available. Resident blocks: the fewest of what shared memory,
// threads and the block limit allow. Not registers: the kernel's count is the compiler's, which
// the planner does not see; where registers bind first, fewer blocks are resident than
// blocks_per_unit says (then an upper bound), and the launch's waves still fill every SM. `teams`
// 0: the device states no shared memory per unit (a file before 1.3), and the probe keeps its
// own rule (two waves of the space's concurrency).
struct SramLaunch {
  std::size_t teams = 0;
  int blocks_per_unit = 0;
  std::string limited_by;                // "shared memory", "threads", "blocks per unit"
  std::uint64_t block_shared_bytes = 0;  // one block's, as allocated
  double shared_filled = 0;              // blocks_per_unit × block_shared_bytes / per unit
  nlohmann::json to_json() const;        // recorded in the point's params ("launch")
};
inline constexpr std::size_t kSramWaves = 2;
SramLaunch sram_launch(const DeviceResidency& device, bool hip, std::uint64_t scratch_bytes,
                       std::size_t team_size);

// Why a device SRAM point of `bytes` per team is not run: above `limit`, the most scratch per team
// Kokkos' level 0 gives (shared memory per block without opting in, less its team reserve and
// the alignment pad).
std::string sram_refusal(std::uint64_t bytes, std::uint64_t limit);

// How many copies of a vendor GEMM's inputs (A and B together: `input_bytes`) a point rotates
// through, one per call, so that every call streams its operands from device memory and not from
// the last-level cache: the fewest whose bytes together reach kDramLlcMultiple × the LLC, the
// planner's DRAM rule (results/probe_catalog.hpp says why 4). A decode-shaped GEMM (m of 16–256
// rows against an 8192×8192 weight) is memory-bound, and its weights, reused call after call,
// would otherwise sit in the L2 (an fp8 weight of 64 MiB beside an H200's 60 MiB L2). 1 where
// one set already reaches it, or where the LLC is unknown (0).
std::size_t gemm_input_copies(std::uint64_t input_bytes, std::uint64_t llc_bytes);

// The square first (the points that existed before the sweep), then each m of the sweep that
// differs from it; m = n is the square, measured once.
inline std::vector<GemmShape> vendor_gemm_shapes(const SweepProfile& p) {
  const std::size_t n = p.vendor_gemm_n;
  std::vector<GemmShape> shapes = {{n, n, n}};
  for (const std::uint64_t m : p.vendor_gemm_m)
    if (m != n) shapes.push_back({std::size_t(m), n, n});
  return shapes;
}

}  // namespace ridgeline
