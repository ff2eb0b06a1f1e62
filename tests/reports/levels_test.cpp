#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "levels/memory_levels.hpp"

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
