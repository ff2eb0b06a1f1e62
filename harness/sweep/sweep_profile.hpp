#pragma once
// A sweep profile (profiles/sweeps/*.json): which probes run, at which grades and sizes, and how
// long each point is timed. Validated on load; every error names the file and the field.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "results/probe_catalog.hpp"

namespace ridgeline {

// The execution spaces a profile may name (Kokkos' names of the spaces ridgeline has backends
// for), whether or not this build enables them.
inline const std::vector<std::string> kProfileSpaces = {"Serial", "OpenMP", "Cuda", "HIP"};

struct SweepProfile {
  std::string name;
  std::string source;  // file it came from
  std::string description;
  int repetitions = 5;
  // The sweep runs in rounds, every point once per round in a shuffled order, repetitions /
  // rounds repetitions per visit: a slow phase of a shared machine spreads over all points.
  int rounds = 1;
  double min_time_s = 0.01;
  double warmup_s = 0.05;
  std::vector<std::string> spaces;  // empty: every space in the build
  std::vector<std::string> dtypes;
  double dram_llc_multiple = kDramLlcMultiple;  // DRAM working sets are at least this × the LLC
  std::uint64_t dram_min_bytes = 0;             // and at least this
  std::uint64_t working_set_bytes = 0;  // if set: exactly this, LLC ignored (tests, tiny runs)
  // GPUs finish a call ~100x sooner than a CPU host: per-call FLOP and byte budgets are scaled by
  // this on device spaces so launch overhead stays negligible.
  double device_work_scale = 50;
  // GPU DRAM working sets are at least this: a GPU streams 4x its L2 in tens of microseconds,
  // where block ramp-up and drain weigh several percent; ~1 ms per call needs gigabytes.
  std::uint64_t device_dram_min_bytes = 0;

  // The memory plateau search (results/memory_plateau.hpp): before the plan, working sets grow by
  // octaves from the DRAM size above until every mix's bandwidth stops falling; the DRAM points
  // then run on the plateau. Off when the profile has no `memory_plateau` section (or fixes
  // working_set_bytes): the DRAM size is then the rule above, and the report says so.
  bool plateau_search = false;
  double plateau_tolerance = 0.05;  // two sets agree within this plus both calls' spreads
  double plateau_budget_s = 30;     // the search stops, unfinished, past this
  int plateau_calls = 5;            // timed calls per set (median, quartiles)
  double plateau_bytes_per_call = 4e8;
  std::uint64_t plateau_max_bytes = 64ull << 30;
  // false: start from dram_min_bytes as if the machine named no last-level cache (a VM that
  // names its host's whole L3; also how the unknown-cache path is tried on any machine).
  bool plateau_use_llc = true;

  std::vector<std::string> bandwidth_probes;  // copy scale add triad dot read fill

  bool fma = false;
  // fma: the in-place ladder (the reference: its memory-bound rungs define B); fma_xy: the
  // two-array ladder, a write-allocate ceiling on CPUs.
  std::vector<std::string> fma_probes;
  int fma_k_max = 0;
  double fma_flops_per_call = 0;

  bool peak = false;
  int peak_k = 0;
  double peak_flops_per_call = 0;

  std::vector<std::string> cache_probes;  // update (in place: B per level), read, triad
  std::vector<std::string> cache_dtypes;
  // The dtypes of the cache and SRAM sweeps on GPU spaces, where given (else `cache_dtypes`,
  // `sram_dtypes`): a read in fp64 is capped by its own adds on GPUs with little fp64 (sm_89: 2
  // DADD per clock per SM, 16 B/clk against L1's 128), so a pyramid there reads in fp32 while
  // hosts keep their points and baselines (scripts/check-gpu-codegen's arithmetic ceiling).
  std::vector<std::string> cache_device_dtypes;
  std::uint64_t cache_min_bytes = 0;
  int cache_steps_per_octave = 1;
  double cache_bytes_per_call = 0;

  // On-chip scratch (probes/sram_probe.hpp): read, update; per-team scratch sizes asked for, each
  // clipped to what the space allows (Kokkos' level-0 limit; on hosts also the L1d per thread).
  std::vector<std::string> sram_probes;
  std::vector<std::string> sram_dtypes;
  std::vector<std::string> sram_device_dtypes;
  std::vector<std::uint64_t> sram_bytes;
  int sram_passes = 0;

  const std::vector<std::string>& cache_dtypes_on(bool device) const {
    return device && !cache_device_dtypes.empty() ? cache_device_dtypes : cache_dtypes;
  }
  const std::vector<std::string>& sram_dtypes_on(bool device) const {
    return device && !sram_device_dtypes.empty() ? sram_device_dtypes : sram_dtypes;
  }

  std::vector<std::string> library_probes;  // gemm axpby lib_dot deep_copy vendor_gemm
  std::uint64_t gemm_n = 0;
  std::uint64_t vendor_gemm_n = 0;  // n of the vendor library's gemm on device spaces
  // The skinny sweep: m×n×n GEMMs (n = vendor_gemm_n) beside the square one, as a prefill of m
  // tokens or a decode batch of m meets an n×n weight; empty: the square only.
  std::vector<std::uint64_t> vendor_gemm_m;

  nlohmann::json to_json() const;  // recorded in the results file
};

// `name_or_path`: quick | nightly | full | cache (looked up in profiles/sweeps) or a file path.
SweepProfile load_sweep_profile(const std::string& name_or_path);
SweepProfile parse_sweep_profile(const nlohmann::json& j, const std::string& source);

std::string sweep_profiles_dir();

// Name and description of every profile in sweep_profiles_dir(), sorted by name (`list`).
std::vector<std::pair<std::string, std::string>> list_sweep_profiles();

}  // namespace ridgeline
