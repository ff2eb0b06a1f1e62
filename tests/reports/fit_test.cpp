#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "fit/robust_location.hpp"
#include "fit/roofline_fit.hpp"

namespace ridgeline {
namespace {

// A rounded roofline (P^-2 + (IB)^-2)^(-1/2): 30 % below the roof at the ridge, 3 % at I*/4.
double rounded_roof(const Roof& r, double i) {
  return 1 / std::sqrt(1 / (r.peak_flops * r.peak_flops) + 1 / (i * r.bandwidth * i * r.bandwidth));
}

// 50 points log-uniform over I*/100 … I*·100 with 3 % noise and `slow` runs at 60 % speed.
Observations synthetic(const Roof& truth, unsigned seed, int slow = 4) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0, 0.03);
  Observations o;
  const int n = 50;
  for (int k = 0; k < n; ++k) {
    const double i = truth.ridge_point() * std::pow(10.0, -2 + 4.0 * k / (n - 1));
    double perf = rounded_roof(truth, i) * std::exp(noise(rng));
    if (k % (n / std::max(slow, 1)) == 3 && slow > 0) perf *= 0.6;
    o.add_point(i, perf);
  }
  return o;
}

double rel_err(double got, double want) { return std::fabs(got / want - 1); }

struct Shape {
  const char* name;
  Roof truth;
};

void PrintTo(const Shape& s, std::ostream* os) { *os << s.name; }

class FitRecovers : public ::testing::TestWithParam<Shape> {};

TEST_P(FitRecovers, RoofsWithinTwoPercentAndIntervalsCoverTruth) {
  const Roof truth = GetParam().truth;
  const RoofFit f = fit_roofline_with_bootstrap(synthetic(truth, 7));
  const Roof& got = f.estimate.roof;
  EXPECT_LT(rel_err(got.peak_flops, truth.peak_flops), 0.02) << got.peak_flops;
  EXPECT_LT(rel_err(got.bandwidth, truth.bandwidth), 0.02) << got.bandwidth;
  EXPECT_TRUE(f.peak_ci.contains(truth.peak_flops)) << f.peak_ci.low << " .. " << f.peak_ci.high;
  EXPECT_TRUE(f.bandwidth_ci.contains(truth.bandwidth))
      << f.bandwidth_ci.low << " .. " << f.bandwidth_ci.high;
  EXPECT_TRUE(f.ridge_ci.contains(truth.ridge_point()))
      << f.ridge_ci.low << " .. " << f.ridge_ci.high;
  EXPECT_GT(f.estimate.knee_points, 0);  // the knee was seen and left out
}

INSTANTIATE_TEST_SUITE_P(Shapes, FitRecovers,
                         ::testing::Values(Shape{"cpu_like_ridge_4", {200e9, 50e9}},
                                           Shape{"gpu_like_ridge_200", {60e12, 0.3e12}}),
                         [](const auto& info) { return std::string(info.param.name); });

// A 95 % interval should cover the truth in about 19 of 20 independent data sets; 15 is far
// below what a correct bootstrap gives and far above what a broken one (e.g. too narrow) does.
TEST(Fit, IntervalsCoverTruthAtAboutTheirLevel) {
  const Roof truth{200e9, 50e9};
  int p_in = 0, b_in = 0;
  for (unsigned seed = 100; seed < 120; ++seed) {
    const RoofFit f = fit_roofline_with_bootstrap(synthetic(truth, seed), 300);
    p_in += f.peak_ci.contains(truth.peak_flops);
    b_in += f.bandwidth_ci.contains(truth.bandwidth);
  }
  EXPECT_GE(p_in, 15);
  EXPECT_GE(b_in, 15);
}

TEST(Fit, DeterministicWithFixedSeed) {
  const auto o = synthetic({200e9, 50e9}, 3);
  const RoofFit a = fit_roofline_with_bootstrap(o, 200), b = fit_roofline_with_bootstrap(o, 200);
  EXPECT_EQ(a.peak_ci.low, b.peak_ci.low);
  EXPECT_EQ(a.bandwidth_ci.high, b.bandwidth_ci.high);
}

