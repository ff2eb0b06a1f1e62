#include "reports/workloads/engine_share.hpp"

namespace ridgeline {
namespace {

bool same_shape(const PhaseShape& a, const PhaseShape& b) {
  return a.phase == b.phase && a.tokens == b.tokens && a.context == b.context;
}

}  // namespace

std::vector<EngineShareRow> engine_shares(const WorkloadRequest& q, const WorkloadTable& t) {
  std::vector<EngineShareRow> out;
  for (const MeasuredPhase& m : q.measured_shapes.mapped) {
    EngineShareRow row{m, {}};
    const WorkloadRow* placed = nullptr;
    for (const WorkloadRow& r : t.rows)
      if (same_shape(r.counts.shape, m.shape)) placed = &r;
    for (std::size_t h = 0; h < t.roofs.size(); ++h) {
      const auto& p = placed ? placed->hosts[h] : std::nullopt;
      if (!p) {
        row.hosts.push_back(std::nullopt);
        continue;
      }
      // A decode step of b sequences makes b tokens, a prefill of T consumes T: either way the
      // phase's time at the speed of light is its tokens over the tokens per second.
      const double tokens = m.shape.tokens;
      HostShare s;
      s.bound_s = {tokens / p->tokens_per_s.value,
                   {tokens / p->tokens_per_s.ci.high, tokens / p->tokens_per_s.ci.low}};
      s.share = s.bound_s.value / m.median_s;
      s.above_bound = m.median_s < s.bound_s.ci.low;
      row.hosts.push_back(s);
    }
    out.push_back(std::move(row));
  }
  return out;
}

}  // namespace ridgeline
