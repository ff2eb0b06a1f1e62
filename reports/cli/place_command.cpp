#include "cli/place_command.hpp"

#include <iostream>
#include <memory>

#include "fit/analysis.hpp"
#include "results/device_split.hpp"
#include "results/input_error.hpp"
#include "roofline/calc.hpp"

namespace ridgeline {
namespace {

struct PlaceOptions {
  std::string results;
  std::string intensities;
  int rank = 0;  // of an MPI job's file
};

int run_place(const PlaceOptions& o) {
  const auto parsed = parse_intensities(o.intensities, "--intensities");
  const FileAnalysis a = analyze(one_rank(load_results(o.results), o.rank));
  require_some_fit(a);
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
      "place", "Attainable FLOP/s and regime at given intensities on the fitted roofs");
  place->add_option("results", opts->results, "Results JSON file")->required();
  place->add_option("--rank", opts->rank, "Of an MPI job's results file: this rank's devices")
      ->check(CLI::Range(0, 1000000))
      ->capture_default_str();
  place
      ->add_option("--intensities", opts->intensities,
                   "Comma-separated FLOP/byte values, or the word 'ridge'")
      ->required();
  place->callback([opts, &exit_code] { exit_code = run_place(*opts); });
}

}  // namespace ridgeline
