// The bootstrap's own index draw: golden values for a seed, so that a standard library whose
// distributions map the engine differently cannot change the replicates (and the report's
// intervals) unnoticed. The values were computed outside C++, by a Python transcription of
// mt19937_64 (checked against the standard's 10000th output) and the same rejection rule.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "reports/roofline/uniform_index.hpp"

namespace ridgeline {
namespace {

std::vector<std::size_t> draws(std::uint64_t seed, std::size_t n, int count) {
  std::mt19937_64 rng(seed);
  std::vector<std::size_t> v;
  for (int i = 0; i < count; ++i) v.push_back(uniform_index(rng, n));
  return v;
}

TEST(UniformIndex, EngineIsTheStandardOne) {
  // [rand.predef]: the 10000th output of a default-constructed mt19937_64.
  std::mt19937_64 rng;
  rng.discard(9999);
  EXPECT_EQ(rng(), 9981545732273789042ULL);
}

TEST(UniformIndex, FirstDrawsForSeed42AreGolden) {
  EXPECT_EQ(draws(42, 10, 8), (std::vector<std::size_t>{6, 4, 0, 2, 1, 8, 6, 4}));
  EXPECT_EQ(draws(42, 7, 8), (std::vector<std::size_t>{6, 3, 5, 4, 6, 6, 4, 0}));
}

TEST(UniformIndex, OutputsBelowTheThresholdAreRedrawn) {
  // n = 2^63 + 1 rejects every output below 2^63 - 1: the fourth output of seed 42
  // (2513787319205155662) is one, so the fourth index comes from the fifth output.
  const std::size_t n = (std::size_t{1} << 63) + 1;
  EXPECT_EQ(draws(42, n, 4),
            (std::vector<std::size_t>{4706788815403344597ULL, 2564676540648719015ULL,
                                      4651257987612965641ULL, 7438999416573663572ULL}));
}

TEST(UniformIndex, OneChoiceIsAlwaysZero) {
  EXPECT_EQ(draws(7, 1, 5), std::vector<std::size_t>(5, 0));
}

TEST(UniformIndex, StaysInRange) {
  for (std::size_t i : draws(3, 3, 1000)) EXPECT_LT(i, 3u);
}

}  // namespace
}  // namespace ridgeline
