#include "fit/roofline_fit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "fit/robust_location.hpp"

namespace ridgeline {
namespace {

// Second-largest (the largest with fewer than 5 values): a start that one fast glitch cannot set.
double upper_start(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() >= 5 ? v[v.size() - 2] : v.back();
}

struct Split {
  std::vector<double> log_b, log_p;
  int knee = 0;
};

Split split_at(const Observations& obs, double ridge, double band) {
  Split s;
  for (double b : obs.bandwidth) s.log_b.push_back(std::log(b));
  for (double p : obs.peak) s.log_p.push_back(std::log(p));
  for (std::size_t i = 0; i < obs.perf.size(); ++i) {
    const double in = obs.intensity[i];
    if (in * band <= ridge)
      s.log_b.push_back(std::log(obs.perf[i] / in));
    else if (in >= ridge * band)
      s.log_p.push_back(std::log(obs.perf[i]));
    else
      ++s.knee;
  }
  return s;
}

}  // namespace

RoofEstimate fit_roofline(const Observations& obs) {
  if (obs.size() < static_cast<std::size_t>(kMinFitPoints))
    throw FitError(fmt::format("{} fittable point{}; a roofline fit needs at least {}", obs.size(),
                               obs.size() == 1 ? "" : "s", kMinFitPoints));
  // Start from the envelope (ERT's maxima), which lies above the roofs by the noise only.
  std::vector<double> b_start = obs.bandwidth, p_start = obs.peak;
  for (std::size_t i = 0; i < obs.perf.size(); ++i) {
    b_start.push_back(obs.perf[i] / obs.intensity[i]);
    p_start.push_back(obs.perf[i]);
  }
  if (obs.bandwidth.empty() && obs.perf.empty())
    throw FitError("bandwidth roof B cannot be fitted: no memory-bound point");
  if (obs.peak.empty() && obs.perf.empty())
    throw FitError("compute roof P cannot be fitted: no compute-bound point");
  double ridge = upper_start(p_start) / upper_start(b_start);

  RoofEstimate est;
  for (int iter = 0; iter < 30; ++iter) {
    // The widest knee band that leaves two observations per side; narrower only when needed,
    // and never below a factor 2: a point at the ridge itself says nothing about either roof.
    Split s;
    double band = 0;
    for (double b : {8.0, 4.0, 2.0}) {
      s = split_at(obs, ridge, b);
      band = b;
      if (s.log_b.size() >= 2 && s.log_p.size() >= 2) break;
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
    est.band = band;
    est.memory_points = static_cast<int>(s.log_b.size());
    est.compute_points = static_cast<int>(s.log_p.size());
    est.knee_points = s.knee;
    const double next = est.roof.ridge_point();
    const bool settled = std::fabs(std::log(next / ridge)) < 1e-6;
    ridge = next;
    if (settled) break;
  }
  return est;
}

RoofFit fit_roofline_with_bootstrap(const Observations& obs, int replicates, std::uint64_t seed) {
  RoofFit fit;
  fit.estimate = fit_roofline(obs);
  std::mt19937_64 rng(seed);
  auto resample = [&rng](const std::vector<std::size_t>& n_from, std::vector<std::size_t>& idx) {
    idx.resize(n_from.size());
    if (n_from.empty()) return;
    std::uniform_int_distribution<std::size_t> pick(0, n_from.size() - 1);
    for (auto& i : idx) i = n_from[pick(rng)];
  };
  std::vector<std::size_t> graded(obs.perf.size()), bw(obs.bandwidth.size()), pk(obs.peak.size()),
      idx;
  for (std::size_t i = 0; i < graded.size(); ++i) graded[i] = i;
  for (std::size_t i = 0; i < bw.size(); ++i) bw[i] = i;
  for (std::size_t i = 0; i < pk.size(); ++i) pk[i] = i;

  std::vector<double> ps, bs, rs;
  for (int r = 0; r < replicates; ++r) {
    // Resampling within each kind keeps every kind's count, as in the measurement design.
    Observations o;
    resample(graded, idx);
    for (auto i : idx) o.add_point(obs.intensity[i], obs.perf[i]);
    resample(bw, idx);
    for (auto i : idx) o.bandwidth.push_back(obs.bandwidth[i]);
    resample(pk, idx);
    for (auto i : idx) o.peak.push_back(obs.peak[i]);
    try {
      const Roof roof = fit_roofline(o).roof;
      fit.replicates.push_back(roof);
      ps.push_back(roof.peak_flops);
      bs.push_back(roof.bandwidth);
      rs.push_back(roof.ridge_point());
    } catch (const FitError&) {
      ++fit.failed_replicates;
    }
  }
  auto interval = [](std::vector<double> v, double fallback) {
    if (v.empty()) return Interval{fallback, fallback};
    std::sort(v.begin(), v.end());
    auto at = [&v](double q) {
      const double pos = q * static_cast<double>(v.size() - 1);
      const auto lo = static_cast<std::size_t>(pos);
      const auto hi = std::min(lo + 1, v.size() - 1);
      return v[lo] + (pos - static_cast<double>(lo)) * (v[hi] - v[lo]);
    };
    return Interval{at(0.025), at(0.975)};
  };
  fit.peak_ci = interval(ps, fit.estimate.roof.peak_flops);
  fit.bandwidth_ci = interval(bs, fit.estimate.roof.bandwidth);
  fit.ridge_ci = interval(rs, fit.estimate.roof.ridge_point());
  return fit;
}

}  // namespace ridgeline
