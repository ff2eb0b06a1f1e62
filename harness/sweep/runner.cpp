#include "harness/sweep/runner.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <functional>
#include <iostream>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/file_io.hpp"
#include "core/file_lock.hpp"
#include "core/input_error.hpp"
#include "harness/context/context.hpp"
#include "harness/sweep/benchmark_compat.hpp"
#include "harness/sweep/gbench_collector.hpp"
#include "harness/sweep/memory_plateau_search.hpp"
#include "harness/sweep/sweep.hpp"
#include "results/results_file.hpp"
#include "results/results_writer.hpp"

namespace ridgeline {
namespace {

// Every rank must register the same points in the same order (each point is one collective);
// ranks whose devices differ (memory sizes, dtypes) would plan differently. Throws on every rank.
void require_same_plan(Job& job, const std::vector<PointPlan>& plan) {
  if (job.size() == 1) return;
  std::string mine;
  for (const PointPlan& p : plan) mine += p.info.name + (p.probe ? "\n" : " (skipped)\n");
  std::string verdict;
  if (job.rank() == 0) {
    const std::vector<std::string> all = job.gather(mine);
    for (std::size_t r = 1; r < all.size() && verdict.empty(); ++r)
      if (all[r] != mine)
        verdict = fmt::format(
            "rank {} planned other points than rank 0 ({} vs {} lines): every rank must have "
            "the same kind of device and memory; run such devices in separate jobs",
            r, std::count(all[r].begin(), all[r].end(), '\n'),
            std::count(mine.begin(), mine.end(), '\n'));
  } else {
    job.gather(mine);
  }
  verdict = job.broadcast(verdict);
  if (!verdict.empty()) throw InputError("", "mpirun", verdict);
}

std::set<std::string> split_lines(const std::string& text) {
  std::set<std::string> out;
  std::size_t start = 0;
  while (start < text.size()) {
    const auto end = text.find('\n', start);
    out.insert(text.substr(start, end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

// The plateaus a results file recorded: a resumed run keeps them, and with them its DRAM points'
// sizes and names. Empty when the file recorded none.
std::map<std::string, MemoryPlateau> recorded_plateaus(const std::string& path) {
  std::map<std::string, MemoryPlateau> out;
  const nlohmann::json doc = parse_results_text(read_text_file(path, "results file"), path);
  const nlohmann::json spaces =
      doc.contains("context") ? doc["context"].value("spaces", nlohmann::json()) : nlohmann::json();
  for (std::size_t i = 0; spaces.is_array() && i < spaces.size(); ++i)
    if (spaces[i].is_object() && spaces[i].contains("memory_plateau") &&
        spaces[i].value("name", nlohmann::json()).is_string())
      out[spaces[i]["name"].get<std::string>()] =
          memory_plateau_from_json(spaces[i]["memory_plateau"], path,
                                   "context.spaces[" + std::to_string(i) + "].memory_plateau");
  return out;
}

// Per space, the plateau to confirm: the first of the --plateau-from files that reached one, else
// the first that recorded the space at all (then the run searches anew and says that file found
// none). A nightly whose baseline ran out of its search budget still confirms the newest history
// night that found the plateau, rather than searching anew every night after (issue 49's third
// Zen 5 series, 2026-12-07: all 45 later runs searched, 11 ran out too, and the DRAM points
// changed size between nights). An unreadable file is said and passed over, never fatal (a
// nightly's baseline may be the broken file it is about to replace).
std::map<std::string, RecordedPlateau> plateaus_to_confirm(
    const std::vector<std::string>& paths, const std::function<void(const std::string&)>& say) {
  std::map<std::string, RecordedPlateau> out;
  for (const std::string& path : paths) {
    std::map<std::string, MemoryPlateau> recorded;
    try {
      recorded = recorded_plateaus(path);
    } catch (const std::exception& e) {
      say(std::string("ridgeline: note: --plateau-from: ") + e.what() +
          (paths.size() > 1 ? "; passed over" : "; searching anew"));
      continue;
    }
    for (auto& [space, plateau] : recorded) {
      const auto it = out.find(space);
      if (it == out.end() || (!it->second.plateau.reached && plateau.reached))
        out[space] = {std::move(plateau), path};
    }
  }
  return out;
}

// The DRAM size of each space, measured before the plan sizes its points (rank 0 measures, every
// rank plans with its numbers), recorded in the space's context entry.
void settle_memory_plateaus(const RunOptions& o, const SweepProfile& profile, Job& job,
                            nlohmann::json& context, MachineFacts& machine) {
  if (o.list_only) return;  // a listing measures nothing: its DRAM sizes are the LLC rule's
  std::map<std::string, MemoryPlateau> found;
  if (job.rank() == 0) {
    const auto say = [&o](const std::string& line) {
      if (!o.quiet) std::cerr << line << "\n";
    };
    if (o.resume && access(o.out.c_str(), F_OK) == 0)
      found = recorded_plateaus(o.out);
    else if (!o.plateau_from.empty())
      found = search_memory_plateaus(profile, machine, o.filter, say,
                                     plateaus_to_confirm(o.plateau_from, say));
    else
      found = search_memory_plateaus(profile, machine, o.filter, say);
  }
  nlohmann::json all = nlohmann::json::object();
  for (const auto& [space, plateau] : found) all[space] = to_json(plateau);
  if (job.size() > 1) all = nlohmann::json::parse(job.broadcast(all.dump()));
  for (auto& s : context["spaces"]) {
    const std::string name = s.value("name", "");
    if (!all.contains(name)) continue;
    s["memory_plateau"] = all[name];
    const MemoryPlateau p = memory_plateau_from_json(all[name], "", name + ".memory_plateau");
    for (SpaceFacts& f : machine.spaces)
      if (f.name == name) f.dram_plateau_bytes = std::uint64_t(p.planned_bytes);
  }
}

}  // namespace

SweepOutcome run_sweep(const RunOptions& options, Job& job) {
  // Rank 0 speaks for the job: the other ranks show neither progress nor tables.
  RunOptions o = options;
  if (job.rank() != 0) {
    o.quiet = true;
    o.verbose = false;
  }
  SweepProfile profile = load_sweep_profile(o.profile);
  if (o.rounds) {
    if (profile.repetitions % o.rounds)
      throw InputError("", "--rounds",
                       fmt::format("{} does not divide the profile's repetitions ({})", o.rounds,
                                   profile.repetitions));
    profile.rounds = o.rounds;  // recorded in the file's profile, so --resume must match it
  }
  // A seed for the rounds' point orders, recorded so an order can be replayed; null with one
  // round (plan order). Every rank of a job shuffles with rank 0's.
  std::uint64_t seed =
      o.seed ? *o.seed : (std::uint64_t(std::random_device{}()) << 32) ^ std::random_device{}();
  seed = std::stoull(job.broadcast(std::to_string(seed)));
  auto [context, machine] = run_context(o.benchmark_args);
  context["run"]["seed"] = profile.rounds > 1 ? nlohmann::json(seed) : nlohmann::json(nullptr);
  // Filters that leave nothing are said before the plateau search spends its seconds (planning
  // allocates nothing; sizes do not change whether a point is planned).
  if (build_plan(profile, machine, o.filter).empty()) throw empty_plan_error(profile, o.filter);
  settle_memory_plateaus(o, profile, job, context, machine);
  std::vector<PointPlan> plan = build_plan(profile, machine, o.filter);
  if (plan.empty()) throw empty_plan_error(profile, o.filter);
  require_same_plan(job, plan);

  // Our settings first, so a user's --benchmark_* flags override them.
  std::vector<std::string> args = {
      "ridgeline", fmt::format("--benchmark_repetitions={}", profile.repetitions / profile.rounds),
      compat::min_time_flag(profile.min_time_s)};
  args.insert(args.end(), o.benchmark_args.begin(), o.benchmark_args.end());
  args.push_back("--benchmark_display_aggregates_only=false");
  args.push_back("--benchmark_report_aggregates_only=false");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  int argc = static_cast<int>(argv.size());
  benchmark::Initialize(&argc, argv.data());
  if (argc > 1) throw InputError("", argv[1], "not a Google Benchmark flag this version knows");
  benchmark::AddCustomContext("ridgeline",
                              context["ridgeline"]["version"].get<std::string>() + " (" +
                                  context["ridgeline"]["git_revision"].get<std::string>() + ")");
  benchmark::AddCustomContext("kokkos", context["kokkos"]["version"].get<std::string>());
  benchmark::AddCustomContext("profile", profile.name);

  // Listing the points measures nothing, so it neither takes nor touches the results file.
  // In an MPI job rank 0 alone holds and writes the file.
  const bool writes = !o.list_only && job.rank() == 0;
  std::optional<FileLock> lock;
  if (writes) lock.emplace(o.out);
  ResultsWriter writer(writes ? o.out : "", profile.to_json(), context);
  Sweep sweep(o, profile, std::move(plan), writer, seed, job, context);
  if (job.uses_mpi()) {
    nlohmann::json ranks = nlohmann::json::array();
    for (const std::string& text : job.gather(sweep.placement().dump()))
      ranks.push_back(nlohmann::json::parse(text));
    writer.set_mpi({{"size", job.size()},
                    {"mode", mpi_mode_name(o.mpi_mode)},
                    {"library", Job::library_version()},
                    {"launcher", job.launcher()},
                    {"ranks", ranks}});
  }
  // A point is done when every rank has it verified; rank 0 reads the file and tells the rest.
  std::set<std::string> done;
  if (o.resume && writes && access(o.out.c_str(), F_OK) == 0)
    done = writer.resume_from(o.out, job.size());
  if (job.size() > 1) {
    std::string names;
    for (const auto& n : done) names += n + "\n";
    done = split_lines(job.broadcast(names));
  }
  sweep.prepare(done);
  GbenchCollector reporter(sweep, o.verbose && !o.quiet, o.display_aggregates_only);
  // Nothing left (a resume of a finished file): Google Benchmark would only say its filter
  // matched nothing.
  if (sweep.registered() == 0 && !o.list_only) {
    if (!o.quiet) std::cerr << "ridgeline: " << o.out << ": every planned point is already there\n";
  } else {
    // One pass of Google Benchmark per round; listing the points needs one.
    const int rounds = o.list_only ? 1 : profile.rounds;
    for (int r = 0; r < rounds; ++r) {
      if (sweep.register_round(r) == 0) break;
      benchmark::RunSpecifiedBenchmarks(&reporter);
      benchmark::ClearRegisteredBenchmarks();
    }
  }
  benchmark::ClearRegisteredBenchmarks();
  benchmark::Shutdown();
  sweep.end_progress();
  SweepOutcome outcome;
  outcome.results_path = o.out;
  if (o.list_only) {
    outcome.listed_only = true;
    return outcome;
  }
  // Complete only when every planned point is in the file (a --benchmark_filter ran fewer).
  outcome.unfinished_points = sweep.unfinished();
  writer.finish(outcome.unfinished_points == 0);
  outcome.show_summary = !o.quiet;
  outcome.seconds = sweep.elapsed_s();
  outcome.failed_points = writer.failed_points();
  outcome.setup_failed_points = sweep.setup_failures();
  outcome.exit_code = outcome.failed_points || outcome.setup_failed_points ? kExitFailed : kExitOk;
  return outcome;
}

}  // namespace ridgeline
