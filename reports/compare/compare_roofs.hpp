#pragma once
// Roof by roof: P, B, B_read and P_matrix of each space × dtype, tonight against the history.
#include <vector>

#include "reports/compare/comparison.hpp"
#include "reports/compare/machine_factor.hpp"
#include "reports/fit/analysis.hpp"

namespace ridgeline {

void compare_roofs(const std::vector<const FileAnalysis*>& history, const GroupAnalysis& gb,
                   const GroupAnalysis* gc, const Factors& f, const CompareOptions& o,
                   Comparison& c);

}  // namespace ridgeline
