#include "reports/compare/machine_factor.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>

#include "core/stats.hpp"
#include "reports/compare/annotate.hpp"
#include "reports/compare/few_nights.hpp"

namespace ridgeline {

double together_tolerance(double spread, double threshold_pct, double k) {
  return -std::expm1(-std::max(-std::log1p(-threshold_pct / 100), k * spread));
}

double machine_tolerance(double spread, const CompareOptions& o) {
  return together_tolerance(spread, o.machine_threshold_pct, o.machine_k);
}

void judge_together(MetricComparison& m, const MachineFactorEvidence& e, const CompareOptions& o,
                    double threshold_pct, const std::string& what) {
  std::vector<double> throughputs;
  for (double x : e.history) throughputs.push_back(std::exp(-x));
  m.nights = int(throughputs.size());
  m.baseline_value = 1;
  m.current_value = std::exp(-e.tonight);
  m.baseline = "1";
  m.current = fmt::format("{:.3f}", m.current_value);
  m.change = m.current_value - 1;
  const double spread = robust_log_spread(throughputs);
  const double noisier = e.history_noise > 0 ? std::max(1.0, e.tonight_noise / e.history_noise) : 1;
  std::string how;
  if (spread >= 0 && spread < e.history_se)
    how = fmt::format("; spread {:.2f} % raised to the nights' own standard error", 100 * spread);
  if (noisier > 1)
    how += fmt::format("; × {:.2f}, tonight's repetitions noisier than the history's", noisier);
  m.spread = spread < 0 ? spread : std::max(spread, e.history_se) * noisier;
  if (m.spread >= 0 && m.spread < e.spread_floor) {
    how += fmt::format("; raised to {}, {:.2f} %", e.spread_floor_what, 100 * e.spread_floor);
    m.spread = e.spread_floor;
  }
  m.test_noise = std::max(m.spread, 0.0);
  m.tolerance = together_tolerance(std::max(m.spread, 0.0), threshold_pct, o.machine_k);
  // Tested as the spread of that many nights knows it (T_n, compare/few_nights.hpp), not with a
  // normal z: the 5 spreads of the tolerance are passed by 14 % of normal nights with 3 nights of
  // history, 5 % with 4 or 5, and by more where those nights sat in one phase of a shared host
  // (issue 49's Zen 5 VM: its first nights failed 18-87 spreads out). Identical history nights
  // (spread 0) know the factor exactly: any change is real.
  const std::size_t n = e.history.size();
  m.p_value = m.q_value = m.spread > 0     ? few_nights_p_value(n, e.tonight / m.spread)
                          : e.tonight != 0 ? 0
                                           : 1;
  m.min_p_value = 0;
  std::string why;
  m.verdict = m.spread < 0 ? Verdict::kSame
                           : decide(m.change, m.tolerance, m.p_value, m.min_p_value, o.alpha, why);
  if (m.spread < 0) {
    m.note = fmt::format("spread unknown ({} nights): not judged", m.nights);
    return;
  }
  // The smallest uniform change it calls SLOWER in 95 % of nights: past the threshold (the
  // tolerance, or where it leaves the test short of alpha, the change that reaches it) by the 95 %
  // quantile of T_n spreads, since tonight's own factor scatters around the change, counted in a
  // spread that is itself an estimate (7 nights: 2.6 spreads, where a normal z says 1.645). The
  // threshold alone is a coin toss: gate-aa's 10 % plant was caught in 1 of the 2 recorded nights
  // whose threshold promised it (2026-12-06, the development VM).
  // Held to k re-measures (compare/remeasure.hpp), a change is called only when all k + 1 runs
  // call it: each must then catch it in 95 %^(1/(k+1)) of nights for all of them to catch it in
  // 95 % (k = 1: sqrt(95 %); k = 2: 95 %^(1/3)).
  const double threshold_log =
      std::max(-std::log1p(-m.tolerance), few_nights_quantile(n, 1 - o.alpha / 2) * m.spread);
  m.min_detectable = detectable_change(threshold_log, m.spread, n, o.remeasured);
  m.note = fmt::format(
      "{}{}; judged against its spread across the history nights, {:.2f} % over {} nights{} "
      "({:g} spreads, at least {:g} %; significant beyond {:.1f} spreads, as a spread from {} "
      "nights is known); the change it catches in 95 % of nights counts {:.2f} spreads past "
      "that",
      why.empty() ? "" : why + "; ", what, 100 * m.spread, m.nights, how, o.machine_k,
      threshold_pct, few_nights_quantile(n, 1 - o.alpha / 2), n, detection_margin(n, o.remeasured));
}

void judge_machine_factor(MetricComparison& m, const MachineFactorEvidence& e,
                          const CompareOptions& o) {
  m.metric = "every point together";
  judge_together(m, e, o, o.machine_threshold_pct,
                 "machine-wide factor: the median over the points, taken out of each point and "
                 "roof for their relative verdicts");
}

Factors median_factors(const std::vector<PointRow>& rows, std::size_t nights,
                       std::size_t min_points, const std::function<bool(const PointRow&)>& counts) {
  Factors f;
  f.night.assign(nights, 0);
  f.night_se.assign(nights, 0);
  f.night_noise.assign(nights, 0);
  f.complete = true;
  std::vector<double> typical;  // per row: the history's median time
  for (const auto& r : rows) {
    std::vector<double> t;
    for (std::size_t j = 0; j < nights; ++j)
      if (r.nights[j]) t.push_back(r.nights[j]->median_s);
    typical.push_back(t.empty() ? 0 : median(t));
  }
  // A factor is a median over the points' ratios: its standard error is a median's, from the
  // ratios' scatter (median_log_se takes the ratios as its samples).
  for (std::size_t j = 0; j < nights; ++j) {
    std::vector<double> logs, ratios, noise;
    for (std::size_t i = 0; i < rows.size(); ++i)
      if (rows[i].nights[j] && counts(rows[i])) {
        ratios.push_back(rows[i].nights[j]->median_s / typical[i]);
        logs.push_back(std::log(ratios.back()));
        noise.push_back(median_log_se(rows[i].nights[j]->samples));
      }
    if (logs.size() < min_points) {
      f.complete = false;
      continue;
    }
    f.night[j] = median(logs);
    f.night_se[j] = median_log_se(ratios);
    f.night_noise[j] = median(noise);
  }
  std::vector<double> logs, noise;  // tonight, against the history's medians with the factors out
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (!rows[i].current->verified || !counts(rows[i])) continue;
    std::vector<double> t;
    for (std::size_t j = 0; j < nights; ++j)
      if (rows[i].nights[j]) t.push_back(rows[i].nights[j]->median_s * std::exp(-f.night[j]));
    if (t.empty()) continue;
    logs.push_back(std::log(rows[i].current->median_s / median(t)));
    noise.push_back(median_log_se(rows[i].current->samples));
  }
  if (logs.size() >= min_points) {
    f.current = median(logs);
    f.current_noise = median(noise);
  } else {
    f.complete = false;
  }
  return f;
}

