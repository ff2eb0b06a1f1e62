// The "% of sheet" fractions: P against the vector figure times the space's share, P_matrix
// against the matrix figure of its accumulate mode, and a P beyond the sheet flagged.
#include "reports/machines/spec_grade.hpp"

#include <gtest/gtest.h>

namespace ridgeline {
namespace {

MachineProfile sheet() {
  MachineProfile p;
  p.bandwidth = 100e9;
  p.peaks = {{"fp32", 400e9, "vector", "", true, ""},
             {"fp32", 4000e9, "tensor", "fp32", true, ""},
             {"fp32", 8000e9, "tensor", "fp32", false, ""}};  // sparse: never graded against
  return p;
}

GroupFit fitted(double p, double b) {
  GroupFit g;
  g.space = "Cuda";
  g.dtype = "fp32";
  g.fit = RoofFit{};
  g.fit->estimate.roof = {p, b};
  return g;
}

TEST(SpecGrade, FractionsOfTheVectorFigureAndTheBandwidth) {
  const SpecGrade g = grade_against_sheet(fitted(300e9, 80e9), sheet(), 1.0);
  ASSERT_TRUE(g.vector_peak);
  EXPECT_EQ(g.vector_peak->unit, "vector");  // never the tensor figure
  ASSERT_TRUE(g.p_fraction);
  EXPECT_DOUBLE_EQ(*g.p_fraction, 0.75);
  EXPECT_DOUBLE_EQ(g.b_fraction, 0.8);
  EXPECT_FALSE(g.p_above_sheet);
  EXPECT_FALSE(g.matrix_peak);  // no GEMM on matrix units: no matrix grade
  EXPECT_FALSE(g.matrix_fraction);
}

TEST(SpecGrade, AShareOfTheUnitsIsHeldAgainstItsShareOfP) {
  const SpecGrade g = grade_against_sheet(fitted(150e9, 80e9), sheet(), 0.5);
  EXPECT_DOUBLE_EQ(*g.p_fraction, 0.75);
  EXPECT_FALSE(g.p_above_sheet);
}

TEST(SpecGrade, APBeyondTheSheetByMoreThanNoiseIsFlagged) {
  EXPECT_FALSE(grade_against_sheet(fitted(1.04 * 400e9, 80e9), sheet(), 1.0).p_above_sheet);
  EXPECT_TRUE(grade_against_sheet(fitted(1.06 * 400e9, 80e9), sheet(), 1.0).p_above_sheet);
  EXPECT_TRUE(grade_against_sheet(fitted(1.06 * 200e9, 80e9), sheet(), 0.5).p_above_sheet);
}

// A sheet assumes one clock for every machine of its name; a VM of the Zen 5 sheet (3100 MHz) ran
// its FMA pipes at 3.6 GHz. At the measured clock the sheet's per-clock figure is what P is held
// against, and a P above the sheet only by its clock is not flagged.
TEST(SpecGrade, AtTheMeasuredClockTheSheetScalesWithIt) {
  MachineProfile s = sheet();
  s.clock_mhz = 2000;
  const GroupFit g = fitted(1.15 * 400e9, 80e9);
  const SpecGrade at_sheet = grade_against_sheet(g, s, 1.0);
  EXPECT_NEAR(*at_sheet.p_fraction, 1.15, 1e-9);
  EXPECT_FALSE(at_sheet.p_fraction_at_clock);
  EXPECT_TRUE(at_sheet.p_above_sheet);

  const SpecGrade at_clock = grade_against_sheet(g, s, 1.0, 2300.0);
  EXPECT_NEAR(*at_clock.p_fraction, 1.15, 1e-9) << "the sheet as it is, still";
  ASSERT_TRUE(at_clock.p_fraction_at_clock);
  EXPECT_NEAR(*at_clock.p_fraction_at_clock, 1.0, 1e-9);
  EXPECT_DOUBLE_EQ(*at_clock.clock_mhz, 2300);
  EXPECT_FALSE(at_clock.p_above_sheet);
  // Above the sheet at the measured clock too: flagged.
  EXPECT_TRUE(grade_against_sheet(fitted(1.3 * 400e9, 80e9), s, 1.0, 2300.0).p_above_sheet);
  // Half the units at the measured clock: the share and the clock both scale the figure.
  EXPECT_NEAR(*grade_against_sheet(fitted(230e9, 80e9), s, 0.5, 2300.0).p_fraction_at_clock, 1.0,
              1e-9);
  // A sheet that names no clock cannot be scaled.
  EXPECT_FALSE(grade_against_sheet(g, sheet(), 1.0, 2300.0).p_fraction_at_clock);
}

TEST(SpecGrade, PMatrixAgainstTheDenseMatrixFigure) {
  GroupFit g = fitted(300e9, 80e9);
  g.matrix = MatrixRoofFit{};
  g.matrix->peak.value = 3000e9;
  g.matrix->accumulate = "fp32";
  const SpecGrade s = grade_against_sheet(g, sheet(), 1.0);
  ASSERT_TRUE(s.matrix_peak);
  EXPECT_DOUBLE_EQ(s.matrix_peak->flops, 4000e9);  // the dense figure, not the sparse one
  ASSERT_TRUE(s.matrix_fraction);
  EXPECT_DOUBLE_EQ(*s.matrix_fraction, 0.75);
}

// P_matrix at the clock its GEMMs ran at (an H200's tf32 GEMM read 1785 MHz against the
// sheet's 1980): the matrix figure scales with it, as the vector one does with the peak kernels'.
TEST(SpecGrade, PMatrixAtTheClockItsGemmsRanAt) {
  MachineProfile s = sheet();
  s.clock_mhz = 2000;
  GroupFit g = fitted(300e9, 80e9);
  g.matrix = MatrixRoofFit{};
  g.matrix->peak.value = 3000e9;
  g.matrix->accumulate = "fp32";
  const SpecGrade at = grade_against_sheet(g, s, 1.0, std::nullopt, 1500.0);
  ASSERT_TRUE(at.matrix_fraction_at_clock);
  EXPECT_DOUBLE_EQ(*at.matrix_fraction, 0.75) << "the sheet as it is, still";
  EXPECT_DOUBLE_EQ(*at.matrix_fraction_at_clock, 1.0);
  EXPECT_DOUBLE_EQ(*at.matrix_clock_mhz, 1500);
  EXPECT_FALSE(at.p_fraction_at_clock) << "P keeps its own clock";
  EXPECT_FALSE(grade_against_sheet(g, sheet(), 1.0, std::nullopt, 1500.0).matrix_fraction_at_clock)
      << "a sheet that names no clock cannot be scaled";
}

TEST(SpecGrade, NoFigureForTheDtypeGivesNoFraction) {
  GroupFit g = fitted(300e9, 80e9);
  g.dtype = "fp64";
  const SpecGrade s = grade_against_sheet(g, sheet(), 1.0);
  EXPECT_FALSE(s.vector_peak);
  EXPECT_FALSE(s.p_fraction);
  EXPECT_FALSE(s.p_above_sheet);
  EXPECT_DOUBLE_EQ(s.b_fraction, 0.8);
}

}  // namespace
}  // namespace ridgeline
