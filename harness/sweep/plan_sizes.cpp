#include "harness/sweep/plan_sizes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "backends/host/cpu_info.hpp"
#include "core/input_error.hpp"
#include "results/probe_catalog.hpp"

namespace ridgeline {

std::size_t gemm_input_copies(std::uint64_t input_bytes, std::uint64_t llc_bytes) {
  if (input_bytes == 0 || llc_bytes == 0) return 1;
  const double need = kDramLlcMultiple * double(llc_bytes);
  return std::max<std::size_t>(1, std::size_t(std::ceil(need / double(input_bytes))));
}

SpaceLimits space_limits(const MachineFacts& machine, const std::string& space) {
  SpaceLimits l;
  for (const SpaceFacts& s : machine.spaces) {
    if (s.name != space || !s.device) continue;
    const DeviceCapacities& d = *s.device;
    l.llc_bytes = d.llc_bytes ? d.llc_bytes : d.l2_bytes;
    if (d.memory_bytes) l.memory_bytes = static_cast<std::uint64_t>(double(d.memory_bytes) * 0.9);
    for (const std::uint64_t capacity : {d.l1_per_unit_bytes, d.l2_bytes, d.llc_bytes})
      if (capacity > 0) l.dense_around.push_back(capacity);
    l.dram_plateau_bytes = s.dram_plateau_bytes;
    l.residency = d.residency;
    return l;
  }
  // Host DRAM working sets must exceed the whole machine's last-level cache, not one slice: on a
  // multi-CCD or multi-socket host the threads together hold every copy. A list that lacks a
  // level has no known last-level cache: DRAM working sets then come from the profile's minimum
  // alone.
  const std::vector<host::CacheLevel>& caches = machine.cpu_caches;
  l.llc_bytes = machine.cpu_caches_incomplete ? 0 : host::machine_last_level_cache_bytes(caches);
  for (const auto& c : caches)
    if (c.level == 1 && c.type == "data")
      l.l1d_per_thread = c.size_bytes / std::uint64_t(std::max(c.shared_by_threads, 1));
  if (machine.available_memory_bytes)
    l.memory_bytes = static_cast<std::uint64_t>(double(machine.available_memory_bytes) * 0.8);
  for (const SpaceFacts& s : machine.spaces)
    if (s.name == space) l.dram_plateau_bytes = s.dram_plateau_bytes;
  return l;
}

SramLaunch sram_launch(const DeviceResidency& d, bool hip, std::uint64_t scratch_bytes,
                       std::size_t team_size) {
  SramLaunch l;
  if (!d.compute_units || !d.shared_per_unit_bytes || !d.max_threads_per_unit || !team_size)
    return l;
  const std::uint64_t unit = hip ? 512 : 128;
  const std::uint64_t kokkos = (team_size + 2) * sizeof(double) + sizeof(std::int64_t);
  l.block_shared_bytes =
      (scratch_bytes + kokkos + unit - 1) / unit * unit + d.reserved_shared_per_block_bytes;
  const int by_shared = int(d.shared_per_unit_bytes / l.block_shared_bytes);
  const int by_threads = d.max_threads_per_unit / int(team_size);
  l.blocks_per_unit = by_shared;
  l.limited_by = "shared memory";
  if (by_threads < l.blocks_per_unit) {
    l.blocks_per_unit = by_threads;
    l.limited_by = "threads";
  }
  if (d.max_blocks_per_unit && d.max_blocks_per_unit < l.blocks_per_unit) {
    l.blocks_per_unit = d.max_blocks_per_unit;
    l.limited_by = "blocks per unit";
  }
  if (l.blocks_per_unit < 1) return SramLaunch{};  // a block larger than the unit: not sized
  l.teams = std::size_t(d.compute_units) * std::size_t(l.blocks_per_unit) * kSramWaves;
  l.shared_filled =
      double(l.blocks_per_unit) * double(l.block_shared_bytes) / double(d.shared_per_unit_bytes);
  return l;
}

std::string sram_refusal(std::uint64_t bytes, std::uint64_t limit) {
  return fmt::format(
      "{} bytes of scratch per team is above the {} Kokkos' level-0 team scratch gives on this "
      "space (shared memory per block without opting in, less Kokkos' reserve)",
      bytes, limit);
}

nlohmann::json SramLaunch::to_json() const {
  if (!teams)
    return {{"blocks_per_unit", nullptr},
            {"basis",
             "the device states no shared memory per SM/CU: two waves of the space's "
             "concurrency"}};
  return {{"blocks_per_unit", blocks_per_unit},
          {"limited_by", limited_by},
          {"block_shared_bytes", block_shared_bytes},
          {"shared_filled", shared_filled},
          {"waves", kSramWaves}};
}

double work_scale(const SweepProfile& profile, bool device) {
  return device ? profile.device_work_scale : 1.0;
}

std::uint64_t dram_working_set(const SweepProfile& profile, const SpaceLimits& limits,
                               bool device) {
  if (profile.working_set_bytes) return profile.working_set_bytes;
  // The measured plateau, where the run searched it (from dram_min_bytes, or the rule's size
  // when the LLC is known and trusted, upwards).
  std::uint64_t bytes = limits.dram_plateau_bytes
                            ? limits.dram_plateau_bytes
                            : std::max<std::uint64_t>(profile.dram_min_bytes,
                                                      std::uint64_t(profile.dram_llc_multiple *
                                                                    double(limits.llc_bytes)));
  // Device arrays 33/32 of the DRAM size, off powers of two (on the H200, copy, scale and the
  // ladder with n a power of two ran 4.00-4.04 TB/s where add and triad ran 4.19). Hosts keep
  // their lengths, and with them their points' names and baselines.
  if (device) {
    bytes = std::max(bytes, profile.device_dram_min_bytes);
    bytes += bytes / 32;
  }
  return bytes;
}

double plateau_first_set_bytes(const SweepProfile& profile, const SpaceLimits& limits,
                               bool device) {
  const bool trust_llc = limits.llc_bytes > 0 && (device || profile.plateau_use_llc);
  const double llc_rule = profile.dram_llc_multiple * double(limits.llc_bytes);
  return trust_llc ? std::max(llc_rule, double(profile.dram_min_bytes))
                   : double(profile.dram_min_bytes);
}

std::uint64_t expected_dram_plateau_bytes(const SweepProfile& profile, const SpaceLimits& limits,
                                          bool device) {
  if (!profile.plateau_search || profile.working_set_bytes) return 0;
  return std::uint64_t(2 * plateau_first_set_bytes(profile, limits, device));
}

std::size_t ladder_elements(const SweepProfile& profile, std::uint64_t dram_bytes,
                            std::size_t arrays, std::size_t dtype_bytes, int k, double scale) {
  const std::size_t dram_n = dram_bytes / (arrays * dtype_bytes);
  const std::size_t budget_n = std::size_t(scale * profile.fma_flops_per_call / (2.0 * k));
  const bool memory_bound = k < int(dtype_bytes);  // intensity K / sizeof(T) below 1
  return memory_bound ? dram_n : std::min(dram_n, std::max<std::size_t>(budget_n, 4096));
}

std::size_t half_ladder_elements(const SweepProfile& profile, std::uint64_t dram_bytes, int k,
                                 double scale) {
  const std::size_t dram_n = dram_bytes / (2 * 2);
  const std::size_t budget_n = std::size_t(scale * profile.fma_flops_per_call / (2.0 * k));
  return std::min(dram_n, std::max<std::size_t>(budget_n, 4096));
}

int cache_passes(const SweepProfile& profile, double scale, double ws) {
  const double passes = std::max(1.0, scale * profile.cache_bytes_per_call / ws);
  if (passes > kMaxCachePasses)
    throw InputError(profile.source, "cache.bytes_per_call",
                     fmt::format("asks for {:.3g} passes over a {:.0f}-byte working set "
                                 "(at most {:g}): raise cache.min_bytes or lower it",
                                 passes, ws, kMaxCachePasses));
  return int(passes);
}

}  // namespace ridgeline
