#include "fit/roofline_fit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <optional>
#include <random>
#include <thread>

#include "fit/robust_location.hpp"

namespace ridgeline {
namespace {

// Second-largest (the largest with fewer than 5 values): a start that one fast glitch cannot set.
// One pass over both kinds, no copy: this runs once per bootstrap replicate.
class UpperStart {
 public:
  void add(double v) {
    ++n_;
    if (v > first_)
      second_ = first_, first_ = v;
    else if (v > second_)
      second_ = v;
  }
  double value() const { return n_ >= 5 ? second_ : first_; }

 private:
  std::size_t n_ = 0;
  double first_ = -HUGE_VAL, second_ = -HUGE_VAL;
};

// The observations with their logarithms taken once: a bootstrap fits 1000 resamples, and with
// 200k points taking logs (and sorting) in every iteration dominated the run time.
struct Prepared {
  std::vector<double> intensity, perf, bandwidth, peak;  // as in Observations
  std::vector<double> log_b_graded;                      // log(perf / intensity)
  std::vector<double> log_p_graded;                      // log(perf)
  std::vector<double> log_bandwidth, log_peak;
  std::size_t size() const { return perf.size() + bandwidth.size() + peak.size(); }
};

Prepared prepare(const Observations& obs) {
  Prepared p{obs.intensity, obs.perf, obs.bandwidth, obs.peak, {}, {}, {}, {}};
  for (std::size_t i = 0; i < obs.perf.size(); ++i) {
    p.log_b_graded.push_back(std::log(obs.perf[i] / obs.intensity[i]));
    p.log_p_graded.push_back(std::log(obs.perf[i]));
  }
  for (double b : obs.bandwidth) p.log_bandwidth.push_back(std::log(b));
  for (double v : obs.peak) p.log_peak.push_back(std::log(v));
  for (const auto* logs : {&p.log_b_graded, &p.log_p_graded, &p.log_bandwidth, &p.log_peak})
    for (double v : *logs)
      if (!std::isfinite(v))
        throw FitError("an observation is not a finite positive number (values out of range)");
  return p;
}

// A resample: the observations at the given indices, kind by kind.
Prepared gather(const Prepared& from, const std::vector<std::size_t>& graded,
                const std::vector<std::size_t>& bw, const std::vector<std::size_t>& pk) {
  Prepared p;
  for (auto i : graded) {
    p.intensity.push_back(from.intensity[i]);
    p.perf.push_back(from.perf[i]);
    p.log_b_graded.push_back(from.log_b_graded[i]);
    p.log_p_graded.push_back(from.log_p_graded[i]);
  }
  for (auto i : bw)
    p.bandwidth.push_back(from.bandwidth[i]), p.log_bandwidth.push_back(from.log_bandwidth[i]);
  for (auto i : pk) p.peak.push_back(from.peak[i]), p.log_peak.push_back(from.log_peak[i]);
  return p;
}

struct Split {
  std::vector<double> log_b, log_p;
  int knee = 0;
};

Split split_at(const Prepared& obs, double ridge, double band) {
  Split s;
  s.log_b = obs.log_bandwidth;
  s.log_p = obs.log_peak;
  for (std::size_t i = 0; i < obs.perf.size(); ++i) {
    const double in = obs.intensity[i];
    if (in * band <= ridge)
      s.log_b.push_back(obs.log_b_graded[i]);
    else if (in >= ridge * band)
      s.log_p.push_back(obs.log_p_graded[i]);
    else
      ++s.knee;
  }
  return s;
}

// Extreme but finite inputs (1e299 FLOP/s over 1e-121 byte/s) overflow the ridge I* = P/B.
void check_in_range(double ridge) {
  if (!std::isnormal(ridge))
    throw FitError("the fitted roofs are not finite positive numbers (values out of range)");
}

RoofEstimate fit_prepared(const Prepared& obs) {
  if (obs.size() < static_cast<std::size_t>(kMinFitPoints))
    throw FitError(fmt::format("{} fittable point{}; a roofline fit needs at least {}", obs.size(),
                               obs.size() == 1 ? "" : "s", kMinFitPoints));
  if (obs.bandwidth.empty() && obs.perf.empty())
    throw FitError("bandwidth roof B cannot be fitted: no memory-bound point");
  if (obs.peak.empty() && obs.perf.empty())
    throw FitError("compute roof P cannot be fitted: no compute-bound point");
  // Start from the envelope (ERT's maxima), which lies above the roofs by the noise only.
  UpperStart b_start, p_start;
  for (double b : obs.bandwidth) b_start.add(b);
  for (double p : obs.peak) p_start.add(p);
  for (std::size_t i = 0; i < obs.perf.size(); ++i) {
    b_start.add(obs.perf[i] / obs.intensity[i]);
    p_start.add(obs.perf[i]);
  }
  double ridge = p_start.value() / b_start.value();
  check_in_range(ridge);

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
    check_in_range(next);
    const bool settled = std::fabs(std::log(next / ridge)) < 1e-6;
    ridge = next;
    if (settled) break;
  }
  return est;
}

}  // namespace

