#include <fmt/format.h>
#include <gtest/gtest.h>

#include <functional>

#include "cli_test_support.hpp"
#include "compare/compare.hpp"
#include "compare/mann_whitney.hpp"

namespace ridgeline {
namespace {

using namespace test;

TEST(Compare, SameDataTwiceIsNoRegression) {
  const auto r =
      run_command(kBin + " compare " + kData + "/cpu_run_a.json " + kData + "/cpu_run_a.json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("no regression — 0 slower, 0 failed, 0 missing, 0 faster, 0 ambiguous"),
            std::string::npos)
      << r.out;
}

TEST(Compare, TwoRunsOfTheSameMachineAreNoRegression) {
  const auto r =
      run_command(kBin + " compare " + kData + "/cpu_run_a.json " + kData + "/cpu_run_b.json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("## ridgeline compare: no regression — 0 slower"), std::string::npos)
      << r.out.substr(0, 300);
}

// cpu_run_slow.json: every fp64 memory-bound time 10 % longer (make_fixtures.py), 8 repetitions.
TEST(Compare, PlantedTenPercentSlowdownIsCaught) {
  TempDir dir;
  const auto r = run_command(kBin + " compare " + kData + "/cpu_run_a.json " + kData +
                             "/cpu_run_slow.json --out " + dir.path + "/summary.md");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("REGRESSION"), std::string::npos);
  EXPECT_NE(r.out.find("| `B OpenMP/fp64` | 49.84 GB/s | 45.14 GB/s | -9.4 % |"), std::string::npos)
      << r.out.substr(0, 1200);
  EXPECT_NE(r.out.find("| `copy/OpenMP/fp64/n:8388608` |"), std::string::npos);
  EXPECT_NE(r.out.find("**SLOWER**"), std::string::npos);
  EXPECT_EQ(slurp(dir.path + "/summary.md"), r.out);
  // fp32 was not slowed: it must not be flagged.
  EXPECT_NE(r.out.find("| `B OpenMP/fp32` | 50.12 GB/s | 50.33 GB/s | +0.4 % |"),
            std::string::npos);
}

TEST(Compare, RefusesDifferentHostsUnlessAllowed) {
  const auto r =
      run_command(kBin + " compare " + kData + "/cpu_run_a.json " + kData + "/cpu_other_host.json");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("baselines are per host"), std::string::npos);
  const auto ok = run_command(kBin + " compare --allow-different-hosts " + kData +
                              "/cpu_run_a.json " + kData + "/cpu_other_host.json");
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
}

// The gate: what the baseline measured and verified must still be there and verify.
class CompareGate : public ::testing::Test {
 protected:
  // compare of the fixture against a variant of itself, written by `edit`.
  CommandResult gate(const std::function<void(nlohmann::json&)>& edit,
                     const std::string& options = "") {
    nlohmann::json current = fixture("cpu_run_a.json");
    edit(current);
    write_json(dir_.path + "/current.json", current);
    return run_command(kBin + " compare " + kData + "/cpu_run_a.json " + dir_.path +
                       "/current.json " + options);
  }
  TempDir dir_;
};

const std::string kTriad = "triad/OpenMP/fp64/n:5592405";

// The fixture's own numbers, formatted as compare prints them (not retyped from a run).
std::string triad_median() {
  const auto d = fixture("cpu_run_a.json");
  for (const auto& p : d["points"])
    if (p["name"] == kTriad) return fmt::format("{:.4g} s", p["median_s"].get<double>());
  return "?";
}
std::string aa_cell(const std::string& metric) {  // the baseline cell of an A/A compare
  const auto r = run_command(kBin + " compare " + kData + "/cpu_run_a.json " + kData +
                             "/cpu_run_a.json");
  const std::string key = "| `" + metric + "` | ";
  const auto at = r.out.find(key);
  if (at == std::string::npos) return "?";
  const auto from = at + key.size();
  return r.out.substr(from, r.out.find(" |", from) - from);
}
std::size_t measured_points() {
  std::size_t n = 0;
  const auto d = fixture("cpu_run_a.json");  // named: a range-for over a temporary's member dangles
  for (const auto& p : d["points"]) n += p["median_s"].is_number();
  return n;
}

// A point that became 3x slower AND failed verification used to drop out ("not compared").
TEST_F(CompareGate, SlowerAndFailedIsAFailureNotDropped) {
  const auto r = gate([](nlohmann::json& d) {
    auto* p = point_named(d, kTriad);
    for (auto& s : (*p)["samples"]) s = s.get<double>() * 3;
    (*p)["median_s"] = (*p)["median_s"].get<double>() * 3;
    (*p)["verified"] = false;
    (*p)["verify_error"] = "triad: element 0 is -7";
  });
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("REGRESSION — 0 slower, 1 failed, 0 missing"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("| `" + kTriad + "` | " + triad_median() + " | "), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(" | -66.7 % |"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("**FAILED** | verification failed: triad: element 0 is -7"),
            std::string::npos);
}

TEST_F(CompareGate, NewlyFailingVerificationAtTheSameSpeedFails) {
  const auto r = gate([](nlohmann::json& d) { (*point_named(d, kTriad))["verified"] = false; });
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("**FAILED** | verification failed: no reason given"), std::string::npos);
}

TEST_F(CompareGate, PointMissingTonightFails) {
  const auto r = gate([](nlohmann::json& d) {
    auto& pts = d["points"];
    for (std::size_t i = 0; i < pts.size(); ++i)
      if (pts[i]["name"] == kTriad) pts.erase(i);
  });
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("| `" + kTriad + "` | " + triad_median() +
                       " | – | -100.0 % | 1 | **MISSING** | not in the current file |"),
            std::string::npos)
      << r.out;
}