// Why not the simple methods: least squares of log(min(P, I·B)) over all points is dragged down
// by the knee and the slow runs; the maximum over runs (ERT) rides the noise upwards.
TEST(Fit, NaiveLeastSquaresAndMaximaMissWhereTheRobustFitDoesNot) {
  const Roof truth{200e9, 50e9};
  const Observations o = synthetic(truth, 7);
  const Roof robust = fit_roofline(o).roof;
  ASSERT_LT(rel_err(robust.bandwidth, truth.bandwidth), 0.02);
  ASSERT_LT(rel_err(robust.peak_flops, truth.peak_flops), 0.02);

  // Grid search over ±25 % in 0.25 % steps: the exact least-squares optimum on that grid.
  double best = 1e300, best_p = 0, best_b = 0;
  for (int a = -100; a <= 100; ++a) {
    for (int c = -100; c <= 100; ++c) {
      const Roof r{truth.peak_flops * (1 + a * 0.0025), truth.bandwidth * (1 + c * 0.0025)};
      double sse = 0;
      for (std::size_t k = 0; k < o.perf.size(); ++k) {
        const double d = std::log(o.perf[k]) - std::log(r.attainable(o.intensity[k]));
        sse += d * d;
      }
      if (sse < best) best = sse, best_p = r.peak_flops, best_b = r.bandwidth;
    }
  }
  EXPECT_GT(std::max(rel_err(best_p, truth.peak_flops), rel_err(best_b, truth.bandwidth)), 0.02)
      << "naive LSQ: P " << best_p << " B " << best_b;

  double max_perf = 0;
  for (double p : o.perf) max_perf = std::max(max_perf, p);
  EXPECT_GT(rel_err(max_perf, truth.peak_flops), 0.02) << "max over runs " << max_perf;
}

TEST(Fit, DirectObservationsCombineWithGradedPoints) {
  // Two memory-bound points plus copy-like bandwidth and peak-like compute observations.
  Observations o;
  o.add_point(0.125, 50e9 * 0.125);
  o.add_point(0.25, 50e9 * 0.25 * 1.01);
  o.bandwidth = {49.5e9, 50.5e9, 30e9 /* a slow run */, 50e9};
  o.peak = {200e9, 201e9, 199e9};
  const RoofEstimate e = fit_roofline(o);
  EXPECT_LT(rel_err(e.roof.bandwidth, 50e9), 0.01);
  EXPECT_LT(rel_err(e.roof.peak_flops, 200e9), 0.01);
}

TEST(Fit, TooFewPointsOrOneSideEmptyIsAFitError) {
  Observations two;
  two.add_point(1, 1e9);
  two.add_point(100, 1e10);
  EXPECT_THROW(fit_roofline(two), FitError);

  Observations memory_only;
  for (double i : {0.1, 0.2, 0.4, 0.8}) memory_only.add_point(i, i * 50e9);
  try {
    fit_roofline(memory_only);
    FAIL() << "expected FitError";
  } catch (const FitError& e) {
    EXPECT_NE(std::string(e.what()).find("compute roof P cannot be fitted"), std::string::npos)
        << e.what();
  }
  Observations compute_only;
  for (double i : {10, 20, 40, 80}) compute_only.add_point(i, 200e9);
  try {
    fit_roofline(compute_only);
    FAIL() << "expected FitError";
  } catch (const FitError& e) {
    EXPECT_NE(std::string(e.what()).find("bandwidth roof B cannot be fitted"), std::string::npos)
        << e.what();
  }
}

TEST(RobustLocation, IgnoresFarOutliers) {
  EXPECT_NEAR(tukey_biweight_location({1.0, 1.01, 0.99, 1.0, 1.02, 0.98, 0.3, 0.2}), 1.0, 0.01);
  EXPECT_DOUBLE_EQ(median({3, 1, 2, 4}), 2.5);
}

}  // namespace
}  // namespace ridgeline
