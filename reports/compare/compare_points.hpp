#pragma once
// Point-by-point comparison: each probe point's median time tonight against the history's, tested
// with Mann–Whitney over the samples, adjusted over the points (Benjamini–Hochberg) and decided
// by the gate rule; then its own clocks and CPU waits annotate it.
#include <map>
#include <string>
#include <vector>

#include "reports/compare/comparison.hpp"
#include "reports/compare/machine_factor.hpp"
#include "reports/compare/point_rows.hpp"

namespace ridgeline {

// Appends a decided comparison per point of `match` to c.points, in the newest night's order
// (`match.order`): MISSING, FAILED, or a verdict with the factors taken out: a clock-driven
// point's (PointRow::clock_driven) its space's `clock_driven` factors where complete, any other
// point's the machine-wide `f`.
void compare_points(const PointMatch& match, const Factors& f,
                    const std::map<std::string, Factors>& clock_driven, const CompareOptions& o,
                    Comparison& c);

// Clocks and CPU waits of each compared point, from its own samples (c.points follows
// `match.order`).
void annotate_points(const PointMatch& match, Comparison& c);

}  // namespace ridgeline
