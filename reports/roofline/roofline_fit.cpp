#include "reports/roofline/roofline_fit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "core/stats.hpp"
#include "reports/roofline/uniform_index.hpp"

namespace ridgeline {

double Observation::rate() const { return count / median(samples); }

namespace {

// Rates of every observation, in the order of Observations' vectors: the medians of their
// repetitions, or of one bootstrap redraw of them.
struct Rates {
  std::vector<double> graded, bandwidth, peak;
};

Rates median_rates(const Observations& obs) {
  Rates r;
  for (const auto& o : obs.graded) r.graded.push_back(o.rate());
  for (const auto& o : obs.bandwidth) r.bandwidth.push_back(o.rate());
  for (const auto& o : obs.peak) r.peak.push_back(o.rate());
  return r;
}

// The rate of one block-bootstrap draw: the observation's repetitions redrawn with replacement.
double redrawn_rate(const Observation& o, std::mt19937_64& rng) {
  if (o.samples.size() < 2) return o.rate();
  std::vector<double> draw(o.samples.size());
  for (auto& s : draw) s = o.samples[uniform_index(rng, o.samples.size())];
  return o.count / median(std::move(draw));
}

Rates redrawn_rates(const Observations& obs, std::mt19937_64& rng) {
  auto redraw = [&rng](const Observation& o) { return redrawn_rate(o, rng); };
  Rates r;
  for (const auto& o : obs.graded) r.graded.push_back(redraw(o));
  for (const auto& o : obs.bandwidth) r.bandwidth.push_back(redraw(o));
  for (const auto& o : obs.peak) r.peak.push_back(redraw(o));
  return r;
}

// Second-largest (the largest with fewer than 5 values): a start that one fast glitch cannot set.
double upper_start(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() >= 5 ? v[v.size() - 2] : v.back();
}

struct Split {
  std::vector<double> log_b, log_p;
  int knee = 0;
};

Split split_at(const Observations& obs, const Rates& r, double ridge, double band) {
  Split s;
  for (double b : r.bandwidth) s.log_b.push_back(std::log(b));
  for (double p : r.peak) s.log_p.push_back(std::log(p));
  for (std::size_t i = 0; i < obs.graded.size(); ++i) {
    const double in = obs.graded[i].intensity;
    // A point that does not define the roof on its side of the ridge is simply not used.
    if (in * band <= ridge) {
      if (obs.graded[i].observes_bandwidth) s.log_b.push_back(std::log(r.graded[i] / in));
    } else if (in >= ridge * band) {
      if (obs.graded[i].observes_peak) s.log_p.push_back(std::log(r.graded[i]));
    } else {
      ++s.knee;
    }
  }
  return s;
}

// Extreme but finite inputs (1e299 FLOP/s over 1e-121 byte/s) overflow the ridge I* = P/B, and
// a rate of 0 or infinity has no logarithm: both are out of range, not a fit.
void check_in_range(double v) {
  if (!std::isnormal(v))
    throw FitError("the fitted roofs are not finite positive numbers (values out of range)");
}

Interval range_of(const std::vector<double>& logs) {
  const auto [lo, hi] = std::minmax_element(logs.begin(), logs.end());
  return {std::exp(*lo), std::exp(*hi)};
}

RoofEstimate fit_rates(const Observations& obs, const Rates& r) {
  if (obs.size() < static_cast<std::size_t>(kMinFitPoints))
    throw FitError(fmt::format("{} fittable point{}; a roofline fit needs at least {}", obs.size(),
                               obs.size() == 1 ? "" : "s", kMinFitPoints));
  // Start from the envelope (ERT's maxima), which lies above the roofs by the noise only.
  std::vector<double> b_start = r.bandwidth, p_start = r.peak;
  for (std::size_t i = 0; i < obs.graded.size(); ++i) {
    if (obs.graded[i].observes_bandwidth) b_start.push_back(r.graded[i] / obs.graded[i].intensity);
    if (obs.graded[i].observes_peak) p_start.push_back(r.graded[i]);
  }
  if (b_start.empty()) throw FitError("bandwidth roof B cannot be fitted: no memory-bound point");
  if (p_start.empty()) throw FitError("compute roof P cannot be fitted: no compute-bound point");
  for (const auto* v : {&b_start, &p_start})
    for (double x : *v) check_in_range(x);
  double ridge = upper_start(p_start) / upper_start(b_start);
  check_in_range(ridge);

  // A side keeps enough observations with kMinSidePoints, or one where direct ones define it.
  const auto enough = [](const std::vector<double>& side, bool direct) {
    return side.size() >= std::size_t(kMinSidePoints) || (direct && !side.empty());
  };
  RoofEstimate est;
  for (int iter = 0; iter < 30; ++iter) {
    // The widest knee band that leaves enough observations per side (kKneeBands).
    Split s;
    double band = 0;
    for (double b : kKneeBands) {
      s = split_at(obs, r, ridge, b);
      band = b;
      const bool b_enough = enough(s.log_b, !obs.bandwidth.empty());
      const bool p_enough = enough(s.log_p, !obs.peak.empty());
      if (b_enough && p_enough) break;
    }
    if (s.log_b.empty())
      throw FitError(fmt::format(
          "bandwidth roof B cannot be fitted: no point left of the ridge (I < {:.3g} FLOP/byte) "
          "and no pure-bandwidth point",
          ridge));
    if (s.log_p.empty())
      throw FitError(fmt::format(
          "compute roof P cannot be fitted: no point right of the ridge (I > {:.3g} FLOP/byte) "
          "and no pure-compute point",
          ridge));
    est.roof = {std::exp(tukey_biweight_location(s.log_p)),
                std::exp(tukey_biweight_location(s.log_b))};
    est.split_ridge = ridge;
    est.band = band;
    est.memory_points = static_cast<int>(s.log_b.size());
    est.compute_points = static_cast<int>(s.log_p.size());
    est.knee_points = s.knee;
    est.bandwidth_spread = range_of(s.log_b);
    est.peak_spread = range_of(s.log_p);
    const double next = est.roof.ridge_point();
    check_in_range(next);
    const bool settled = std::fabs(std::log(next / ridge)) < 1e-6;
    ridge = next;
    if (settled) break;
  }
  // Envelopes are taken over the sides of the split the locations settled on: a maximum moves by
  // whole points as the ridge moves, and iterating on it can flip a point in and out of the knee
  // band forever.
  if (obs.envelopes) {
    const Split s = split_at(obs, r, est.split_ridge, est.band);
    const auto envelope = [](const std::vector<double>& logs) {
      return std::exp(*std::max_element(logs.begin(), logs.end()));
    };
    est.roof = {envelope(s.log_p), envelope(s.log_b)};
    check_in_range(est.roof.ridge_point());
  }
  return est;
}

bool has_repetitions(const std::vector<Observation>& v) {
  return std::any_of(v.begin(), v.end(), [](const Observation& o) { return o.samples.size() > 1; });
}

// The central kConfidencePercent interval with linear interpolation; `fallback` when no replicate.
Interval percentile_interval(std::vector<double> v, double fallback) {
  if (v.empty()) return Interval{fallback, fallback};
  std::sort(v.begin(), v.end());
  auto at = [&v](double q) {
    const double pos = q * static_cast<double>(v.size() - 1);
    const auto lo = static_cast<std::size_t>(pos);
    const auto hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (pos - static_cast<double>(lo)) * (v[hi] - v[lo]);
  };
  // Quantiles from the integer percent, so 95 gives exactly the doubles 0.025 and 0.975.
  return Interval{at((100 - kConfidencePercent) / 200.0), at((100 + kConfidencePercent) / 200.0)};
}

// The observations themselves resampled within each kind (only for data without repetitions).
Observations resampled_points(const Observations& obs, std::mt19937_64& rng) {
  auto resample = [&rng](const std::vector<Observation>& from, std::vector<Observation>& to) {
    if (from.empty()) return;
    for (std::size_t i = 0; i < from.size(); ++i)
      to.push_back(from[uniform_index(rng, from.size())]);
  };
  Observations o;
  o.envelopes = obs.envelopes;
  resample(obs.graded, o.graded);
  resample(obs.bandwidth, o.bandwidth);
  resample(obs.peak, o.peak);
  return o;
}

}  // namespace

RoofEstimate fit_roofline(const Observations& obs) { return fit_rates(obs, median_rates(obs)); }

RoofFit fit_roofline_with_bootstrap(const Observations& obs, int replicates, std::uint64_t seed) {
  RoofFit fit;
  fit.estimate = fit_roofline(obs);
  const bool repetitions =
      has_repetitions(obs.graded) || has_repetitions(obs.bandwidth) || has_repetitions(obs.peak);
  fit.interval_method = repetitions ? "repetitions" : "points";
  std::mt19937_64 rng(seed);
  std::vector<double> ps, bs, rs;
  for (int r = 0; r < replicates; ++r) {
    try {
      const Roof roof = repetitions ? fit_rates(obs, redrawn_rates(obs, rng)).roof
                                    : fit_roofline(resampled_points(obs, rng)).roof;
      fit.replicates.push_back(roof);
      ps.push_back(roof.peak_flops);
      bs.push_back(roof.bandwidth);
      rs.push_back(roof.ridge_point());
    } catch (const FitError&) {
      ++fit.failed_replicates;
    }
  }
  fit.peak_ci = percentile_interval(ps, fit.estimate.roof.peak_flops);
  fit.bandwidth_ci = percentile_interval(bs, fit.estimate.roof.bandwidth);
  fit.ridge_ci = percentile_interval(rs, fit.estimate.roof.ridge_point());
  return fit;
}

LevelFit fit_level(const std::vector<Observation>& obs, int replicates, std::uint64_t seed) {
  if (obs.empty()) throw FitError("no observation of this roof");
  std::vector<double> logs;
  for (const auto& o : obs) logs.push_back(std::log(o.rate()));
  LevelFit f;
  f.value = std::exp(tukey_biweight_location(logs));
  f.spread = range_of(logs);
  f.points = static_cast<int>(obs.size());
  std::mt19937_64 rng(seed);
  const bool repetitions = has_repetitions(obs);
  std::vector<double> values, draw(obs.size());
  for (int r = 0; r < replicates; ++r) {
    for (std::size_t i = 0; i < obs.size(); ++i)
      draw[i] =
          repetitions ? std::log(redrawn_rate(obs[i], rng)) : logs[uniform_index(rng, obs.size())];
    values.push_back(std::exp(tukey_biweight_location(draw)));
  }
  f.ci = percentile_interval(values, f.value);
  f.replicates = std::move(values);
  return f;
}

LevelFit fit_envelope(const std::vector<Observation>& obs, int replicates, std::uint64_t seed) {
  if (obs.empty()) throw FitError("no observation of this roof");
  std::vector<double> logs;
  for (const auto& o : obs) logs.push_back(std::log(o.rate()));
  LevelFit f;
  f.value = std::exp(*std::max_element(logs.begin(), logs.end()));
  f.spread = range_of(logs);
  f.points = static_cast<int>(obs.size());
  std::mt19937_64 rng(seed);
  std::vector<double> values;
  for (int r = 0; r < replicates; ++r) {
    double best = 0;
    for (const auto& o : obs) best = std::max(best, redrawn_rate(o, rng));
    values.push_back(best);
  }
  f.ci = percentile_interval(values, f.value);
  f.replicates = std::move(values);
  return f;
}

Interval ratio_interval(const std::vector<double>& numerator,
                        const std::vector<double>& denominator, double fallback) {
  std::vector<double> ratios;
  for (std::size_t i = 0; i < numerator.size() && i < denominator.size(); ++i)
    if (denominator[i] > 0) ratios.push_back(numerator[i] / denominator[i]);
  return percentile_interval(std::move(ratios), fallback);
}

}  // namespace ridgeline
