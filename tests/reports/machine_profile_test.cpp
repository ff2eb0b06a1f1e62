#include "machines/machine_profile.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "results/input_error.hpp"
#include "support/run_command.hpp"

namespace ridgeline {
namespace {

namespace fs = std::filesystem;

const std::string kMachines = std::string(RIDGELINE_SOURCE_DIR) + "/profiles/machines";

TEST(MachineProfile, EveryShippedProfileLoads) {
  const auto all = load_machine_profiles(kMachines);
  EXPECT_GE(all.size(), 5u);
  for (const auto& m : all) {
    EXPECT_FALSE(m.peaks.empty()) << m.file;
    EXPECT_TRUE(m.dense_peak("fp64") || m.dense_peak("fp32")) << m.file;
  }
}

TEST(MachineProfile, DenseTensorPeakIsNotTheSparseOne) {
  const auto m = find_machine_profile("H200 SXM", kMachines);
  ASSERT_TRUE(m.dense_peak("bf16"));
  EXPECT_DOUBLE_EQ(m.dense_peak("bf16")->flops, 989.4e12);
  EXPECT_DOUBLE_EQ(m.bandwidth, 4.8e12);
  EXPECT_DOUBLE_EQ(m.dense_peak("fp64", "vector")->flops, 34e12);
}

// An fp16 GEMM that accumulates in fp32 on an RTX 4090 is graded against 165 TFLOP/s, not the
// 330 TFLOP/s of fp16 accumulate (the highest dense fp16 figure, which dense_peak used to take);
// P_vector against the packed vector figure, never a tensor one.
TEST(MachineProfile, GradingPicksDtypeUnitAndAccumulate) {
  const auto m = find_machine_profile("rtx-4090", kMachines);
  EXPECT_DOUBLE_EQ(m.dense_peak("fp16")->flops, 165.2e12);
  EXPECT_DOUBLE_EQ(m.dense_peak("fp16", "", "fp16")->flops, 330.3e12);
  EXPECT_DOUBLE_EQ(m.grading_peak("fp16", UnitKind::kMatrix, "fp32")->flops, 165.2e12);
  EXPECT_DOUBLE_EQ(m.grading_peak("fp16", UnitKind::kMatrix)->flops, 165.2e12);
  EXPECT_DOUBLE_EQ(m.grading_peak("fp16", UnitKind::kMatrix, "fp16")->flops, 330.3e12);
  EXPECT_DOUBLE_EQ(m.grading_peak("fp16", UnitKind::kVector)->flops, 82.6e12);
  EXPECT_EQ(m.grading_peak("fp16", UnitKind::kVector)->unit, "vector-packed");
  EXPECT_DOUBLE_EQ(m.grading_peak("fp8", UnitKind::kMatrix)->flops, 330.3e12);
  EXPECT_DOUBLE_EQ(m.grading_peak("fp8", UnitKind::kMatrix, "fp16")->flops, 660.6e12);
  // No FP64 tensor cores on sm_89: no matrix figure to grade an fp64 GEMM against.
  EXPECT_FALSE(m.grading_peak("fp64", UnitKind::kMatrix));
  EXPECT_DOUBLE_EQ(m.grading_peak("fp64", UnitKind::kVector)->flops, 1.29e12);
}

TEST(MachineProfile, Fp8DenseFiguresOnEverySheetThatHasFp8) {
  const std::pair<const char*, double> kFp8[] = {
      {"h200-sxm", 1978.9e12}, {"h100-sxm", 1978.9e12}, {"mi300x", 2614.9e12}};
  for (const auto& [id, flops] : kFp8) {
    const auto m = find_machine_profile(id, kMachines);
    const auto p = m.grading_peak("fp8", UnitKind::kMatrix);
    ASSERT_TRUE(p) << id;
    EXPECT_DOUBLE_EQ(p->flops, flops) << id;
    EXPECT_TRUE(p->dense) << id;
    EXPECT_FALSE(p->source.empty()) << id << ": an fp8 figure says where it comes from";
  }
  // MI300X: the matrix cores' fp64 (163.4) for a DGEMM, the vector figure (81.7) for P.
  const auto mi300x = find_machine_profile("mi300x", kMachines);
  EXPECT_DOUBLE_EQ(mi300x.grading_peak("fp64", UnitKind::kMatrix)->flops, 163.4e12);
  EXPECT_DOUBLE_EQ(mi300x.grading_peak("fp64", UnitKind::kVector)->flops, 81.7e12);
  EXPECT_EQ(unit_kind("matrix"), UnitKind::kMatrix);
  EXPECT_EQ(unit_kind("tensor"), UnitKind::kMatrix);
  EXPECT_EQ(unit_kind("vector-packed"), UnitKind::kVector);
  EXPECT_FALSE(unit_kind_named("tensor")) << "the command line says vector or matrix";
}

TEST(MachineProfile, MatchesDeviceNames) {
  const auto all = load_machine_profiles(kMachines);
  auto m = match_machine_profile("NVIDIA GeForce RTX 4090", all);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->id, "rtx-4090");
  m = match_machine_profile("NVIDIA H200", all);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->id, "h200-sxm");
  EXPECT_FALSE(match_machine_profile("Some Unknown Accelerator", all));
}

class BrokenProfile : public ::testing::Test {
 protected:
  std::string write(const std::string& body) {
    dir_ = fs::temp_directory_path() / ("ridgeline-mp-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    const auto path = (dir_ / "broken.json").string();
    std::ofstream(path) << body;
    return path;
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(BrokenProfile, MissingFieldNamesFileAndField) {
  const auto path =
      write(R"({"name":"x","vendor":"v","source":"y","clock":{"assumed":"boost","sm_mhz":1},
                               "peaks":[{"dtype":"fp32","flops":1,"unit":"vector","dense":true}]})");
  try {
    load_machine_profile(path);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": memory: missing required field");
  }
}

TEST_F(BrokenProfile, CalcWithBrokenProfileFailsWithOneLine) {
  const auto path =
      write(R"({"name":"x","vendor":"v","source":"y","clock":{"assumed":"boost","sm_mhz":1},
      "memory":{"bandwidth":1e9},"peaks":[{"dtype":"fp32","flops":-1,"unit":"vector","dense":true}]})");
  const auto r2 =
      test::run_command("mkdir -p " + dir_.string() + "/p/machines && cp " + path + " " +
                        dir_.string() + "/p/machines/ && RIDGELINE_PROFILES=" + dir_.string() +
                        "/p " RIDGELINE_REPORT_BIN " calc --machine broken --intensities 1");
  EXPECT_EQ(r2.exit_code, 2);
  EXPECT_EQ(test::line_count(r2.err), 1) << r2.err;
  EXPECT_NE(r2.err.find("peaks[0].flops"), std::string::npos) << r2.err;
}

}  // namespace
}  // namespace ridgeline
