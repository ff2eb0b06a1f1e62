#pragma once
// The report's summary: per file × space × dtype the fitted roofs with their intervals, then the
// same roofs against the machine sheet and at two sample intensities; below them the sheets the
// percentages refer to, the hosts no sheet describes and what the tables leave out.
#include <string>
#include <vector>

#include "reports/fit/analysis.hpp"
#include "reports/machines/machine_profile.hpp"

namespace ridgeline {

void summary_tables(std::string& md, const std::vector<FileAnalysis>& files,
                    const std::vector<MachineProfile>& profiles);

}  // namespace ridgeline
