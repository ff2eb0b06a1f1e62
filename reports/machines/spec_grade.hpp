#pragma once
// A fitted group's roofs against its machine sheet: the fractions a report prints as "% of
// sheet". The fitted P comes from FMA probes on the vector units, so it is held against the
// sheet's vector figure only, never a tensor one (which would make a correct vector peak look like
// a tenth of the machine); P_matrix against the matrix figure of its accumulate mode.
#include <optional>

#include "reports/fit/results_fit.hpp"
#include "reports/machines/machine_profile.hpp"

namespace ridgeline {

// A P beyond the sheet's figure by more than this factor is not noise: the sheet or the match
// is wrong, and the report says so.
inline constexpr double kAboveSheetFactor = 1.05;

struct SpecGrade {
  std::optional<SpecPeak> vector_peak;  // the sheet's vector figure for the group's dtype
  std::optional<SpecPeak> matrix_peak;  // its matrix figure (only where a GEMM ran on one)
  std::optional<double> p_fraction;     // P / (vector figure × peak_share)
  // At the measured clock: P / (vector figure × peak_share × measured / the sheet's clock), where
  // both clocks are known. Sheets assume one clock for every machine of a name; a VM's cores ran
  // 3.6 GHz against its sheet's 3.1.
  std::optional<double> clock_mhz, p_fraction_at_clock;
  bool p_above_sheet = false;  // p_fraction_at_clock (else p_fraction) beyond kAboveSheetFactor
  std::optional<double> matrix_fraction;  // P_matrix / matrix figure
  // At the SM clock the GEMMs themselves ran at (NVML's readings inside their timed samples), as
  // P at the peak kernels' clock: the matrix figure scaled by that clock over the sheet's.
  std::optional<double> matrix_clock_mhz, matrix_fraction_at_clock;
  double b_fraction = 0;  // B / the sheet's memory bandwidth
};

// `gf` must have a fit. `peak_share`: the part of the sheet's P the group's space can reach
// (render/spec_scope.hpp); `measured_clock_mhz`: the clock the space ran at, where measured.
// `matrix_clock_mhz`: the clock the group's GEMMs on matrix units ran at, where read.
SpecGrade grade_against_sheet(const GroupFit& gf, const MachineProfile& profile, double peak_share,
                              std::optional<double> measured_clock_mhz = std::nullopt,
                              std::optional<double> matrix_clock_mhz = std::nullopt);

}  // namespace ridgeline
