#include "reports/compare/compare_roofs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/stats.hpp"
#include "core/units.hpp"
#include "reports/compare/annotate.hpp"
#include "reports/compare/gate_rule.hpp"
#include "reports/fit/roof_roles.hpp"

namespace ridgeline {
namespace {

// Two-sided bootstrap p-value of "the ratio is 1", from paired replicates of both fits.
double bootstrap_p(const std::vector<double>& ratios) {
  if (ratios.empty()) return 1;
  double below = 0, above = 0;
  for (double r : ratios) below += r <= 1, above += r >= 1;
  const double n = double(ratios.size());
  return std::min(1.0, 2 * (std::min(below, above) + 1) / (n + 1));
}

enum class RoofKind { kPeak, kBandwidth, kRead, kMatrix };

struct RoofMetric {
  RoofKind kind;
  const char* prefix;
};
constexpr RoofMetric kRoofMetrics[] = {{RoofKind::kPeak, "P "},
                                       {RoofKind::kBandwidth, "B "},
                                       {RoofKind::kRead, "B_read "},
                                       {RoofKind::kMatrix, "P_matrix "}};

// Roofs fitted as one level (B_read, P_matrix) carry an interval but no joint replicates with P
// and B: their test is a normal approximation from the intervals.
bool level_roof(RoofKind kind) { return kind == RoofKind::kRead || kind == RoofKind::kMatrix; }

// The metric's value in one file's group; 0 when that file has none.
double roof_value(const GroupAnalysis* g, RoofKind kind) {
  if (g && kind == RoofKind::kMatrix) return g->fit.matrix ? g->fit.matrix->peak.value : 0;
  if (!g || !g->fit.fit) return 0;
  switch (kind) {
    case RoofKind::kPeak:
      return g->fit.fit->estimate.roof.peak_flops;
    case RoofKind::kBandwidth:
      return g->fit.fit->estimate.roof.bandwidth;
    default:
      return g->fit.read_bandwidth ? g->fit.read_bandwidth->value : 0;
  }
}

std::string format_roof(RoofKind kind, double v) {
  return kind == RoofKind::kPeak || kind == RoofKind::kMatrix ? format_flops(v)
                                                              : format_bytes_per_s(v);
}

// Relative standard error of a level roof (B_read, P_matrix) from its 95 % interval.
double level_log_se(const GroupAnalysis* g, RoofKind kind) {
  if (!g) return 0;
  const LevelFit* level = kind == RoofKind::kMatrix
                              ? (g->fit.matrix ? &g->fit.matrix->peak : nullptr)
                              : (g->fit.read_bandwidth ? &*g->fit.read_bandwidth : nullptr);
  if (!level) return 0;
  const Interval& ci = level->ci;
  return ci.low > 0 && ci.high > ci.low ? std::log(ci.high / ci.low) / 3.92 : 0;
}

// B_read and P_matrix (`m` holds the change and spread): a normal approximation from both
// intervals and the night-to-night spread. `vc`: tonight's value with its factor taken out.
void test_level_roof(MetricComparison& m, RoofKind kind, const GroupAnalysis& gb,
                     const GroupAnalysis* gc, double vc) {
  const double se2 = std::pow(level_log_se(gc, kind), 2) + std::pow(level_log_se(&gb, kind), 2) +
                     std::pow(std::max(m.spread, 0.0), 2);
  const double z = se2 > 0 ? std::fabs(std::log(vc / m.baseline_value)) / std::sqrt(se2) : 0;
  m.p_value = se2 > 0 ? std::erfc(z / std::sqrt(2.0)) : 1;
  m.min_p_value = se2 > 0 ? 0 : 1;
  m.test_noise = std::sqrt(se2);
  m.note = "normal approximation from the intervals";
}

// P and B: replicates of the current fit against those of the history nights in turn, so the
// ratios carry the night-to-night variation the history shows.
void test_fitted_roof(MetricComparison& m, RoofKind kind,
                      const std::vector<const GroupAnalysis*>& past, const GroupAnalysis& gc,
                      const Factors& f) {
  const auto value = [kind](const Roof& r) {
    return kind == RoofKind::kPeak ? r.peak_flops : r.bandwidth;
  };
  std::vector<std::pair<const RoofFit*, double>> fits;  // with the night's factor
  for (std::size_t j = 0; j < past.size(); ++j)
    if (past[j] && past[j]->fit.fit && !past[j]->fit.fit->replicates.empty())
      fits.emplace_back(&*past[j]->fit.fit, f.night[j]);
  std::vector<double> ratios;
  const auto& rc = gc.fit.fit->replicates;
  for (std::size_t i = 0; i < rc.size() && !fits.empty(); ++i) {
    const auto& [fb, factor] = fits[i % fits.size()];
    const auto& rb = fb->replicates;
    ratios.push_back(value(rc[i]) * std::exp(f.current - factor) / value(rb[i % rb.size()]));
  }
  m.p_value = bootstrap_p(ratios);
  m.test_noise = std::max(0.0, robust_log_spread(ratios));
  m.min_p_value = ratios.empty() ? 1 : 2 / (double(ratios.size()) + 1);
  m.note = fmt::format("bootstrap of the fits, {} replicates", ratios.size());
}

// The roofs of one group (`gb`, of the newest history night) against tonight's (`gc`), tested
// but not yet decided: decide_roofs floors their spreads with each other's.
void compare_group_roofs(const std::vector<const FileAnalysis*>& history, const GroupAnalysis& gb,
                         const GroupAnalysis* gc, const Factors& machine,
                         const std::map<std::string, Factors>& clock_driven,
                         const CompareOptions& o, Comparison& c) {
  const std::string group = gb.fit.space + "/" + gb.fit.dtype;
  // Without a fit in the newest night only P_matrix (a GEMM alone, tf32) can be held to.
  if (!gb.fit.fit && !gb.fit.matrix) return;
  std::vector<const GroupAnalysis*> past;
  for (const FileAnalysis* h : history) past.push_back(h->find(gb.fit.space, gb.fit.dtype));
  const auto clock = clock_driven.find(gb.fit.space);
  for (const RoofMetric& rm : kRoofMetrics) {
    const double newest = roof_value(&gb, rm.kind);
    if (newest <= 0) continue;  // e.g. no B_read in the newest night
    // P moves with the clock-driven points, not with the DRAM points that the machine-wide factor
    // follows on a VM (compare/level_factors.hpp, clock_driven_factors).
    const bool by_clock = rm.kind == RoofKind::kPeak && clock != clock_driven.end();
    const Factors& f = by_clock ? clock->second : machine;
    // A night slower as a whole had lower roofs: throughputs × exp(factor) take that out.
    std::vector<double> values;
    for (std::size_t j = 0; j < past.size(); ++j)
      if (roof_value(past[j], rm.kind) > 0)
        values.push_back(roof_value(past[j], rm.kind) * std::exp(f.night[j]));
    std::vector<double> raw;  // as measured, for the absolute change
    for (const GroupAnalysis* g : past)
      if (roof_value(g, rm.kind) > 0) raw.push_back(roof_value(g, rm.kind));
    const std::string metric = rm.prefix + group;
    const double vc_raw = roof_value(gc, rm.kind), vc = vc_raw * std::exp(f.current);
    if (vc_raw <= 0) {
      const std::string why = !gc ? "no point of " + group + " in the current file"
                              : rm.kind == RoofKind::kMatrix
                                  ? "no verified GEMM on matrix units in the current file"
                              : !gc->fit.fit ? "no fit in the current file: " + gc->fit.not_fitted
                                             : "no DRAM-sized read point in the current file";
      c.roofs.push_back(
          missing(metric, true, format_roof(rm.kind, median(values)), median(values), why));
      c.roofs.back().absolute_baseline_value = median(raw);
      c.roofs.back().unfitted = gc && rm.kind != RoofKind::kMatrix && !gc->fit.fit;
      continue;
    }
    MetricComparison m;
    m.metric = metric;
    m.roof = true;
    set_history(m, values, o);
    m.absolute_baseline_value = median(raw);
    m.absolute_baseline = format_roof(rm.kind, m.absolute_baseline_value);
    m.absolute_change = vc_raw / m.absolute_baseline_value - 1;
    const double raw_spread = robust_log_spread(raw);
    if (raw_spread >= 0) m.absolute_tolerance = machine_tolerance(raw_spread, o);
    m.current_value = vc_raw;
    m.baseline = format_roof(rm.kind, m.baseline_value);
    m.current = format_roof(rm.kind, vc_raw);
    m.change = vc / m.baseline_value - 1;
    if (level_roof(rm.kind))
      test_level_roof(m, rm.kind, gb, gc, vc);
    else
      test_fitted_roof(m, rm.kind, past, *gc, f);
    if (by_clock)
      m.note += "; relative to the factor of " + gb.fit.space +
                "'s points that move with the clock (peak, private caches, above the ridge)";
    m.q_value = m.p_value;
    c.roofs.push_back(std::move(m));  // decided with the others' spreads (decide_all)
  }
}

void decide_roofs(const CompareOptions& o, Comparison& c) {
  std::vector<std::size_t> roofs;
  for (std::size_t i = 0; i < c.roofs.size(); ++i)
    if (c.roofs[i].verdict != Verdict::kMissing) {
      c.roofs[i].note += "; " + spread_note(c.roofs[i]);
      roofs.push_back(i);
    }
  decide_all(c.roofs, roofs, 1, o, /*few_nights=*/true);
}

}  // namespace

void compare_roofs(const std::vector<const FileAnalysis*>& history, const FileAnalysis& current,
                   const Factors& f, const std::map<std::string, Factors>& clock_driven,
                   const CompareOptions& o, Comparison& c) {
  for (const auto& gb : history.back()->groups)
    compare_group_roofs(history, gb, current.find(gb.fit.space, gb.fit.dtype), f, clock_driven, o,
                        c);
  decide_roofs(o, c);
}

void annotate_roofs(const std::vector<const FileAnalysis*>& history, const FileAnalysis& current,
                    Comparison& c) {
  for (auto& m : c.roofs) {
    // Clocks: P from the group's peak points, P_matrix from its GEMMs on matrix units.
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
  for (auto& m : c.roofs) {
    // A busy machine: each roof from its group's points.
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
}

}  // namespace ridgeline
