#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "reports/compare/compare.hpp"
#include "reports/compare/mann_whitney.hpp"
#include "tests/reports/cli_test_support.hpp"

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

// On a terminal (a pseudo-terminal through util-linux's `script`) SLOWER is painted; with NO_COLOR,
// and in the --out file, it stays plain markdown.
TEST(Compare, SlowerIsPaintedOnATerminalOnly) {
  TempDir dir;
  const std::string cmd = kBin + " compare " + kData + "/cpu_run_a.json " + kData +
                          "/cpu_run_slow.json --out " + dir.path + "/c.md";
  const auto tty = run_command("script -qec '" + cmd + "' /dev/null");
  EXPECT_NE(tty.out.find("\033[1;31m**SLOWER**\033[0m"), std::string::npos) << tty.out;
  const auto no_color = run_command("NO_COLOR=1 script -qec '" + cmd + "' /dev/null");
  EXPECT_NE(no_color.out.find("**SLOWER**"), std::string::npos) << no_color.out;
  EXPECT_EQ(no_color.out.find("\033["), std::string::npos);
  EXPECT_EQ(slurp(dir.path + "/c.md").find("\033["), std::string::npos);
}

// cpu_run_slow.json: every memory-bound time 10 % longer, in both dtypes (make_fixtures.py), 8
// repetitions.
TEST(Compare, PlantedTenPercentSlowdownIsCaught) {
  TempDir dir;
  const auto r =
      run_command(kBin + " compare " + kData + "/cpu_run_a.json " + kData +
                  "/cpu_run_slow.json --min-history 1 --out " + dir.path + "/summary.md");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("REGRESSION"), std::string::npos);
  // B is the device's (the envelope over both dtypes' points): the same in both rows.
  EXPECT_NE(r.out.find("| `B OpenMP/fp64` | 50.46 GB/s | 45.87 GB/s | -9.1 % |"), std::string::npos)
      << r.out.substr(0, 1200);
  EXPECT_NE(r.out.find("| `B OpenMP/fp32` | 50.46 GB/s | 45.87 GB/s | -9.1 % |"), std::string::npos)
      << r.out.substr(0, 1200);
  EXPECT_NE(r.out.find("| `copy/OpenMP/fp64/n:8388608` |"), std::string::npos);
  EXPECT_NE(r.out.find("**SLOWER**"), std::string::npos);
  EXPECT_EQ(slurp(dir.path + "/summary.md"), r.out);
  // The compute roofs were not slowed: they must not be flagged.
  const auto p32 = r.out.find("| `P OpenMP/fp32` | 409.7 GFLOP/s | 406.9 GFLOP/s | -0.7 % | 5.0 %");
  ASSERT_NE(p32, std::string::npos) << r.out;
  EXPECT_NE(r.out.substr(p32, r.out.find('\n', p32) - p32).find("**SAME**"), std::string::npos);
}

// A sweep too small to fit any roof (only streaming points: no P) is still gated point by point.
TEST(Compare, WithoutAnyFittedRoofThePointsAreStillCompared) {
  TempDir dir;
  nlohmann::json d = fixture("cpu_run_a.json");
  nlohmann::json kept = nlohmann::json::array();
  for (const auto& p : d["points"])
    if (p["family"] == "bandwidth") kept.push_back(p);
  ASSERT_FALSE(kept.empty());
  d["points"] = kept;
  write_json(dir.path + "/streams.json", d);
  const std::string file = dir.path + "/streams.json";
  ASSERT_NE(run_command(kBin + " fit " + file).exit_code, 0) << "the fixture must not fit";
  const auto r = run_command(kBin + " compare " + file + " " + file);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("no regression — 0 slower, 0 failed, 0 missing"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(fmt::format("{} same", kept.size())), std::string::npos) << r.out;
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
  const auto r =
      run_command(kBin + " compare " + kData + "/cpu_run_a.json " + kData + "/cpu_run_a.json");
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
  EXPECT_NE(r.out.find(" | -66.7 % |"), std::string::npos) << r.out;
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
                       " | – | -100.0 % | – | – | 1 | **MISSING** | not in the current file |"),
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
                       " | – | -100.0 % | – | – | 1 | **MISSING** | no point of OpenMP/fp32 in the "
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
      r.out.find(
          "| `P OpenMP/fp32` | " + aa_cell("P OpenMP/fp32") +
          " | – | -100.0 % | – | – | 1 | **MISSING** | no fit in the current file: not fitted:"),
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
        "--threshold 100", "--threshold 1e300", "--threshold -5", "--threshold 0", "--k nan",
        "--k -1", "--k inf", "--machine-k nan", "--machine-k -1", "--machine-threshold 0",
        "--machine-threshold 100", "--machine-threshold nan"}) {
    const auto r = gate([](nlohmann::json&) {}, bad);
    EXPECT_EQ(r.exit_code, 2) << bad << "\n" << r.out;
    EXPECT_EQ(line_count(r.err), 1) << bad << "\n" << r.err;
    EXPECT_NE(r.err.find("must be a number in"), std::string::npos) << r.err;
  }
  EXPECT_EQ(gate([](nlohmann::json&) {}, "--alpha 0.05 --threshold 99.9").exit_code, 0);
}