TEST_F(CompareGate, PointSkippedTonightFails) {
  const auto r = gate([](nlohmann::json& d) {
    (*point_named(d, kTriad))["skipped_reason"] = "setup failed: out of memory";
  });
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("**MISSING** | skipped in the current file: setup failed: out of memory"),
            std::string::npos)
      << r.out;
}

TEST_F(CompareGate, WholeGroupMissingTonightFailsItsRoofs) {
  const auto r = gate([](nlohmann::json& d) {
    nlohmann::json kept = nlohmann::json::array();
    for (const auto& p : d["points"])
      if (p["dtype"] != "fp32") kept.push_back(p);
    d["points"] = kept;
  });
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("| `P OpenMP/fp32` | " + aa_cell("P OpenMP/fp32") +
                       " | – | -100.0 % | 1 | **MISSING** | no point of OpenMP/fp32 in the "
                       "current file |"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("| `B OpenMP/fp32` |"), std::string::npos);
}

TEST_F(CompareGate, GroupThatNoLongerFitsFailsItsRoofs) {
  const auto r = gate([](nlohmann::json& d) {
    for (auto& p : d["points"])
      if (p["dtype"] == "fp32" && p["family"] == "peak") p["verified"] = false;
    for (auto& p : d["points"])
      if (p["dtype"] == "fp32" && p["family"] == "fma") p["skipped_reason"] = "skipped";
  });
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(
      r.out.find("| `P OpenMP/fp32` | " + aa_cell("P OpenMP/fp32") +
                 " | – | -100.0 % | 1 | **MISSING** | no fit in the current file: not fitted:"),
      std::string::npos)
      << r.out;
}

TEST_F(CompareGate, EmptyCurrentFileFailsEverything) {
  const auto r = gate([](nlohmann::json& d) { d["points"] = nlohmann::json::array(); });
  EXPECT_EQ(r.exit_code, 1) << r.err;
  // Every measured point is missing, and so are the fitted roofs.
  EXPECT_NE(r.out.find("REGRESSION — 0 slower, 0 failed, "), std::string::npos) << r.out;
  const auto at = r.out.find(" missing", r.out.find("REGRESSION"));
  const auto from = r.out.rfind(' ', at - 1) + 1;
  EXPECT_GT(std::stoul(r.out.substr(from, at - from)), measured_points()) << r.out;
}

TEST_F(CompareGate, NewPointTonightIsNotARegression) {
  const auto r = gate([](nlohmann::json& d) {
    nlohmann::json extra = *point_named(d, kTriad);
    extra["name"] = "triad/OpenMP/fp64/n:1024";
    d["points"].push_back(extra);
  });
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("triad/OpenMP/fp64/n:1024: not in the baseline"), std::string::npos);
}

// --alpha nan compared false with every p-value and switched the gate off.
TEST_F(CompareGate, OptionsThatWouldSwitchTheGateOffAreRejected) {
  for (const char* bad :
       {"--alpha nan", "--alpha inf", "--alpha 0", "--alpha 0.9", "--threshold nan",
        "--threshold 100", "--threshold 1e300", "--threshold -5", "--threshold 0"}) {
    const auto r = gate([](nlohmann::json&) {}, bad);
    EXPECT_EQ(r.exit_code, 2) << bad << "\n" << r.out;
    EXPECT_EQ(line_count(r.err), 1) << bad << "\n" << r.err;
    EXPECT_NE(r.err.find("must be a number in"), std::string::npos) << r.err;
  }
  EXPECT_EQ(gate([](nlohmann::json&) {}, "--alpha 0.05 --threshold 99.9").exit_code, 0);
}

TEST(MannWhitney, ExactSmallSamplesAndPower) {
  // Complete separation of 3 + 3 samples: the smallest possible two-sided p, 2/20.
  const auto three = mann_whitney({1, 2, 3}, {4, 5, 6});
  EXPECT_TRUE(three.exact);
  EXPECT_DOUBLE_EQ(three.p_value, 0.1);
  EXPECT_DOUBLE_EQ(three.min_p_value, 0.1);
  // 8 + 8 separated: 2/12870.
  const auto eight = mann_whitney({1, 2, 3, 4, 5, 6, 7, 8}, {9, 10, 11, 12, 13, 14, 15, 16});
  EXPECT_NEAR(eight.p_value, 2.0 / 12870, 1e-12);
  // Interleaved samples: no evidence at all.
  EXPECT_GT(mann_whitney({1, 3, 5, 7}, {2, 4, 6, 8}).p_value, 0.5);
  // Ties use the normal approximation.
  EXPECT_FALSE(mann_whitney({1, 1, 2}, {1, 2, 2}).exact);
}

TEST(Verdict, NeedsSizeAndSignificanceAndSaysWhenTheTestHasNoPower) {
  const CompareOptions o;  // 5 %, alpha 0.01
  std::string note;
  EXPECT_EQ(decide(-0.04, 1e-6, 1e-9, o, note), Verdict::kSame);    // small, significant
  EXPECT_EQ(decide(-0.10, 1e-3, 1e-9, o, note), Verdict::kSlower);  // large, significant
  EXPECT_EQ(decide(+0.10, 1e-3, 1e-9, o, note), Verdict::kFaster);
  EXPECT_EQ(decide(-0.10, 0.2, 1e-9, o, note), Verdict::kAmbiguous);  // large, not significant
  note.clear();
  EXPECT_EQ(decide(-0.30, 0.1, 0.1, o, note), Verdict::kAmbiguous);  // 3 + 3 samples
  EXPECT_NE(note.find("too few samples"), std::string::npos) << note;
}

}  // namespace
}  // namespace ridgeline
