#include "cli/report/fit_command.hpp"

#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "core/input_error.hpp"
#include "core/units.hpp"
#include "reports/fit/analysis.hpp"
#include "results/csv_points.hpp"
#include "results/device_split.hpp"

namespace ridgeline {
namespace {

struct FitOptions {
  std::string results;
  std::string csv;
  bool json = false;
  int rank = 0;  // of an MPI job's file
};

nlohmann::json fit_json(const RoofFit& f) {
  const Roof& r = f.estimate.roof;
  return {{"peak_flops", r.peak_flops},
          {"bandwidth", r.bandwidth},
          {"ridge_point", r.ridge_point()},
          {"peak_flops_ci", {f.peak_ci.low, f.peak_ci.high}},
          {"bandwidth_ci", {f.bandwidth_ci.low, f.bandwidth_ci.high}},
          {"ridge_point_ci", {f.ridge_ci.low, f.ridge_ci.high}},
          {"interval_method", f.interval_method},
          {"bandwidth_spread", {f.estimate.bandwidth_spread.low, f.estimate.bandwidth_spread.high}},
          {"peak_flops_spread", {f.estimate.peak_spread.low, f.estimate.peak_spread.high}},
          {"memory_observations", f.estimate.memory_points},
          {"compute_observations", f.estimate.compute_points},
          {"knee_points_excluded", f.estimate.knee_points},
          {"knee_band_factor", f.estimate.band}};
}

std::string fit_text(const RoofFit& f) {
  const Roof& r = f.estimate.roof;
  return fmt::format(
      "  P  = {:<16} 95% CI {}\n"
      "  B  = {:<16} 95% CI {}\n"
      "  I* = {:<16} 95% CI {}\n"
      "  ({} observations of B, {} of P; {} in the knee band I*/{:g} .. I*x{:g} left out;\n"
      "   intervals from {}; spread across the points: B {} .. {}, P {} .. {})\n",
      format_flops(r.peak_flops), format_flops_ci(f.peak_ci, r.peak_flops),
      format_bytes_per_s(r.bandwidth), format_bytes_ci(f.bandwidth_ci, r.bandwidth),
      format_intensity(r.ridge_point()), format_intensity_ci(f.ridge_ci), f.estimate.memory_points,
      f.estimate.compute_points, f.estimate.knee_points, f.estimate.band, f.estimate.band,
      f.interval_method, format_bytes_per_s(f.estimate.bandwidth_spread.low),
      format_bytes_per_s(f.estimate.bandwidth_spread.high),
      format_flops(f.estimate.peak_spread.low), format_flops(f.estimate.peak_spread.high));
}

nlohmann::json interval_json(const Interval& i) { return {i.low, i.high}; }

nlohmann::json matrix_json(const MatrixRoofFit& m) {
  nlohmann::json j = {
      {"value", m.peak.value},
      {"ci", interval_json(m.peak.ci)},
      {"spread", interval_json(m.peak.spread)},
      {"points", m.peak.points},
      {"from", m.from},
      {"accumulate", m.accumulate.empty() ? nlohmann::json() : nlohmann::json(m.accumulate)},
      {"bandwidth_dtype",
       m.bandwidth_dtype.empty() ? nlohmann::json() : nlohmann::json(m.bandwidth_dtype)},
      {"read_bandwidth_dtype",
       m.read_bandwidth_dtype.empty() ? nlohmann::json() : nlohmann::json(m.read_bandwidth_dtype)},
      {"ridge_point", nullptr},
      {"ridge_point_ci", nullptr},
      {"read_ridge_point", nullptr},
      {"read_ridge_point_ci", nullptr}};
  if (m.ridge) j["ridge_point"] = *m.ridge, j["ridge_point_ci"] = interval_json(m.ridge_ci);
  if (m.read_ridge)
    j["read_ridge_point"] = *m.read_ridge,
    j["read_ridge_point_ci"] = interval_json(m.read_ridge_ci);
  return j;
}

std::string matrix_text(const MatrixRoofFit& m) {
  std::string s =
      fmt::format("  P_matrix = {} 95% CI {} (envelope of {})\n", format_flops(m.peak.value),
                  format_flops_ci(m.peak.ci, m.peak.value), m.from);
  if (m.ridge)
    s += fmt::format("  I*_matrix = {} 95% CI {}{}\n", format_intensity(*m.ridge),
                     format_intensity_ci(m.ridge_ci),
                     m.read_ridge
                         ? fmt::format("; on B_read {} 95% CI {}", format_intensity(*m.read_ridge),
                                       format_intensity_ci(m.read_ridge_ci))
                         : "");
  return s;
}

int fit_csv(const FitOptions& o) {
  Observations obs;
  for (const auto& p : load_csv_points(o.csv)) obs.add_point(p.intensity, p.flops_per_s);
  RoofFit f;
  try {
    f = fit_roofline_with_bootstrap(obs);
  } catch (const FitError& e) {
    throw InputError(o.csv, "", e.what());
  }
  if (o.json)
    std::cout << fit_json(f).dump(2) << "\n";
  else
    std::cout << o.csv << "\n" << fit_text(f);
  return kExitOk;
}

int fit_results_file(const FitOptions& o) {
  const FileAnalysis a = analyze(one_rank(load_results(o.results), o.rank));
  require_some_fit(a);
  std::vector<GroupFit> groups;
  for (const auto& g : a.groups) groups.push_back(g.fit);
  if (o.json) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& g : groups) {
      nlohmann::json j = g.fit ? fit_json(*g.fit) : nlohmann::json{{"error", g.not_fitted}};
      j["space"] = g.space;
      j["dtype"] = g.dtype;
      j["bandwidth_from"] = g.bandwidth_from;
      j["peak_from"] = g.peak_from;
      j["caveats"] = g.caveats;
      if (g.read_bandwidth)
        j["read_bandwidth"] = {
            {"value", g.read_bandwidth->value},
            {"ci", {g.read_bandwidth->ci.low, g.read_bandwidth->ci.high}},
            {"spread", {g.read_bandwidth->spread.low, g.read_bandwidth->spread.high}},
            {"from", g.read_bandwidth_from}};
      // B is the envelope of the mixes that read and write: which one set it, and every mix's.
      j["bandwidth_mix"] = g.bandwidth_mix ? nlohmann::json(mix_name(*g.bandwidth_mix)) : nullptr;
      j["bandwidth_set_by"] = g.bandwidth_best;
      j["peak_set_by"] = g.peak_best;
      nlohmann::json mixes = nlohmann::json::object();
      for (const MixRoof& m : g.mixes)
        mixes[mix_name(m.mix)] = {{"value", m.roof.value},
                                  {"ci", {m.roof.ci.low, m.roof.ci.high}},
                                  {"set_by", m.best},
                                  {"from", m.from},
                                  {"lower_bound", m.lower_bound}};
      j["mixes"] = mixes;
      // P_vector is "peak_flops" (kept for readers of earlier output); P_matrix beside it.
      j["matrix_peak"] = g.matrix ? matrix_json(*g.matrix) : nlohmann::json();
      out.push_back(j);
    }
    std::cout << out.dump(2) << "\n";
  } else {
    for (const auto& g : groups) {
      std::cout << o.results << ": " << g.space << " " << g.dtype << "\n";
      std::cout << (g.fit ? fit_text(*g.fit) : "  " + g.not_fitted + "\n");
      if (g.fit && g.bandwidth_mix)
        std::cout << "  B is the envelope, set by the " << mix_name(*g.bandwidth_mix)
                  << " mix: " << g.bandwidth_best << "\n";
      if (g.read_bandwidth)
        std::cout << "  B_read = " << format_bytes_per_s(g.read_bandwidth->value) << " 95% CI "
                  << format_bytes_ci(g.read_bandwidth->ci, g.read_bandwidth->value) << "\n";
      if (g.matrix) std::cout << matrix_text(*g.matrix);
      for (const auto& c : g.caveats) std::cout << "  note: " << c << "\n";
    }
  }
  return kExitOk;
}

}  // namespace

void add_fit_command(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<FitOptions>();
  CLI::App* fit = app.add_subcommand(
      "fit", "Fit the roofline min(P, I*B) robustly: P, B and I* with 95% bootstrap intervals");
  fit->add_option("--rank", opts->rank, "Of an MPI job's results file: this rank's devices")
      ->check(CLI::Range(0, 1000000))
      ->capture_default_str();
  auto* results = fit->add_option("results", opts->results,
                                  "A results JSON file (fits each execution space x dtype)");
  auto* csv = fit->add_option("--csv", opts->csv,
                              "A CSV file with columns 'intensity' (FLOP/byte) and 'gflops'");
  results->excludes(csv);
  fit->add_flag("--json", opts->json, "Print JSON instead of text");
  fit->callback([opts, &exit_code] {
    if (opts->results.empty() && opts->csv.empty())
      throw InputError("", "fit", "give a results file or --csv FILE");
    exit_code = opts->csv.empty() ? fit_results_file(*opts) : fit_csv(*opts);
  });
}

}  // namespace ridgeline
