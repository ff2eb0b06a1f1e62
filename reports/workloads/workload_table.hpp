#pragma once
// The workload table's content, before any formatting: every phase's counts and, per host, the
// roofs it was placed on and where it lands (render/workload_markdown.hpp formats it).
#include <optional>
#include <vector>

#include "reports/fit/analysis.hpp"
#include "reports/workloads/phase_counts.hpp"
#include "reports/workloads/phase_roofs.hpp"
#include "reports/workloads/speed_of_light.hpp"
#include "reports/workloads/workload_request.hpp"

namespace ridgeline {

struct WorkloadRow {
  PhaseCounts counts;
  std::vector<std::optional<PhasePlacement>> hosts;  // nullopt: that host's roofs not measured
};

struct WorkloadTable {
  std::vector<HostRoofs> roofs;   // per host, in the order given
  std::vector<WorkloadRow> rows;  // per phase shape (WorkloadRequest::shapes)
};

WorkloadTable build_workload_table(const WorkloadRequest& request,
                                   const std::vector<const FileAnalysis*>& hosts);

}  // namespace ridgeline
