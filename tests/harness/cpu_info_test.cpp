// CPU facts come from sysfs; parse a fake sysfs tree so the test does not depend on the machine.
#include "host/cpu_info.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

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

}  // namespace
}  // namespace ridgeline
