#pragma once
// The report's Methods: per file the profile and repetitions, then how the numbers in the report
// were made (timing, roofs, the fit and its intervals, points above roofs, P_matrix, memory
// levels). Every number and rule it states is read from the constant or table the code applies,
// so the text cannot drift from what was done.
#include <string>
#include <vector>

#include "reports/fit/analysis.hpp"

namespace ridgeline {

void methods_section(std::string& md, const std::vector<FileAnalysis>& files);

}  // namespace ridgeline
