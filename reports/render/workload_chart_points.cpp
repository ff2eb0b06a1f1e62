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
      const PhaseCounts c = count_phase(q.model, q.weights, q.kv_dtype, share.measured.shape);
      out.push_back(
          {hosts[h], roofs->space, roofs->dtype,
           ChartPoint{c.intensity(), c.flops / share.measured.median_s, false,
                      phase_label(share.measured.shape) + " " + share.measured.metric, true}});
    }
  }
  return out;
}

}  // namespace ridgeline
