#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include "backends/spaces.hpp"
#include "cli/run/harness_commands.hpp"
#include "cli/run/kokkos_session.hpp"
#include "cli/run/run_checks.hpp"
#include "cli/run/run_summary.hpp"
#include "core/input_error.hpp"
#include "core/suggest.hpp"
#include "harness/context/context.hpp"
#include "harness/mpi/cpu_binding.hpp"
#include "harness/mpi/job.hpp"
#include "harness/mpi/launch.hpp"
#include "harness/sweep/runner.hpp"
#include "results/probe_catalog.hpp"

namespace ridgeline {
namespace {

// --probe takes a family (all of its probes) or one probe of the catalog; `list` prints them.
std::vector<std::string> probe_names() {
  std::vector<std::string> names;
  for (const ProbeFamily& family : kProbeFamilies) {
    names.emplace_back(family.name);
    for (const auto& p : probes_in(family.name))
      if (p != family.name) names.push_back(p);
  }
  return names;
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

// Storage types; tf32 (vendor_gemm only) rides with fp32.
const std::vector<std::string> kDtypes = {"fp64", "fp32", "fp16", "bf16", "tf32", "fp8"};

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
    std::string mpi_mode = "concurrent";
    int device_id = -1;
  };
  auto o = std::make_shared<Options>();
  CLI::App* run = app.add_subcommand(
      "run", "Sweep the probes through Google Benchmark and write a results JSON");
  run->add_option("--profile", o->run.profile, "A sweep profile (see 'list') or FILE.json")
      ->capture_default_str();
  run->add_option("--space", o->run.filter.spaces,
                  "Execution space(s), comma-separated or repeated (default: all; see 'list')")
      ->delimiter(',');
  run->add_option("--probe", o->run.filter.probes,
                  "Probe(s) or families, comma-separated or repeated (default: all; see 'list')")
      ->delimiter(',');
  run->add_option("--dtype", o->run.filter.dtypes,
                  "Data type(s): fp64, fp32, fp16, bf16, tf32, fp8 (tf32 and fp8: vendor gemm "
                  "only; default: the profile's)")
      ->delimiter(',');
  run->add_option("--rounds", o->run.rounds,
                  "Run the sweep in N rounds, every point once per round in a shuffled order "
                  "(default: the profile's; N divides its repetitions)")
      ->check(CLI::Range(1, 1000));
  run->add_option("--seed", o->run.seed,
                  "Seed of the rounds' point orders (default: random; recorded)");
  run->add_option("--out", o->run.out, "Results file, rewritten after every point")
      ->capture_default_str();
  auto* resume = run->add_flag("--resume", o->run.resume,
                               "Keep the points already in --out, measure the rest");
  run->add_flag("--force", o->run.force, "Replace an existing --out file")->excludes(resume);
  run->add_option("--plateau-from", o->run.plateau_from,
                  "Confirm the DRAM plateau this results file recorded (one doubling beyond its "
                  "DRAM size) instead of searching anew; searched anew where it does not hold. "
                  "Repeatable: per space, the first file that reached a plateau counts "
                  "(scripts/nightly passes the baseline, then the history, newest first)")
      ->allow_extra_args(false)
      ->excludes(resume);
  auto* quiet = run->add_flag("--quiet", o->run.quiet, "No progress and no summary: errors only");
  run->add_flag("--verbose", o->run.verbose,
                "Also show Google Benchmark's table (every repetition) on stdout")
      ->excludes(quiet);
  run->add_option("--threads", o->threads, "Host threads for Kokkos (default: Kokkos' choice)")
      ->check(thread_count_validator());
  run->add_option("--kokkos", o->kokkos_args, "Arguments passed to Kokkos::initialize");
  run->add_option("--mpi-mode", o->mpi_mode,
                  "Under mpirun/srun: 'concurrent' (every rank measures each point at once) or "
                  "'isolated' (one rank at a time)")
      ->check(CLI::IsMember({"concurrent", "isolated"}))
      ->capture_default_str();
  run->add_option("--device-id", o->device_id,
                  "GPU to use (default: the rank's local rank modulo the GPUs it sees)")
      ->check(CLI::Range(0, 1023));
  // Hooks for ridgeline's own tests, hidden from --help (an empty group is not listed).
  run->add_option("--test-plant-error", o->run.plant_error,
                  "Corrupt this probe's output before verification")
      ->group("");
  run->add_option("--test-slowdown", o->slowdown,
                  "PROBE:N runs PROBE's kernel N times per timed iteration")
      ->group("");
  run->add_option("--test-fail-setup", o->run.fail_setup,
                  "Make this probe's setup fail, as an allocation failure would")
      ->group("");
  run->add_option("--test-slow-rank", o->run.slow_rank,
                  "Apply --test-slowdown on this MPI rank only")
      ->check(CLI::Range(0, 1 << 20))
      ->group("");
  run->footer(
      "Google Benchmark flags (--benchmark_*) pass through, e.g. "
      "--benchmark_out=gb.json --benchmark_out_format=json (csv also) for its own JSON or CSV "
      "beside the results file.");
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
    o->run.display_aggregates_only = checked.display_aggregates_only;
    for (const auto& f : checked.args)
      if (f == "--benchmark_out=" + o->run.out)
        throw InputError("", "--benchmark_out", "is the results file --out; choose another file");
    const std::vector<std::string> probes = probe_names();
    for (const auto& p : o->run.filter.probes)
      if (std::find(probes.begin(), probes.end(), p) == probes.end())
        throw InputError("", "--probe",
                         "unknown probe '" + p + "'" + did_you_mean(p, probes) +
                             " (probes and families: " + join(probes) + ")");
    for (const auto& d : o->run.filter.dtypes)
      if (std::find(kDtypes.begin(), kDtypes.end(), d) == kDtypes.end())
        throw InputError("", "--dtype",
                         "unknown dtype '" + d + "'" + did_you_mean(d, kDtypes) +
                             " (known: " + join(kDtypes) + ")");
    const Launch launch = detect_launch();
    // A long sweep must not be lost to a repeated command line (rank 0 writes the file).
    if (!o->run.list_only && !o->run.resume && !o->run.force && launch.rank == 0 &&
        std::filesystem::exists(o->run.out))
      throw InputError(o->run.out, "",
                       "exists; --resume measures only the points it lacks, --force replaces it");
    for (const auto& s : o->slowdown) {
      const auto [probe, n] = parse_slowdown(s);
      o->run.slowdown[probe] = n;
    }
    o->run.mpi_mode = o->mpi_mode == "isolated" ? MpiMode::isolated : MpiMode::concurrent;
    if (o->run.filter.spaces.empty()) o->run.filter.spaces = default_spaces();
    Job job(launch);
    // Open MPI binds a job of one or two ranks to a core each: host spaces would measure a
    // fraction of the node without saying so.
    if (launch.under_launcher && job.rank() == 0) {
      const std::vector<int> cpus = allowed_cpus();
      const long online = sysconf(_SC_NPROCESSORS_ONLN);
      if (online > 0 && long(cpus.size()) * job.local_size() < online)
        std::cerr << "ridgeline: note: the launcher bound rank 0 to CPUs " << cpu_list_text(cpus)
                  << " (" << cpus.size() << " of " << online << " on this node, "
                  << job.local_size()
                  << " rank(s) here): host spaces measure only those; mpirun --bind-to none or "
                     "srun --cpus-per-task gives each rank its share\n";
    }
    // One error must end the whole job: the other ranks would wait for this one forever.
    try {
      std::vector<std::string> kokkos_args = o->kokkos_args;
      // One GPU per rank: the local rank's, unless --device-id (or the user's --kokkos) says.
      const int gpus = launch.under_launcher || o->device_id >= 0 ? visible_device_count() : 0;
      if (gpus > 0 || o->device_id >= 0)
        kokkos_args.insert(
            kokkos_args.begin(),
            "--kokkos-device-id=" +
                std::to_string(o->device_id >= 0 ? o->device_id : job.local_rank() % gpus));
      KokkosSession session(kokkos_args, o->threads);
      const SweepOutcome outcome = run_sweep(o->run, job);
      print_run_outcome(outcome);
      exit_code = outcome.exit_code;
    } catch (const std::exception& e) {
      if (job.size() == 1) throw;
      std::cerr << "ridgeline: error: rank " << job.rank() << " of " << job.size() << ": "
                << e.what() << "\n";
      job.abort(dynamic_cast<const InputError*>(&e) ? kExitBadInput : kExitInternal);
    }
  });
}

void add_list_command(CLI::App& app, int& exit_code) {
  CLI::App* list = app.add_subcommand(
      "list", "List the probes, execution spaces, dtypes and sweep profiles 'run' accepts");
  list->callback([&exit_code] {
    std::cout << "Probes (--probe takes a family or a probe):\n";
    for (const ProbeFamily& family : kProbeFamilies)
      std::cout << fmt::format("  {:<10} {}\n", family.name, join(probes_in(family.name)));
    std::cout << "\nExecution spaces in this build (--space): " << join(enabled_space_names())
              << "\n  default: "
              << (default_spaces().empty() ? "all of them" : join(default_spaces())) << "\n";
    std::cout << "\nDtypes (--dtype): " << join(kDtypes)
              << "\n  fp16 and bf16 run on device backends only; tf32 is vendor_gemm's\n";
    std::cout << "\nSweep profiles (--profile NAME, or a path to a JSON file) in "
              << sweep_profiles_dir() << ":\n";
    for (const auto& [name, description] : list_sweep_profiles())
      std::cout << fmt::format("  {:<17} {}\n", name, description);
    exit_code = kExitOk;
  });
}

}  // namespace ridgeline
