#include "cli/compare_command.hpp"

#include <iostream>
#include <memory>

#include "cli/validators.hpp"
#include "compare/compare.hpp"
#include "render/compare_markdown.hpp"
#include "results/input_error.hpp"
#include "results/results_file.hpp"

namespace ridgeline {
namespace {

struct CompareArgs {
  std::string baseline, current, out;
  CompareOptions options;
  bool allow_different_hosts = false;
};

// What a baseline is tied to: the host and every device (or CPU) its spaces ran on.
std::string machine_identity(const Results& r) {
  std::string id = r.hostname;
  for (const auto& s : r.spaces) id += " | " + s.name + ": " + r.device_name(s.name);
  if (r.spaces.empty()) id += " | " + r.cpu_model;
  return id;
}

int run_compare(const CompareArgs& a) {
  Results base = load_results(a.baseline);
  Results cur = load_results(a.current);
  if (!a.allow_different_hosts && machine_identity(base) != machine_identity(cur))
    throw InputError(a.current, "context",
                     "measured on '" + machine_identity(cur) + "', the baseline on '" +
                         machine_identity(base) +
                         "'; baselines are per host (--allow-different-hosts to compare anyway)");
  // Different seeds: the two bootstraps must be independent for their ratios to mean anything.
  const FileAnalysis fb = analyze(std::move(base), 1000, kBootstrapSeed);
  const FileAnalysis fc = analyze(std::move(cur), 1000, kBootstrapSeed + 1);
  require_some_fit(fb);  // a current file without any fit fails the gate instead (MISSING)
  const Comparison c = compare_files(fb, fc, a.options);
  if (c.roofs.empty() && c.points.empty())
    throw InputError(a.current, "points", "nothing in common with the baseline to compare");
  const std::string md = render_compare_markdown(fb.label, fc.label, c, a.options);
  if (!a.out.empty()) write_text_atomically(a.out, md);
  std::cout << md;
  return c.regressions() > 0 ? kExitFailed : kExitOk;
}

}  // namespace

void add_compare_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<CompareArgs>();
  CLI::App* cmd = app.add_subcommand(
      "compare",
      "Compare two results files of one host; exit 1 only on a large and significant slowdown");
  cmd->add_option("baseline", args->baseline, "Baseline results JSON")->required();
  cmd->add_option("current", args->current, "Current results JSON")->required();
  // Both bound what the gate can see: a threshold of 100 % or more can never be exceeded by a
  // slowdown, and alpha NaN compares false with every p-value.
  cmd->add_option("--threshold", args->options.threshold_pct,
                  "Smallest change that counts, in percent of throughput (0 < T < 100)")
      ->check(number_in_range(0, 100, false))
      ->capture_default_str();
  cmd->add_option("--alpha", args->options.alpha, "Significance level of the tests")
      ->check(number_in_range(1e-6, 0.5, true))
      ->capture_default_str();
  cmd->add_option("--out", args->out, "Also write the markdown to this file");
  cmd->add_flag("--allow-different-hosts", args->allow_different_hosts,
                "Compare files measured on different hosts or devices");
  cmd->callback([args, &exit_code] { exit_code = run_compare(*args); });
}

}  // namespace ridgeline
