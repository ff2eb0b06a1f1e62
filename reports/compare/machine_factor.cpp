#include "reports/compare/machine_factor.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace ridgeline {
double machine_tolerance(double spread, const CompareOptions& o) {
  return -std::expm1(-std::max(-std::log1p(-o.machine_threshold_pct / 100), o.machine_k * spread));
}

void judge_machine_factor(MetricComparison& m, const MachineFactorEvidence& e,
                          const CompareOptions& o) {
  m.metric = "every point together";
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
  m.test_noise = std::max(m.spread, 0.0);
  m.tolerance = machine_tolerance(std::max(m.spread, 0.0), o);
  // Identical history nights (spread 0) know the factor exactly: any change is real.
  m.p_value = m.q_value = m.spread > 0 ? std::erfc(std::fabs(e.tonight) / m.spread / std::sqrt(2.0))
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
  // The smallest uniform change it calls SLOWER: the tolerance, or where the floor leaves the
  // test short of alpha, the change that reaches it.
  m.min_detectable = std::max(m.tolerance, -std::expm1(-z_two_sided(o.alpha) * m.spread));
  m.note = fmt::format(
      "{}machine-wide factor: the median over the points, taken out of each point and roof for "
      "their relative verdicts; judged against its spread across the history nights, {:.2f} % "
      "over {} nights{} ({:g} spreads, at least {:g} %)",
      why.empty() ? "" : why + "; ", 100 * m.spread, m.nights, how, o.machine_k,
      o.machine_threshold_pct);
}

}  // namespace ridgeline