RoofEstimate fit_roofline(const Observations& obs) { return fit_prepared(prepare(obs)); }

RoofFit fit_roofline_with_bootstrap(const Observations& obs, int replicates, std::uint64_t seed) {
  RoofFit fit;
  const Prepared prepared = prepare(obs);
  fit.estimate = fit_prepared(prepared);
  std::mt19937_64 rng(seed);
  auto resample = [&rng](std::size_t n_from, std::vector<std::size_t>& idx) {
    idx.resize(n_from);
    if (n_from == 0) return;
    std::uniform_int_distribution<std::size_t> pick(0, n_from - 1);
    for (auto& i : idx) i = pick(rng);
  };
  // Resamples are drawn in order from one generator (the same on every machine), then fitted in
  // parallel when the data are large: with 200k points the fits are nearly all of the time.
  const unsigned workers = obs.size() * std::size_t(std::max(replicates, 0)) < 2'000'000
                               ? 1u
                               : std::max(1u, std::min(8u, std::thread::hardware_concurrency()));
  struct Draw {
    std::vector<std::size_t> graded, bw, pk;
    std::optional<Roof> roof;  // empty: one side of the resample was empty
    std::exception_ptr error;  // anything else (out of memory), rethrown on this thread
  };
  std::vector<Draw> batch(workers * 4);
  std::vector<double> ps, bs, rs;
  for (int first = 0; first < replicates; first += int(batch.size())) {
    const std::size_t n = std::min(batch.size(), std::size_t(replicates - first));
    // Resampling within each kind keeps every kind's count, as in the measurement design.
    for (std::size_t j = 0; j < n; ++j) {
      resample(obs.perf.size(), batch[j].graded);
      resample(obs.bandwidth.size(), batch[j].bw);
      resample(obs.peak.size(), batch[j].pk);
    }
    auto fit_some = [&](std::size_t from) {
      for (std::size_t j = from; j < n; j += workers) {
        try {
          batch[j].roof =
              fit_prepared(gather(prepared, batch[j].graded, batch[j].bw, batch[j].pk)).roof;
        } catch (const FitError&) {
          batch[j].roof.reset();
        } catch (...) {
          batch[j].error = std::current_exception();
        }
      }
    };
    std::vector<std::thread> threads;
    for (unsigned w = 1; w < workers; ++w) threads.emplace_back(fit_some, w);
    fit_some(0);
    for (auto& t : threads) t.join();
    for (std::size_t j = 0; j < n; ++j) {
      if (batch[j].error) std::rethrow_exception(batch[j].error);
      if (!batch[j].roof) {
        ++fit.failed_replicates;
        continue;
      }
      const Roof& roof = *batch[j].roof;
      fit.replicates.push_back(roof);
      ps.push_back(roof.peak_flops);
      bs.push_back(roof.bandwidth);
      rs.push_back(roof.ridge_point());
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
