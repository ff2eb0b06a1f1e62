#include "cli/report/compare_command.hpp"

#include <cmath>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/report/validators.hpp"
#include "core/file_io.hpp"
#include "core/input_error.hpp"
#include "core/terminal.hpp"
#include "reports/compare/compare.hpp"
#include "reports/compare/device_compare.hpp"
#include "reports/compare/kernel_compare.hpp"
#include "reports/kernels/kernels_file.hpp"
#include "reports/render/compare_markdown.hpp"
#include "reports/render/kernel_compare_markdown.hpp"
#include "results/results_file.hpp"

namespace ridgeline {
namespace {

// On a terminal the verdicts that fail the night stand out; files and pipes stay plain markdown.
std::string paint_verdicts(std::string md) {
  for (const char* verdict : {"**SLOWER**", "**FAILED**", "**MISSING**", " REGRESSION "}) {
    const std::string plain = verdict, painted = paint_bad(plain, true);
    for (auto at = md.find(plain); at != std::string::npos;
         at = md.find(plain, at + painted.size()))
      md.replace(at, plain.size(), painted);
  }
  return md;
}

struct CompareArgs {
  std::vector<std::string> files;  // history nights, oldest first, then the current file
  std::vector<std::string> roofs;  // kernels files: each night's results file, in their order
  std::string out, json;
  CompareOptions options;
  bool allow_different_hosts = false;
  bool skip_unreadable_history = false;
};

// --out and --json, all or none: a --json into a missing folder must not leave the markdown
// written (and the gate's exit code with half its outputs).
template <class Json>
void write_outputs(const CompareArgs& a, const std::string& md, Json&& json_text) {
  std::vector<std::pair<std::string, std::string>> files;
  if (!a.out.empty()) files.emplace_back(a.out, md);
  if (!a.json.empty()) files.emplace_back(a.json, json_text());
  write_texts_atomically(files);
}

// A history file left out (or, the baseline, fatal) because it could not be used: its path, its
// role and compare's one-line error, so that a script can keep it aside without reading stderr.
struct Unreadable {
  std::string file, role, error;  // role: "baseline" (the first file) or "history"
};

nlohmann::json unreadable_json(const std::vector<Unreadable>& unreadable) {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& u : unreadable)
    j.push_back({{"file", u.file}, {"role", u.role}, {"error", u.error}});
  return j;
}

// With --skip-unreadable-history, a baseline that cannot be read still ends the comparison
// (exit 2), but --json says so: the file, its role and the error, and no decision.
[[noreturn]] void baseline_unreadable(const CompareArgs& a, const InputError& e) {
  if (!a.json.empty())
    write_text_atomically(
        a.json,
        nlohmann::json({{"schema_version", "1.3.0"},
                        {"verdict", nullptr},
                        {"history_decision", nullptr},
                        {"unreadable", unreadable_json({{a.files.front(), "baseline", e.what()}})}})
                .dump(1) +
            "\n");
  throw e;
}

// The history files, oldest first, each passed to `use` (which may throw InputError for that
// file); with --skip-unreadable-history, one after the baseline that throws is left out and
// listed instead.
template <typename Use>
std::vector<Unreadable> for_each_history_file(const CompareArgs& a, Use use) {
  std::vector<Unreadable> unreadable;
  for (std::size_t i = 0; i + 1 < a.files.size(); ++i) {
    try {
      use(a.files[i]);
    } catch (const InputError& e) {
      if (!a.skip_unreadable_history) throw;
      if (i == 0) baseline_unreadable(a, e);
      unreadable.push_back({a.files[i], "history", e.what()});
    }
  }
  return unreadable;
}

// What a baseline is tied to: the host and every device (or CPU) its spaces ran on.
std::string machine_identity(const Results& r) {
  std::string id = r.hostname;
  for (const auto& s : r.spaces) id += " | " + s.name + ": " + r.device_name(s.name);
  if (r.spaces.empty()) id += " | " + r.cpu_model;
  return id;
}

nlohmann::json number_or_null(double v) { return std::isfinite(v) ? nlohmann::json(v) : nullptr; }

// A point in a cache level the run does not own (compare/shared_level.hpp): why, the range its
// history showed and tonight's DRAM rate of its traffic (changes against the baseline), and what
// the range rule decided; null for every other metric.
nlohmann::json shared_level_json(const MetricComparison& m) {
  if (!m.shared) return nullptr;
  const SharedLevel& s = *m.shared;
  return {{"reason", s.reason},
          {"history_lowest", number_or_null(s.lowest)},
          {"history_highest", number_or_null(s.highest)},
          {"dram_floor", s.dram_floor ? number_or_null(*s.dram_floor) : nlohmann::json(nullptr)},
          {"outcome", range_outcome_name(s.outcome)}};
}

nlohmann::json metric_json(const MetricComparison& m, const char* kind) {
  const bool measured = m.verdict != Verdict::kMissing;
  return {{"metric", m.metric},
          {"kind", kind},
          // Roofs in FLOP/s or byte/s, points as median seconds per call, the machine-wide
          // factor as throughput relative to the history.
          {"unit",
           m.roof ? (m.metric.rfind("P ", 0) == 0 || m.metric.rfind("P_matrix ", 0) == 0 ? "FLOP/s"
                                                                                         : "byte/s")
           : kind == std::string("machine") ? "ratio"
                                            : "s"},
          {"baseline", number_or_null(m.baseline_value)},
          {"current", measured ? number_or_null(m.current_value) : nullptr},
          {"change", number_or_null(m.change)},
          {"tolerance", number_or_null(m.tolerance)},
          {"min_detectable_change",
           m.min_detectable >= 0 ? number_or_null(m.min_detectable) : nlohmann::json(nullptr)},
          {"spread", m.spread >= 0 ? number_or_null(m.spread) : nlohmann::json(nullptr)},
          {"history_nights", m.nights},
          {"p_value", number_or_null(m.p_value)},
          {"q_value", number_or_null(m.q_value)},
          {"verdict", verdict_name(m.verdict)},
          {"note", m.note},
          // GPU clocks from telemetry (null where unknown); clock_limited annotates the verdict.
          {"clock_limited", m.clock_limited},
          {"sm_clock_mhz", m.sm_clock_mhz > 0 ? nlohmann::json(m.sm_clock_mhz) : nullptr},
          {"history_sm_clock_mhz",
           m.history_sm_clock_mhz > 0 ? nlohmann::json(m.history_sm_clock_mhz) : nullptr},
          {"new_throttle_reasons", m.new_throttle_reasons},
          {"throttled_samples", m.throttled_samples},
          {"change_per_cycle",
           m.change_per_cycle ? number_or_null(*m.change_per_cycle) : nlohmann::json(nullptr)},
          // Run-queue waits (null where not recorded); machine_busy: a slowdown they explain,
          // made AMBIGUOUS.
          {"machine_busy", m.machine_busy},
          {"cpu_wait_share",
           m.cpu_wait_share >= 0 ? number_or_null(m.cpu_wait_share) : nlohmann::json(nullptr)},
          {"history_cpu_wait_share", m.history_cpu_wait_share >= 0
                                         ? number_or_null(m.history_cpu_wait_share)
                                         : nlohmann::json(nullptr)},
          // Judged against its history's range: a cache level the run does not own.
          {"shared_level", shared_level_json(m)}};
}

// A roof both ways: `baseline`/`change` relative to the night's machine-wide factor (what the
// verdict judges), `absolute_*` as measured.
nlohmann::json roof_json(const MetricComparison& m) {
  nlohmann::json j = metric_json(m, "roof");
  j["relative_change"] = j["change"];
  j["absolute_baseline"] = number_or_null(m.absolute_baseline_value);
  j["absolute_change"] =
      m.absolute_change ? number_or_null(*m.absolute_change) : nlohmann::json(nullptr);
  j["absolute_tolerance"] =
      m.absolute_tolerance > 0 ? number_or_null(m.absolute_tolerance) : nlohmann::json(nullptr);
  return j;
}

std::string compare_json(const std::string& current, const Comparison& c, const CompareOptions& o,
                         const std::vector<Unreadable>& unreadable) {
  nlohmann::json metrics = nlohmann::json::array();
  if (c.machine) metrics.push_back(metric_json(*c.machine, "machine"));
  for (const auto& m : c.roofs) metrics.push_back(roof_json(m));
  for (const auto& m : c.points) metrics.push_back(metric_json(m, "point"));
  nlohmann::json counts;
  for (Verdict v : {Verdict::kSlower, Verdict::kFailed, Verdict::kMissing, Verdict::kFaster,
                    Verdict::kAmbiguous, Verdict::kSame})
    counts[verdict_name(v)] = c.count(v);
  // Points judged against their history's range, by what that range made of them.
  nlohmann::json shared = {{"points", 0}};
  for (RangeOutcome r :
       {RangeOutcome::kWithinTolerance, RangeOutcome::kVariedWithNeighbours,
        RangeOutcome::kAboveHistory, RangeOutcome::kBelowHistory, RangeOutcome::kBelowDram})
    shared[range_outcome_name(r)] = 0;
  for (const auto& m : c.points)
    if (m.shared) {
      shared["points"] = shared["points"].get<int>() + 1;
      shared[range_outcome_name(m.shared->outcome)] =
          shared[range_outcome_name(m.shared->outcome)].get<int>() + 1;
    }
  const nlohmann::json j = {
      {"schema_version", "1.3.0"},
      {"verdict", c.regressions() ? "REGRESSION" : "no regression"},
      // Whether tonight may join the history (if its run verified too), and the history files
      // left out as unreadable (--skip-unreadable-history): what scripts act on.
      {"history_decision", history_decision_name(history_decision(c, o.min_history))},
      {"unreadable", unreadable_json(unreadable)},
      {"regressions", c.regressions()},
      {"gates_speed", c.gates_speed},
      // The machine-wide verdict (null: fewer than 3 history nights or 5 points, not judged)
      // and, when it is a slowdown, the roofs that lost as much in absolute terms.
      {"machine_verdict", c.machine ? nlohmann::json(verdict_name(c.machine->verdict)) : nullptr},
      {"machine_roofs", c.machine_roofs},
      {"history", c.history},
      // Nights left out of the history as measured on a busy machine,
      // and tonight's median CPU wait share (null: not recorded).
      {"busy_history", c.busy_history},
      {"quiet_history_nights", c.quiet_history_nights},
      {"night_cpu_wait_share",
       c.night_cpu_wait >= 0 ? nlohmann::json(c.night_cpu_wait) : nlohmann::json(nullptr)},
      {"busy_night", c.busy_night()},
      {"current", current},
      {"options",
       {{"threshold_pct", o.threshold_pct},
        {"alpha", o.alpha},
        {"k", o.k},
        {"min_history", o.min_history},
        {"machine_k", o.machine_k},
        {"machine_threshold_pct", o.machine_threshold_pct},
        {"clock_limited_ambiguous", o.clock_limited_ambiguous}}},
      {"counts", counts},
      {"shared_levels", shared},
      {"metrics", metrics},
      {"not_compared", c.not_compared}};
  return j.dump(1) + "\n";
}

// An MPI job's nights: each device against its own history (compare/device_compare.hpp).
int run_device_compare(const CompareArgs& a, Results cur) {
  const std::string& current_path = a.files.back();
  std::vector<Results> history;
  const std::vector<Unreadable> unreadable = for_each_history_file(
      a, [&history](const std::string& file) { history.push_back(load_results(file)); });
  const std::string label = cur.hostname + " (MPI job, " + std::to_string(cur.mpi_size) + " ranks)";
  const Comparison c = compare_devices(std::move(history), std::move(cur), a.options);
  if (c.roofs.empty() && c.points.empty())
    throw InputError(current_path, "points", "no device in common with the baseline to compare");
  const std::string md = render_compare_markdown(label, c, a.options);
  write_outputs(a, md, [&] { return compare_json(label, c, a.options, unreadable); });
  std::cout << (color_enabled(STDOUT_FILENO) ? paint_verdicts(md) : md);
  return c.regressions() > 0 ? kExitFailed : kExitOk;
}

nlohmann::json kernels_compare_json(const std::string& current, const KernelsComparison& c,
                                    const CompareOptions& o,
                                    const std::vector<Unreadable>& unreadable) {
  nlohmann::json kernels = nlohmann::json::array();
  for (const KernelComparison& k : c.kernels) {
    nlohmann::json j = metric_json(k.time, "kernel");
    j["fraction_of_roof"] = k.fraction ? metric_json(*k.fraction, "fraction") : nullptr;
    if (k.fraction) j["fraction_of_roof"]["unit"] = "ratio";
    j["roof_change"] = k.roof_change ? number_or_null(*k.roof_change) : nullptr;
    // "machine": the roof moved with it; "code": the roof held; "both"; "unknown": no roofs or
    // an unclear fraction; null: not slower.
    j["cause"] = k.cause == SlowdownCause::kNone ? nlohmann::json(nullptr)
                                                 : nlohmann::json(slowdown_cause_name(k.cause));
    j["explanation"] = k.explanation;
    kernels.push_back(j);
  }
  nlohmann::json counts;
  for (Verdict v :
       {Verdict::kSlower, Verdict::kMissing, Verdict::kFaster, Verdict::kAmbiguous, Verdict::kSame})
    counts[verdict_name(v)] = c.count(v);
  return {{"schema_version", "1.3.0"},
          {"kind", "kernels"},
          {"verdict", c.regressions() ? "REGRESSION" : "no regression"},
          {"regressions", c.regressions()},
          {"gates_speed", c.gates_speed},
          {"unreadable", unreadable_json(unreadable)},
          {"history", c.history},
          {"current", current},
          {"options",
           {{"threshold_pct", o.threshold_pct},
            {"alpha", o.alpha},
            {"k", o.k},
            {"min_history", o.min_history}}},
          {"counts", counts},
          {"kernels", kernels},
          {"not_compared", c.not_compared}};
}

// Application kernels (kernels files of libridgeline-kp.so): each kernel against its history,
// its fraction of the night's roof from --roofs (compare/kernel_compare.hpp).
int run_kernel_compare(const CompareArgs& a) {
  const std::string& current_path = a.files.back();
  if (!a.roofs.empty() && a.roofs.size() != a.files.size())
    throw InputError("", "--roofs",
                     "give one results file per kernels file, in their order (" +
                         std::to_string(a.files.size()) + " kernels files, " +
                         std::to_string(a.roofs.size()) + " results files)");
  const KernelsFile cur = load_kernels(current_path);
  std::vector<KernelsFile> history;
  std::vector<std::size_t> night_of;  // each history file's position in a.files (for --roofs)
  std::size_t position = 0;
  const std::vector<Unreadable> unreadable = for_each_history_file(a, [&](const std::string& f) {
    const std::size_t at = position++;
    KernelsFile k = load_kernels(f);
    if (!a.allow_different_hosts && k.hostname != cur.hostname)
      throw InputError(current_path, "host.hostname",
                       "ran on '" + cur.hostname + "', the baseline " + f + " on '" + k.hostname +
                           "'; baselines are per host (--allow-different-hosts to compare "
                           "anyway)");
    history.push_back(std::move(k));
    night_of.push_back(at);
  });
  std::vector<FileAnalysis> roofs;  // history nights' in order, then tonight's
  if (!a.roofs.empty()) {
    for (std::size_t i : night_of)
      roofs.push_back(
          analyze(load_results(a.roofs[i]), kBootstrapReplicates, kBootstrapSeed + 2 + i));
    roofs.push_back(
        analyze(load_results(a.roofs.back()), kBootstrapReplicates, kBootstrapSeed + 1));
  }
  std::vector<KernelNight> nights;
  for (std::size_t i = 0; i < history.size(); ++i)
    nights.push_back({&history[i], roofs.empty() ? nullptr : &roofs[i]});
  const KernelNight tonight{&cur, roofs.empty() ? nullptr : &roofs.back()};
  const KernelsComparison c = compare_kernel_history(nights, tonight, a.options);
  if (c.kernels.empty())
    throw InputError(current_path, "kernels", "no kernel in common with the baseline to compare");
  const std::string label = cur.file + " (" + cur.hostname + ")";
  const std::string md = render_kernel_compare_markdown(label, c, a.options);
  write_outputs(
      a, md, [&] { return kernels_compare_json(label, c, a.options, unreadable).dump(1) + "\n"; });
  std::cout << (color_enabled(STDOUT_FILENO) ? paint_verdicts(md) : md);
  return c.regressions() > 0 ? kExitFailed : kExitOk;
}

int run_compare(const CompareArgs& a) {
  const std::string& current_path = a.files.back();
  if (is_kernels_file(current_path)) return run_kernel_compare(a);
  if (!a.roofs.empty())
    throw InputError("", "--roofs", "goes with kernels files (libridgeline-kp.so's) only");
  Results cur = load_results(current_path);
  if (cur.mpi_size > 0) return run_device_compare(a, std::move(cur));
  std::vector<FileAnalysis> history;
  // A host mismatch names the current file: not the history file's fault, never skipped.
  struct DifferentHost {
    InputError error;
  };
  std::vector<Unreadable> unreadable;
  try {
    unreadable = for_each_history_file(a, [&](const std::string& file) {
      Results base = load_results(file);
      if (base.mpi_size > 0)
        throw InputError(file, "mpi",
                         "is an MPI job's file and " + current_path +
                             " is not: a job is compared with runs of the same job");
      if (!a.allow_different_hosts && machine_identity(base) != machine_identity(cur))
        throw DifferentHost{InputError(
            current_path, "context",
            "measured on '" + machine_identity(cur) + "', the baseline " + file + " on '" +
                machine_identity(base) +
                "'; baselines are per host (--allow-different-hosts to compare anyway)")};
      // Every file its own seed: the bootstraps must be independent for their ratios to mean
      // anything.
      history.push_back(
          analyze(std::move(base), kBootstrapReplicates, kBootstrapSeed + 2 + history.size()));
    });
  } catch (const DifferentHost& d) {
    throw d.error;
  }
  const FileAnalysis fc = analyze(std::move(cur), kBootstrapReplicates, kBootstrapSeed + 1);
  // Points are gated even where no roof could be fitted (a tiny or filtered sweep); a current
  // file without a fit the baseline had fails the gate instead (MISSING).
  require_some_measured(history.back());
  std::vector<const FileAnalysis*> past;
  for (const auto& h : history) past.push_back(&h);
  const Comparison c = compare_history(past, fc, a.options);
  if (c.roofs.empty() && c.points.empty())
    throw InputError(current_path, "points", "nothing in common with the baseline to compare");
  const std::string md = render_compare_markdown(fc.label, c, a.options);
  write_outputs(a, md, [&] { return compare_json(fc.label, c, a.options, unreadable); });
  std::cout << (color_enabled(STDOUT_FILENO) ? paint_verdicts(md) : md);
  return c.regressions() > 0 ? kExitFailed : kExitOk;
}

}  // namespace

