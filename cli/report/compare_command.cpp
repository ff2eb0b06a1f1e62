#include "cli/report/compare_command.hpp"

#include <iostream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cli/report/validators.hpp"
#include "core/file_io.hpp"
#include "core/input_error.hpp"
#include "core/terminal.hpp"
#include "reports/compare/compare_json.hpp"
#include "reports/compare/gate_driver.hpp"
#include "reports/render/compare_markdown.hpp"
#include "reports/render/kernel_compare_markdown.hpp"

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
  GateRequest request;  // files: history nights, oldest first, then the current file
  std::string out, json;
};

int run_compare(const CompareArgs& a) {
  GateResult run;
  try {
    run = run_gate(a.request);
  } catch (const BaselineUnreadable& e) {
    // With --skip-unreadable-history, a baseline that cannot be read still ends the comparison
    // (exit 2), but --json says so: the file, its role and the error, and no decision.
    if (!a.json.empty())
      write_text_atomically(a.json, write_compare_json(unreadable_baseline_file(e.unreadable)));
    throw;
  }
  const CompareOptions& o = a.request.options;
  const std::string md = run.kernels
                             ? render_kernel_compare_markdown(run.label, run.kernel_comparison, o)
                             : render_compare_markdown(run.label, run.comparison, o);
  // --out and --json, all or none: a --json into a missing folder must not leave the markdown
  // written (and the gate's exit code with half its outputs).
  std::vector<std::pair<std::string, std::string>> files;
  if (!a.out.empty()) files.emplace_back(a.out, md);
  if (!a.json.empty()) files.emplace_back(a.json, write_compare_json(run.file));
  write_texts_atomically(files);
  std::cout << (color_enabled(STDOUT_FILENO) ? paint_verdicts(md) : md);
  return run.exit_code();
}

}  // namespace

void add_compare_options(CLI::App& cmd, CompareOptions& options) {
  // Both bound what the gate can see: a threshold of 100 % or more can never be exceeded by a
  // slowdown, and alpha NaN compares false with every p-value.
  cmd.add_option("--threshold", options.threshold_pct,
                 "Smallest change that counts, in percent of throughput (0 < T < 100)")
      ->check(number_in_range(0, 100, false))
      ->capture_default_str();
  cmd.add_option("--alpha", options.alpha, "Significance level of the tests")
      ->check(number_in_range(1e-6, 0.5, true))
      ->capture_default_str();
  cmd.add_option("--k", options.k,
                 "Tolerance = max(threshold, K x the metric's spread across the history nights)")
      ->check(number_in_range(0, 100, true))
      ->capture_default_str();
  cmd.add_option("--min-history", options.min_history,
                 "History nights needed before a slowdown fails the gate (fewer: reported only)")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  cmd.add_option("--machine-k", options.machine_k,
                 "Machine-wide factor's tolerance = max(machine threshold, MACHINE_K x its "
                 "spread across the history nights); a level's points together: max(threshold, "
                 "MACHINE_K x theirs)")
      ->check(number_in_range(0, 100, true))
      ->capture_default_str();
  cmd.add_option("--machine-threshold", options.machine_threshold_pct,
                 "Smallest machine-wide change that counts, in percent (0 < T < 100)")
      ->check(number_in_range(0, 100, false))
      ->capture_default_str();
  cmd.add_flag("--clock-limited-ambiguous", options.clock_limited_ambiguous,
               "A machine-wide or level slowdown at a lower clock (a GPU's SM clock, a host's "
               "cores') that the lower clock explains (within the tolerance at equal clock) is "
               "AMBIGUOUS (reported, not gated) instead of SLOWER clock-limited");
}

void add_compare_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<CompareArgs>();
  CLI::App* cmd = app.add_subcommand(
      "compare",
      "Compare a results file with earlier ones of the same host (BASELINE... CURRENT), or an "
      "application's kernels files; exit 1 only on a large and significant slowdown, or a lost "
      "or failing point or kernel");
  cmd->add_option("files", args->request.files,
                  "Earlier nights' results JSON (the history, oldest first), then the current "
                  "one; or kernels files of libridgeline-kp.so the same way")
      ->required()
      ->expected(2, -1);
  add_compare_options(*cmd, args->request.options);
  cmd->add_option("--roofs", args->request.roofs,
                  "With kernels files: each night's results file, in the same order, so that each "
                  "kernel's fraction of its night's roof tells a slower machine from slower code");
  cmd->add_option("--out", args->out, "Also write the markdown to this file");
  cmd->add_option("--json", args->json,
                  "Also write every metric (baseline, current, change, tolerance, verdict, "
                  "p-value) as JSON to this file");
  cmd->add_flag("--skip-unreadable-history", args->request.skip_unreadable_history,
                "Leave out a history night after the first (the baseline) that cannot be read, "
                "and list it in --json's \"unreadable\"; an unreadable baseline still exits 2, "
                "--json naming it");
  cmd->add_option("--confirm", args->request.confirm,
                  "A re-measure of the current file (the same sweep, run again after it); repeat "
                  "it for several, in the order they were measured: a slowdown is SLOWER only "
                  "where every re-measure, compared with the same history, finds it too; else "
                  "AMBIGUOUS \"not reproduced\"")
      ->allow_extra_args(false);
  cmd->add_flag("--allow-different-hosts", args->request.allow_different_hosts,
                "Compare files measured on different hosts or devices");
  cmd->callback([args, &exit_code] { exit_code = run_compare(*args); });
}

}  // namespace ridgeline