// A history of nights: the fixture with every time scaled per night, and one point (kNoisy)
// moving much more between nights than the others.
class CompareHistory : public ::testing::Test {
 protected:
  static constexpr const char* kNoisy = "copy/OpenMP/fp64/n:8388608";
  static void scale(nlohmann::json& p, double f) {
    for (auto& s : p["samples"]) s = s.get<double>() * f;
    p["median_s"] = p["median_s"].get<double>() * f;
    for (const char* rate : {"flops_per_s", "bytes_per_s"})
      if (p[rate].is_number()) p[rate] = p[rate].get<double>() / f;
  }
  // Night i: all times × quiet[i], kNoisy's × noisy[i] as well.
  std::string history(int nights) {
    const double quiet[] = {1.0, 1.01, 0.99, 1.005, 0.995};
    const double noisy[] = {1.0, 1.2, 0.85, 1.1, 0.9};
    std::string files;
    for (int i = 0; i < nights; ++i) {
      nlohmann::json d = fixture("cpu_run_a.json");
      for (auto& p : d["points"])
        if (p["median_s"].is_number()) scale(p, quiet[i] * (p["name"] == kNoisy ? noisy[i] : 1));
      const std::string f = dir_.path + "/night" + std::to_string(i) + ".json";
      write_json(f, d);
      files += f + " ";
    }
    return files;
  }
  // compare of `nights` history nights against the fixture changed by `edit`.
  CommandResult gate(int nights, const std::function<void(nlohmann::json&)>& edit,
                     const std::string& options = "") {
    nlohmann::json current = fixture("cpu_run_a.json");
    edit(current);
    write_json(dir_.path + "/current.json", current);
    return run_command(kBin + " compare " + history(nights) + dir_.path + "/current.json --json " +
                       dir_.path + "/compare.json " + options);
  }
  nlohmann::json metric(const std::string& name) {
    const auto j = nlohmann::json::parse(slurp(dir_.path + "/compare.json"));
    for (const auto& m : j["metrics"])
      if (m["metric"] == name) return m;
    return nullptr;
  }
  TempDir dir_;
};

TEST_F(CompareHistory, ToleranceGrowsWithTheSpreadAcrossNights) {
  const auto r = gate(5, [](nlohmann::json&) {});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto noisy = metric(kNoisy), quiet = metric(kTriad);
  ASSERT_TRUE(noisy.is_object() && quiet.is_object());
  EXPECT_EQ(noisy["history_nights"], 5);
  EXPECT_GT(noisy["spread"].get<double>(), 0.05);
  // k = 10 spreads of the logs, as a slowdown of throughput.
  EXPECT_NEAR(noisy["tolerance"].get<double>(), -std::expm1(-10 * noisy["spread"].get<double>()),
              1e-12);
  EXPECT_NEAR(quiet["tolerance"].get<double>(), 0.05, 1e-12);  // the threshold floors it
  // What it can catch: at least the tolerance, more where the test needs a larger change.
  EXPECT_GE(noisy["min_detectable_change"].get<double>(), noisy["tolerance"].get<double>());
  EXPECT_GE(quiet["min_detectable_change"].get<double>(), 0.05);
  // The baseline is the median night (the fixture's own times, scaled by 1.0).
  EXPECT_DOUBLE_EQ(noisy["baseline"].get<double>(), noisy["current"].get<double>());
  for (const char* key : {"baseline", "current", "change", "tolerance", "verdict", "p_value"})
    EXPECT_TRUE(quiet.contains(key)) << key;
  EXPECT_NE(r.out.find("**What this history lets the gate catch**"), std::string::npos) << r.out;
}

