#pragma once
// A slowdown held to a re-measure. On a shared host a neighbour's burst can halve one point for
// the seconds it lasts (issue 49: single DRAM-sized points at 0.38–0.57 × their median for one
// night, every repetition of a one-round profile inside the burst); a slower machine or slower
// code is slower again when the same sweep runs right after. So where the caller re-measured
// tonight (scripts/nightly does, only on a night the gate found slower), a SLOWER metric stands
// unless the re-measure, judged against the same history, contradicts it: does not call it
// SLOWER (or FAILED or MISSING) and reads the metric within tonight's tolerance. Then it is
// AMBIGUOUS "not reproduced" and does not fail the gate. A re-measure too noisy to call the
// slowdown but still reading it leaves it SLOWER. FAILED and MISSING are never held to a
// re-measure: a wrong result or a lost point is not noise.
// What this can no longer catch: a slowdown that shows in one run of two (an intermittent one).
// What it costs: a slower night runs the sweep twice; the machine-wide minimum detectable change
// printed with CompareOptions::remeasured is the one caught in both runs
// (compare/machine_factor.hpp).
#include <string>

#include "reports/compare/comparison.hpp"

namespace ridgeline {

// Holds every SLOWER metric of `night` (roofs, points, the machine-wide factor) to the same
// metric of `again`, tonight's re-measure compared with the same history; `label` names the
// re-measure. Sets Comparison::remeasure and not_reproduced, and each such metric's remeasure.
void hold_to_remeasure(Comparison& night, const Comparison& again, const std::string& label);

}  // namespace ridgeline
