#pragma once
// The report's roof sections: per space × dtype the fitted roofs (P, B, B_read) with their
// intervals from repetitions, the spread across the points that define them and what defined
// them; the named ceilings beside them with their byte convention; and every point that sits
// above its roof.
#include <string>
#include <vector>

#include "reports/fit/analysis.hpp"

namespace ridgeline {

void roofs_and_ceilings(std::string& md, const std::vector<FileAnalysis>& files);
void points_above_roofs(std::string& md, const std::vector<FileAnalysis>& files);

}  // namespace ridgeline