void add_compare_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<CompareArgs>();
  CLI::App* cmd = app.add_subcommand(
      "compare",
      "Compare a results file with earlier ones of the same host (BASELINE... CURRENT), or an "
      "application's kernels files; exit 1 only on a large and significant slowdown, or a lost "
      "or failing point or kernel");
  cmd->add_option("files", args->files,
                  "Earlier nights' results JSON (the history, oldest first), then the current "
                  "one; or kernels files of libridgeline-kp.so the same way")
      ->required()
      ->expected(2, -1);
  // Both bound what the gate can see: a threshold of 100 % or more can never be exceeded by a
  // slowdown, and alpha NaN compares false with every p-value.
  cmd->add_option("--threshold", args->options.threshold_pct,
                  "Smallest change that counts, in percent of throughput (0 < T < 100)")
      ->check(number_in_range(0, 100, false))
      ->capture_default_str();
  cmd->add_option("--alpha", args->options.alpha, "Significance level of the tests")
      ->check(number_in_range(1e-6, 0.5, true))
      ->capture_default_str();
  cmd->add_option("--k", args->options.k,
                  "Tolerance = max(threshold, K x the metric's spread across the history nights)")
      ->check(number_in_range(0, 100, true))
      ->capture_default_str();
  cmd->add_option("--min-history", args->options.min_history,
                  "History nights needed before a slowdown fails the gate (fewer: reported only)")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  cmd->add_option("--machine-k", args->options.machine_k,
                  "Machine-wide factor's tolerance = max(machine threshold, MACHINE_K x its "
                  "spread across the history nights)")
      ->check(number_in_range(0, 100, true))
      ->capture_default_str();
  cmd->add_option("--machine-threshold", args->options.machine_threshold_pct,
                  "Smallest machine-wide change that counts, in percent (0 < T < 100)")
      ->check(number_in_range(0, 100, false))
      ->capture_default_str();
  cmd->add_flag("--clock-limited-ambiguous", args->options.clock_limited_ambiguous,
                "A machine-wide slowdown with a lower GPU clock or a new throttle reason is "
                "AMBIGUOUS (reported, not gated) instead of SLOWER clock-limited");
  cmd->add_option("--roofs", args->roofs,
                  "With kernels files: each night's results file, in the same order, so that each "
                  "kernel's fraction of its night's roof tells a slower machine from slower code");
  cmd->add_option("--out", args->out, "Also write the markdown to this file");
  cmd->add_option("--json", args->json,
                  "Also write every metric (baseline, current, change, tolerance, verdict, "
                  "p-value) as JSON to this file");
  cmd->add_flag("--skip-unreadable-history", args->skip_unreadable_history,
                "Leave out a history night after the first (the baseline) that cannot be read, "
                "and list it in --json's \"unreadable\"; an unreadable baseline still exits 2, "
                "--json naming it");
  cmd->add_flag("--allow-different-hosts", args->allow_different_hosts,
                "Compare files measured on different hosts or devices");
  cmd->callback([args, &exit_code] { exit_code = run_compare(*args); });
}

}  // namespace ridgeline
