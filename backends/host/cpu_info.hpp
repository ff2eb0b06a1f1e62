#pragma once
// What the host CPU is: model, cores and threads, caches, clock and governor, read from Linux's
// /proc and /sys (no Kokkos needed). Missing facts are null, never guessed.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace ridgeline::host {

struct CacheLevel {
  int level = 0;
  std::string type;  // data | instruction | unified
  std::uint64_t size_bytes = 0;
  int shared_by_threads = 1;
  int instances = 1;  // copies of this cache in the machine (one per CCD, per socket, …)
};

// Caches of cpu0 as sysfs lists them (instruction caches included, type says which), each with
// the number of distinct copies across all CPUs.
std::vector<CacheLevel> cpu_caches(const std::string& sysfs_cpu = "/sys/devices/system/cpu");

// The largest data or unified cache a thread sees (the last-level cache), 0 if unknown.
std::uint64_t last_level_cache_bytes(const std::vector<CacheLevel>& caches);

// The last-level cache of the whole machine: one copy's size times its instances (a 2-socket
// host or a multi-CCD EPYC holds many times what one thread sees). DRAM probes must exceed this.
std::uint64_t machine_last_level_cache_bytes(const std::vector<CacheLevel>& caches);

// Parses sysfs cache sizes such as "48K", "1024K", "32M".
std::uint64_t parse_cache_size(const std::string& text);

// {"model", "cores", "threads", "caches": [...], "mhz", "governor", "flags_avx512"}.
nlohmann::json describe_cpu(const std::string& sysfs_cpu = "/sys/devices/system/cpu",
                            const std::string& cpuinfo = "/proc/cpuinfo");

}  // namespace ridgeline::host
