#pragma once
// Ranges for `run` and `info` options, and the Google Benchmark flags `run` passes through: a
// value out of range is one line and exit 2 here, never a crash or an endless run later
// (--threads 2000, --benchmark_repetitions=-1).
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace ridgeline {

// Hardware threads of this machine (online CPUs).
int host_thread_limit();

// --threads: an integer in [1, host_thread_limit()].
CLI::Validator thread_count_validator();

struct BenchmarkArgs {
  std::vector<std::string> args;  // checked, in this Google Benchmark version's syntax
  bool list_only = false;         // --benchmark_list_tests
  // --benchmark_display_aggregates_only: kept from Google Benchmark, which would then hand the
  // reporter no repetitions to record; ridgeline's --verbose table honours it instead.
  bool display_aggregates_only = false;
};

// The --benchmark_* flags ridgeline supports, each value checked: filter, list_tests,
// repetitions [1, 1000], min_time (0, 60] s, min_warmup_time [0, 60] s, format, out,
// out_format, color, counters_tabular, time_unit, context. Others (random interleaving,
// aggregates-only output) would break the sweep's bookkeeping: InputError.
BenchmarkArgs check_benchmark_args(const std::vector<std::string>& flags);

// --test-slowdown PROBE:N with N in [1, 1000].
std::pair<std::string, int> parse_slowdown(const std::string& text);

}  // namespace ridgeline
