#pragma once
// The report's section on an MPI job: each device's roofs, what each node and the whole job
// deliver, and the devices that fall below their peers.
#include <string>
#include <vector>

#include "reports/fit/analysis.hpp"

namespace ridgeline {

// `devices`: the job's per-device analyses (results/device_split.hpp), in rank order.
std::string render_devices_markdown(const std::string& file, int ranks, const std::string& mode,
                                    const std::vector<const FileAnalysis*>& devices);

}  // namespace ridgeline
