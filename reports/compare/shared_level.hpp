#pragma once
// Points in a cache level the run does not own are judged against the range their history shows,
// not against its median. On a cloud VM whose L3 is shared with other tenants, a set that lives
// there has two states as neighbours come and go (issue 49: 40–58 % between nights on a 2-vCPU
// EPYC VM, failing 3 of 5 A/A nights); the median of such a history is neither state.
//
// The rule: within the range of the history's nights (widened by the point's tolerance) is SAME
// "varied with neighbours". Where the cache list says the level is not the run's, below every
// history night but not below tonight's DRAM rate of the point's traffic mix is AMBIGUOUS:
// reported, not gated, because a neighbour holding the whole level leaves the set to DRAM, and a
// first such night looks just like that. Below both (below the range, for a level the run owns
// whose history is bimodal), the usual verdict stands: SLOWER fails the gate. So what the gate can
// no longer catch at such a point is a slowdown that stays within its history's range, or above
// tonight's DRAM rate for its traffic; the compare report says so ("What this history lets the gate
// catch").
//
// Which points: those the cache list places in a level the run does not own
// (compare/cache_ownership.hpp), and points in a cache level whose history is visibly bimodal
// (two clusters of at least two nights whose means are farther apart than --threshold and, by
// Ashman's D, cleanly separated). Never DRAM-plateau points, peak points (P) or library calls: the
// machine's memory and compute stay failable by the usual rule. Shared-level points are also left
// out of the machine-wide factor while enough owned points remain (compare/machine_factor.hpp):
// they move with the neighbours, not with the machine.
#include <vector>

#include "reports/compare/comparison.hpp"
#include "reports/compare/point_rows.hpp"
#include "results/results_model.hpp"

namespace ridgeline {

// Sets each row's level, unowned_level, range_judgeable and dram_rate from tonight's file.
void mark_levels(PointMatch& match, const Results& current);

// Two clusters in a history of positive values: `gap`, their separation as a relative change (0
// when the history is not bimodal); `spread`, the robust spread of each night around its own
// cluster's median (< 0 when not bimodal).
struct HistoryModes {
  double gap = 0;
  double spread = -1;
};
HistoryModes history_modes(const std::vector<double>& values, double threshold_pct);

// Before the decision: fills m.shared for a shared-level row (`medians`: the history nights'
// median times with their factors taken out; `current_factor`: tonight's, in log units) and,
// where the history is bimodal, replaces m.spread with the spread within its clusters, so that
// the tolerance is one state's noise and not the distance between the states.
void describe_shared_level(MetricComparison& m, const PointRow& r,
                           const std::vector<double>& medians, double current_factor,
                           const CompareOptions& o);

// After the usual decision (decide_all): the verdict of a shared-level point against its
// history's range and tonight's DRAM rate, with the note saying which; its min_detectable becomes
// the slowdown that leaves both behind.
void judge_against_range(MetricComparison& m);

}  // namespace ridgeline
