#include "reports/machines/spec_grade.hpp"

namespace ridgeline {

SpecGrade grade_against_sheet(const GroupFit& gf, const MachineProfile& profile, double peak_share,
                              std::optional<double> measured_clock_mhz,
                              std::optional<double> matrix_clock_mhz) {
  const Roof& r = gf.fit->estimate.roof;
  const auto& m = gf.matrix;
  SpecGrade g;
  g.vector_peak = profile.grading_peak(gf.dtype, UnitKind::kVector);
  if (m) g.matrix_peak = profile.grading_peak(gf.dtype, UnitKind::kMatrix, m->accumulate);
  if (m && g.matrix_peak) {
    g.matrix_fraction = m->peak.value / g.matrix_peak->flops;
    if (matrix_clock_mhz && *matrix_clock_mhz > 0 && profile.clock_mhz > 0) {
      g.matrix_clock_mhz = matrix_clock_mhz;
      g.matrix_fraction_at_clock =
          m->peak.value / (g.matrix_peak->flops * *matrix_clock_mhz / profile.clock_mhz);
    }
  }
  if (g.vector_peak) {
    const double sheet = g.vector_peak->flops * peak_share;
    g.p_fraction = r.peak_flops / sheet;
    if (measured_clock_mhz && *measured_clock_mhz > 0 && profile.clock_mhz > 0) {
      g.clock_mhz = measured_clock_mhz;
      g.p_fraction_at_clock = r.peak_flops / (sheet * *measured_clock_mhz / profile.clock_mhz);
    }
    g.p_above_sheet = g.p_fraction_at_clock.value_or(*g.p_fraction) > kAboveSheetFactor;
  }
  g.b_fraction = r.bandwidth / profile.bandwidth;
  return g;
}

}  // namespace ridgeline
