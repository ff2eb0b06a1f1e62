#pragma once
// `ridgeline run`: registers the planned points with Google Benchmark, times them, verifies each
// point's output and appends it to the results file as soon as it is measured.
#include <map>
#include <string>
#include <vector>

#include "sweep/plan.hpp"

namespace ridgeline {

struct RunOptions {
  std::string profile = "quick";
  std::string out = "results.json";
  bool resume = false;
  bool quiet = false;
  PlanFilter filter;
  std::vector<std::string> benchmark_args;  // --benchmark_* flags, passed through
  // Test hooks, never for real measurements: corrupt a probe's output before it is verified, or
  // run a probe's kernel several times per timed iteration (a planted slowdown).
  std::vector<std::string> plant_error;
  std::map<std::string, int> slowdown;
};

// Needs Kokkos initialised. Returns kExitOk, kExitFailed (a point failed verification); throws
// InputError on bad input.
int run_sweep(const RunOptions& options);

}  // namespace ridgeline
