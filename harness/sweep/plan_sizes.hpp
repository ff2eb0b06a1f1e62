#pragma once
// How the planner sizes a space's points, as plain functions of the profile and the machine's
// facts. The planner (plan.cpp) sizes its probes with them, and the device outline
// (plan_outline.hpp) sizes the points of a GPU space this build lacks with the same ones, so an
// estimate made on a CPU build counts and sizes what the GPU build will plan. No Kokkos.
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
};

// The limits of `space`: its GPU's capacities where `machine` describes one for it, else the
// host's caches and memory.
SpaceLimits space_limits(const MachineFacts& machine, const std::string& space);

// GPUs finish a call ~100x sooner than a CPU host: per-call budgets scale by this there.
double work_scale(const SweepProfile& profile, bool device);

// The DRAM working set of a space's bandwidth, ladder and library points, in bytes.
std::uint64_t dram_working_set(const SweepProfile& profile, const SpaceLimits& limits, bool device);

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
