#pragma once
// `ridgeline run`: plans the sweep, sets up Google Benchmark and the results file, runs the sweep
// round by round and gathers an MPI job's points on rank 0. It returns what happened; the
// command (cli/run/run_summary.hpp) tells the user.
#include <cstddef>
#include <string>

#include "core/input_error.hpp"
#include "harness/mpi/job.hpp"
#include "harness/sweep/run_options.hpp"

namespace ridgeline {

// How a sweep ended, on this rank: what the end-of-run summary and the exit status need.
struct SweepOutcome {
  int exit_code = kExitOk;    // kExitFailed when a point failed verification or could not be set up
  double seconds = 0;         // from the first point to the last
  std::string results_path;   // the file the job wrote (--out); rank 0 writes it
  bool listed_only = false;   // --benchmark_list_tests: points named, nothing measured or written
  bool show_summary = false;  // rank 0 without --quiet
  std::size_t unfinished_points = 0;    // planned but not run (--benchmark_filter): incomplete
  int failed_points = 0;                // failed verification: every rank's on rank 0
  std::size_t setup_failed_points = 0;  // could not be set up (skipped_reason)
};

// Needs Kokkos initialised. Every rank of `job` runs the same plan; rank 0 gathers every rank's
// points into `out`. Prints progress as it goes (and Google Benchmark's table with --verbose);
// the end-of-run summary is the caller's. The outcome's exit_code is kExitOk or kExitFailed.
// Throws InputError on bad input, and when another run holds `out`.
SweepOutcome run_sweep(const RunOptions& options, Job& job);

}  // namespace ridgeline
