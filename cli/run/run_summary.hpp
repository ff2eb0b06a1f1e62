#pragma once
// The end of `ridgeline run` on the terminal, from the sweep's outcome: a warning when points were
// not run, the summary of the file just written (counts and time on stderr, the fitted roofs on
// stdout) and the line that says why the run failed.
#include "harness/sweep/runner.hpp"

namespace ridgeline {

// Prints, in this order: the warning about unfinished points (every rank), the summary (where
// outcome.show_summary; a note on stderr where the file cannot be summarised), the failure line
// (every rank). Prints nothing after --benchmark_list_tests.
void print_run_outcome(const SweepOutcome& outcome);

}  // namespace ridgeline
