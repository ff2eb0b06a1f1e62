#pragma once
// The CI regression gate: a change counts only when it is both large (beyond a tolerance) and
// significant (a test over repetitions or bootstrap replicates says it is real). The tolerance
// comes from the history of earlier nights: max(threshold, k × the metric's robust spread across
// them), because what moves between nights (page placement, a neighbour on the memory bus) is
// invisible to a test over one night's back-to-back repetitions. What the newest history night
// measured and verified must still be there and verify: a point or roof that disappeared, was
// skipped or failed its check is a regression too, never "not compared".
// The parts: comparison.hpp (what a comparison holds), gate_rule.hpp (the verdict rule),
// history.hpp (which nights), annotate.hpp (clock and CPU-wait notes); compare_history composes
// point_rows, compare_roofs, compare_points and machine_factor.
#include <vector>

#include "reports/compare/annotate.hpp"
#include "reports/compare/comparison.hpp"
#include "reports/compare/gate_rule.hpp"
#include "reports/compare/history.hpp"
#include "reports/fit/analysis.hpp"

namespace ridgeline {

// `history`: earlier nights of the same host, oldest first (at least one).
Comparison compare_history(const std::vector<const FileAnalysis*>& history,
                           const FileAnalysis& current, const CompareOptions& o);

inline Comparison compare_files(const FileAnalysis& baseline, const FileAnalysis& current,
                                const CompareOptions& o) {
  return compare_history({&baseline}, current, o);
}

}  // namespace ridgeline
