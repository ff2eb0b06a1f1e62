#pragma once
// `ridgeline run`: plans the sweep, sets up Google Benchmark and the results file, runs the sweep
// round by round and gathers an MPI job's points on rank 0.
#include "harness/mpi/job.hpp"
#include "harness/sweep/run_options.hpp"

namespace ridgeline {

// Needs Kokkos initialised. Every rank of `job` runs the same plan; rank 0 gathers every rank's
// points into `out`. Returns kExitOk, kExitFailed (a point failed verification or could not be
// set up); throws InputError on bad input, and when another run holds `out`.
int run_sweep(const RunOptions& options, Job& job);

}  // namespace ridgeline
