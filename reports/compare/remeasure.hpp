#pragma once
// A slowdown held to re-measures. On a shared host a neighbour's burst can halve one point for
// the seconds it lasts (issue 49: single DRAM-sized points at 0.38–0.57 × their median for one
// night, every repetition of a one-round profile inside the burst); a slower machine or slower
// code is slower again whenever the same sweep runs. So where the caller re-measured tonight
// (scripts/nightly does, only on a night the gate found slower: once right after, then after a
// wait), a SLOWER metric stands only where every re-measure, each judged against the same
// history, reproduces it: calls it SLOWER (or FAILED or MISSING), or reads its change at or
// beyond −tonight's tolerance. One re-measure that contradicts it (does not call it so and reads
// the metric within tonight's tolerance) makes it AMBIGUOUS "not reproduced", naming that
// re-measure, and it does not fail the gate. A re-measure too noisy to call the slowdown but
// still reading it leaves it SLOWER. FAILED and MISSING are never held to a re-measure: a wrong
// result or a lost point is not noise.
// Why a later one: a burst can outlast the gap to the re-measure right after (issue 49, the
// quick profile on the Xeon VM, one run ≈ 12 s: `fma fp64 k:8`, normally 103–131 GB/s, read 41.6
// in a night, 40.8 in its re-measure 24 s later, 61.3 in the next run and 120.8 in the one after,
// ~36 s after the first low reading); a re-measure after a wait separates it.
// What this can no longer catch: a slowdown that shows in fewer than all of the runs (an
// intermittent one). What it costs: a slower night runs the sweep once more per re-measure, and
// waits before each after the first; a green night runs it once. The machine-wide minimum
// detectable change printed with CompareOptions::remeasured = k is the one caught in all k + 1
// runs: each run must catch it in 0.95^(1/(k+1)) of nights (compare/machine_factor.hpp).
#include <string>
#include <vector>

#include "reports/compare/comparison.hpp"

namespace ridgeline {

// One re-measure of tonight: its label (the file) and its comparison with tonight's history.
struct RemeasureRun {
  std::string label;
  Comparison comparison;
};

// Holds every SLOWER metric of `night` (roofs, points, the machine-wide factor) to the same
// metric of each re-measure in `again` (in the order they were measured). Sets
// Comparison::remeasures and not_reproduced, and each such metric's remeasure and remeasures.
void hold_to_remeasures(Comparison& night, const std::vector<RemeasureRun>& again);

// The same for one re-measure.
void hold_to_remeasure(Comparison& night, const Comparison& again, const std::string& label);

}  // namespace ridgeline
