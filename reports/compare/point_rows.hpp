#pragma once
// Which probe points are compared: each point of the newest history night matched with
// tonight's and each history night's, the ones lost tonight (MISSING), and the ones not compared.
#include <cstddef>
#include <vector>

#include "reports/compare/comparison.hpp"
#include "reports/fit/analysis.hpp"
#include "results/results_model.hpp"

namespace ridgeline {

struct PointRow {
  const Point* baseline = nullptr;   // in the newest history night
  const Point* current = nullptr;    // measured tonight
  std::vector<const Point*> nights;  // per history night; null where not measured or verified
  // Where the point's working set lives (mark_levels, compare/shared_level.hpp): why the run does
  // not own its cache level (empty: it does); whether a bimodal history may make it a shared-level
  // point (a memory kernel in a cache level: never the DRAM plateau, a peak point or a library
  // call); tonight's DRAM rate of its traffic mix in byte/s (0: none measured).
  std::string unowned_level;
  bool range_judgeable = false;
  double dram_rate = 0;
};

struct PointMatch {
  std::vector<PointRow> rows;          // measured and verified in the baseline, measured tonight
  std::vector<MetricComparison> lost;  // MISSING points, in file order with the others below
  std::vector<std::size_t> order;      // per point of `newest` compared: row index or ~lost index
};

// Matches the points of the newest history night (`history.back()`); the ones the baseline
// skipped or did not verify go to c.not_compared.
PointMatch match_points(const std::vector<const FileAnalysis*>& history,
                        const FileAnalysis& current, Comparison& c);

// Tonight's points the newest history night does not have go to c.not_compared.
void note_new_points(const FileAnalysis& newest, const FileAnalysis& current, Comparison& c);

}  // namespace ridgeline
