// The spread of a few nights, counted as known as it is (reports/compare/few_nights.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <random>
#include <vector>

#include "core/stats.hpp"
#include "reports/compare/few_nights.hpp"
#include "reports/compare/gate_rule.hpp"

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

// The p-value a factor is tested with: the share of |T_n| at or beyond tonight's spreads, the
// quantile's inverse; few nights need far more spreads than a normal z for the same p.
TEST(FewNights, ThePValueIsTheQuantilesInverse) {
  for (std::size_t n : {3, 5, 7}) {
    EXPECT_NEAR(few_nights_p_value(n, few_nights_quantile(n, 0.995)), 0.01, 0.001) << n;
    EXPECT_NEAR(few_nights_p_value(n, few_nights_quantile(n, 0.975)), 0.05, 0.002) << n;
    EXPECT_EQ(few_nights_p_value(n, 0), 1.0);
    EXPECT_EQ(few_nights_p_value(n, -2), few_nights_p_value(n, 2));  // two-sided
    EXPECT_GE(few_nights_p_value(n, 1e9), 1.0 / kFewNightsDraws);    // never 0: one draw's share
  }
  // 5 spreads (the machine-wide tolerance) are reached by 14 % of normal nights against 3 nights'
  // spread, 2.2 % against 7's (a normal z: 6 in 10 million).
  EXPECT_NEAR(few_nights_p_value(3, 5), 0.14, 0.01);
  EXPECT_NEAR(few_nights_p_value(7, 5), 0.022, 0.004);
  EXPECT_GT(few_nights_p_value(3, 20), 0.01);
  EXPECT_LT(few_nights_p_value(7, 8), 0.01);
}

// A roof's or point's printed minimum detectable change is the same promise: a slowdown of that
// size is SLOWER even where tonight scatters against it as far as 95 % of nights do (T_7: 2.56
// spreads), where the tolerance alone (the figure before) is caught on half the nights.
TEST(FewNights, AMetricsMinimumDetectableChangeIsCaughtInNinetyFivePercentOfNights) {
  CompareOptions o;
  const auto judged = [&o](double log_change) {
    std::vector<MetricComparison> list(1);
    MetricComparison& m = list[0];
    m.spread = 0.02;  // 2 % over 7 nights: tolerance 10 spreads
    m.nights = 7;
    m.q_value = 1e-6;  // significant: the threshold is the tolerance
    m.min_p_value = 1e-9;
    m.change = std::expm1(log_change);
    decide_all(list, {0}, 1, o);
    return m;
  };
  const MetricComparison m = judged(0);
  const double shift = -std::log1p(-m.min_detectable), tolerance = -std::log1p(-m.tolerance);
  EXPECT_NEAR(shift - tolerance, few_nights_quantile(7, 0.95) * 0.02, 1e-9);
  for (double scatter : {-0.999 * few_nights_quantile(7, 0.95), -1.64, 0.0, 1.0})
    EXPECT_EQ(judged(-shift - scatter * 0.02).verdict, Verdict::kSlower) << scatter;
  EXPECT_NE(judged(-tolerance + 0.5 * 0.02).verdict, Verdict::kSlower);
  // Held to two re-measures each run must catch it in 95 %^(1/3) of nights: further still.
  o.remeasured = 2;
  EXPECT_NEAR(-std::log1p(-judged(0).min_detectable) - tolerance,
              few_nights_quantile(7, std::pow(0.95, 1.0 / 3)) * 0.02, 1e-9);
  // The verdict itself does not move.
  EXPECT_EQ(judged(0).tolerance, m.tolerance);
}

// A roof (few_nights = true) is significant only beyond what its history's spread, from that many
// nights, lets T_n say: 3 nights that agree by chance (0.3 %) leave a night 8 % lower AMBIGUOUS
// however sure the roof's own bootstrap is; 7 nights at that spread call it SLOWER. Without the
// rule (the points) the bootstrap alone decides beyond the tolerance.
TEST(FewNights, ARoofIsSignificantOnlyAsFarAsItsFewNightsKnow) {
  CompareOptions o;
  const auto judged = [&o](int nights, bool few_nights) {
    std::vector<MetricComparison> list(1);
    MetricComparison& m = list[0];
    m.roof = true;
    m.spread = 0.003;
    m.nights = nights;
    m.q_value = 0.002;  // the bootstrap of the fits: significant
    m.min_p_value = 0.001;
    m.change = -0.08;
    decide_all(list, {0}, 1, o, few_nights);
    return m;
  };
  const MetricComparison three = judged(3, true);
  EXPECT_EQ(three.verdict, Verdict::kAmbiguous) << three.note;
  EXPECT_NEAR(three.q_value, few_nights_p_value(3, std::log(0.92) / 0.003), 1e-12);
  EXPECT_GT(three.q_value, o.alpha);
  EXPECT_NE(three.note.find("significant beyond 73.4 spreads, as a spread from 3 nights is known"),
            std::string::npos)
      << three.note;
  EXPECT_EQ(judged(3, false).verdict, Verdict::kSlower);
  const MetricComparison seven = judged(7, true);
  EXPECT_EQ(seven.verdict, Verdict::kSlower) << seven.note;
  EXPECT_NEAR(seven.q_value, 0.002, 1e-12);  // T_7 agrees: the bootstrap's p stands
  // What each promises counts the significance its nights allow.
  EXPECT_GT(three.min_detectable, seven.min_detectable);
  EXPECT_GT(-std::log1p(-three.min_detectable), few_nights_quantile(3, 1 - o.alpha / 2) * 0.003);
}

}  // namespace
}  // namespace ridgeline
