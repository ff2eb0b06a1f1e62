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

// CPUID, for hosts whose sysfs lists no caches (some VMs): one answer per leaf and subleaf.
struct CpuidRegs {
  std::uint32_t eax = 0, ebx = 0, ecx = 0, edx = 0;
};
using Cpuid = CpuidRegs (*)(std::uint32_t leaf, std::uint32_t subleaf);
// The instruction on x86; all-zero answers elsewhere (no leaf, no caches).
CpuidRegs machine_cpuid(std::uint32_t leaf, std::uint32_t subleaf);

struct CpuidCaches {
  std::vector<CacheLevel> caches;
  std::string source;      // "cpuid leaf 4", "cpuid leaf 0x8000001d", "cpuid legacy AMD leaves"
  std::string incomplete;  // why a level the CPU has is missing; empty when none is
};
// The caches CPUID describes with their sharing (Intel's leaf 4, AMD's 0x8000001D), capped to
// `threads` (a VM's descriptors count the host's threads); else AMD's legacy per-core leaves
// 0x80000005/6, one copy per core (`cores`): L1 and L2 only, since their L3 comes without its
// sharing (a VM on a 2-vCPU slice was told 508 MiB, the host package's): `incomplete` then says so.
CpuidCaches cpuid_caches(Cpuid cpuid, int threads, int cores);

// The largest data or unified cache a thread sees (the last-level cache), 0 if unknown.
std::uint64_t last_level_cache_bytes(const std::vector<CacheLevel>& caches);

// The last-level cache of the whole machine: one copy's size times its instances (a 2-socket
// host or a multi-CCD EPYC holds many times what one thread sees). DRAM probes must exceed this.
std::uint64_t machine_last_level_cache_bytes(const std::vector<CacheLevel>& caches);

// Parses sysfs cache sizes such as "48K", "1024K", "32M".
std::uint64_t parse_cache_size(const std::string& text);

// The CPU as the context records it, and its caches typed for the planner: one reading, so the
// planner never reads the record back.
struct CpuDescription {
  // {"model", "cores", "threads", "caches": [...], "mhz", "governor", "flags_avx512"}; caches
  // from sysfs, else from `cpuid` with "caches_source" (and "caches_incomplete" where a level is
  // missing).
  nlohmann::json recorded;
  std::vector<CacheLevel> caches;  // those of `recorded`
  bool caches_incomplete = false;  // `recorded` has "caches_incomplete"
};
CpuDescription describe_cpu(const std::string& sysfs_cpu = "/sys/devices/system/cpu",
                            const std::string& cpuinfo = "/proc/cpuinfo",
                            Cpuid cpuid = machine_cpuid);

}  // namespace ridgeline::host
