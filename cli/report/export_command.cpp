#include "cli/report/export_command.hpp"

#include <iostream>
#include <memory>

#include "core/file_io.hpp"
#include "core/input_error.hpp"
#include "reports/export/export_format.hpp"
#include "reports/fit/analysis.hpp"
#include "results/device_split.hpp"

namespace ridgeline {
namespace {

struct ExportOptions {
  std::string results, format, out, space, dtype;
  int rank = 0;  // of an MPI job's file
};

int run_export(const ExportOptions& o) {
  const FileAnalysis a = analyze(one_rank(load_results(o.results), o.rank));
  const RoofExport roofs = collect_roofs(a, o.space, o.dtype);
  const std::string text = render_export(o.format, roofs);
  if (o.out.empty())
    std::cout << text;
  else
    write_text_atomically(o.out, text);
  // What is not in the file, said once here (not every format has room for a note); after the
  // write, so a failed one reports only its error.
  for (const auto& g : roofs.groups)
    for (const auto& n : g.notes)
      std::cerr << "ridgeline export: note: " << group_label(g) << ": " << n << "\n";
  return kExitOk;
}

}  // namespace

void add_export_command(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<ExportOptions>();
  CLI::App* cmd = app.add_subcommand(
      "export",
      "Write the fitted roofs (P, B, B_read, I* with 95% intervals, memory levels) for dashboards "
      "and roofline tools");
  cmd->add_option("results", opts->results, "A results JSON file")->required();
  cmd->add_option("--format", opts->format,
                  "github-action-benchmark (customBiggerIsBetter), bencher (BMF), "
                  "rocprof-roofline (rocprof-compute's roofline.csv), ert (ERT's roofline.json)")
      ->required()
      ->check(CLI::IsMember(export_format_names()));
  cmd->add_option("--out", opts->out, "Write to FILE (replaced atomically) instead of stdout");
  cmd->add_option("--space", opts->space, "Only this execution space (e.g. Cuda, OpenMP)");
  cmd->add_option("--dtype", opts->dtype, "Only this dtype (e.g. fp64)");
  cmd->add_option("--rank", opts->rank, "Of an MPI job's results file: this rank's devices")
      ->check(CLI::Range(0, 1000000))
      ->capture_default_str();
  cmd->callback([opts, &exit_code] { exit_code = run_export(*opts); });
}

}  // namespace ridgeline
