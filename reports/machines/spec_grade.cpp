#include "reports/machines/spec_grade.hpp"

namespace ridgeline {

SpecGrade grade_against_sheet(const GroupFit& gf, const MachineProfile& profile,
                              double peak_share) {
  const Roof& r = gf.fit->estimate.roof;
  const auto& m = gf.matrix;
  SpecGrade g;
  g.vector_peak = profile.grading_peak(gf.dtype, UnitKind::kVector);
  if (m) g.matrix_peak = profile.grading_peak(gf.dtype, UnitKind::kMatrix, m->accumulate);
  if (m && g.matrix_peak) g.matrix_fraction = m->peak.value / g.matrix_peak->flops;
  if (g.vector_peak) {
    g.p_fraction = r.peak_flops / (g.vector_peak->flops * peak_share);
    g.p_above_sheet = r.peak_flops > kAboveSheetFactor * g.vector_peak->flops * peak_share;
  }
  g.b_fraction = r.bandwidth / profile.bandwidth;
  return g;
}

}  // namespace ridgeline
