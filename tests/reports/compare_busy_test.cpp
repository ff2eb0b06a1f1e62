// A slowdown measured while the machine was busy (this process's threads waiting for a CPU that
// another process had) is the machine's load, not the kernel's: AMBIGUOUS "machine busy", not a
// failed night. A slowdown the waiting cannot explain still fails.
#include <gtest/gtest.h>

#include <cmath>

#include "reports/compare/compare.hpp"
#include "tests/reports/cli_test_support.hpp"

namespace ridgeline {
namespace {

using namespace test;

MetricComparison slower(double change, double tolerance) {
  MetricComparison m;
  m.change = change;
  m.tolerance = tolerance;
  m.verdict = Verdict::kSlower;
  return m;
}

TEST(MachineBusy, ASlowdownTheWaitingExplainsIsAmbiguous) {
  // 1.7 ms → 8 ms (−79 %), two threads waiting 40 % of the time: 80 % of the time was stalls.
  MetricComparison m = slower(1.7 / 8 - 1, 0.3);
  annotate_cpu_wait(m, {0.4, 0.01, 2, 2});
  EXPECT_EQ(m.verdict, Verdict::kAmbiguous);
  EXPECT_TRUE(m.machine_busy);
  EXPECT_NE(m.note.find("machine busy: threads waited for a CPU 40 % of the time (history 1 %)"),
            std::string::npos)
      << m.note;
}

TEST(MachineBusy, TooLittleWaitingOrAsMuchAsTheHistoryLeavesTheVerdict) {
  for (const CpuWaitEvidence& e : {CpuWaitEvidence{0.04, 0, 2, 2},     // under 5 %
                                   CpuWaitEvidence{0.30, 0.28, 2, 2},  // the history waited too
                                   CpuWaitEvidence{-1, -1, 1, 1}}) {   // not recorded
    MetricComparison m = slower(-0.5, 0.1);
    annotate_cpu_wait(m, e);
    EXPECT_EQ(m.verdict, Verdict::kSlower) << e.tonight << " " << e.history;
    EXPECT_FALSE(m.machine_busy);
  }
}

// What a busy night promises: the slowdown its waiting cannot explain, and it keeps that promise.
TEST(MachineBusy, ABusyNightsMinimumDetectableChangeIsWhatTheWaitingCannotExplain) {
  MetricComparison same;  // an A/A night: SAME, 20 % detectable by the history
  same.tolerance = 0.2;
  same.min_detectable = 0.2;
  annotate_cpu_wait(same, {0.3, 0, 1, 1});  // one thread waited 30 % of the time
  EXPECT_NEAR(same.min_detectable, 1 - 0.8 * 0.7, 1e-12);
  // A slowdown of that size (and a little more) stays SLOWER; a smaller one the waiting explains.
  MetricComparison caught = slower(-(same.min_detectable + 0.01), 0.2);
  annotate_cpu_wait(caught, {0.3, 0, 1, 1});
  EXPECT_EQ(caught.verdict, Verdict::kSlower) << caught.note;
  MetricComparison explained = slower(-0.3, 0.2);
  annotate_cpu_wait(explained, {0.3, 0, 1, 1});
  EXPECT_EQ(explained.verdict, Verdict::kAmbiguous) << explained.note;
  // Every call stalled: nothing can be promised.
  MetricComparison stalled;
  stalled.tolerance = stalled.min_detectable = 0.2;
  annotate_cpu_wait(stalled, {0.6, 0, 2, 2});
  EXPECT_LT(stalled.min_detectable, 0);
  // A quiet night keeps the history's figure.
  MetricComparison quiet;
  quiet.tolerance = quiet.min_detectable = 0.2;
  annotate_cpu_wait(quiet, {0.01, 0, 2, 2});
  EXPECT_EQ(quiet.min_detectable, 0.2);
}

TEST(MachineBusy, ASlowdownBeyondWhatTheWaitingExplainsStaysSlower) {
  // 10× slower; one thread waiting 30 % of the time explains at most 30 % of the time.
  MetricComparison m = slower(-0.9, 0.1);
  annotate_cpu_wait(m, {0.3, 0, 1, 1});
  EXPECT_EQ(m.verdict, Verdict::kSlower);
  EXPECT_FALSE(m.machine_busy);
  EXPECT_NE(m.note.find("machine busy (threads waited for a CPU 30 % of the time (history 0 %)), "
                        "yet -85.7 % with the waiting taken out"),
            std::string::npos)
      << m.note;
}

TEST(MachineBusy, FasterAndSameAreLeftAlone) {
  for (Verdict v : {Verdict::kFaster, Verdict::kSame, Verdict::kFailed, Verdict::kMissing}) {
    MetricComparison m = slower(-0.5, 0.1);
    m.verdict = v;
    annotate_cpu_wait(m, {0.5, 0, 2, 2});
    EXPECT_EQ(m.verdict, v);
    EXPECT_FALSE(m.machine_busy);
  }
}

// Under load the medians of a night shift unevenly, and its fit can find no point left on one
// side of the ridge: the roof is MISSING only because it was not fitted, while every point is
// still there and gated by itself. On a busy night that is the machine's load: AMBIGUOUS.
TEST(MachineBusy, ARoofNotFittedOnABusyNightIsAmbiguous) {
  MetricComparison m;
  m.verdict = Verdict::kMissing;
  m.unfitted = true;
  m.note = "no fit in the current file: bandwidth roof B cannot be fitted";
  annotate_cpu_wait(m, {0.5, 0.01, 1, 1});
  EXPECT_EQ(m.verdict, Verdict::kAmbiguous);
  EXPECT_TRUE(m.machine_busy);
  // Also where the history waited as much, and fitted: a fit says nothing on a busy night.
  MetricComparison as_busy;
  as_busy.verdict = Verdict::kMissing;
  as_busy.unfitted = true;
  annotate_cpu_wait(as_busy, {0.5, 0.49, 1, 1});
  EXPECT_EQ(as_busy.verdict, Verdict::kAmbiguous);
  EXPECT_EQ(m.note.rfind("machine busy: threads waited for a CPU 50 % of the time (history 1 %), "
                         "and tonight's points did not fit; no fit in the current file",
                         0),
            0u)
      << m.note;
}

TEST(MachineBusy, ARoofNotFittedOnAQuietNightOrLostWithItsPointsStaysMissing) {
  for (bool unfitted : {true, false})
    for (const CpuWaitEvidence& e : {CpuWaitEvidence{0.5, 0.01, 1, 1},  // busy
                                     CpuWaitEvidence{0.04, 0, 1, 1},    // quiet
                                     CpuWaitEvidence{-1, -1, 1, 1}}) {  // not recorded
      if (unfitted && e.tonight == 0.5) continue;                       // the case above
      MetricComparison m;
      m.verdict = Verdict::kMissing;
      m.unfitted = unfitted;
      annotate_cpu_wait(m, e);
      EXPECT_EQ(m.verdict, Verdict::kMissing) << unfitted << " " << e.tonight;
      EXPECT_FALSE(m.machine_busy);
    }
}

// The whole path: history nights and tonight from cpu_run_a.json with `cpu_wait` written in, as
// `ridgeline run` records it; tonight's triad 1.5× slower.
class CompareBusy : public ::testing::Test {
 protected:
  static constexpr const char* kTriad = "triad/OpenMP/fp64/n:5592405";
  static void set_wait(nlohmann::json& doc, double share) {
    for (auto& p : doc["points"])
      if (p["median_s"].is_number())
        p["cpu_wait"] = {{"shares", std::vector<double>(p["samples"].size(), share)},
                         {"median_share", share},
                         {"busy_samples", share >= 0.05 ? p["samples"].size() : 0},
                         {"threads", 2}};
  }
  // `history_share` < 0: history files without the field (before schema 1.3).
  CommandResult gate(double history_share, double triad_share, double slowdown = 1.5) {
    const double quiet[] = {1.0, 1.01, 0.99, 1.005, 0.995};
    std::string files;
    for (int i = 0; i < 5; ++i) {
      nlohmann::json d = fixture("cpu_run_a.json");
      for (auto& p : d["points"])
        if (p["median_s"].is_number()) scale(p, quiet[i]);
      if (history_share >= 0) set_wait(d, history_share);
      const std::string f = dir_.path + "/night" + std::to_string(i) + ".json";
      write_json(f, d);
      files += f + " ";
    }
    nlohmann::json current = fixture("cpu_run_a.json");
    set_wait(current, 0.01);
    nlohmann::json& triad = *point_named(current, kTriad);
    scale(triad, slowdown);
    triad["cpu_wait"]["median_share"] = triad_share;
    write_json(dir_.path + "/current.json", current);
    return run_command(kBin + " compare " + files + dir_.path + "/current.json --json " +
                       dir_.path + "/compare.json");
  }
  static void scale(nlohmann::json& p, double f) {
    for (auto& s : p["samples"]) s = s.get<double>() * f;
    p["median_s"] = p["median_s"].get<double>() * f;
  }
  nlohmann::json triad() {
    const auto j = nlohmann::json::parse(slurp(dir_.path + "/compare.json"));
    for (const auto& m : j["metrics"])
      if (m["metric"] == kTriad) return m;
    return nullptr;
  }
  TempDir dir_;
};

TEST_F(CompareBusy, SlowerOnABusyMachineDoesNotFailTheNight) {
  const auto r = gate(0.01, 0.3);
  EXPECT_EQ(r.exit_code, 0) << r.out;
  const auto m = triad();
  EXPECT_EQ(m["verdict"], "AMBIGUOUS") << m.dump();
  EXPECT_TRUE(m["machine_busy"].get<bool>());
  EXPECT_DOUBLE_EQ(m["cpu_wait_share"].get<double>(), 0.3);
  EXPECT_DOUBLE_EQ(m["history_cpu_wait_share"].get<double>(), 0.01);
  EXPECT_NE(r.out.find("**AMBIGUOUS** machine busy"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("**Machine busy**: 1 slowdown measured while"), std::string::npos) << r.out;
  // Older history files (no cpu_wait) count as quiet nights.
  EXPECT_EQ(gate(-1, 0.3).exit_code, 0);
  EXPECT_TRUE(triad()["history_cpu_wait_share"].is_null());
}

TEST_F(CompareBusy, TheSameSlowdownOnAQuietMachineOrAsBusyAHistoryFails) {
  for (const auto& [history, tonight] : {std::pair{0.01, 0.02}, std::pair{0.3, 0.3}}) {
    const auto r = gate(history, tonight);
    EXPECT_EQ(r.exit_code, 1) << history << " " << tonight << "\n" << r.out;
    EXPECT_EQ(triad()["verdict"], "SLOWER");
    EXPECT_FALSE(triad()["machine_busy"].get<bool>());
  }
  // A 10× slowdown is more than 30 % waiting on two threads explains.
  EXPECT_EQ(gate(0.01, 0.3, 10).exit_code, 1);
  EXPECT_EQ(triad()["verdict"], "SLOWER");
}

// Busy nights in the history would widen the tolerances: with enough quiet nights they are left
// out, so a quiet night's 1.5x slowdown still fails.
TEST_F(CompareBusy, BusyNightsLeaveTheHistoryWhileEnoughQuietOnesRemain) {
  const auto run = [this](int quiet_nights) {
    std::string files;
    for (int i = 0; i < 5; ++i) {
      nlohmann::json d = fixture("cpu_run_a.json");
      const bool busy = i >= quiet_nights;
      // Busy nights: every point 40 % slower, triad 2x (a wide spread if they were kept).
      for (auto& p : d["points"])
        if (p["median_s"].is_number()) scale(p, busy ? (p["name"] == kTriad ? 2.0 : 1.4) : 1.0);
      set_wait(d, busy ? 0.5 : 0.01);
      const std::string f = dir_.path + "/night" + std::to_string(i) + ".json";
      write_json(f, d);
      files += f + " ";
    }
    nlohmann::json current = fixture("cpu_run_a.json");
    set_wait(current, 0.01);
    scale(*point_named(current, kTriad), 1.5);
    write_json(dir_.path + "/current.json", current);
    return run_command(kBin + " compare " + files + dir_.path + "/current.json --json " +
                       dir_.path + "/compare.json");
  };
  auto r = run(3);
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_EQ(triad()["verdict"], "SLOWER");
  auto j = nlohmann::json::parse(slurp(dir_.path + "/compare.json"));
  EXPECT_EQ(j["busy_history"].size(), 2u) << j["busy_history"];
  EXPECT_EQ(j["history"].size(), 3u);
  EXPECT_EQ(j["quiet_history_nights"], 3);
  EXPECT_FALSE(j["busy_night"].get<bool>());
  EXPECT_NE(r.out.find("Left out of the history as measured on a busy machine"), std::string::npos);
  // Two quiet nights are too few to gate on: every night stays, and the busy ones' spread hides
  // the slowdown (the gate prints how little it can catch).
  r = run(2);
  j = nlohmann::json::parse(slurp(dir_.path + "/compare.json"));
  EXPECT_TRUE(j["busy_history"].empty());
  EXPECT_EQ(j["history"].size(), 5u);
  EXPECT_EQ(j["quiet_history_nights"], 2);
  EXPECT_NE(triad()["verdict"], "SLOWER");
}

TEST_F(CompareBusy, ABusyNightSaysSo) {
  nlohmann::json current = fixture("cpu_run_a.json");
  set_wait(current, 0.5);
  write_json(dir_.path + "/a.json", fixture("cpu_run_a.json"));
  write_json(dir_.path + "/c.json", current);
  const auto r = run_command(kBin + " compare " + dir_.path + "/a.json " + dir_.path +
                             "/c.json --json " + dir_.path + "/compare.json");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  const auto j = nlohmann::json::parse(slurp(dir_.path + "/compare.json"));
  EXPECT_TRUE(j["busy_night"].get<bool>());
  EXPECT_DOUBLE_EQ(j["night_cpu_wait_share"].get<double>(), 0.5);
  EXPECT_NE(r.out.find("**Tonight was measured on a busy machine**: its points waited for a CPU "
                       "50 % of the time"),
            std::string::npos)
      << r.out;
}

TEST_F(CompareBusy, TheReportListsTheSamplesTakenOnABusyMachine) {
  nlohmann::json doc = fixture("cpu_run_a.json");
  const auto report = [this](const nlohmann::json& d) {
    write_json(dir_.path + "/r.json", d);
    const auto r = run_command(kBin + " report " + dir_.path + "/r.json --out " + dir_.path);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return slurp(dir_.path + "/report.md");
  };
  EXPECT_EQ(report(doc).find("## Samples on a busy machine"), std::string::npos);  // before 1.3
  set_wait(doc, 0.001);
  EXPECT_NE(report(doc).find("No sample waited 5 % of its time or more for a CPU."),
            std::string::npos);
  auto& triad = (*point_named(doc, kTriad))["cpu_wait"];
  triad["median_share"] = 0.3;
  triad["busy_samples"] = 8;
  const std::string md = report(doc);
  const auto at = md.find("## Samples on a busy machine");
  ASSERT_NE(at, std::string::npos) << md;
  EXPECT_NE(md.find("8 of ", at), std::string::npos);
  EXPECT_NE(md.find("| `" + std::string(kTriad) + "` | 8/8 | 30.0 % |", at), std::string::npos)
      << md.substr(at, 800);
}

TEST_F(CompareBusy, ABadShareIsOneLineNamingTheField) {
  nlohmann::json doc = fixture("cpu_run_a.json");
  set_wait(doc, 0.01);
  (*point_named(doc, kTriad))["cpu_wait"]["median_share"] = 2;
  write_json(dir_.path + "/bad.json", doc);
  const auto r = run_command(kBin + " report " + dir_.path + "/bad.json --out " + dir_.path);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("].cpu_wait.median_share: must be at most 1"), std::string::npos) << r.err;
}

// Whether tonight joins the history is compare's decision (scripts/nightly reads it): a busy
// night stays out while the history holds --min-history quiet nights, joins with fewer, and a
// regression never joins.
TEST_F(CompareBusy, TheHistoryDecisionKeepsOutBusyAndRegressedNights) {
  const auto decide = [this](int nights, double tonight_share, double triad_slowdown) {
    std::string files;
    for (int i = 0; i < nights; ++i) {
      nlohmann::json d = fixture("cpu_run_a.json");
      set_wait(d, 0.01);
      const std::string f = dir_.path + "/night" + std::to_string(i) + ".json";
      write_json(f, d);
      files += f + " ";
    }
    nlohmann::json current = fixture("cpu_run_a.json");
    set_wait(current, tonight_share);
    scale(*point_named(current, kTriad), triad_slowdown);
    write_json(dir_.path + "/current.json", current);
    const auto r = run_command(kBin + " compare " + files + dir_.path + "/current.json --json " +
                               dir_.path + "/compare.json");
    const auto j = nlohmann::json::parse(slurp(dir_.path + "/compare.json"));
    return std::pair{r.exit_code, j["history_decision"].get<std::string>()};
  };
  EXPECT_EQ(decide(3, 0.01, 1), (std::pair{0, std::string("joins")}));
  EXPECT_EQ(decide(3, 0.5, 1), (std::pair{0, std::string("busy_kept_out")}));
  EXPECT_EQ(decide(2, 0.5, 1), (std::pair{0, std::string("joins")}));  // too few quiet nights
  EXPECT_EQ(decide(3, 0.01, 1.5), (std::pair{1, std::string("regressed")}));
}

}  // namespace
}  // namespace ridgeline
