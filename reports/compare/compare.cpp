#include "compare/compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

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

Comparison compare_files(const FileAnalysis& baseline, const FileAnalysis& current,
                         const CompareOptions& o) {
  Comparison c;
  for (const auto& gb : baseline.groups) {
    const GroupAnalysis* gc = current.find(gb.fit.space, gb.fit.dtype);
    const std::string group = gb.fit.space + "/" + gb.fit.dtype;
    if (!gb.fit.fit || !gc || !gc->fit.fit) {
      if (gb.fit.fit) c.not_compared.push_back("P and B " + group + ": no fit in the current file");
      continue;
    }
    const RoofFit& fb = *gb.fit.fit;
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
  std::map<std::string, const Point*> current_points;
  for (const auto& p : current.results.points) current_points[p.name] = &p;
  for (const auto& pb : baseline.results.points) {
    const auto it = current_points.find(pb.name);
    const Point* pc = it == current_points.end() ? nullptr : it->second;
    if (!pc) {
      c.not_compared.push_back(pb.name + ": not in the current file");
      continue;
    }
    if (!pb.measured() || !pb.verified || !pc->measured() || !pc->verified) {
      c.not_compared.push_back(pb.name + ": skipped or unverified in one of the files");
      continue;
    }
    MetricComparison m;
    m.metric = pb.name;
    m.baseline = fmt::format("{:.4g} s", pb.median_s);
    m.current = fmt::format("{:.4g} s", pc->median_s);
    m.change = pb.median_s / pc->median_s - 1;  // throughput ∝ 1 / time
    const MannWhitney mw = mann_whitney(pb.samples, pc->samples);
    m.p_value = mw.p_value;
    m.verdict = decide(m.change, mw.p_value, mw.min_p_value, o, m.note);
    if (m.note.empty())
      m.note = fmt::format("Mann–Whitney U ({}), {} + {} samples", mw.exact ? "exact" : "normal",
                           pb.samples.size(), pc->samples.size());
    c.points.push_back(std::move(m));
  }
  for (const auto& pc : current.results.points)
    if (std::none_of(baseline.results.points.begin(), baseline.results.points.end(),
                     [&pc](const Point& p) { return p.name == pc.name; }))
      c.not_compared.push_back(pc.name + ": not in the baseline");
  return c;
}

}  // namespace ridgeline
