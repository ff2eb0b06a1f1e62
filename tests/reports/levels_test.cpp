#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "reports/levels/memory_levels.hpp"

namespace ridgeline {
namespace {

std::vector<double> noisy_steps(const std::vector<std::pair<int, double>>& steps, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> noise(0, 0.03);
  std::vector<double> y;
  for (const auto& [n, bw] : steps)
    for (int i = 0; i < n; ++i) y.push_back(std::log(bw) + noise(rng));
  return y;
}

// A cache_read sweep: `plateaus` of (working sets, byte/s), each working set its own point.
Results sweep(const std::vector<std::pair<std::vector<double>, double>>& plateaus,
              std::optional<DeviceInfo> device, int threads = 1) {
  Results r;
  r.spaces.push_back(
      {device ? "Cuda" : "OpenMP", device ? "device" : "host", threads, device, std::nullopt});
  for (const auto& [sets, bw] : plateaus)
    for (double ws : sets) {
      Point p;
      p.probe = "cache_read";
      p.family = "cache";
      p.space = r.spaces[0].name;
      p.dtype = "fp64";
      p.name = "cache_read/" + p.space + "/fp64/ws:" + std::to_string(ws);
      p.working_set_bytes = ws;
      p.bytes_per_s = bw;
      p.verified = true;
      r.points.push_back(p);
    }
  return r;
}

std::vector<std::string> names(const Results& r) {
  std::vector<std::string> out;
  for (const auto& sweep : detect_memory_levels(r, r.spaces[0].name, "fp64"))
    for (const auto& l : sweep.levels)
      out.push_back(l.name + (l.transition ? " (transition)" : ""));
  return out;
}

constexpr double KiB = 1024, MiB = 1024 * KiB, GiB = 1024 * MiB;

// The H200 sample's cache_read sweep (plateaus as measured, samples/h200): reads on
// every SM hit each SM's L1 up to 128 KiB; 256 KiB – 2 MiB step down as the set outgrows one
// SM's L1; 4 – 32 MiB is the L2; 64 – 128 MiB (one launch per pass above the L2) is slower
// than device memory itself.
const std::vector<std::pair<std::vector<double>, double>> kH200 = {
    {{4 * KiB, 8 * KiB, 16 * KiB, 32 * KiB, 64 * KiB, 128 * KiB}, 31.19e12},
    {{256 * KiB, 512 * KiB}, 20.75e12},
    {{1 * MiB, 2 * MiB}, 11.24e12},
    {{4 * MiB, 8 * MiB, 16 * MiB, 32 * MiB}, 8.689e12},
    {{64 * MiB, 128 * MiB}, 2.905e12},
    {{256 * MiB, 512 * MiB, 1 * GiB, 2 * GiB, 4 * GiB}, 4.337e12}};

TEST(MemoryLevels, AGpusLevelsAreNamedFromItsL1AndL2) {
  DeviceInfo h200;
  h200.name = "NVIDIA H200";
  h200.l2_bytes = 60 * MiB;
  h200.l1_per_unit_bytes = 256 * KiB;
  h200.units = 132;
  EXPECT_EQ(names(sweep(kH200, h200)),
            (std::vector<std::string>{"L1", "L1 → L2 (transition)", "L1 → L2 (transition)", "L2",
                                      "L2 → device memory (transition)", "device memory"}));
  const auto levels = detect_memory_levels(sweep(kH200, h200), "Cuda", "fp64").front().levels;
  EXPECT_NE(levels[4].note.find("slower than device memory after it"), std::string::npos)
      << levels[4].note;
  EXPECT_NEAR(levels[3].bandwidth, 8.689e12, 1e9);
}

// Before schema 1.3 a GPU's context records only its L2: what lies below it is not named L2.
TEST(MemoryLevels, WithoutTheL1OnlyTheL2sOwnPlateauIsTheL2) {
  DeviceInfo old;
  old.l2_bytes = 60 * MiB;
  EXPECT_EQ(names(sweep(kH200, old)),
            (std::vector<std::string>{"below L2 (transition)", "below L2 (transition)",
                                      "below L2 (transition)", "L2",
                                      "L2 → device memory (transition)", "device memory"}));
  const auto levels = detect_memory_levels(sweep(kH200, old), "Cuda", "fp64").front().levels;
  EXPECT_NE(levels[0].note.find("a smaller cache the context records no size for"),
            std::string::npos)
      << levels[0].note;
}

// MI300X: a 256 MiB MALL (Infinity Cache) behind the 4 MiB L2; DRAM-sized sets start beyond it.
TEST(MemoryLevels, AMallBehindTheL2IsALevel) {
  DeviceInfo mi300x;
  mi300x.l2_bytes = 4 * MiB;
  mi300x.llc_bytes = 256 * MiB;
  mi300x.l1_per_unit_bytes = 32 * KiB;
  EXPECT_EQ(names(sweep({{{4 * KiB, 8 * KiB, 16 * KiB}, 20e12},
                         {{1 * MiB, 2 * MiB, 4 * MiB}, 10e12},
                         {{32 * MiB, 64 * MiB, 128 * MiB}, 6e12},
                         {{1 * GiB, 2 * GiB, 4 * GiB}, 4e12}},
                        mi300x)),
            (std::vector<std::string>{"L1", "L2", "MALL", "device memory"}));
}

TEST(MemoryLevels, AHostsLevelsAreItsCachesTimesTheirCopies) {
  Results r = sweep({{{8 * KiB, 16 * KiB, 32 * KiB, 64 * KiB}, 400e9},
                     {{256 * KiB, 512 * KiB, 1 * MiB, 2 * MiB}, 200e9},
                     {{8 * MiB, 16 * MiB, 32 * MiB}, 100e9},
                     {{256 * MiB, 512 * MiB, 1 * GiB}, 40e9}},
                    std::nullopt, 2);
  r.caches = {
      {1, "data", 48 * KiB, 1, 2}, {2, "unified", 1 * MiB, 1, 2}, {3, "unified", 32 * MiB, 2, 1}};
  EXPECT_EQ(names(r), (std::vector<std::string>{"L1", "L2", "L3 (LLC)", "DRAM"}));
}

// CPUID's legacy AMD leaves give L1 and L2 only: beyond the L2 the sweep cannot tell an L3 of
// unknown size from DRAM, and the name says no more.
TEST(MemoryLevels, BeyondTheLastKnownCacheOfAnIncompleteListIsNotDram) {
  Results r = sweep({{{8 * KiB, 16 * KiB, 32 * KiB, 64 * KiB}, 400e9},
                     {{256 * KiB, 512 * KiB, 1 * MiB, 2 * MiB}, 150e9},
                     {{8 * MiB, 16 * MiB}, 90e9},
                     {{64 * MiB, 128 * MiB}, 40e9}},
                    std::nullopt, 2);
  r.caches = {{1, "data", 48 * KiB, 1, 2}, {2, "unified", 1 * MiB, 1, 2}};
  r.caches_incomplete = "L3 left out";
  const std::string above = "above L2 (a level without a size, or DRAM)";
  EXPECT_EQ(names(r), (std::vector<std::string>{"L1", "L2", above, above}));
  r.caches_incomplete.clear();  // the same list said to be whole: L2 is the LLC, then DRAM
  EXPECT_EQ(names(r),
            (std::vector<std::string>{"L1", "L2 (LLC)", "L2 (LLC) → DRAM (transition)", "DRAM"}));
}

// A plateau's interval comes from its points' repetitions and holds its location.
TEST(MemoryLevels, APlateauHasAnIntervalFromItsRepetitions) {
  Results r =
      sweep({{{8 * KiB, 16 * KiB, 32 * KiB}, 400e9}, {{1 * GiB, 2 * GiB}, 40e9}}, std::nullopt);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> jitter(0.97, 1.03);
  for (auto& p : r.points) {
    p.bytes = *p.bytes_per_s * 1e-3;  // 1 ms per call at the plateau's rate
    for (int i = 0; i < 9; ++i) p.samples.push_back(1e-3 * jitter(rng));
    p.median_s = 1e-3;
  }
  const auto levels = detect_memory_levels(r, "OpenMP", "fp64").front().levels;
  ASSERT_EQ(levels.size(), 2u);
  for (const auto& l : levels) {
    EXPECT_LT(l.bandwidth_ci.low, l.bandwidth_ci.high);
    EXPECT_TRUE(l.bandwidth_ci.contains(l.bandwidth)) << l.name;
    EXPECT_GT(l.bandwidth_ci.low, 0.9 * l.bandwidth);
    EXPECT_LT(l.bandwidth_ci.high, 1.1 * l.bandwidth);
  }
}

TEST(MemoryLevels, StepsAreFoundFromTheData) {
  const auto segs = find_plateaus(noisy_steps({{4, 400e9}, {5, 200e9}, {4, 120e9}, {5, 50e9}}, 1));
  ASSERT_EQ(segs.size(), 4u);
  EXPECT_EQ(segs[0].end, 4u);
  EXPECT_EQ(segs[1].end, 9u);
  EXPECT_EQ(segs[2].end, 13u);
}

TEST(MemoryLevels, NoiseAloneIsOneLevel) {
  EXPECT_EQ(find_plateaus(noisy_steps({{16, 50e9}}, 2)).size(), 1u);
}

}  // namespace
}  // namespace ridgeline
