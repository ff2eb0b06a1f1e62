#include "reports/render/workload_chart_points.hpp"

#include <fmt/format.h>

#include "reports/workloads/engine_share.hpp"
#include "reports/workloads/workload_table.hpp"

namespace ridgeline {
namespace {

std::string phase_label(const PhaseShape& s) {
  return s.phase == Phase::kDecode ? fmt::format("decode b={} L={}", s.tokens, s.context)
                                   : fmt::format("prefill T={}", s.tokens);
}

}  // namespace

std::vector<MarkedPoint> workload_chart_points(const WorkloadRequest& q,
                                               const std::vector<const FileAnalysis*>& hosts) {
  const WorkloadTable table = build_workload_table(q, hosts);
  std::vector<MarkedPoint> out;
  for (std::size_t h = 0; h < hosts.size(); ++h) {
    const auto& roofs = table.roofs[h].roofs;
    if (!roofs) continue;
    for (const WorkloadRow& row : table.rows) {
      if (!row.hosts[h]) continue;
      out.push_back({hosts[h], roofs->space, roofs->dtype,
                     ChartPoint{row.counts.intensity(), row.hosts[h]->attainable, false,
                                phase_label(row.counts.shape) + " bound", true}});
    }
    for (const EngineShareRow& share : engine_shares(q, table)) {
      if (!share.hosts[h]) continue;
      const MeasuredPhase& m = share.measured;
      // A whole request: its steps and its prefill together, at their joint intensity.
      const PhaseCounts c = count_phase(q.model, q.weights, q.kv_dtype, m.shape);
      double flops = m.steps * c.flops, bytes = m.steps * c.bytes();
      std::string label = phase_label(m.shape);
      if (m.first) {
        const PhaseCounts p = count_phase(q.model, q.weights, q.kv_dtype, *m.first);
        flops += p.flops;
        bytes += p.bytes();
        label = fmt::format("request b={} T={} O={}", m.shape.tokens, m.first->tokens, m.steps + 1);
      }
      out.push_back(
          {hosts[h], roofs->space, roofs->dtype,
           ChartPoint{flops / bytes, flops / m.median_s, false, label + " " + m.metric, true}});
    }
  }
  return out;
}

}  // namespace ridgeline
