#pragma once
// The engine's measured times beside the speed of light of the same shapes (`place --measured`):
// what the engine ran, each mapped phase's median and p99 against each host's bound and the share
// of it reached, and the phases that could not be mapped, named.
#include <string>
#include <vector>

#include "reports/fit/analysis.hpp"
#include "reports/workloads/engine_share.hpp"

namespace ridgeline {

// Empty when the request has no engine run.
std::string render_engine_section(const WorkloadRequest& request,
                                  const std::vector<const FileAnalysis*>& hosts,
                                  const WorkloadTable& table);

// One line per measured phase faster than its bound on some host (an error to chase): the file,
// the field and both times. Empty when none is.
std::vector<std::string> engine_bound_errors(const WorkloadRequest& request,
                                             const std::vector<const FileAnalysis*>& hosts,
                                             const WorkloadTable& table);

}  // namespace ridgeline
