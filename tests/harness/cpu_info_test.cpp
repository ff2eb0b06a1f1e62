// CPU facts come from sysfs; parse a fake sysfs tree so the test does not depend on the machine.
#include "backends/host/cpu_info.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <utility>

namespace ridgeline {
namespace {

namespace fs = std::filesystem;

TEST(CpuInfo, ParsesSysfsCaches) {
  const fs::path root =
      fs::temp_directory_path() / ("ridgeline-sysfs-" + std::to_string(::getpid()));
  auto cache = [&](int idx, const char* level, const char* type, const char* size,
                   const char* shared) {
    const fs::path d = root / "cpu0" / "cache" / ("index" + std::to_string(idx));
    fs::create_directories(d);
    std::ofstream(d / "level") << level << "\n";
    std::ofstream(d / "type") << type << "\n";
    std::ofstream(d / "size") << size << "\n";
    std::ofstream(d / "shared_cpu_list") << shared << "\n";
  };
  cache(0, "1", "Data", "48K", "0,8");
  cache(1, "1", "Instruction", "32K", "0,8");
  cache(2, "2", "Unified", "1024K", "0,8");
  cache(3, "3", "Unified", "32768K", "0-7,8-15");
  const auto caches = host::cpu_caches(root.string());
  ASSERT_EQ(caches.size(), 4u);
  EXPECT_EQ(caches[0].size_bytes, 48u * 1024);
  EXPECT_EQ(caches[0].shared_by_threads, 2);
  EXPECT_EQ(caches[3].shared_by_threads, 16);
  EXPECT_EQ(host::last_level_cache_bytes(caches), 32u << 20);
  EXPECT_EQ(host::parse_cache_size("2M"), 2u << 20);
  EXPECT_EQ(host::parse_cache_size("garbage"), 0u);
  fs::remove_all(root);
}

// Two CCDs: CPUs 0-7 share one L3, 8-15 another. The DRAM size must cover both.
TEST(CpuInfo, CountsEveryCopyOfTheLastLevelCache) {
  const fs::path root =
      fs::temp_directory_path() / ("ridgeline-sysfs-ccd-" + std::to_string(::getpid()));
  for (int cpu = 0; cpu < 16; ++cpu) {
    auto cache = [&](int idx, const char* level, const char* size, const std::string& shared) {
      const fs::path d =
          root / ("cpu" + std::to_string(cpu)) / "cache" / ("index" + std::to_string(idx));
      fs::create_directories(d);
      std::ofstream(d / "level") << level << "\n";
      std::ofstream(d / "type") << "Unified\n";
      std::ofstream(d / "size") << size << "\n";
      std::ofstream(d / "shared_cpu_list") << shared << "\n";
    };
    cache(2, "2", "1024K", std::to_string(cpu));
    cache(3, "3", "32768K", cpu < 8 ? "0-7" : "8-15");
  }
  fs::create_directories(root / "cpufreq");  // not a CPU: ignored
  const auto caches = host::cpu_caches(root.string());
  ASSERT_EQ(caches.size(), 2u);
  EXPECT_EQ(caches[0].instances, 16);
  EXPECT_EQ(caches[1].instances, 2);
  EXPECT_EQ(host::last_level_cache_bytes(caches), 32u << 20);
  EXPECT_EQ(host::machine_last_level_cache_bytes(caches), 64u << 20);
  fs::remove_all(root);
}

// CPUID answers recorded from machines, replayed: (leaf, subleaf) -> registers; absent is zero.
using CpuidTable = std::map<std::pair<std::uint32_t, std::uint32_t>, host::CpuidRegs>;
CpuidTable* g_table = nullptr;
host::CpuidRegs replay(std::uint32_t leaf, std::uint32_t subleaf) {
  const auto it = g_table->find({leaf, subleaf});
  return it == g_table->end() ? host::CpuidRegs{} : it->second;
}

// The 2-vCPU AMD EPYC (Zen 5) development VM: no topology leaf, sysfs lists no caches; the
// legacy leaves as it answered them (2026-12-02).
CpuidTable zen5_vm() {
  return {{{0, 0}, {0xd, 0x68747541, 0x444d4163, 0x69746e65}},
          {{0x80000000, 0}, {0x80000021, 0x68747541, 0x444d4163, 0x69746e65}},
          {{0x80000001, 0}, {0x00b00f21, 0x40000000, 0x440001f1, 0x25d3fbff}},
          {{0x80000005, 0}, {0xff60ff40, 0xff60ff40, 0x300c0140, 0x20080140}},
          {{0x80000006, 0}, {0x40802040, 0x60804040, 0x04006140, 0x0fe09140}}};
}

TEST(CpuInfo, AmdLegacyLeavesGiveL1AndL2AndSayWhyNotL3) {
  CpuidTable t = zen5_vm();
  g_table = &t;
  const auto c = host::cpuid_caches(replay, 2, 2);
  EXPECT_EQ(c.source, "cpuid legacy AMD leaves");
  ASSERT_EQ(c.caches.size(), 3u);
  EXPECT_EQ(c.caches[0].level, 1);
  EXPECT_EQ(c.caches[0].type, "data");
  EXPECT_EQ(c.caches[0].size_bytes, 48u << 10);
  EXPECT_EQ(c.caches[1].type, "instruction");
  EXPECT_EQ(c.caches[1].size_bytes, 32u << 10);
  EXPECT_EQ(c.caches[2].level, 2);
  EXPECT_EQ(c.caches[2].size_bytes, 1u << 20);
  for (const auto& cache : c.caches) {
    EXPECT_EQ(cache.shared_by_threads, 1);  // one per core, 2 cores
    EXPECT_EQ(cache.instances, 2);
  }
  EXPECT_NE(c.incomplete.find("508 MiB"), std::string::npos) << c.incomplete;
}

TEST(CpuInfo, DeterministicLeavesGiveEveryLevelWithItsSharing) {
  // Intel leaf 4: EAX type | level << 5 | (sharing - 1) << 14; EBX (ways - 1) << 22 | (line - 1);
  // ECX sets - 1. L1d 48 KiB (12 ways x 64 sets x 64 B), L2 2 MiB (16 x 2048 x 64) per core of
  // 2 threads, L3 30 MiB (15 x 32768 x 64) shared by 128 IDs on a host with 4 threads.
  auto reg = [](std::uint32_t type, std::uint32_t level, std::uint32_t sharing, std::uint32_t ways,
                std::uint32_t sets) {
    return host::CpuidRegs{type | level << 5 | (sharing - 1) << 14, (ways - 1) << 22 | 63, sets - 1,
                           0};
  };
  CpuidTable t = {{{0, 0}, {0x16, 0x756e6547, 0x6c65746e, 0x49656e69}},
                  {{4, 0}, reg(1, 1, 2, 12, 64)},
                  {{4, 1}, reg(3, 2, 2, 16, 2048)},
                  {{4, 2}, reg(3, 3, 128, 15, 32768)}};
  g_table = &t;
  const auto c = host::cpuid_caches(replay, 4, 2);
  EXPECT_EQ(c.source, "cpuid leaf 4");
  EXPECT_TRUE(c.incomplete.empty());
  ASSERT_EQ(c.caches.size(), 3u);
  EXPECT_EQ(c.caches[0].size_bytes, 48u << 10);
  EXPECT_EQ(c.caches[0].shared_by_threads, 2);
  EXPECT_EQ(c.caches[0].instances, 2);
  EXPECT_EQ(c.caches[2].size_bytes, 30u << 20);
  EXPECT_EQ(c.caches[2].shared_by_threads, 4);  // capped to the threads there are
  EXPECT_EQ(c.caches[2].instances, 1);
  EXPECT_EQ(host::machine_last_level_cache_bytes(c.caches), 30u << 20);
  // The same layout on AMD's topology leaf, once the CPU says it has one.
  CpuidTable amd = zen5_vm();
  amd[{0x80000001, 0}].ecx |= 1u << 22;
  amd[{0x8000001d, 0}] = reg(1, 1, 2, 12, 64);
  amd[{0x8000001d, 1}] = reg(3, 3, 16, 16, 32768);
  g_table = &amd;
  const auto a = host::cpuid_caches(replay, 2, 2);
  EXPECT_EQ(a.source, "cpuid leaf 0x8000001d");
  ASSERT_EQ(a.caches.size(), 2u);
  EXPECT_EQ(a.caches[1].size_bytes, 32u << 20);
  EXPECT_TRUE(a.incomplete.empty());
}

TEST(CpuInfo, SysfsWinsAndCpuidFillsInWhereItListsNothing) {
  const fs::path root =
      fs::temp_directory_path() / ("ridgeline-sysfs-empty-" + std::to_string(::getpid()));
  fs::create_directories(root / "cpu0");
  const fs::path cpuinfo = root / "cpuinfo";
  std::ofstream(cpuinfo) << "processor\t: 0\nphysical id\t: 0\ncore id\t: 0\n"
                         << "processor\t: 1\nphysical id\t: 0\ncore id\t: 1\n";
  CpuidTable t = zen5_vm();
  g_table = &t;
  const host::CpuDescription described =
      host::describe_cpu(root.string(), cpuinfo.string(), replay);
  const auto& j = described.recorded;
  ASSERT_EQ(j["caches"].size(), 3u);
  EXPECT_EQ(j["caches_source"], "cpuid legacy AMD leaves");
  EXPECT_TRUE(j.contains("caches_incomplete"));
  // The planner's typed copy of the same reading.
  EXPECT_EQ(described.caches.size(), 3u);
  EXPECT_TRUE(described.caches_incomplete);
  // An unknown vendor's CPUID gives nothing: no caches, no source.
  CpuidTable other = {{{0, 0}, {0xd, 1, 2, 3}}};
  g_table = &other;
  const auto k = host::describe_cpu(root.string(), cpuinfo.string(), replay).recorded;
  EXPECT_TRUE(k["caches"].empty());
  EXPECT_FALSE(k.contains("caches_source"));
  fs::remove_all(root);
}

// A VM says so in its flags; a cpuinfo without a flags line (other architectures) does not tell.
TEST(CpuInfo, TheHypervisorFlagIsRecordedAndUnknownWithoutFlags) {
  const fs::path root = fs::temp_directory_path() / ("ridgeline-hv-" + std::to_string(::getpid()));
  fs::create_directories(root / "cpu0");
  const fs::path cpuinfo = root / "cpuinfo";
  const auto recorded = [&](const std::string& flags) {
    std::ofstream(cpuinfo) << "processor\t: 0\n" << flags;
    return host::describe_cpu(root.string(), cpuinfo.string(), replay).recorded;
  };
  CpuidTable other = {{{0, 0}, {0xd, 1, 2, 3}}};
  g_table = &other;
  EXPECT_EQ(recorded("flags\t\t: fpu avx2 hypervisor lahf_lm\n")["hypervisor"], true);
  EXPECT_EQ(recorded("flags\t\t: fpu avx2 lahf_lm\n")["hypervisor"], false);
  EXPECT_EQ(recorded("flags\t\t: fpu xhypervisorx\n")["hypervisor"], false);  // a word, not a part
  EXPECT_TRUE(recorded("Features\t: fp asimd\n")["hypervisor"].is_null());
  fs::remove_all(root);
}

}  // namespace
}  // namespace ridgeline
