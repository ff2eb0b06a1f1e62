#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <memory>

#include "cli/harness_commands.hpp"
#include "cli/kokkos_session.hpp"
#include "cli/run_checks.hpp"
#include "results/input_error.hpp"
#include "sweep/runner.hpp"

namespace ridgeline {
namespace {

const std::vector<std::string> kProbeNames = {
    "bandwidth",   "copy",    "scale",  "add",   "triad",   "dot",          "read",
    "fill",        "fma",     "fma_xy", "peak",  "cache",   "cache_update", "cache_read",
    "cache_triad", "library", "gemm",   "axpby", "lib_dot", "deep_copy", "vendor_gemm"};

// The build's default (CMake RIDGELINE_SPACES, e.g. the `serial` preset): a ;-separated list.
std::vector<std::string> default_spaces() {
  std::vector<std::string> out;
  const std::string list = RIDGELINE_DEFAULT_SPACES;
  std::size_t start = 0;
  while (start < list.size()) {
    const auto end = list.find(';', start);
    out.push_back(list.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

}  // namespace

void add_run_command(CLI::App& app, int& exit_code) {
  struct Options {
    RunOptions run;
    int threads = 0;
    std::vector<std::string> kokkos_args;
    std::vector<std::string> slowdown;
  };
  auto o = std::make_shared<Options>();
  CLI::App* run = app.add_subcommand(
      "run", "Sweep the probes through Google Benchmark and write a results JSON");
  run->add_option("--profile", o->run.profile, "quick | nightly | full | cache | FILE.json")
      ->capture_default_str();
  run->add_option("--space", o->run.filter.spaces, "Execution space(s) to probe (default: all)");
  run->add_option("--probe", o->run.filter.probes, "Probe(s) or families to run (default: all)");
  run->add_option("--out", o->run.out, "Results file, rewritten after every point")
      ->capture_default_str();
  run->add_flag("--resume", o->run.resume, "Keep the points already in --out and measure the rest");
  run->add_flag("--quiet", o->run.quiet, "No progress on stderr, no benchmark table");
  run->add_option("--threads", o->threads, "Host threads for Kokkos (default: Kokkos' choice)")
      ->check(thread_count_validator());
  run->add_option("--kokkos", o->kokkos_args, "Arguments passed to Kokkos::initialize");
  auto* testing = run->add_option_group("Testing", "Hooks for ridgeline's own tests");
  testing->add_option("--test-plant-error", o->run.plant_error,
                      "Corrupt this probe's output before verification");
  testing->add_option("--test-slowdown", o->slowdown,
                      "PROBE:N runs PROBE's kernel N times per timed iteration");
  testing->add_option("--test-fail-setup", o->run.fail_setup,
                      "Make this probe's setup fail, as an allocation failure would");
  // --benchmark_* flags go to Google Benchmark untouched.
  run->allow_extras();
  run->callback([o, run, &exit_code] {
    std::vector<std::string> flags;
    for (const auto& extra : run->remaining()) {
      if (extra.rfind("--benchmark_", 0) != 0)
        throw InputError("", extra,
                         "unknown argument (Google Benchmark flags start with --benchmark_)");
      flags.push_back(extra);
    }
    const BenchmarkArgs checked = check_benchmark_args(flags);
    o->run.benchmark_args = checked.args;
    o->run.list_only = checked.list_only;
    for (const auto& f : checked.args)
      if (f == "--benchmark_out=" + o->run.out)
        throw InputError("", "--benchmark_out", "is the results file --out; choose another file");
    for (const auto& p : o->run.filter.probes)
      if (std::find(kProbeNames.begin(), kProbeNames.end(), p) == kProbeNames.end())
        throw InputError("", "--probe", "unknown probe '" + p + "'");
    for (const auto& s : o->slowdown) {
      const auto [probe, n] = parse_slowdown(s);
      o->run.slowdown[probe] = n;
    }
    if (o->run.filter.spaces.empty()) o->run.filter.spaces = default_spaces();
    KokkosSession session(o->kokkos_args, o->threads);
    exit_code = run_sweep(o->run);
  });
}

}  // namespace ridgeline
