#pragma once
// The workload table: a model's decode and prefill phases placed on every host's measured roofs,
// hosts side by side (`place --workload` prints it, `report --workload` adds it as a section).
#include <string>
#include <vector>

#include "reports/fit/analysis.hpp"
#include "reports/workloads/workload_request.hpp"

namespace ridgeline {

// `hosts[i]` is labelled by its `label`; `heading` is the markdown heading's level ("##").
std::string render_workload_markdown(const WorkloadRequest& request,
                                     const std::vector<const FileAnalysis*>& hosts,
                                     const std::string& heading);

}  // namespace ridgeline
