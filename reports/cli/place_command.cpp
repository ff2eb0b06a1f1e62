#include "cli/place_command.hpp"

#include <iostream>
#include <memory>

#include "fit/analysis.hpp"
#include "kernels/kernel_placement.hpp"
#include "render/kernels_markdown.hpp"
#include "results/device_split.hpp"
#include "results/input_error.hpp"
#include "roofline/calc.hpp"

namespace ridgeline {
namespace {

struct PlaceOptions {
  std::string results;
  std::string intensities;
  std::vector<std::string> kernels;  // kernels files of libridgeline-kp.so
  int rank = 0;                      // of an MPI job's file
};

int run_place(const PlaceOptions& o) {
  if (o.intensities.empty() && o.kernels.empty())
    throw InputError("", "--intensities", "give --intensities, --kernels or both");
  const auto parsed = o.intensities.empty() ? std::vector<double>{}
                                            : parse_intensities(o.intensities, "--intensities");
  std::vector<KernelsFile> kernels;
  for (const auto& path : o.kernels) kernels.push_back(load_kernels(path));
  const FileAnalysis a = analyze(one_rank(load_results(o.results), o.rank));
  require_some_fit(a);
  for (const auto& k : kernels)
    std::cout << format_kernels_text({&k, place_kernels(k, {&a})}) << "\n";
  if (parsed.empty()) return kExitOk;
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
  place->add_option("--intensities", opts->intensities,
                    "Comma-separated FLOP/byte values, or the word 'ridge'");
  place->add_option("--kernels", opts->kernels,
                    "Kernels files of libridgeline-kp.so: each kernel on the fitted roofs");
  place->callback([opts, &exit_code] { exit_code = run_place(*opts); });
}

}  // namespace ridgeline
