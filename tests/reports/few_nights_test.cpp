// The spread of a few nights, counted as known as it is (reports/compare/few_nights.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <random>
#include <vector>

#include "core/stats.hpp"
#include "reports/compare/few_nights.hpp"

namespace ridgeline {
namespace {

// Histories of n normal nights and one night more, drawn here with another generator than the
// table's: the share of nights whose factor, counted in the history's spread, stays below q.
double share_below(std::size_t n, double q, int draws) {
  std::mt19937 gen(20261206);
  std::normal_distribution<double> normal(0, 0.02);
  int below = 0;
  for (int d = 0; d < draws; ++d) {
    std::vector<double> logs(n), nights(n);
    for (std::size_t i = 0; i < n; ++i) nights[i] = std::exp(logs[i] = normal(gen));
    const double t = (normal(gen) - median(logs)) / robust_log_spread(nights);
    below += t < q;
  }
  return double(below) / draws;
}

// The promise: a change at the printed figure is caught in 95 % of nights, with 3 to 7 nights of
// history; the normal z's 1.645 spreads fall well short of it there.
TEST(FewNights, TheQuantileHoldsInItsShareOfIndependentlyDrawnNights) {
  for (std::size_t n : {3, 5, 7}) {
    const double q = few_nights_quantile(n, 0.95);
    EXPECT_NEAR(share_below(n, q, 20000), 0.95, 0.006) << n << " nights: " << q;
    EXPECT_LT(share_below(n, 1.645, 20000), 0.91) << n << " nights";
  }
  // Held to re-measures: each run at 95 %^(1/3) (scripts/nightly's two).
  const double p3 = std::pow(0.95, 1.0 / 3);
  EXPECT_NEAR(share_below(7, few_nights_quantile(7, p3), 20000), p3, 0.004);
}

// Fewer nights know their spread less well; many come close to a normal z for a median of n.
TEST(FewNights, FewerNightsPromiseLessAndManyComeNearTheNormalFigure) {
  EXPECT_NEAR(few_nights_quantile(7, 0.95), 2.6, 0.1);
  EXPECT_NEAR(few_nights_quantile(3, 0.95), 7.1, 0.4);
  // Two more nights always know more (one more may not: an even count's median and MAD are
  // means of two middle values).
  for (std::size_t n = 3; n <= 16; ++n)
    EXPECT_LT(few_nights_quantile(n + 2, 0.95), few_nights_quantile(n, 0.95)) << n;
  // 64 nights: a normal z for one night against a median (1.645 × √(1 + π/128)) widened a little
  // by the MAD's own error.
  EXPECT_GT(few_nights_quantile(64, 0.95), 1.645 * std::sqrt(1 + M_PI / 128));
  EXPECT_LT(few_nights_quantile(64, 0.95), 1.9);
  EXPECT_EQ(few_nights_quantile(500, 0.95), few_nights_quantile(64, 0.95));
  // Higher shares reach further; the same call gives the same figure.
  EXPECT_GT(few_nights_quantile(7, 0.983), few_nights_quantile(7, 0.95));
  EXPECT_EQ(few_nights_quantile(7, 0.95), few_nights_quantile(7, 0.95));
}

}  // namespace
}  // namespace ridgeline
