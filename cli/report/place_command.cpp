#include "cli/report/place_command.hpp"

#include <iostream>
#include <memory>
#include <optional>

#include "cli/report/counts_option.hpp"
#include "cli/report/workload_options.hpp"
#include "core/input_error.hpp"
#include "reports/fit/analysis.hpp"
#include "reports/kernels/kernel_placement.hpp"
#include "reports/machines/machine_profile.hpp"
#include "reports/render/engine_markdown.hpp"
#include "reports/render/host_labels.hpp"
#include "reports/render/kernels_markdown.hpp"
#include "reports/render/workload_markdown.hpp"
#include "reports/roofline/calc.hpp"
#include "reports/workloads/phase_roofs.hpp"
#include "results/device_split.hpp"

namespace ridgeline {
namespace {

struct PlaceOptions {
  std::vector<std::string> results;
  std::string intensities;
  WorkloadOptions workload;
  std::string dtype;  // empty: every group
  std::string unit = "vector";
  std::vector<std::string> kernels;  // kernels files of libridgeline-kp.so
  std::vector<std::string> counts;   // profilers' counter files, joined with the kernels files
  int rank = 0;                      // of an MPI job's file
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
  check_workload_options(o.workload);
  check_counts_option(o.kernels, o.counts);
  const bool table = !o.intensities.empty(), workload = !o.workload.workload.empty(),
             own_kernels = !o.kernels.empty();
  if (!table && !workload && !own_kernels)
    throw InputError("", "--intensities",
                     "give --intensities (a roofline table), --kernels (an application's "
                     "kernels) or --workload (an LLM's phases)");
  if (workload && (table || own_kernels))
    throw InputError("", "--workload", "goes alone, without --intensities or --kernels");
  const auto kind = unit_kind_named(o.unit);
  if (!kind) throw InputError("", "--unit", "must be vector or matrix, got '" + o.unit + "'");
  std::vector<double> parsed;
  WorkloadRequest request;
  if (table) parsed = parse_intensities(o.intensities, "--intensities");
  if (workload) request = make_workload_request(o.workload);
  std::vector<KernelsFile> kernels = load_kernels_with_counts(o.kernels, o.counts);
  std::vector<FileAnalysis> files;
  for (const auto& path : o.results) {
    files.push_back(analyze(one_rank(load_results(path), o.rank)));
    require_some_fit(files.back());
  }
  // Named as the report names them: a GPU run by its GPU, not by its host ("vm").
  label_by_machine(files);
  std::vector<const FileAnalysis*> hosts;
  for (const auto& f : files) hosts.push_back(&f);
  if (workload) {
    check_workload_names(request.space, request.compute_dtype, hosts);
    std::cout << render_workload_markdown(request, hosts, "#");
    // A measured time faster than its bound is an error to chase, said where scripts look.
    const auto errors = engine_bound_errors(request, hosts, build_workload_table(request, hosts));
    for (const std::string& e : errors) std::cerr << "ridgeline: error: " << single_line(e) << "\n";
    return errors.empty() ? kExitOk : kExitFailed;
  }
  for (const auto& k : kernels)
    std::cout << format_kernels_text({&k, place_kernels(k, hosts)}) << "\n";
  if (!table) return kExitOk;
  for (std::size_t i = 0; i < files.size(); ++i) {
    const FileAnalysis& a = files[i];
    std::string dtypes;
    bool placed = false;
    for (const auto& g : a.groups) {
      dtypes += (dtypes.empty() ? "" : ", ") + g.fit.dtype;
      if (!o.dtype.empty() && g.fit.dtype != o.dtype) continue;
      const std::string name = a.label + " " + g.fit.space + " " + g.fit.dtype;
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
      throw InputError(
          o.results[i], "--dtype",
          "no " + o.dtype + " " + o.unit + " roof to place on (groups: " + dtypes + ")");
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
  place->add_option("--dtype", opts->dtype, "Only this dtype's roofs (default: every dtype)");
  place
      ->add_option("--unit", opts->unit,
                   "vector (P, the FMA units) or matrix (P_matrix, tensor/matrix units)")
      ->capture_default_str();
  place->add_option("--kernels", opts->kernels,
                    "Kernels files of libridgeline-kp.so: each kernel on the fitted roofs");
  add_counts_option(place, opts->counts);
  add_workload_options(place, opts->workload);
  place->callback([opts, &exit_code] { exit_code = run_place(*opts); });
}

}  // namespace ridgeline
