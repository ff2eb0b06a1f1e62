#include "cli/place_command.hpp"

#include <iostream>
#include <memory>
#include <optional>

#include "fit/analysis.hpp"
#include "machines/machine_profile.hpp"
#include "results/device_split.hpp"
#include "results/input_error.hpp"
#include "roofline/calc.hpp"

namespace ridgeline {
namespace {

struct PlaceOptions {
  std::string results;
  std::string intensities;
  std::string dtype;  // empty: every group
  std::string unit = "vector";
  int rank = 0;  // of an MPI job's file
};

// The measured roof a kernel on `kind` units meets: min(P, I·B) for the vector units,
// min(P_matrix, I·B) for the matrix units; nullopt with `why` when the group has none.
std::optional<Roof> measured_roof(const GroupFit& g, UnitKind kind, std::string& why) {
  if (kind == UnitKind::kMatrix) {
    if (auto r = g.matrix_roof()) return r;
    why = g.matrix ? "P_matrix measured, but no B to place it against"
                   : "no matrix-unit roof (no verified library GEMM on tensor or matrix units)";
    return std::nullopt;
  }
  if (g.fit) return g.fit->estimate.roof;
  why = g.not_fitted;
  return std::nullopt;
}

int run_place(const PlaceOptions& o) {
  const auto kind = unit_kind_named(o.unit);
  if (!kind) throw InputError("", "--unit", "must be vector or matrix, got '" + o.unit + "'");
  const auto parsed = parse_intensities(o.intensities, "--intensities");
  const FileAnalysis a = analyze(one_rank(load_results(o.results), o.rank));
  require_some_fit(a);
  std::string dtypes;
  bool placed = false;
  for (const auto& g : a.groups) {
    dtypes += (dtypes.empty() ? "" : ", ") + g.fit.dtype;
    if (!o.dtype.empty() && g.fit.dtype != o.dtype) continue;
    const std::string name = a.results.hostname + " " + g.fit.space + " " + g.fit.dtype;
    std::string why;
    const auto roof = measured_roof(g.fit, *kind, why);
    if (!roof) {
      std::cout << name << ": " << why << "\n\n";
      continue;
    }
    placed = true;
    const std::string how = *kind == UnitKind::kMatrix ? " (fitted, matrix units)" : " (fitted)";
    std::cout << format_calc_table(name + how, *roof, resolve_intensities(parsed, *roof)) << "\n";
  }
  if (!o.dtype.empty() && !placed)
    throw InputError(o.results, "--dtype",
                     "no " + o.dtype + " " + o.unit + " roof to place on (groups: " + dtypes + ")");
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
  place->add_option("--dtype", opts->dtype, "Only this dtype's roofs (default: every dtype)");
  place
      ->add_option("--unit", opts->unit,
                   "vector (P, the FMA units) or matrix (P_matrix, tensor/matrix units)")
      ->capture_default_str();
  place->callback([opts, &exit_code] { exit_code = run_place(*opts); });
}

}  // namespace ridgeline