TEST_F(CompareHistory, SlowdownBeyondTheToleranceFailsWithinItDoesNot) {
  // 33 % slower: beyond the threshold, within the noisy point's tolerance.
  auto r = gate(5, [](nlohmann::json& d) { scale(*point_named(d, kNoisy), 1.5); });
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(metric(kNoisy)["verdict"], "SAME");
  // The same on a quiet point fails the night; the regression is listed before SAME rows.
  r = gate(5, [](nlohmann::json& d) { scale(*point_named(d, kTriad), 1.5); });
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_EQ(metric(kTriad)["verdict"], "SLOWER");
  EXPECT_LT(metric(kTriad)["q_value"].get<double>(), 0.01);
  const auto row = r.out.find("| `" + kTriad + "` |");
  EXPECT_LT(row, r.out.find("<details>")) << r.out;
  EXPECT_LT(r.out.find("<details>"), r.out.find("| `" + std::string(kNoisy) + "` |"));
}

TEST_F(CompareHistory, ShortHistoryReportsButDoesNotFailOnSpeed) {
  auto r = gate(2, [](nlohmann::json& d) { scale(*point_named(d, kTriad), 1.5); });
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(metric(kTriad)["verdict"], "SLOWER");
  EXPECT_TRUE(metric(kTriad)["spread"].is_null());
  EXPECT_NE(r.out.find("History too short to gate on speed: 2 nights, 3 needed"), std::string::npos)
      << r.out;
  // A lost point fails whatever the history.
  r = gate(2, [](nlohmann::json& d) { (*point_named(d, kTriad))["skipped_reason"] = "gone"; });
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_EQ(metric(kTriad)["verdict"], "MISSING");
  // Enough history with --min-history 2.
  r = gate(
      2, [](nlohmann::json& d) { scale(*point_named(d, kTriad), 1.5); }, "--min-history 2");
  EXPECT_EQ(r.exit_code, 1) << r.out;
}

TEST_F(CompareHistory, AHistoryNightOfAnotherHostIsRefusedByName) {
  history(3);
  const auto r = run_command(kBin + " compare " + dir_.path + "/night0.json " + kData +
                             "/cpu_other_host.json " + dir_.path + "/night1.json");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("cpu_other_host.json"), std::string::npos) << r.err;
}

