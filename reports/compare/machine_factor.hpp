#pragma once
// The verdict on a whole night: the machine-wide factor (the median over the points of each
// point's log time against the history's) judged against its own spread across the history
// nights. Taking the factor out of every point tells a code change from a shared machine's slow
// phase; judging the factor itself catches what moves every roof alike (a driver that costs
// bandwidth, a memory clock stuck low, a card that throttles every night). Here too: the factors
// computed from the matched points, and what explains a machine-wide slowdown.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "reports/compare/compare.hpp"
#include "reports/compare/point_rows.hpp"

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
  // The least spread the statistic is judged with (0: none), and what it is, for the note.
  double spread_floor = 0;
  std::string spread_floor_what;
};

// The tolerance of a median over many points: the larger of `threshold_pct` and --machine-k
// spreads (of logs).
double together_tolerance(double spread, double threshold_pct, double k);
// The slowdown `spread` (of logs) tolerates under the machine-wide rule: the larger of
// --machine-threshold and --machine-k spreads. Also what a roof's own absolute change is held to.
double machine_tolerance(double spread, const CompareOptions& o);

// A median over many points judged against its own spread across the history nights (the
// machine-wide factor; a level's points together, compare/level_factors.hpp). Spread: the robust
// spread of the history's factors, at least the history nights' standard error (3 to 7 nights
// can sit closer together than their own factors are known, by luck), × tonight's repetition
// noise over the history's where tonight's is larger: a slow phase of a shared machine is noisy
// (night-08 of tests/data/gate-history, 14 % slower than the seven before it, had 2.7× their
// noise), and a night r times noisier knows its factor r times less well. The tolerance is
// together_tolerance(spread, threshold_pct, --machine-k); beyond it, the change is tested in those
// spreads as a spread from that many nights knows it (compare/few_nights.hpp: T_n's p-value, not a
// normal z's: against 3 nights a normal night lies 5 spreads out 14 % of the time, and the first
// nights of a shared host, sitting in one of its phases, more). The minimum detectable change it
// prints counts tonight's scatter the same way.
// Fills everything but the metric's name; the note starts with `what`.
void judge_together(MetricComparison& m, const MachineFactorEvidence& e, const CompareOptions& o,
                    double threshold_pct, const std::string& what);
// The machine-wide factor's verdict: judge_together at --machine-threshold.
void judge_machine_factor(MetricComparison& m, const MachineFactorEvidence& e,
                          const CompareOptions& o);

// Machine-wide factors (log of time over the baseline's; 0 when not normalised): one per
// history night, and tonight's. `night_se`: each history night's standard error of its factor;
// `*_noise`: a night's median repetition noise (standard error of a point's log median), 0
// where unknown.
struct Factors {
  std::vector<double> night, night_se, night_noise;
  double current = 0, current_noise = 0;
  bool complete = false;  // tonight and every history night had enough points for a factor
};

// With 3 history nights or more and enough points, each night's machine-wide factor:
// the median over the points of log(time / the history's median time). A shared machine has slow
// phases that stretch every point of a night alike (a neighbour's build: 15–30 % on the
// development VM); taken out, the gate sees what moved against the rest of the night.
inline constexpr std::size_t kMinCommonPoints = 5;

// The factors of the rows `counts` selects, each a median over at least `min_points` of them
// (else 0): per history night against the history's medians, and tonight's (the machine-wide
// factor; a level's points together, compare/level_factors.hpp).
Factors median_factors(const std::vector<PointRow>& rows, std::size_t nights,
                       std::size_t min_points, const std::function<bool(const PointRow&)>& counts);

// All factors stay 0 unless `normalise`, and a night's unless it shares kMinCommonPoints points.
// Rows in a cache level the run does not own (PointRow::unowned_level) are left out of the
// factors while kMinCommonPoints others remain; the factors are still taken out of them.
Factors machine_factors(const std::vector<PointRow>& rows, std::size_t nights, bool normalise);

// What a verdict on factors needs of them: the history nights' factors, their median standard
// error and repetition noise, tonight's factor and noise (no least spread).
MachineFactorEvidence evidence_of(const Factors& f);

// The factor itself as a metric, judged against its spread across the history nights.
MetricComparison machine_metric(const Factors& f, const CompareOptions& o);

// What explains a machine-wide slowdown, and what it cost the roofs. Over all the night's points:
// a lower clock (GPU SM, host cores) or a new throttle reason (clock-limited, stays SLOWER unless
// --clock-limited-ambiguous and the clock explains it: a runner that throttles is a finding),
// else waiting for a CPU that
// explains it (machine busy, AMBIGUOUS, as for any metric). Then the roofs whose absolute
// change is a slowdown beyond the factor's tolerance and their own: what the night lost.
void explain_machine(Comparison& c, const std::vector<PointRow>& rows, const CompareOptions& o);

}  // namespace ridgeline
