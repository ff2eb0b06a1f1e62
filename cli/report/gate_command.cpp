#include "cli/report/gate_command.hpp"

#include <ctime>
#include <filesystem>
#include <iostream>
#include <memory>

#include "cli/report/compare_command.hpp"
#include "core/file_io.hpp"
#include "core/input_error.hpp"
#include "reports/compare/compare_json.hpp"
#include "reports/compare/night_store.hpp"
#include "reports/render/compare_markdown.hpp"

namespace ridgeline {
namespace {

struct GateArgs {
  std::string store, key, results, out, json;
  bool print_baseline = false;
  bool print_plateau_from = false;
  int run_exit = 0;
  NightRequest night;
};

std::string utc_now(const char* format) {
  char buf[32];
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  std::strftime(buf, sizeof buf, format, &tm);
  return buf;
}

int run_gate_command(GateArgs& a) {
  const NightStore store(a.store, a.key);
  if (a.print_baseline) {
    // The baseline a night would be judged against (nothing when there is none yet): what
    // `ridgeline run --plateau-from` confirms.
    if (store.has_baseline()) std::cout << store.baseline().string() << "\n";
    return kExitOk;
  }
  if (a.print_plateau_from) {
    for (const std::string& f : store.plateau_sources()) std::cout << f << "\n";
    return kExitOk;
  }
  if (a.results.empty()) throw InputError("", "--results", "tonight's results file is required");
  NightRequest& r = a.night;
  r.results = a.results;
  r.run_verified = a.run_exit == 0;
  r.date = utc_now("%Y-%m-%d");
  // The history's files sort by name: a UTC stamp first, then the night's folder (2026-12-06.2).
  const std::string folder = std::filesystem::path(a.results).parent_path().filename().string();
  r.night_name = utc_now("%Y%m%dT%H%M%SZ") + "_" + (folder.empty() ? "night" : folder);
  const NightOutcome o = run_night(store, r, std::cerr);
  // compare.md and compare.json, all or none, as `compare` writes them.
  std::vector<std::pair<std::string, std::string>> files;
  if (!a.out.empty() && o.run && !o.run->kernels)
    files.emplace_back(a.out, render_compare_markdown(o.run->label, o.run->comparison, r.options));
  if (!a.json.empty() && o.file) files.emplace_back(a.json, write_compare_json(*o.file));
  write_texts_atomically(files);
  // The verdict, then one markdown line per finding: scripts/nightly's summary.
  std::cout << o.verdict << "\n";
  for (const std::string& d : o.details) std::cout << d << "\n";
  return o.status;
}

}  // namespace

void add_gate_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<GateArgs>();
  CLI::App* cmd = app.add_subcommand(
      "gate",
      "The nightly gate over a store of baselines: compare tonight's results with this host's "
      "baseline and newest verified nights, keep unreadable files aside, let a verified night "
      "without a regression join the history (the oldest leave) and promote the first one; prints "
      "the verdict, then one line per finding; exit 0, 1 (a regression or a failed run), 2, or "
      "with --confirm-pending 4 (slower only: re-measure, then call again adding --confirm)");
  cmd->add_option("--store", args->store,
                  "The baselines folder: KEY.json (the baseline) and KEY.history/ per host/device")
      ->required();
  cmd->add_option("--key", args->key,
                  "This host/device's baseline key (`ridgeline info --json`: baseline.key)")
      ->required();
  cmd->add_flag("--print-baseline", args->print_baseline,
                "Print the path of the baseline tonight would be judged against (nothing when "
                "there is none yet) and exit");
  cmd->add_flag("--print-plateau-from", args->print_plateau_from,
                "Print the files tonight's run confirms its DRAM plateau from, one per line (the "
                "baseline, then the history's nights, newest first; nothing without a baseline) "
                "and exit")
      ->excludes("--print-baseline");
  cmd->add_option("--results", args->results, "Tonight's results file");
  cmd->add_option("--run-exit", args->run_exit,
                  "ridgeline run's exit status: 0 every point verified, 1 one failed "
                  "verification or setup (such a night never becomes the baseline)")
      ->check(CLI::Range(0, 1))
      ->capture_default_str();
  cmd->add_option("--history", args->night.nights,
                  "Compare against the last N verified nights, the baseline included")
      ->check(CLI::Range(1, 999))
      ->capture_default_str();
  cmd->add_flag("--update-baseline", args->night.update_baseline,
                "Promote tonight's results to the baseline (only if they verified); the history "
                "starts again from it");
  cmd->add_flag("--confirm-pending", args->night.confirm_pending,
                "The caller re-measures a slower night: where slowdowns are its only "
                "regressions (with --confirm: slowdowns every re-measure given reproduced), "
                "leave the store as it is and exit 4, to be called again with one --confirm "
                "more (minimum detectable changes are those caught in all the runs)");
  cmd->add_option("--confirm", args->night.confirm,
                  "Tonight's re-measure (the same sweep, run again after it); repeat it for "
                  "several, in the order they were measured: a slowdown fails the night only "
                  "where every re-measure finds it too")
      ->allow_extra_args(false);
  add_compare_options(*cmd, args->night.options);
  cmd->add_option("--out", args->out, "Also write compare's markdown to this file");
  cmd->add_option("--json", args->json, "Also write compare.json to this file");
  cmd->callback([args, &exit_code] { exit_code = run_gate_command(*args); });
}

}  // namespace ridgeline