// What scripts/nightly keeps aside: with --skip-unreadable-history an unreadable history night
// is left out and listed; an unreadable baseline still exits 2, and --json names it.
TEST_F(CompareHistory, UnreadableHistoryNightsAreListedNotFatal) {
  const std::string files = history(4), night2 = dir_.path + "/night2.json";
  write_file(night2, "{\"schema_version\": ");
  write_json(dir_.path + "/current.json", fixture("cpu_run_a.json"));
  const std::string current = dir_.path + "/current.json --json " + dir_.path + "/compare.json";
  auto r = run_command(kBin + " compare " + files + current);
  EXPECT_EQ(r.exit_code, 2) << r.err;  // without the flag an unreadable file is bad input
  r = run_command(kBin + " compare " + files + current + " --skip-unreadable-history");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(slurp(dir_.path + "/compare.json"));
  ASSERT_EQ(j["unreadable"].size(), 1u) << j["unreadable"];
  EXPECT_EQ(j["unreadable"][0]["file"], night2);
  EXPECT_EQ(j["unreadable"][0]["role"], "history");
  EXPECT_EQ(j["unreadable"][0]["error"].get<std::string>().rfind(night2 + ": ", 0), 0u)
      << j["unreadable"][0]["error"];
  EXPECT_EQ(j["history"].size(), 3u);
  EXPECT_EQ(j["history_decision"], "joins");

  write_file(dir_.path + "/night0.json", "[]");
  r = run_command(kBin + " compare " + files + current + " --skip-unreadable-history");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  j = nlohmann::json::parse(slurp(dir_.path + "/compare.json"));
  ASSERT_EQ(j["unreadable"].size(), 1u) << j;
  EXPECT_EQ(j["unreadable"][0]["file"], dir_.path + "/night0.json");
  EXPECT_EQ(j["unreadable"][0]["role"], "baseline");
  EXPECT_TRUE(j["history_decision"].is_null());
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

// 14 history nights of 5 repetitions against tonight's 5, tonight all slower: the exact p,
// 2 / C(75, 5), not the normal approximation's 2e-4 (which a Benjamini–Hochberg adjustment over
// 80 points leaves at 0.017: a 57 % slower point AMBIGUOUS where the gate had printed it could
// catch 28 %). Where ties force the approximation, its best p is its own, not the exact floor.
TEST(MannWhitney, FewAgainstManyIsExactAndTheBestPIsTheTestsOwn) {
  std::vector<double> history, tonight;
  for (int i = 0; i < 70; ++i) history.push_back(1 + 0.001 * i);
  for (int i = 0; i < 5; ++i) tonight.push_back(2 + 0.001 * i);
  const auto exact = mann_whitney(history, tonight);
  EXPECT_TRUE(exact.exact);
  EXPECT_NEAR(exact.p_value, 2.0 / 17259390, 1e-12);
  EXPECT_NEAR(exact.min_p_value, 2.0 / 17259390, 1e-12);
  tonight[1] = tonight[0];  // a tie
  const auto tied = mann_whitney(history, tonight);
  EXPECT_FALSE(tied.exact);
  EXPECT_NEAR(tied.min_p_value, 2.1e-4, 0.1e-4);
  EXPECT_GE(tied.p_value, tied.min_p_value);
  EXPECT_LT(tied.p_value, 1.01 * tied.min_p_value);  // complete separation: the extreme U
}

TEST(Verdict, NeedsSizeAndSignificanceAndSaysWhenTheTestHasNoPower) {
  const double tol = 0.05, alpha = 0.01;
  std::string note;
  EXPECT_EQ(decide(-0.04, tol, 1e-6, 1e-9, alpha, note), Verdict::kSame);    // small, significant
  EXPECT_EQ(decide(-0.10, tol, 1e-3, 1e-9, alpha, note), Verdict::kSlower);  // large, significant
  EXPECT_EQ(decide(+0.10, tol, 1e-3, 1e-9, alpha, note), Verdict::kFaster);
  EXPECT_EQ(decide(-0.10, tol, 0.2, 1e-9, alpha, note), Verdict::kAmbiguous);  // not significant
  EXPECT_EQ(decide(-0.10, 0.2, 1e-6, 1e-9, alpha, note), Verdict::kSame);      // within a wider one
  // Symmetric on a log scale: 5 % slower is at the edge, 1 / 0.95 faster too; a 10x slowdown is
  // beyond even a tolerance of 85 %.
  EXPECT_EQ(decide(1 / 0.95 - 1 - 1e-9, tol, 1e-6, 1e-9, alpha, note), Verdict::kSame);
  EXPECT_EQ(decide(-0.9, 0.85, 1e-6, 1e-9, alpha, note), Verdict::kSlower);
  note.clear();
  EXPECT_EQ(decide(-0.30, tol, 0.1, 0.1, alpha, note), Verdict::kAmbiguous);  // 3 + 3 samples
  EXPECT_NE(note.find("too few samples"), std::string::npos) << note;
}

// Values checked against R's p.adjust(p, "BH").
TEST(BenjaminiHochberg, MatchesTheStepUpProcedure) {
  const std::vector<double> q = benjamini_hochberg({0.01, 0.04, 0.03, 0.005, 0.5});
  const std::vector<double> want = {0.025, 0.05, 0.05, 0.025, 0.5};
  ASSERT_EQ(q.size(), want.size());
  for (std::size_t i = 0; i < q.size(); ++i) EXPECT_NEAR(q[i], want[i], 1e-12) << i;
  EXPECT_TRUE(benjamini_hochberg({}).empty());
}

TEST(RobustSpread, IgnoresOneWildNightAndNeedsThree) {
  EXPECT_LT(robust_log_spread({1, 1.1}), 0);  // unknown from two nights
  // Logs of 1, 1.01, 0.99, 1.02, 5: the outlier moves the median deviation only a little.
  const double s = robust_log_spread({1, 1.01, 0.99, 1.02, 5});
  EXPECT_GT(s, 0.005);
  EXPECT_LT(s, 0.03);
  EXPECT_DOUBLE_EQ(robust_log_spread({2, 2, 2}), 0);
}

// --- Clock-aware verdicts: fixtures from gpu_run.json (which has no telemetry) with telemetry
// written in, as `ridgeline run` records it on a GPU with NVML.

constexpr double kClock = 1980;  // the H200's max SM clock, MHz

// The points a lower SM clock slows: the register-only peaks and the ladder's compute-bound rungs
// (far right of gpu_run.json's ridges, 7.5 and 14.5 FLOP/byte), which P is the envelope of.
bool compute_bound(const nlohmann::json& p) {
  return p["family"] == "peak" ||
         (p["family"] == "fma" && p["intensity"].is_number() && p["intensity"].get<double>() >= 64);
}

// gpu_run.json with every measured Cuda point at `clock`, no throttle (or `reason` on peak points);
// the compute-bound ones at `peak_clock`, `peak_slowdown` slower.
nlohmann::json gpu_night(double peak_clock, double peak_slowdown, const std::string& reason = "") {
  nlohmann::json doc = fixture("gpu_run.json");
  for (auto& p : doc["points"]) {
    if (!p["skipped_reason"].is_null()) continue;
    const bool peak = compute_bound(p);
    const std::size_t n = p["samples"].size();
    if (peak && peak_slowdown != 1) {
      for (auto& t : p["samples"]) t = t.get<double>() * peak_slowdown;
      for (const char* k : {"median_s", "min_s", "max_s"})
        p[k] = p[k].get<double>() * peak_slowdown;
    }
    const bool throttled = peak && !reason.empty();
    p["telemetry"] = {
        {"sm_clock_mhz", peak ? peak_clock : kClock},
        {"reference_sm_clock_mhz", kClock},
        {"throttled", throttled},
        {"throttle_reasons", throttled ? nlohmann::json({reason}) : nlohmann::json::array()},
        {"throttled_samples", std::vector<bool>(n, throttled)}};
  }
  return doc;
}

struct ClockRun {
  test::CommandResult r;
  nlohmann::json j;
};

// Three identical history nights, then `current`.
ClockRun compare_gpu(const nlohmann::json& current) {
  TempDir dir;
  const nlohmann::json night = gpu_night(kClock, 1);
  std::string files;
  for (int i = 0; i < 3; ++i) {
    const std::string f = dir.path + "/night-" + std::to_string(i) + ".json";
    write_json(f, night);
    files += f + " ";
  }
  write_json(dir.path + "/current.json", current);
  ClockRun out{run_command(kBin + " compare " + files + dir.path + "/current.json --json " +
                           dir.path + "/c.json"),
               nullptr};
  if (std::filesystem::exists(dir.path + "/c.json"))
    out.j = nlohmann::json::parse(slurp(dir.path + "/c.json"));
  return out;
}

// The compared peak points (slowed in the fixtures), and whether each is clock-limited.
std::vector<const nlohmann::json*> peak_metrics(const nlohmann::json& j) {
  std::vector<const nlohmann::json*> out;
  for (const auto& m : j["metrics"])
    if (m["kind"] == "point" && m["metric"].get<std::string>().rfind("peak/", 0) == 0)
      out.push_back(&m);
  return out;
}

TEST(CompareClocks, SlowerAtALowerClockIsClockLimitedWithTheClocks) {
  const double clock = 1700, slowdown = 1.15;
  const auto c = compare_gpu(gpu_night(clock, slowdown));
  ASSERT_FALSE(c.j.is_null()) << c.r.err;
  const auto peaks = peak_metrics(c.j);
  ASSERT_FALSE(peaks.empty());
  for (const auto* m : peaks) {
    ASSERT_TRUE((*m)["verdict"] == "SLOWER" || (*m)["verdict"] == "AMBIGUOUS") << m->dump();
    EXPECT_TRUE((*m)["clock_limited"].get<bool>()) << m->dump();
    EXPECT_EQ((*m)["sm_clock_mhz"], clock);
    EXPECT_EQ((*m)["history_sm_clock_mhz"], kClock);
    // FLOP per cycle: the slowdown with the clock ratio taken out.
    EXPECT_NEAR((*m)["change_per_cycle"].get<double>(), kClock / clock / slowdown - 1, 1e-3);
  }
  // Points at the usual clock are not annotated.
  const nlohmann::json night = gpu_night(clock, slowdown);
  for (const auto& m : c.j["metrics"])
    if (m["kind"] == "point" &&
        std::none_of(night["points"].begin(), night["points"].end(), [&m](const auto& p) {
          return p["name"] == m["metric"] && compute_bound(p);
        })) {
      EXPECT_FALSE(m["clock_limited"].get<bool>()) << m["metric"];
    }
  // P is the envelope of the peak points and the compute-bound rungs: slower, at their clock.
  bool p_seen = false;
  for (const auto& m : c.j["metrics"])
    if (m["metric"].get<std::string>().rfind("P Cuda/", 0) == 0 && m["verdict"] != "SAME") {
      p_seen = true;
      EXPECT_TRUE(m["clock_limited"].get<bool>()) << m.dump();
      EXPECT_EQ(m["sm_clock_mhz"], clock);
    }
  EXPECT_TRUE(p_seen);
  EXPECT_NE(c.r.out.find("**SLOWER** clock-limited"), std::string::npos) << c.r.out;
  EXPECT_NE(c.r.out.find("clock-limited: SM clock 1700 MHz, history 1980 MHz (-14.1 %)"),
            std::string::npos);
  EXPECT_NE(c.r.out.find("**Clock-limited**"), std::string::npos);
}

TEST(CompareClocks, SlowerAtTheSameClockIsNotClockLimited) {
  const auto c = compare_gpu(gpu_night(kClock, 1.15));
  ASSERT_FALSE(c.j.is_null()) << c.r.err;
  const auto peaks = peak_metrics(c.j);
  ASSERT_FALSE(peaks.empty());
  for (const auto* m : peaks) {
    EXPECT_NE((*m)["verdict"], "SAME") << m->dump();
    EXPECT_FALSE((*m)["clock_limited"].get<bool>()) << m->dump();
    EXPECT_EQ((*m)["sm_clock_mhz"], kClock);
  }
  // No verdict annotated (the Method section names the rule and its option).
  for (const char* annotation : {"clock-limited:", "**Clock-limited**", "** clock-limited"})
    EXPECT_EQ(c.r.out.find(annotation), std::string::npos) << annotation;
  EXPECT_EQ(c.r.out.find("Throttled samples"), std::string::npos);
}

TEST(CompareClocks, ALowerClockWithoutASlowdownIsNotClockLimited) {
  const auto c = compare_gpu(gpu_night(1700, 1));
  ASSERT_FALSE(c.j.is_null()) << c.r.err;
  for (const auto& m : c.j["metrics"]) EXPECT_FALSE(m["clock_limited"].get<bool>()) << m.dump();
  EXPECT_EQ(c.r.exit_code, 0) << c.r.out;
}

TEST(CompareClocks, ANewThrottleReasonIsClockLimitedAndItsSamplesAreFlagged) {
  const auto c = compare_gpu(gpu_night(kClock, 1.15, "sw_power_cap"));
  ASSERT_FALSE(c.j.is_null()) << c.r.err;
  const auto peaks = peak_metrics(c.j);
  ASSERT_FALSE(peaks.empty());
  for (const auto* m : peaks) {
    EXPECT_TRUE((*m)["clock_limited"].get<bool>()) << m->dump();
    EXPECT_EQ((*m)["new_throttle_reasons"], nlohmann::json({"sw_power_cap"}));
    EXPECT_GT((*m)["throttled_samples"].get<int>(), 0);
  }
  EXPECT_NE(c.r.out.find("throttled (sw_power_cap)"), std::string::npos) << c.r.out;
  EXPECT_NE(c.r.out.find("**Throttled samples tonight**"), std::string::npos);
}

TEST(ReportClocks, ThrottledSamplesHaveTheirSection) {
  TempDir dir;
  write_json(dir.path + "/r.json", gpu_night(1700, 1, "hw_slowdown"));
  const auto r = run_command(kBin + " report " + dir.path + "/r.json --out " + dir.path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string md = slurp(dir.path + "/report.md");
  const auto at = md.find("## Throttled samples");
  ASSERT_NE(at, std::string::npos);
  EXPECT_NE(md.find("| `peak/Cuda/", at), std::string::npos);
  EXPECT_NE(md.find("1700 / 1980 MHz | hw_slowdown |", at), std::string::npos);
  // Without a throttled sample the section says so.
  write_json(dir.path + "/r.json", gpu_night(kClock, 1));
  ASSERT_EQ(run_command(kBin + " report " + dir.path + "/r.json --out " + dir.path).exit_code, 0);
  EXPECT_NE(
      slurp(dir.path + "/report.md").find("No sample of a point with telemetry was throttled"),
      std::string::npos);
}

TEST(ReportClocks, BadTelemetryIsOneLineNamingTheField) {
  TempDir dir;
  nlohmann::json doc = gpu_night(kClock, 1);
  for (auto& p : doc["points"])
    if (p["telemetry"].is_object()) {
      p["telemetry"]["throttle_reasons"] = 3;
      break;
    }
  write_json(dir.path + "/r.json", doc);
  const auto r = run_command(kBin + " report " + dir.path + "/r.json --out " + dir.path);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(test::line_count(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("].telemetry.throttle_reasons: must be an array of strings"),
            std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace ridgeline
