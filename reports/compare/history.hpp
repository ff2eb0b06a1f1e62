#pragma once
// Which nights form the history tonight is judged against, and whether tonight joins it.
#include <string>
#include <vector>

#include "reports/compare/comparison.hpp"
#include "reports/fit/analysis.hpp"

namespace ridgeline {

// Whether tonight may join the history it was compared against, decided here once for every
// script (scripts/nightly, scripts/gate-aa). Not when it regressed; not when it was measured on
// a busy machine while the history holds min_history quiet nights (it would raise the history's
// CPU wait and widen the spreads the gate judges by; with fewer, busy nights are all there is);
// not when a slowdown of it was not reproduced by its re-measure (the transient would widen the
// spreads as well). Whether tonight's run verified is the run's exit status, which compare does
// not see.
enum class HistoryDecision { kJoins, kRegressed, kBusyKeptOut, kTransientKeptOut };
HistoryDecision history_decision(const Comparison& c, int min_history);
const char* history_decision_name(HistoryDecision d);  // "joins", "regressed", "busy_kept_out", …

// The median CPU wait share of a night's points; < 0 where the file does not record it.
double night_cpu_wait(const Results& r);

// The history nights the gate learns from: a night measured on a busy machine (median CPU wait
// of its points at least kBusyShare) would widen every tolerance, so that a
// quiet night could hide a 2x slowdown behind it; such nights are left out while at least
// `min_history` quiet ones remain. On a runner that is always busy, every night stays (its
// spread is then the runner's, and the gate says how little it can catch). `left_out` gets the
// labels of the nights left out.
std::vector<const FileAnalysis*> quiet_history(const std::vector<const FileAnalysis*>& history,
                                               int min_history, std::vector<std::string>& left_out);

// The history tonight is judged against (quiet_history of `all_history`), with what the
// comparison reports of it: tonight's CPU wait, the nights used, left out and quiet, and whether
// the history is long enough to gate speed.
std::vector<const FileAnalysis*> choose_history(const std::vector<const FileAnalysis*>& all_history,
                                                const FileAnalysis& current, int min_history,
                                                Comparison& c);

}  // namespace ridgeline
