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
