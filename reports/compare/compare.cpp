#include "compare/compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include "compare/mann_whitney.hpp"
#include "render/units.hpp"

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

}  // namespace

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::kFaster:
      return "FASTER";
    case Verdict::kSlower:
      return "SLOWER";
    case Verdict::kAmbiguous:
      return "AMBIGUOUS";
    case Verdict::kFailed:
      return "FAILED";
    case Verdict::kMissing:
      return "MISSING";
    default:
      return "SAME";
  }
}

int Comparison::count(Verdict v) const {
  int n = 0;
  for (const auto& m : roofs) n += m.verdict == v;
  for (const auto& m : points) n += m.verdict == v;
  return n;
}

int Comparison::regressions() const {
  return count(Verdict::kSlower) + count(Verdict::kFailed) + count(Verdict::kMissing);
}

Verdict decide(double change, double p_value, double min_p_value, const CompareOptions& o,
               std::string& note) {
  if (std::fabs(change) * 100 <= o.threshold_pct) return Verdict::kSame;
  if (p_value < o.alpha) return change < 0 ? Verdict::kSlower : Verdict::kFaster;
  note = min_p_value >= o.alpha
             ? fmt::format("too few samples: the test cannot reach p < {:g} (best possible {:.3g})",
                           o.alpha, min_p_value)
             : fmt::format("not significant (p = {:.3g} >= {:g})", p_value, o.alpha);
  return Verdict::kAmbiguous;
}

namespace {

MetricComparison missing(const std::string& metric, const std::string& baseline,
                         const std::string& why) {
  MetricComparison m;
  m.metric = metric;
  m.baseline = baseline;
  m.current = "–";
  m.change = -1;  // nothing measured is no throughput
  m.verdict = Verdict::kMissing;
  m.note = why;
  return m;
}

void compare_roofs(const GroupAnalysis& gb, const GroupAnalysis* gc, const CompareOptions& o,
                   Comparison& c) {
  const std::string group = gb.fit.space + "/" + gb.fit.dtype;
  if (!gb.fit.fit) return;  // nothing to hold the current file to
  const RoofFit& fb = *gb.fit.fit;
  if (!gc || !gc->fit.fit) {
    const std::string why = gc ? "no fit in the current file: " + gc->fit.not_fitted
                               : "no point of " + group + " in the current file";
    c.roofs.push_back(missing("P " + group, format_flops(fb.estimate.roof.peak_flops), why));
    c.roofs.push_back(missing("B " + group, format_bytes_per_s(fb.estimate.roof.bandwidth), why));
    return;
  }
  const RoofFit& fc = *gc->fit.fit;
  for (int which = 0; which < 2; ++which) {
    auto value = [which](const Roof& r) { return which == 0 ? r.peak_flops : r.bandwidth; };
    std::vector<double> ratios;
    const std::size_t n = std::min(fb.replicates.size(), fc.replicates.size());
    for (std::size_t i = 0; i < n; ++i)
      ratios.push_back(value(fc.replicates[i]) / value(fb.replicates[i]));
    MetricComparison m;
    m.metric = (which == 0 ? "P " : "B ") + group;
    const double vb = value(fb.estimate.roof), vc = value(fc.estimate.roof);
    m.baseline = which == 0 ? format_flops(vb) : format_bytes_per_s(vb);
    m.current = which == 0 ? format_flops(vc) : format_bytes_per_s(vc);
    m.change = vc / vb - 1;
    m.p_value = bootstrap_p(ratios);
    m.verdict = decide(m.change, m.p_value, 2 / (double(n) + 1), o, m.note);
    if (m.note.empty()) m.note = fmt::format("bootstrap of the fit, {} replicates", n);
    c.roofs.push_back(std::move(m));
  }
}

MetricComparison compare_point(const Point& pb, const Point& pc, const CompareOptions& o) {
  MetricComparison m;
  m.metric = pb.name;
  m.baseline = fmt::format("{:.4g} s", pb.median_s);
  m.current = fmt::format("{:.4g} s", pc.median_s);
  m.change = pb.median_s / pc.median_s - 1;  // throughput ∝ 1 / time
  const MannWhitney mw = mann_whitney(pb.samples, pc.samples);
  m.p_value = mw.p_value;
  m.verdict = decide(m.change, mw.p_value, mw.min_p_value, o, m.note);
  if (m.note.empty())
    m.note = fmt::format("Mann–Whitney U ({}), {} + {} samples", mw.exact ? "exact" : "normal",
                         pb.samples.size(), pc.samples.size());
  if (!pc.verified) {
    // Timed but wrong: whatever its speed, the gate fails on it.
    m.verdict = Verdict::kFailed;
    m.note =
        "verification failed: " + (pc.verify_error.empty() ? "no reason given" : pc.verify_error);
  }
  return m;
}

}  // namespace

Comparison compare_files(const FileAnalysis& baseline, const FileAnalysis& current,
                         const CompareOptions& o) {
  Comparison c;
  for (const auto& gb : baseline.groups)
    compare_roofs(gb, current.find(gb.fit.space, gb.fit.dtype), o, c);

  std::unordered_map<std::string, const Point*> current_points;
  for (const auto& p : current.results.points) current_points.emplace(p.name, &p);
  std::unordered_set<std::string> baseline_names;
  for (const auto& pb : baseline.results.points) {
    baseline_names.insert(pb.name);
    if (!pb.measured() || !pb.verified) {
      c.not_compared.push_back(pb.name + ": skipped or unverified in the baseline");
      continue;
    }
    const auto it = current_points.find(pb.name);
    const std::string before = fmt::format("{:.4g} s", pb.median_s);
    if (it == current_points.end())
      c.points.push_back(missing(pb.name, before, "not in the current file"));
    else if (!it->second->measured())
      c.points.push_back(
          missing(pb.name, before, "skipped in the current file: " + it->second->skipped_reason));
    else
      c.points.push_back(compare_point(pb, *it->second, o));
  }
  for (const auto& pc : current.results.points)
    if (!baseline_names.count(pc.name)) c.not_compared.push_back(pc.name + ": not in the baseline");
  return c;
}

}  // namespace ridgeline
