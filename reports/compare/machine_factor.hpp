#pragma once
// The verdict on a whole night: the machine-wide factor (the median over the points of each
// point's log time against the history's) judged against its own spread across the history
// nights. Taking the factor out of every point tells a code change from a shared machine's slow
// phase; judging the factor itself catches what moves every roof alike (a driver that costs
// bandwidth, a memory clock stuck low, a card that throttles every night).
#include <vector>

#include "reports/compare/compare.hpp"

namespace ridgeline {

// Factors in log units (log of time over the history's; > 0 is slower): per history night
// against the history's medians, and tonight's. `history_se`: the history nights' median
// standard error of their factor, from the scatter of a night's point ratios around their median
// (as a median's error). `*_noise`: a night's median over its points of the standard error of a
// point's median from its own repetitions (tonight's, and the history nights' median).
struct MachineFactorEvidence {
  std::vector<double> history;
  double history_se = 0;
  double tonight = 0;
  double tonight_noise = 0, history_noise = 0;
};

// The factor's tolerance and verdict. Spread: the robust spread of the history's factors, at
// least the history nights' standard error (3 to 7 nights can sit closer together than their own
// factors are known, by luck), × tonight's repetition noise over the history's where tonight's
// is larger: a slow phase of a shared machine is noisy (night-08 of tests/data/gate-history,
// 14 % slower than the seven before it, had 2.7× their noise), and a night r times noisier knows
// its factor r times less well. The tolerance is the larger of --machine-threshold and
// --machine-k spreads; beyond it, the change is tested with a normal z in those spreads. Fills
// spread, tolerance, p, verdict, min_detectable and the note.
// The slowdown `spread` (of logs) tolerates under the machine-wide rule: the larger of
// --machine-threshold and --machine-k spreads. Also what a roof's own absolute change is held to.
double machine_tolerance(double spread, const CompareOptions& o);

void judge_machine_factor(MetricComparison& m, const MachineFactorEvidence& e,
                          const CompareOptions& o);

}  // namespace ridgeline
