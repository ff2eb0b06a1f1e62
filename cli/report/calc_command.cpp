#include "cli/report/calc_command.hpp"

#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "cli/report/validators.hpp"
#include "core/input_error.hpp"
#include "reports/machines/machine_profile.hpp"
#include "reports/roofline/calc.hpp"

namespace ridgeline {
namespace {

struct CalcOptions {
  std::string name;
  double peak = 0;
  double bandwidth = 0;
  std::string intensities;
  std::string machine;
  std::string dtype = "fp32";
  std::string unit;
  std::string accumulate;
};

// The sheet's figure for --dtype on --unit (vector or matrix) at --accumulate; without --unit the
// matrix units' where the sheet lists them, as the textbook ridge (RTX 4090 bf16: 165 TFLOP/s
// over 1008 GB/s) uses them.
SpecPeak sheet_peak(const MachineProfile& m, const CalcOptions& o) {
  std::optional<UnitKind> kind;
  if (!o.unit.empty()) {
    kind = unit_kind_named(o.unit);
    if (!kind) throw InputError("", "--unit", "must be vector or matrix, got '" + o.unit + "'");
  }
  std::optional<SpecPeak> peak;
  if (!kind || *kind == UnitKind::kMatrix)
    peak = m.grading_peak(o.dtype, UnitKind::kMatrix, o.accumulate);
  if (!peak && (!kind || *kind == UnitKind::kVector))
    peak = m.grading_peak(o.dtype, UnitKind::kVector);
  if (!peak)
    throw InputError(
        m.file, "peaks",
        "no dense " + o.dtype + (kind ? std::string(" ") + unit_kind_name(*kind) : "") +
            (o.accumulate.empty() ? "" : ", " + o.accumulate + " accumulate") + " peak listed");
  return *peak;
}

int run_calc(const CalcOptions& o) {
  Roof roof{o.peak, o.bandwidth};
  std::string name = o.name;
  if (!o.machine.empty()) {
    const MachineProfile m = find_machine_profile(o.machine, machine_profiles_dir());
    const SpecPeak peak = sheet_peak(m, o);
    if (o.peak <= 0) roof.peak_flops = peak.flops;
    if (o.bandwidth <= 0) roof.bandwidth = m.bandwidth;
    if (name.empty()) name = m.name;
  }
  if (roof.peak_flops <= 0) throw InputError("", "--peak", "required (or give --machine)");
  if (roof.bandwidth <= 0) throw InputError("", "--bandwidth", "required (or give --machine)");
  if (name.empty()) name = "machine";
  const auto parsed = parse_intensities(o.intensities, "--intensities");
  std::cout << format_calc_table(name, roof, resolve_intensities(parsed, roof));
  return kExitOk;
}

}  // namespace

void add_calc_command(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<CalcOptions>();
  CLI::App* calc = app.add_subcommand(
      "calc", "Roofline calculator: attainable FLOP/s = min(P, I*B) at given intensities");
  calc->add_option("--name", opts->name, "Machine name printed in the header");
  calc->add_option("--peak", opts->peak, "Peak compute P in FLOP/s (e.g. 165e12)")
      ->check(number_in_range(kMinRoof, kMaxPeakFlops, true));
  calc->add_option("--bandwidth", opts->bandwidth, "Memory bandwidth B in byte/s (e.g. 1e12)")
      ->check(number_in_range(kMinRoof, kMaxBandwidth, true));
  calc->add_option("--intensities", opts->intensities,
                   "Comma-separated FLOP/byte values, or the word 'ridge'")
      ->required();
  calc->add_option("--machine", opts->machine,
                   "Take P and B from a machine profile (profiles/machines/<id>.json)");
  calc->add_option("--dtype", opts->dtype, "With --machine: which dtype's dense peak")
      ->capture_default_str();
  calc->add_option("--unit", opts->unit,
                   "With --machine: vector or matrix (tensor/matrix cores; default: matrix where "
                   "the sheet lists it)");
  calc->add_option("--accumulate", opts->accumulate,
                   "With --machine and matrix units: accumulate mode (default: fp64 for fp64, "
                   "else fp32)");
  calc->callback([opts, &exit_code] { exit_code = run_calc(*opts); });
}

}  // namespace ridgeline
