#include "reports/compare/compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <unordered_map>
#include <unordered_set>

#include "reports/compare/compare_points.hpp"
#include "reports/compare/compare_roofs.hpp"
#include "reports/compare/machine_factor.hpp"
#include "reports/compare/mann_whitney.hpp"
#include "reports/compare/point_rows.hpp"
#include "reports/fit/roof_roles.hpp"

namespace ridgeline {

Comparison compare_history(const std::vector<const FileAnalysis*>& all_history,
                           const FileAnalysis& current, const CompareOptions& o) {
  Comparison c;
  c.night_cpu_wait = night_cpu_wait(current.results);
  const std::vector<const FileAnalysis*> history =
      quiet_history(all_history, o.min_history, c.busy_history);
  for (const FileAnalysis* h : all_history)
    c.quiet_history_nights += night_cpu_wait(h->results) < kBusyShare;
  for (const FileAnalysis* h : history) c.history.push_back(h->label);
  c.history_nights = int(history.size());
  c.gates_speed = c.history_nights >= o.min_history;
  if (history.empty()) return c;
  const FileAnalysis& newest = *history.back();

  std::vector<std::unordered_map<std::string, const Point*>> past(history.size());
  for (std::size_t i = 0; i < history.size(); ++i)
    for (const auto& p : history[i]->results.points) past[i].emplace(p.name, &p);
  std::unordered_map<std::string, const Point*> current_points;
  for (const auto& p : current.results.points) current_points.emplace(p.name, &p);
  std::unordered_set<std::string> baseline_names;
  std::vector<PointRow> rows;
  std::vector<MetricComparison> lost;  // MISSING points, in file order with the others below
  std::vector<std::size_t> order;      // per point of `newest` compared: row index or ~lost index
  for (const auto& pb : newest.results.points) {
    baseline_names.insert(pb.name);
    if (!pb.measured() || !pb.verified) {
      c.not_compared.push_back(pb.name + ": skipped or unverified in the baseline");
      continue;
    }
    PointRow row{&pb, nullptr, std::vector<const Point*>(history.size(), nullptr)};
    std::vector<double> medians;
    for (std::size_t j = 0; j < past.size(); ++j) {
      const auto it = past[j].find(pb.name);
      if (it == past[j].end() || !it->second->measured() || !it->second->verified) continue;
      row.nights[j] = it->second;
      medians.push_back(it->second->median_s);
    }
    const auto it = current_points.find(pb.name);
    const double before = median_of(medians);
    const std::string before_text = fmt::format("{:.4g} s", before);
    if (it == current_points.end() || !it->second->measured()) {
      lost.push_back(missing(pb.name, false, before_text, before,
                             it == current_points.end()
                                 ? "not in the current file"
                                 : "skipped in the current file: " + it->second->skipped_reason));
      order.push_back(~(lost.size() - 1));
      continue;
    }
    row.current = it->second;
    order.push_back(rows.size());
    rows.push_back(std::move(row));
  }

  // The factors need a history whose spread is known (3 nights), whatever --min-history says.
  const bool normalise = history.size() >= 3 && rows.size() >= kMinCommonPoints;
  const Factors f = machine_factors(rows, history.size(), normalise);
  if (normalise) c.machine = machine_metric(f, o);
  for (const auto& gb : newest.groups)
    compare_roofs(history, gb, current.find(gb.fit.space, gb.fit.dtype), f, o, c);

  std::vector<std::size_t> tested;  // points with a test's p-value, for Benjamini–Hochberg
  for (std::size_t k : order) {
    if (k >= rows.size()) {
      c.points.push_back(std::move(lost[~k]));
      continue;
    }
    const PointRow& r = rows[k];
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
    m.test_noise = m.current_se * std::sqrt(double(pc.samples.size())) / 1.2533 *
                   std::sqrt((1 / double(std::max<std::size_t>(pooled.size(), 1)) +
                              1 / double(std::max<std::size_t>(tonight.size(), 1))) *
                             3.14159265 / 3);
    m.metric = r.baseline->name;
    // Times: the spread of 1 / t is that of t, so the history's medians serve as they are.
    set_history(m, medians, o);
    m.baseline = fmt::format("{:.4g} s", m.baseline_value);
    m.current = fmt::format("{:.4g} s", pc.median_s);
    m.current_value = pc.median_s;
    m.change = m.baseline_value / (pc.median_s * std::exp(-f.current)) - 1;  // throughput ∝ 1/t
    const MannWhitney mw = mann_whitney(pooled, tonight);
    m.p_value = mw.p_value;
    m.min_p_value = mw.min_p_value;
    m.note = fmt::format("Mann–Whitney U ({}), {} + {} samples", mw.exact ? "exact" : "normal",
                         pooled.size(), tonight.size());
    if (!pc.verified) {
      // Timed but wrong: whatever its speed, the gate fails on it.
      m.verdict = Verdict::kFailed;
      m.note =
          "verification failed: " + (pc.verify_error.empty() ? "no reason given" : pc.verify_error);
    } else {
      tested.push_back(c.points.size());
    }
    c.points.push_back(std::move(m));
  }
  // Hundreds of points, each at alpha, would give some false discoveries every night.
  std::vector<double> p;
  for (std::size_t i : tested) p.push_back(c.points[i].p_value);
  const std::vector<double> q = benjamini_hochberg(p);
  for (std::size_t j = 0; j < tested.size(); ++j) {
    MetricComparison& m = c.points[tested[j]];
    m.q_value = q[j];
    // The best a lone change can reach after the adjustment.
    m.min_p_value = std::min(1.0, m.min_p_value * double(tested.size()));
    m.note += "; " + spread_note(m);
  }
  decide_all(c.points, tested, tested.size(), o);
  std::vector<std::size_t> roofs;
  for (std::size_t i = 0; i < c.roofs.size(); ++i)
    if (c.roofs[i].verdict != Verdict::kMissing) {
      c.roofs[i].note += "; " + spread_note(c.roofs[i]);
      roofs.push_back(i);
    }
  decide_all(c.roofs, roofs, 1, o);

  // Clocks: each point from its own telemetry, P from the group's peak points.
  for (std::size_t k = 0; k < order.size(); ++k) {  // c.points follows `order`
    if (order[k] >= rows.size()) continue;
    const PointRow& r = rows[order[k]];
    ClockEvidence e;
    add_tonight(e, *r.current);
    for (const Point* p : r.nights)
      if (p) add_history(e, *p);
    annotate_clocks(c.points[k], e, r.current->family == "peak");
  }
  for (auto& m : c.roofs) {
    // P from the group's peak points, P_matrix from its GEMMs on matrix units.
    const bool matrix = m.metric.rfind("P_matrix ", 0) == 0;
    if (!matrix && m.metric.rfind("P ", 0) != 0) continue;
    const std::string group = m.metric.substr(m.metric.find(' ') + 1);
    const auto in_group = [&group, matrix](const Point& p) {
      return (matrix ? is_tensor_point(p) : p.family == "peak") && p.measured() && p.verified &&
             p.space + "/" + p.dtype == group;
    };
    ClockEvidence e;
    for (const auto& p : current.results.points)
      if (in_group(p)) add_tonight(e, p);
    for (const FileAnalysis* h : history)
      for (const auto& p : h->results.points)
        if (in_group(p)) add_history(e, p);
    annotate_clocks(m, e, true);
  }
  // A busy machine: each point from its own waits, roofs from their group's points.
  for (std::size_t k = 0; k < order.size(); ++k) {
    if (order[k] >= rows.size()) continue;
    const PointRow& r = rows[order[k]];
    WaitSamples w;
    w.add_tonight(*r.current);
    for (const Point* p : r.nights)
      if (p) w.add_history(*p);
    annotate_cpu_wait(c.points[k], w.evidence());
  }
  for (auto& m : c.roofs) {
    if (m.verdict == Verdict::kMissing && !m.unfitted) continue;
    const std::string group = m.metric.substr(m.metric.find(' ') + 1);
    const bool matrix = m.metric.rfind("P_matrix ", 0) == 0;
    const auto in_group = [&group, matrix](const Point& p) {
      return (matrix ? is_tensor_point(p) && p.measured() && p.verified : p.fittable()) &&
             p.space + "/" + p.dtype == group;
    };
    WaitSamples w;
    for (const auto& p : current.results.points)
      if (in_group(p)) w.add_tonight(p);
    for (const FileAnalysis* h : history)
      for (const auto& p : h->results.points)
        if (in_group(p)) w.add_history(p);
    annotate_cpu_wait(m, w.evidence());
  }
  if (c.machine) explain_machine(c, rows, o);
  for (const auto& pc : current.results.points)
    if (!baseline_names.count(pc.name)) c.not_compared.push_back(pc.name + ": not in the baseline");
  return c;
}

}  // namespace ridgeline
