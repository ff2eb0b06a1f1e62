#include "cli/place_command.hpp"

#include <iostream>
#include <memory>

#include "cli/workload_options.hpp"
#include "fit/analysis.hpp"
#include "render/host_labels.hpp"
#include "render/workload_markdown.hpp"
#include "results/device_split.hpp"
#include "results/input_error.hpp"
#include "roofline/calc.hpp"

namespace ridgeline {
namespace {

struct PlaceOptions {
  std::vector<std::string> results;
  std::string intensities;
  WorkloadOptions workload;
  int rank = 0;  // of an MPI job's file
};

int run_place(const PlaceOptions& o) {
  check_workload_options(o.workload);
  if (o.intensities.empty() == o.workload.workload.empty())
    throw InputError("", "--intensities",
                     "give either --intensities (a roofline table) or --workload (an LLM's "
                     "phases)");
  std::vector<double> parsed;
  WorkloadRequest request;
  if (o.workload.workload.empty())
    parsed = parse_intensities(o.intensities, "--intensities");
  else
    request = make_workload_request(o.workload);
  std::vector<FileAnalysis> files;
  for (const auto& path : o.results) {
    files.push_back(analyze(one_rank(load_results(path), o.rank)));
    require_some_fit(files.back());
  }
  if (!o.workload.workload.empty()) {
    label_by_host(files);
    std::vector<const FileAnalysis*> hosts;
    for (const auto& f : files) hosts.push_back(&f);
    std::cout << render_workload_markdown(request, hosts, "#");
    return kExitOk;
  }
  for (const auto& a : files)
    for (const auto& g : a.groups) {
      const std::string name = a.results.hostname + " " + g.fit.space + " " + g.fit.dtype;
      if (!g.fit.fit) {
        std::cout << name << ": " << g.fit.not_fitted << "\n\n";
        continue;
      }
      const Roof& roof = g.fit.fit->estimate.roof;
      std::cout << format_calc_table(name + " (fitted)", roof, resolve_intensities(parsed, roof))
                << "\n";
    }
  return kExitOk;
}

}  // namespace

void add_place_command(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<PlaceOptions>();
  CLI::App* place = app.add_subcommand(
      "place",
      "Attainable FLOP/s and regime at given intensities, or an LLM's decode and prefill speed "
      "of light, on the fitted roofs");
  place->add_option("results", opts->results, "Results JSON files (several: hosts side by side)")
      ->required();
  place->add_option("--rank", opts->rank, "Of an MPI job's results file: this rank's devices")
      ->check(CLI::Range(0, 1000000))
      ->capture_default_str();
  place->add_option("--intensities", opts->intensities,
                    "Comma-separated FLOP/byte values, or the word 'ridge'");
  add_workload_options(place, opts->workload);
  place->callback([opts, &exit_code] { exit_code = run_place(*opts); });
}

}  // namespace ridgeline
