#include "reports/workloads/engine_share.hpp"

namespace ridgeline {
namespace {

bool same_shape(const PhaseShape& a, const PhaseShape& b) {
  return a.phase == b.phase && a.tokens == b.tokens && a.context == b.context;
}

const WorkloadRow* placed_row(const WorkloadTable& t, const PhaseShape& s) {
  const WorkloadRow* placed = nullptr;
  for (const WorkloadRow& r : t.rows)
    if (same_shape(r.counts.shape, s)) placed = &r;
  return placed;
}

// A phase's time at the speed of light: a decode step of b sequences makes b tokens, a prefill
// of T consumes T; either way its tokens over the tokens per second (the interval's fast end
// from the fast end of the rate).
RoofValue phase_time(const PhaseShape& s, const PhasePlacement& p) {
  const double tokens = s.tokens;
  return {tokens / p.tokens_per_s.value,
          {tokens / p.tokens_per_s.ci.high, tokens / p.tokens_per_s.ci.low}};
}

}  // namespace

std::vector<EngineShareRow> engine_shares(const WorkloadRequest& q, const WorkloadTable& t) {
  std::vector<EngineShareRow> out;
  for (const MeasuredPhase& m : q.measured_shapes.mapped) {
    EngineShareRow row{m, {}};
    const WorkloadRow* placed = placed_row(t, m.shape);
    const WorkloadRow* first = m.first ? placed_row(t, *m.first) : nullptr;
    for (std::size_t h = 0; h < t.roofs.size(); ++h) {
      const auto& p = placed ? placed->hosts[h] : std::nullopt;
      const auto& f = first ? first->hosts[h] : std::nullopt;
      if (!p || (m.first && !f)) {
        row.hosts.push_back(std::nullopt);
        continue;
      }
      // A whole request: its steps, then its prefill; the intervals' ends added alike.
      const double n = m.steps;
      const RoofValue step = phase_time(m.shape, *p);
      const RoofValue prefill = f ? phase_time(*m.first, *f) : RoofValue{};
      HostShare s;
      s.bound_s = {n * step.value + prefill.value,
                   {n * step.ci.low + prefill.ci.low, n * step.ci.high + prefill.ci.high}};
      s.share = s.bound_s.value / m.median_s;
      s.above_bound = m.median_s < s.bound_s.ci.low;
      row.hosts.push_back(s);
    }
    out.push_back(std::move(row));
  }
  return out;
}

}  // namespace ridgeline
