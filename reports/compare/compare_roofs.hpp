#pragma once
// Roof by roof: P, B, B_read and P_matrix of each space × dtype, tonight against the history,
// tested by a bootstrap of the fits (P, B) or from the intervals (B_read, P_matrix), decided by
// the gate rule, and annotated from the clocks and CPU waits of their group's points.
#include <map>
#include <string>
#include <vector>

#include "reports/compare/comparison.hpp"
#include "reports/compare/machine_factor.hpp"
#include "reports/fit/analysis.hpp"

namespace ridgeline {

// Appends a decided comparison per roof of the newest history night (`history.back()`) to
// c.roofs, with the factors taken out: P's, its space's clock-driven points' (`clock_driven`, by
// space; compare/level_factors.hpp) where complete, every other roof's (and P's otherwise) `f`.
void compare_roofs(const std::vector<const FileAnalysis*>& history, const FileAnalysis& current,
                   const Factors& f, const std::map<std::string, Factors>& clock_driven,
                   const CompareOptions& o, Comparison& c);

// Clocks (P, P_matrix) and CPU waits of each roof, over its group's points.
void annotate_roofs(const std::vector<const FileAnalysis*>& history, const FileAnalysis& current,
                    Comparison& c);

}  // namespace ridgeline
