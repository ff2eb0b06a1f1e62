#pragma once
// What a comparison of tonight against the history holds: each metric's verdict, the options
// that set the rule, and the gate's count of regressions.
#include <optional>
#include <string>
#include <vector>

namespace ridgeline {

// A sample, point or night that waited this share of its time for a CPU (another process had
// it) was measured on a busy machine.
inline constexpr double kBusyShare = 0.05;

// kFailed: verified in the baseline, failed verification now. kMissing: measured and verified
// (or fitted) in the baseline, absent, skipped or not fitted now.
enum class Verdict { kSame, kFaster, kSlower, kAmbiguous, kFailed, kMissing };
const char* verdict_name(Verdict v);

struct CompareOptions {
  double threshold_pct = 5;
  double alpha = 0.01;
  // Tolerance = max(threshold, k × spread), on a log scale. k = 10: in A/A replays of 64
  // recorded nights on the shared 2-vCPU development VM (scripts/gate-aa), the largest
  // significant slowdown beyond the threshold was 9.0 spreads under a parallel build, 5.3 without.
  double k = 10;
  // With fewer history nights the spread is unknown: speed changes are reported, not gated.
  int min_history = 3;
  // The machine-wide factor (every point together) is judged against its own spread across the
  // history nights (compare/machine_factor.hpp): tolerance = max(machine_threshold, machine_k ×
  // spread). 5, not k's 10: it is one statistic per night, not hundreds, and a median over every
  // point, without the heavy tails of single points. On the recorded nights of
  // tests/data/gate-history (each quiet night held against the six others, times × 0.99–1.01,
  // 20 variants) the largest A/A excursion was 2.4 spreads and night-08 against the seven before
  // it (a slow phase of the shared VM, 14 % slower) 3.7; a uniform -10 % was 6.0 or more.
  double machine_k = 5;
  double machine_threshold_pct = 1;
  // A machine-wide or level slowdown at a lower clock (GPU SM, host cores) or with a new throttle
  // reason stays SLOWER "clock-limited" (a runner that throttles is a finding); true makes it
  // AMBIGUOUS, not gated, where the lower clock explains it (clock_limited_not_gated).
  bool clock_limited_ambiguous = false;
  // How many re-measures of tonight a slowdown is held to: it fails the gate only where every
  // one finds it too (compare/remeasure.hpp): a neighbour's burst on a shared host lands on some
  // runs, a slower machine or slower code on all. The printed minimum detectable changes are then
  // the changes caught in all remeasured + 1 runs. 0: none.
  int remeasured = 0;
};

// What the range rule (compare/shared_level.hpp) made of a point in a cache level the run does
// not own: kWithinTolerance, SAME by the usual rule; kVariedWithNeighbours, SAME within the range
// its history showed; kAboveHistory, faster than any history night; kBelowHistory, slower than
// every history night but not below tonight's DRAM rate of its traffic (AMBIGUOUS, reported);
// kBelowDram, slower than both (the usual verdict stands, SLOWER fails the gate).
enum class RangeOutcome {
  kWithinTolerance,
  kVariedWithNeighbours,
  kAboveHistory,
  kBelowHistory,
  kBelowDram
};
const char* range_outcome_name(RangeOutcome r);  // "within tolerance", "varied with neighbours", …

struct SharedLevel {
  std::string reason;  // why the run does not own the level (cache list, or a bimodal history)
  // The history's slowest and fastest night (the factors taken out), as changes of throughput
  // against the baseline.
  double lowest = 0, highest = 0;
  // Tonight's DRAM rate of the point's traffic mix, as a change of the point's throughput against
  // the baseline: the slowest a cache level can serve it, whoever holds the level. nullopt where
  // tonight has no DRAM-plateau point of that mix (or the point has no mix).
  std::optional<double> dram_floor;
  RangeOutcome outcome = RangeOutcome::kWithinTolerance;
};

// What a re-measure of tonight made of a metric the night found slower.
struct Remeasure {
  double change = 0;  // relative change in throughput, as `change`
  Verdict verdict = Verdict::kSame;
  std::string label;  // which re-measure (its file)
};

struct MetricComparison {
  std::string metric;                            // "B OpenMP/fp64" or a point name
  bool roof = false;                             // a fitted roof (else a point's median)
  std::string baseline, current;                 // formatted values
  double baseline_value = 0, current_value = 0;  // FLOP/s or byte/s for roofs, seconds for points
  double change = 0;  // relative change in throughput: current / baseline − 1
  // The slowdown of throughput that is still SAME (a fraction); a speed-up is SAME up to
  // 1 / (1 − tolerance) − 1, the same distance on a log scale.
  double tolerance = 0;
  double spread = -1;     // robust relative spread across the history nights; < 0: unknown
  double test_noise = 0;  // standard deviation of the test's statistic, in log units
  double current_se = 0;  // standard error of tonight's log median (points), widens the tolerance
  int nights = 0;         // history nights that had this metric
  double p_value = 1;
  double q_value = 1;      // Benjamini–Hochberg adjusted over the points (roofs: = p)
  double min_p_value = 0;  // the smallest p its test can give for these sample counts
  Verdict verdict = Verdict::kSame;
  std::string note;  // why AMBIGUOUS, or which test
  // The smallest change of throughput the gate calls SLOWER or FASTER here in 95 % of nights:
  // past the tolerance (or the change the test needs to reach alpha) by as far as tonight's value
  // scatters (compare/few_nights.hpp); < 0 when the test cannot reach alpha (or for MISSING and
  // FAILED).
  double min_detectable = -1;
  // GPU clocks from telemetry (0: unknown): tonight's median SM clock during the metric's samples
  // and the history's median, in MHz. For P, the group's peak points.
  double sm_clock_mhz = 0, history_sm_clock_mhz = 0;
  // Host points' clocks (results' host_clock, 0: unknown): tonight's median and the history's,
  // in MHz, read on the host's cores after each repetition.
  double host_clock_mhz = 0, history_host_clock_mhz = 0;
  std::vector<std::string> new_throttle_reasons;  // slowdown reasons tonight, none in the history
  int throttled_samples = 0, samples = 0;         // tonight's (points only)
  // SLOWER or AMBIGUOUS (a slowdown) while the clock (SM, or a host's cores) was lower than the
  // history's or a new throttle reason appeared: the kernel may be unchanged and the machine
  // slower.
  bool clock_limited = false;
  // Roofs: the history's median of the roof as measured (the nights' machine-wide factors left
  // in) and tonight's change against it, what the machine delivered; `change` and `baseline_value`
  // are relative to the night's factor. `absolute_change` is unset where tonight has no value.
  std::string absolute_baseline;  // formatted
  double absolute_baseline_value = 0;
  std::optional<double> absolute_change;
  // The slowdown of the roof as measured that its own spread across the history nights
  // tolerates, as the machine-wide factor's rule sets it (--machine-k spreads, at least
  // --machine-threshold); 0 where unknown.
  double absolute_tolerance = 0;
  // Peak points and P with both clocks known: the change of FLOP per cycle (equal clock).
  std::optional<double> change_per_cycle;
  // Share of the samples' time this process's threads waited for a CPU (schedstat; < 0 where not
  // recorded): tonight's median and the history's. For roofs, over the group's points.
  double cpu_wait_share = -1, history_cpu_wait_share = -1;
  // A slowdown on a busy machine that the waiting explains: SLOWER became AMBIGUOUS, as what
  // was measured is the machine's load, not the kernel. The gate does not fail on it.
  bool machine_busy = false;
  // A roof MISSING only because tonight's points (all there, compared one by one) did not fit.
  bool unfitted = false;
  // Points in a cache level the run does not own, judged against their history's range.
  std::optional<SharedLevel> shared;
  // Points: where tonight's working set lives ("L1", "DRAM plateau": point_level,
  // compare/cache_ownership.hpp); nullopt for no working set, P's points, and MISSING points.
  std::optional<std::string> level;
  // A slowdown the night found, as the re-measure that decided it saw it: the first that
  // contradicted it (then AMBIGUOUS "not reproduced"), else the last (SLOWER stands: every
  // re-measure reproduced it). `remeasures`: as each re-measure saw it, in their order.
  std::optional<Remeasure> remeasure;
  std::vector<Remeasure> remeasures;
};

struct Comparison {
  std::vector<MetricComparison> roofs;    // P, B, B_read and P_matrix per space × dtype
  std::vector<MetricComparison> points;   // each probe point's median, matched by name
  std::vector<std::string> not_compared;  // new points, or points the baseline did not verify
  // The night's machine-wide factor (every point together) when it was taken out, judged against
  // its spread across the history nights: SLOWER fails the gate like any other metric.
  std::optional<MetricComparison> machine;
  // Every point of one level together (compare/level_factors.hpp): per space, its peak points and
  // each private cache level's, as measured; SLOWER fails the gate like any other metric.
  std::vector<MetricComparison> levels;
  // When the machine-wide factor is a slowdown beyond its tolerance: the roofs whose absolute
  // change is a slowdown beyond it too (and beyond their own absolute_tolerance), the roofs
  // the night lost.
  std::vector<std::string> machine_roofs;
  std::vector<std::string> history;  // labels of the history nights, oldest first
  int history_nights = 0;
  // History nights measured on a busy machine and left out because enough quiet ones remain
  // (quiet_history), and tonight's own busyness: the median CPU wait share of its points (< 0
  // where not recorded).
  std::vector<std::string> busy_history;
  int quiet_history_nights = 0;  // history nights below kBusyShare (or not recorded)
  double night_cpu_wait = -1;
  bool busy_night() const { return night_cpu_wait >= kBusyShare; }
  bool gates_speed = false;  // history_nights >= min_history: SLOWER fails the gate
  // The re-measures tonight's slowdowns were held to (their labels, in the order they were
  // measured; empty: none), and how many of the slowdowns they did not reproduce (made
  // AMBIGUOUS).
  std::vector<std::string> remeasures;
  int not_reproduced = 0;
  int count(Verdict v) const;
  // FAILED + MISSING, and SLOWER when the history is long enough: the gate fails when not 0.
  int regressions() const;
};

}  // namespace ridgeline
