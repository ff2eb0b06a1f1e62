#pragma once
// The facts of the machine the planner sizes points by (plan.hpp), typed. machine_context()
// gathers them with the context the results file records, from the same readings, so the
// planner never looks keys up in that record.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "backends/host/cpu_info.hpp"

namespace ridgeline {

// What bounds the thread blocks one SM (CU) holds at once, as the GPU's runtime states it (or,
// for a machine sheet, backends/device_caches.hpp by architecture); 0 where not stated. The SRAM
// probe's launch is sized by it (plan_sizes.hpp, sram_launch): as many blocks per SM as its
// shared memory (LDS) holds.
struct DeviceResidency {
  int compute_units = 0;                              // SMs or CUs
  std::uint64_t shared_per_unit_bytes = 0;            // sharedMemPerMultiprocessor; HIP: LDS per CU
  std::uint64_t reserved_shared_per_block_bytes = 0;  // CUDA's driver reserve (1 KiB, sm_80 on)
  int max_threads_per_unit = 0;                       // maxThreadsPerMultiProcessor
  int max_blocks_per_unit = 0;                        // maxBlocksPerMultiProcessor (CUDA only)
};

// A GPU's capacities as its runtime (and backends/device_caches.hpp) states them; 0 where it
// states none.
struct DeviceCapacities {
  std::uint64_t memory_bytes = 0;
  std::uint64_t l1_per_unit_bytes = 0;  // one SM's (CU's) L1
  std::uint64_t l2_bytes = 0;
  // The last level where the description states one (HIP's: the L2, or an MI300's Infinity
  // Cache); 0: the L2 is the last level.
  std::uint64_t llc_bytes = 0;
  DeviceResidency residency;
};

struct SpaceFacts {
  std::string name;                        // Kokkos' name of the execution space
  std::optional<DeviceCapacities> device;  // device spaces: their GPU; hosts use the CPU's facts
  // The working set the run's memory plateau search (harness/sweep/memory_plateau_search.hpp)
  // puts the DRAM points at; 0 when none ran. Set after the context is gathered, before the plan.
  std::uint64_t dram_plateau_bytes = 0;
};

struct MachineFacts {
  std::vector<host::CacheLevel> cpu_caches;
  // The list lacks a level the CPU has (CPUID's legacy leaves give no L3 one can trust).
  bool cpu_caches_incomplete = false;
  std::uint64_t available_memory_bytes = 0;  // what this process may still take; 0 = unknown
  std::vector<SpaceFacts> spaces;
};

}  // namespace ridgeline
