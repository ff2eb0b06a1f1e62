#include "reports/compare/level_factors.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <utility>

#include "reports/compare/annotate.hpp"
#include "reports/fit/roof_roles.hpp"

namespace ridgeline {

namespace {

// The level a row is judged with: "P" for a peak point, else its private level; empty for none.
std::string level_of(const PointRow& r) {
  if (roof_role(*r.current) == RoofRole::kPeak) return "P";
  return r.private_level.value_or("");
}

}  // namespace

std::vector<MetricComparison> level_metrics(const std::vector<PointRow>& rows,
                                            const MetricComparison& machine, std::size_t nights,
                                            const CompareOptions& o) {
  std::vector<std::pair<std::string, std::string>> levels;  // (space, level), first-named first
  for (const PointRow& r : rows) {
    const std::pair<std::string, std::string> key{r.current->space, level_of(r)};
    if (!key.second.empty() && std::find(levels.begin(), levels.end(), key) == levels.end())
      levels.push_back(key);
  }
  std::vector<MetricComparison> out;
  for (const auto& [space, level] : levels) {
    const auto member = [&space = space, &level = level](const PointRow& r) {
      return r.current->space == space && level_of(r) == level;
    };
    if (std::size_t(std::count_if(rows.begin(), rows.end(), member)) < kMinLevelPoints) continue;
    const Factors f = median_factors(rows, nights, kMinLevelPoints, member);
    MachineFactorEvidence e = evidence_of(f);
    // As measured a level moves with the whole night, and a whole night is judged by the
    // machine-wide factor: a level is never held tighter than it. Night 08 of
    // tests/data/gate-history (a slow phase, every point 14 % slower, SAME at 3.7 of the factor's
    // spreads) read its Serial L2 points -15.1 % against a level spread of 2.3 %.
    e.spread_floor = std::max(machine.spread, 0.0);
    e.spread_floor_what = "the machine-wide factor's";
    MetricComparison m;
    m.metric = level == "P" ? fmt::format("every {} peak point together", space)
                            : fmt::format("every {} {} point together", space, level);
    m.level = level;
    judge_together(m, e, o, o.threshold_pct,
                   fmt::format("the median over the {} of each one's change",
                               level == "P" ? "peak points" : level + " points"));
    ClockEvidence clocks;
    WaitSamples waits;
    for (const PointRow& r : rows)
      if (member(r) && r.current->verified) add_row(r, clocks, waits);
    annotate_clocks(m, clocks, level == "P");
    if (o.clock_limited_ambiguous) clock_limited_not_gated(m);
    if (!m.clock_limited) annotate_cpu_wait(m, waits.evidence());
    out.push_back(std::move(m));
  }
  return out;
}

void mark_clock_driven(std::vector<PointRow>& rows, const FileAnalysis& newest) {
  for (PointRow& r : rows) {
    const Point& p = *r.current;
    const GroupAnalysis* g = newest.find(p.space, p.dtype);
    const bool fitted = g && g->fit.fit && g->fit.fit->estimate.roof.bandwidth > 0;
    // A library call (a GEMM) is a ceiling, not a probe: its speed is its tiling's and its
    // caches' as much as the clock's (the quiet 25-night series' night 23 read
    // gemm/OpenMP/fp64/n:512 22 % slower against the clock-driven points, reproduced).
    const bool above_ridge =
        fitted && !library_ceiling(p.family) && p.intensity &&
        *p.intensity > g->fit.fit->estimate.roof.peak_flops / g->fit.fit->estimate.roof.bandwidth;
    r.clock_driven = !level_of(r).empty() || above_ridge;
  }
}

Factors clock_driven_factors(const std::vector<PointRow>& rows, std::size_t nights,
                             const std::string& space) {
  return median_factors(rows, nights, kMinCommonPoints, [&space](const PointRow& r) {
    return r.current->space == space && r.clock_driven;
  });
}

}  // namespace ridgeline
