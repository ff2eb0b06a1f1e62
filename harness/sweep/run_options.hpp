#pragma once
// What `ridgeline run` was asked to do: the sweep's settings, Google Benchmark's flags and the
// test hooks. The command fills it in; the runner and the sweep read it.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/mpi/job.hpp"
#include "harness/sweep/plan.hpp"

namespace ridgeline {

struct RunOptions {
  std::string profile = "quick";
  std::string out = "results.json";
  bool resume = false;
  // Results files whose recorded memory plateau this run confirms (one doubling beyond its DRAM
  // size) instead of searching anew: nights of a nightly keep their DRAM points' sizes, and with
  // them their names, while the plateau holds. Per space, the first file that reached one counts
  // (a nightly's baseline, then its history, newest first). Empty: search.
  std::vector<std::string> plateau_from;
  bool quiet = false;    // no progress, no summary: errors only
  bool verbose = false;  // Google Benchmark's own table (every repetition) on stdout
  bool force = false;    // replace an existing results file
  bool display_aggregates_only = false;  // --benchmark_display_aggregates_only, for --verbose
  int rounds = 0;                        // 0: the profile's
  std::optional<std::uint64_t> seed;     // of the rounds' point orders; unset: a random one
  PlanFilter filter;
  std::vector<std::string> benchmark_args;  // --benchmark_* flags, passed through (checked)
  bool list_only = false;                   // --benchmark_list_tests: print names, write nothing
  // Test hooks, never for real measurements: corrupt a probe's output before it is verified, or
  // run a probe's kernel several times per timed iteration (a planted slowdown).
  std::vector<std::string> plant_error;
  std::map<std::string, int> slowdown;
  std::vector<std::string> fail_setup;     // make this probe's setup() fail (an allocation failure)
  int slow_rank = -1;                      // `slowdown` on this rank only (-1: every rank)
  MpiMode mpi_mode = MpiMode::concurrent;  // how the ranks of an MPI job take turns
};

}  // namespace ridgeline
