#include "reports/compare/compare_points.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>

#include "core/stats.hpp"
#include "reports/compare/annotate.hpp"
#include "reports/compare/gate_rule.hpp"
#include "reports/compare/mann_whitney.hpp"
#include "reports/compare/shared_level.hpp"

namespace ridgeline {

namespace {

// One point tonight against its history nights, the factors taken out; its p-value is not yet
// adjusted and its verdict not yet decided (but FAILED when tonight did not verify).
MetricComparison compare_point(const PointRow& r, const Factors& f, const CompareOptions& o) {
  const Point& pc = *r.current;
  MetricComparison m;
  std::vector<double> medians, pooled;
  for (std::size_t j = 0; j < r.nights.size(); ++j) {
    if (!r.nights[j]) continue;
    const double scale = std::exp(-f.night[j]);
    medians.push_back(r.nights[j]->median_s * scale);
    for (double t : r.nights[j]->samples) pooled.push_back(t * scale);
  }
  std::vector<double> tonight;
  for (double t : pc.samples) tonight.push_back(t * std::exp(-f.current));
  m.current_se = median_log_se(pc.samples);
  // Mann–Whitney's noise for a shift of the logs: σ √(1/m + 1/n), × √(π/3) for its efficiency
  // against a t-test.
  m.test_noise = m.current_se * std::sqrt(double(pc.samples.size())) / kMedianEfficiency *
                 std::sqrt((1 / double(std::max<std::size_t>(pooled.size(), 1)) +
                            1 / double(std::max<std::size_t>(tonight.size(), 1))) *
                           3.14159265 / 3);
  m.metric = r.baseline->name;
  m.level = r.level;
  // Times: the spread of 1 / t is that of t, so the history's medians serve as they are.
  set_history(m, medians, o);
  describe_shared_level(m, r, medians, f.current, o);
  m.baseline = fmt::format("{:.4g} s", m.baseline_value);
  m.current = fmt::format("{:.4g} s", pc.median_s);
  m.current_value = pc.median_s;
  m.change = m.baseline_value / (pc.median_s * std::exp(-f.current)) - 1;  // throughput ∝ 1/t
  const MannWhitney mw = mann_whitney(pooled, tonight);
  m.p_value = mw.p_value;
  m.min_p_value = mw.min_p_value;
  m.note = fmt::format("Mann–Whitney U ({}), {} + {} samples", mw.exact ? "exact" : "normal",
                       pooled.size(), tonight.size());
  if (!r.resized.empty()) m.note += "; compared per unit of work: " + r.resized;
  if (!pc.verified) {
    // Timed but wrong: whatever its speed, the gate fails on it.
    m.verdict = Verdict::kFailed;
    m.note =
        "verification failed: " + (pc.verify_error.empty() ? "no reason given" : pc.verify_error);
  }
  return m;
}

// Hundreds of points, each at alpha, would give some false discoveries every night: the p-values
// of the tested points (`tested`, indices into `points`) become q-values before the decision.
void adjust_and_decide(std::vector<MetricComparison>& points,
                       const std::vector<std::size_t>& tested, const CompareOptions& o) {
  std::vector<double> p;
  for (std::size_t i : tested) p.push_back(points[i].p_value);
  const std::vector<double> q = benjamini_hochberg(p);
  for (std::size_t j = 0; j < tested.size(); ++j) {
    MetricComparison& m = points[tested[j]];
    m.q_value = q[j];
    // The best a lone change can reach after the adjustment.
    m.min_p_value = std::min(1.0, m.min_p_value * double(tested.size()));
    m.note += "; " + spread_note(m);
  }
  decide_all(points, tested, tested.size(), o);
  for (std::size_t i : tested) judge_against_range(points[i]);
}

}  // namespace

void compare_points(const PointMatch& match, const Factors& f,
                    const std::map<std::string, Factors>& clock_driven, const CompareOptions& o,
                    Comparison& c) {
  std::vector<std::size_t> tested;  // points with a test's p-value, for Benjamini–Hochberg
  for (std::size_t k : match.order) {
    if (k >= match.rows.size()) {
      c.points.push_back(match.lost[~k]);
      continue;
    }
    const PointRow& r = match.rows[k];
    if (r.current->verified) tested.push_back(c.points.size());
    const auto clock = r.clock_driven ? clock_driven.find(r.current->space) : clock_driven.end();
    c.points.push_back(compare_point(r, clock != clock_driven.end() ? clock->second : f, o));
  }
  adjust_and_decide(c.points, tested, o);
}

void annotate_points(const PointMatch& match, Comparison& c) {
  for (std::size_t k = 0; k < match.order.size(); ++k) {
    if (match.order[k] >= match.rows.size()) continue;
    const PointRow& r = match.rows[match.order[k]];
    ClockEvidence clocks;
    WaitSamples waits;
    add_row(r, clocks, waits);
    annotate_clocks(c.points[k], clocks, r.current->family == "peak");
    annotate_cpu_wait(c.points[k], waits.evidence());
  }
}

}  // namespace ridgeline