Factors machine_factors(const std::vector<PointRow>& rows, std::size_t nights, bool normalise) {
  if (!normalise || rows.size() < kMinCommonPoints) {
    Factors none;
    none.night.assign(nights, 0);
    none.night_se.assign(nights, 0);
    none.night_noise.assign(nights, 0);
    return none;
  }
  // Points in a cache level the run does not own move with the neighbours, not with the machine
  // (compare/shared_level.hpp): the factor is the owned points' while enough of them remain.
  const std::size_t owned = std::size_t(std::count_if(
      rows.begin(), rows.end(), [](const PointRow& r) { return r.unowned_level.empty(); }));
  const bool owned_only = owned >= kMinCommonPoints;
  return median_factors(rows, nights, kMinCommonPoints, [owned_only](const PointRow& r) {
    return !owned_only || r.unowned_level.empty();
  });
}

MachineFactorEvidence evidence_of(const Factors& f) {
  MachineFactorEvidence e;
  e.history = f.night;
  e.history_se = median(f.night_se);
  e.tonight = f.current;
  e.tonight_noise = f.current_noise;
  e.history_noise = median(f.night_noise);
  return e;
}

MetricComparison machine_metric(const Factors& f, const CompareOptions& o) {
  MetricComparison m;
  judge_machine_factor(m, evidence_of(f), o);
  return m;
}

void explain_machine(Comparison& c, const std::vector<PointRow>& rows, const CompareOptions& o) {
  MetricComparison& m = *c.machine;
  ClockEvidence clocks;
  WaitSamples waits;
  for (const PointRow& r : rows) {
    if (r.current->verified) add_row(r, clocks, waits);
  }
  annotate_clocks(m, clocks, false);
  if (o.clock_limited_ambiguous) clock_limited_not_gated(m);
  if (!m.clock_limited) annotate_cpu_wait(m, waits.evidence());
  if (m.verdict == Verdict::kSame || m.change >= 0) return;
  // A roof lost what the night lost when its absolute slowdown is beyond the factor's tolerance
  // and beyond what its own spread across the nights tolerates (a roof fitted from few points
  // moves more between nights than the median over all of them).
  std::string lost;
  for (const auto& r : c.roofs)
    if (r.absolute_change && *r.absolute_change > -1 &&
        std::log1p(*r.absolute_change) < std::log1p(-std::max(m.tolerance, r.absolute_tolerance))) {
      c.machine_roofs.push_back(r.metric);
      lost += fmt::format("{}{} {:+.1f} %", lost.empty() ? "" : ", ", r.metric,
                          100 * *r.absolute_change);
    }
  m.note = fmt::format("every point moved {:+.1f} % together; {}; ", 100 * m.change,
                       lost.empty() ? "no roof lost as much in absolute terms"
                                    : "roofs lost in absolute terms: " + lost) +
           m.note;
}

}  // namespace ridgeline
