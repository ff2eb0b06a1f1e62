#include "reports/workloads/workload_table.hpp"

namespace ridgeline {

WorkloadTable build_workload_table(const WorkloadRequest& q,
                                   const std::vector<const FileAnalysis*>& hosts) {
  WorkloadTable t;
  for (const FileAnalysis* f : hosts)
    t.roofs.push_back(
        host_roofs(*f, q.weights.dtype, q.model.activation_dtype, q.compute_dtype, q.space));
  for (const PhaseShape& s : q.shapes()) {
    WorkloadRow row{count_phase(q.model, q.weights, q.kv_dtype, s), {}};
    for (const HostRoofs& h : t.roofs)
      row.hosts.push_back(h.roofs ? std::optional<PhasePlacement>(place_phase(row.counts, *h.roofs))
                                  : std::nullopt);
    t.rows.push_back(std::move(row));
  }
  return t;
}

}  // namespace ridgeline
