// The machine-wide verdict: a night slower as a whole (every point together) is judged against the
// spread of that factor across the history nights, so a regression of the machine (a driver that
// costs bandwidth, a memory clock stuck low, a card that throttles) fails the gate, naming the
// roofs it cost, unless measured CPU waiting explains it. Planted regressions are built from the
// recorded nights of tests/data/gate-history (Serial fp64 sweeps of the nightly test profile on
// the shared development VM) by scaling their times here, in the test.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <iostream>

#include "reports/compare/few_nights.hpp"
#include "reports/compare/machine_factor.hpp"
#include "tests/reports/cli_test_support.hpp"

namespace ridgeline {
namespace {

using namespace test;
using Json = nlohmann::json;

Json recorded(int night) { return fixture(fmt::format("gate-history/night-{:02d}.json", night)); }

bool timed(const Json& p) { return p["median_s"].is_number(); }

// Times × f and rates ÷ f, for the measured points `which` selects (all by default).
Json scaled(Json night, double f, const std::function<bool(const Json&)>& which = timed) {
  for (auto& p : night["points"]) {
    if (!timed(p) || !which(p)) continue;
    for (auto& s : p["samples"]) s = s.get<double>() * f;
    for (const char* k : {"median_s", "min_s", "max_s"})
      if (p[k].is_number()) p[k] = p[k].get<double>() * f;
    for (const char* rate : {"flops_per_s", "bytes_per_s"})
      if (p[rate].is_number()) p[rate] = p[rate].get<double>() / f;
  }
  return night;
}

// The recorded nights' memory-bound points: the streams and the ladder's rungs below the ridge
// (these nights fit P ≈ 55 GFLOP/s and B ≈ 57 GB/s: a ridge near 1 FLOP/byte).
bool memory_bound(const Json& p) {
  return timed(p) &&
         (p["family"] == "bandwidth" || (p["family"] == "fma" && p["intensity"].get<double>() < 1));
}

struct GateRun {
  CommandResult r;
  Json j;
  const Json& machine() const {
    for (const auto& m : j["metrics"])
      if (m["kind"] == "machine") return m;
    throw std::runtime_error("no machine-wide metric:\n" + r.out);
  }
  const Json& metric(const std::string& name) const {
    for (const auto& m : j["metrics"])
      if (m["metric"] == name) return m;
    throw std::runtime_error("no metric " + name + ":\n" + r.out);
  }
  bool lost(const std::string& roof) const {
    const auto& roofs = j["machine_roofs"];
    return std::find(roofs.begin(), roofs.end(), roof) != roofs.end();
  }
};

class CompareMachine : public ::testing::Test {
 protected:
  GateRun gate(const std::vector<Json>& history, const Json& tonight,
               const std::string& options = "") {
    std::string files;
    for (std::size_t i = 0; i < history.size(); ++i) {
      const std::string f = dir_.path + "/history-" + std::to_string(i) + ".json";
      write_json(f, history[i]);
      files += f + " ";
    }
    write_json(dir_.path + "/tonight.json", tonight);
    std::filesystem::remove(dir_.path + "/c.json");
    GateRun run{run_command(kBin + " compare " + files + dir_.path + "/tonight.json --json " +
                            dir_.path + "/c.json " + options),
                nullptr};
    if (std::filesystem::exists(dir_.path + "/c.json"))
      run.j = Json::parse(slurp(dir_.path + "/c.json"));
    return run;
  }
  // The recorded quiet nights 1–7 without `held_out` (1-based).
  static std::vector<Json> quiet_without(int held_out) {
    std::vector<Json> h;
    for (int i = 1; i <= 7; ++i)
      if (i != held_out) h.push_back(recorded(i));
    return h;
  }
  TempDir dir_;
};

TEST_F(CompareMachine, TheRecordedHistoryIsQuietAndANightLikeItPasses) {
  const GateRun a = gate(quiet_without(7), recorded(7));
  ASSERT_EQ(a.r.exit_code, 0) << a.r.out;
  EXPECT_LE(a.machine()["spread"].get<double>(), 0.02) << a.machine().dump();
  EXPECT_EQ(a.j["machine_verdict"], "SAME");
  EXPECT_TRUE(a.j["machine_roofs"].empty());
}

TEST_F(CompareMachine, AUniformTenPercentDropFailsNamingTheRoofsItCost) {
  const GateRun r = gate(quiet_without(7), scaled(recorded(7), 1 / 0.9));
  ASSERT_EQ(r.r.exit_code, 1) << r.r.out;
  EXPECT_EQ(r.j["machine_verdict"], "SLOWER");
  EXPECT_EQ(r.machine()["verdict"], "SLOWER");
  // P is named; B is not: night-07's B (the envelope, set by its triad) is 5.7 % above the other
  // nights' median, so 10 % less leaves it 4.9 % below them, inside the machine's tolerance. Both
  // lost 10 % against the night as recorded.
  const GateRun as_recorded = gate(quiet_without(7), recorded(7));
  EXPECT_TRUE(r.lost("P Serial/fp64")) << r.j["machine_roofs"];
  for (const char* roof : {"P Serial/fp64", "B Serial/fp64"}) {
    // Absolute: what the machine delivered; relative: against the rest of the night.
    const Json& m = r.metric(roof);
    EXPECT_NEAR(m["absolute_change"].get<double>(),
                (1 + as_recorded.metric(roof)["absolute_change"].get<double>()) * 0.9 - 1, 0.005)
        << m.dump();
    EXPECT_LT(m["absolute_change"].get<double>(), -0.04) << m.dump();
    EXPECT_GT(m["relative_change"].get<double>(), m["absolute_change"].get<double>() + 0.05);
  }
  // Relative to the night, no point moved: the per-point verdicts are as before.
  for (const auto& m : r.j["metrics"])
    if (m["kind"] == "point") {
      EXPECT_NE(m["verdict"], "SLOWER") << m.dump();
    }
  EXPECT_NE(r.r.out.find("roofs lost in absolute terms: P Serial/fp64"), std::string::npos)
      << r.r.out;
  EXPECT_NE(r.r.out.find("**Roofs, absolute and relative to the night** (every point together "),
            std::string::npos);
  EXPECT_NE(r.r.out.find(" **lost** |"), std::string::npos);
}

TEST_F(CompareMachine, TheGatePrintsTheUniformChangeItCanCatch) {
  const GateRun r = gate(quiet_without(7), recorded(7));
  const double mdc = r.machine()["min_detectable_change"].get<double>();
  EXPECT_GE(mdc, r.machine()["tolerance"].get<double>());
  EXPECT_LT(mdc, 0.12);  // what the next test plants
  EXPECT_NE(r.r.out.find(fmt::format(
                "every point together (the minimum detectable machine-wide change): {:.1f} %",
                100 * mdc)),
            std::string::npos)
      << r.r.out;
}

// 20 variants: each quiet recorded night in turn held against the six others, its times scaled
// by 0.99–1.01 (within the history's factor spread). A/A: as drawn; planted: every time × 1/0.88.
// 12 %, not 10: six nights of a 1.2–1.3 % spread call a factor SLOWER only beyond T_6's 1 %
// (6.8 spreads, compare/few_nights.hpp), and −10 % was caught in 17 of the 20 (printed figure
// 10.2 % on the first); before the factor was tested with T_n, a normal z: 20 of 20.
TEST_F(CompareMachine, PlantedUniformDropsAreCaughtAndAANightsPass) {
  constexpr double kJitter[] = {0.99, 0.995, 1.0, 1.005, 1.01};
  int caught = 0, alarms = 0;
  std::string failures;
  for (int v = 0; v < 20; ++v) {
    const int held_out = v % 7 + 1;
    const double jitter = kJitter[(v / 7 + v) % 5];
    const Json night = scaled(recorded(held_out), jitter);
    const GateRun aa = gate(quiet_without(held_out), night);
    const GateRun planted = gate(quiet_without(held_out), scaled(night, 1 / 0.88));
    alarms += aa.r.exit_code != 0;
    caught += planted.r.exit_code == 1 && planted.j["machine_verdict"] == "SLOWER";
    if (aa.r.exit_code != 0 || planted.r.exit_code != 1)
      failures += fmt::format("night {} × {}: A/A exit {} ({}), planted exit {} ({})\n", held_out,
                              jitter, aa.r.exit_code, aa.machine()["note"].get<std::string>(),
                              planted.r.exit_code, planted.machine()["note"].get<std::string>());
  }
  std::cout << "planted uniform -12 %: caught " << caught << " of 20; A/A false alarms " << alarms
            << " of 20\n";
  EXPECT_EQ(caught, 20) << failures;
  EXPECT_EQ(alarms, 0) << failures;
}

// The quiet runner: seven nights made from night-07 with every time × 0.990–1.010; and
// the recorded nights 1–6. Only B moved: P's absolute change is the unplanted night's (on the
// recorded history night-07's P is 11 % below the others' already, and named for that).
TEST_F(CompareMachine, OnlyTheMemoryBoundPointsTenPercentSlowerFailsNamingB) {
  std::vector<Json> made;
  for (double f : {1.0, 0.99, 1.01, 0.995, 1.005, 0.9975, 1.0025})
    made.push_back(scaled(recorded(7), f));
  const std::vector<std::vector<Json>> histories = {made, quiet_without(7)};
  for (const auto& h : histories) {
    const GateRun as_recorded = gate(h, recorded(7));
    const GateRun r = gate(h, scaled(recorded(7), 1 / 0.9, memory_bound));
    ASSERT_EQ(r.r.exit_code, 1) << r.r.out;
    EXPECT_EQ(r.j["machine_verdict"], "SLOWER") << r.machine().dump();
    // Against the nights made from night-07 B is named; against the recorded ones 10 % less
    // leaves night-07's B inside the tolerance (its envelope is above their median: see
    // AUniformTenPercentDropFailsNamingTheRoofsItCost).
    if (&h == &histories[0]) {
      EXPECT_TRUE(r.lost("B Serial/fp64")) << r.j["machine_roofs"];
    }
    EXPECT_NEAR(r.metric("B Serial/fp64")["absolute_change"].get<double>(),
                as_recorded.metric("B Serial/fp64")["absolute_change"].get<double>() - 0.1, 0.02);
    EXPECT_DOUBLE_EQ(r.metric("P Serial/fp64")["absolute_change"].get<double>(),
                     as_recorded.metric("P Serial/fp64")["absolute_change"].get<double>());
  }
  EXPECT_FALSE(gate(made, scaled(recorded(7), 1 / 0.9, memory_bound)).lost("P Serial/fp64"));
}

TEST_F(CompareMachine, EachRecordedNightAgainstTheOthersPasses) {
  for (int i = 1; i <= 7; ++i) {
    const GateRun r = gate(quiet_without(i), recorded(i));
    EXPECT_EQ(r.r.exit_code, 0) << "night " << i << "\n" << r.r.out;
    EXPECT_NE(r.j["machine_verdict"], "SLOWER") << i;
  }
  // night-08 was measured in a slow phase of the VM: 14 % slower than the seven before it, with
  // repetitions about three times as noisy; its factor is known that much less well.
  const GateRun slow_phase = gate(quiet_without(8), recorded(8));
  EXPECT_EQ(slow_phase.r.exit_code, 0) << slow_phase.r.out;
  EXPECT_NE(slow_phase.machine()["note"].get<std::string>().find(
                "tonight's repetitions noisier than the history's"),
            std::string::npos)
      << slow_phase.machine().dump();
  // The example: that night with every sample 15 % slower fails (it passed before).
  const GateRun slower = gate(quiet_without(8), scaled(recorded(8), 1.15));
  EXPECT_EQ(slower.r.exit_code, 1) << slower.r.out;
  EXPECT_EQ(slower.j["machine_verdict"], "SLOWER");
}

// An RTX 4090-like runner: seven nights whose factor spread is 0.3 % (night-07 scaled).
TEST_F(CompareMachine, AQuietGpuLikeHistoryCatchesAThreePercentDrop) {
  // Logs d × {0, ±0.5, ±1, ±1.5}: their median absolute deviation is d, × 1.688 for 7 nights.
  const double d = 0.003 / 1.688;
  std::vector<Json> history;
  for (double x : {0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -1.5})
    history.push_back(scaled(recorded(7), std::exp(x * d)));
  const GateRun aa = gate(history, recorded(7));
  ASSERT_EQ(aa.r.exit_code, 0) << aa.r.out;
  EXPECT_NEAR(aa.machine()["spread"].get<double>(), 0.003, 1e-4);
  EXPECT_LE(aa.machine()["min_detectable_change"].get<double>(), 0.03);
  const GateRun drop = gate(history, scaled(recorded(7), 1 / 0.97));
  EXPECT_EQ(drop.r.exit_code, 1) << drop.r.out;
  EXPECT_EQ(drop.j["machine_verdict"], "SLOWER");
}

TEST_F(CompareMachine, BelowThreeNightsTheGateSaysItDoesNotJudgeSpeed) {
  const GateRun r = gate({recorded(1), recorded(2)}, scaled(recorded(3), 1 / 0.8));
  EXPECT_EQ(r.r.exit_code, 0) << r.r.out;
  EXPECT_TRUE(r.j["machine_verdict"].is_null());
  EXPECT_FALSE(r.j["gates_speed"].get<bool>());
  EXPECT_NE(r.r.out.find("**History too short to gate on speed: 2 nights, 3 needed.**"),
            std::string::npos)
      << r.r.out;
}

// --- The explained cases, on the fixtures the busy and clock tests use.

void set_wait(Json& doc, double share) {
  for (auto& p : doc["points"])
    if (timed(p))
      p["cpu_wait"] = {{"shares", std::vector<double>(p["samples"].size(), share)},
                       {"median_share", share},
                       {"busy_samples", share >= 0.05 ? p["samples"].size() : 0},
                       {"threads", 2}};
}

// Five quiet CPU nights (cpu_run_a.json, times × 0.99–1.01), each marked by `mark`.
std::vector<Json> quiet_cpu_nights(const std::function<void(Json&)>& mark) {
  std::vector<Json> history;
  for (double f : {1.0, 1.01, 0.99, 1.005, 0.995}) {
    history.push_back(scaled(fixture("cpu_run_a.json"), f));
    mark(history.back());
  }
  return history;
}

TEST_F(CompareMachine, AUniformSlowdownTheCpuWaitingExplainsIsAmbiguousMachineBusy) {
  const std::vector<Json> history = quiet_cpu_nights([](Json& n) { set_wait(n, 0.01); });
  // 1.5× slower, two threads waiting 30 % of the time: 60 % of the time was stalls.
  Json tonight = scaled(fixture("cpu_run_a.json"), 1.5);
  set_wait(tonight, 0.3);
  const GateRun busy = gate(history, tonight);
  ASSERT_EQ(busy.r.exit_code, 0) << busy.r.out;
  EXPECT_EQ(busy.machine()["verdict"], "AMBIGUOUS");
  EXPECT_TRUE(busy.machine()["machine_busy"].get<bool>());
  EXPECT_NE(busy.machine()["note"].get<std::string>().find("machine busy: threads waited"),
            std::string::npos);
  // The same slowdown on a quiet machine fails.
  set_wait(tonight, 0.01);
  const GateRun quiet = gate(history, tonight);
  EXPECT_EQ(quiet.r.exit_code, 1) << quiet.r.out;
  EXPECT_EQ(quiet.machine()["verdict"], "SLOWER");
  EXPECT_FALSE(quiet.machine()["machine_busy"].get<bool>());
}

constexpr double kMaxSmClock = 1980;  // the H200's max SM clock, MHz

// gpu_run.json (no telemetry of its own) with telemetry on every measured point, as `ridgeline
// run` records it with NVML, every time × `slowdown`.
Json telemetry_night(double clock, double slowdown, const std::string& reason = "") {
  Json doc = scaled(fixture("gpu_run.json"), slowdown);
  for (auto& p : doc["points"]) {
    if (!timed(p)) continue;
    p["telemetry"] = {
        {"sm_clock_mhz", clock},
        {"reference_sm_clock_mhz", kMaxSmClock},
        {"throttled", !reason.empty()},
        {"throttle_reasons", reason.empty() ? Json::array() : Json({reason})},
        {"throttled_samples", std::vector<bool>(p["samples"].size(), !reason.empty())}};
  }
  return doc;
}

TEST_F(CompareMachine, AUniformSlowdownAtALowerClockIsSlowerClockLimited) {
  const std::vector<Json> history(3, telemetry_night(kMaxSmClock, 1));
  const GateRun r = gate(history, telemetry_night(1700, 1.15));
  ASSERT_EQ(r.r.exit_code, 1) << r.r.out;
  const Json& m = r.machine();
  EXPECT_EQ(m["verdict"], "SLOWER") << m.dump();
  EXPECT_TRUE(m["clock_limited"].get<bool>());
  EXPECT_EQ(m["sm_clock_mhz"], 1700);
  EXPECT_EQ(m["history_sm_clock_mhz"], kMaxSmClock);
  EXPECT_NE(r.r.out.find("clock-limited: SM clock 1700 MHz, history 1980 MHz (-14.1 %)"),
            std::string::npos)
      << r.r.out;
  // The documented option reports it without failing the night.
  const GateRun relaxed = gate(history, telemetry_night(1700, 1.15), "--clock-limited-ambiguous");
  EXPECT_EQ(relaxed.r.exit_code, 0) << relaxed.r.out;
  EXPECT_EQ(relaxed.machine()["verdict"], "AMBIGUOUS");
  EXPECT_TRUE(relaxed.machine()["clock_limited"].get<bool>());
  EXPECT_TRUE(relaxed.j["options"]["clock_limited_ambiguous"].get<bool>());
}

TEST_F(CompareMachine, AUniformSlowdownWithANewThrottleReasonIsClockLimited) {
  const std::vector<Json> history(3, telemetry_night(kMaxSmClock, 1));
  const GateRun r = gate(history, telemetry_night(kMaxSmClock, 1.15, "hw_slowdown"));
  ASSERT_EQ(r.r.exit_code, 1) << r.r.out;
  EXPECT_EQ(r.machine()["verdict"], "SLOWER");
  EXPECT_TRUE(r.machine()["clock_limited"].get<bool>());
  EXPECT_EQ(r.machine()["new_throttle_reasons"], Json({"hw_slowdown"}));
  // At the history's clock without a new reason, the same slowdown is not clock-limited.
  const GateRun plain = gate(history, telemetry_night(kMaxSmClock, 1.15));
  EXPECT_EQ(plain.r.exit_code, 1);
  EXPECT_FALSE(plain.machine()["clock_limited"].get<bool>());
}

// The rule itself, without files.
// A host's cores' clock (results' host_clock), the same after every sample of every point.
void set_host_clock(Json& night, double mhz) {
  for (auto& p : night["points"])
    if (timed(p))
      p["host_clock"] = {{"readings_mhz", std::vector<double>(p["samples"].size(), mhz)},
                         {"median_mhz", mhz}};
}

// A cloud host whose neighbours took its turbo (the 2-vCPU Xeon VM's runs began anywhere between
// 3.29 and 3.99 GHz): a night 13 % slower at 3.4 GHz against nights at 3.99 GHz is clock-limited
// by the host clock, and --clock-limited-ambiguous reports it without failing because the lower
// clock explains it; a night 35 % slower at that clock is beyond what the clock explains and
// still fails. (13 %: five nights of a 0.9 % spread call a factor SLOWER beyond T_5's 1 %, 12
// spreads; the 8 % night this test had is AMBIGUOUS there.)
TEST_F(CompareMachine, OnAHostALowerCoreClockMarksASlowdownAndExplainsOnlyWhatItCan) {
  const std::vector<Json> history = quiet_cpu_nights([](Json& n) { set_host_clock(n, 3990); });
  Json tonight = scaled(fixture("cpu_run_a.json"), 1.15);
  set_host_clock(tonight, 3400);
  const GateRun r = gate(history, tonight);
  ASSERT_EQ(r.r.exit_code, 1) << r.r.out;
  const Json& m = r.machine();
  EXPECT_EQ(m["verdict"], "SLOWER") << m.dump();
  EXPECT_TRUE(m["clock_limited"].get<bool>());
  EXPECT_EQ(m["host_clock_mhz"], 3400);
  EXPECT_EQ(m["history_host_clock_mhz"], 3990);
  EXPECT_TRUE(m["sm_clock_mhz"].is_null());
  EXPECT_NE(r.r.out.find("clock-limited: host clock 3400 MHz, history 3990 MHz (-14.8 %)"),
            std::string::npos)
      << r.r.out;
  const GateRun relaxed = gate(history, tonight, "--clock-limited-ambiguous");
  EXPECT_EQ(relaxed.r.exit_code, 0) << relaxed.r.out;
  EXPECT_EQ(relaxed.machine()["verdict"], "AMBIGUOUS");
  for (const auto& level : relaxed.j["metrics"])
    if (level["kind"] == "level") {
      EXPECT_NE(level["verdict"], "SLOWER") << level.dump();
    }
  // 0.74 × 3990 / 3400: 13 % slower at equal clock, more than the clock explains.
  Json worse = scaled(fixture("cpu_run_a.json"), 1.35);
  set_host_clock(worse, 3400);
  const GateRun still = gate(history, worse, "--clock-limited-ambiguous");
  EXPECT_EQ(still.r.exit_code, 1) << still.r.out;
  EXPECT_EQ(still.machine()["verdict"], "SLOWER");
  EXPECT_NE(still.machine()["note"].get<std::string>().find(
                "gated despite --clock-limited-ambiguous: -13.1 % at equal clock"),
            std::string::npos)
      << still.machine()["note"];
  // The 13 % night at the history's clock is not clock-limited, and fails with the option too.
  set_host_clock(tonight, 3990);
  const GateRun plain = gate(history, tonight, "--clock-limited-ambiguous");
  EXPECT_EQ(plain.r.exit_code, 1) << plain.r.out;
  EXPECT_FALSE(plain.machine()["clock_limited"].get<bool>());
}

TEST(MachineFactor, TheSpreadIsFlooredByTheNightsErrorAndWidenedByANoisierNight) {
  CompareOptions o;
  MachineFactorEvidence e;
  e.history = {0.001, -0.001, 0.0005, -0.0005, 0};  // spread ≈ 0.1 %
  e.history_se = 0.01;
  e.tonight = std::log(1 / 0.86);  // 14 % less throughput
  MetricComparison m;
  judge_machine_factor(m, e, o);
  EXPECT_NEAR(m.spread, 0.01, 1e-12);  // raised to the nights' own error
  // 15 spreads of 1 %: beyond 5, and beyond T_5's 1 % (12 spreads).
  EXPECT_EQ(m.verdict, Verdict::kSlower) << m.note;
  e.history_noise = 0.02;
  e.tonight_noise = 0.08;  // four times as noisy: spread 4 %, tolerance 18 %
  judge_machine_factor(m, e, o);
  EXPECT_NEAR(m.spread, 0.04, 1e-12);
  EXPECT_EQ(m.verdict, Verdict::kSame) << m.note;
  EXPECT_NEAR(m.tolerance, -std::expm1(-5 * 0.04), 1e-12);
  // Never below --machine-threshold.
  e = {};
  e.history = {0, 0, 0};
  judge_machine_factor(m, e, o);
  EXPECT_NEAR(m.tolerance, 0.01, 1e-12);
}

// The factor is tested as a spread from that many nights knows it (compare/few_nights.hpp):
// three history nights that happen to sit 0.4 % apart (a shared host's one phase) do not know
// that its nights wander by 10 %, and a night 8 % slower (19 of their spreads, past the 5 of the
// tolerance) is not significant against T_3 (1 %: 73 spreads); seven nights at that spread know
// it well enough, and the same night is SLOWER. A normal z called both SLOWER.
TEST(MachineFactor, TheFactorIsTestedAsAFewNightsSpreadKnowsIt) {
  CompareOptions o;
  MachineFactorEvidence e;
  e.history = {0, 0.002, 0.004};  // spread 2.207 × 0.2 % = 0.44 %
  e.tonight = std::log(1 / 0.92);
  MetricComparison three;
  judge_machine_factor(three, e, o);
  EXPECT_NEAR(three.spread, 0.004414, 1e-6);
  EXPECT_LT(three.change, -three.tolerance);                    // beyond the tolerance ...
  EXPECT_EQ(three.verdict, Verdict::kAmbiguous) << three.note;  // ... and not significant
  EXPECT_NEAR(three.p_value, few_nights_p_value(3, e.tonight / three.spread), 1e-12);
  EXPECT_GT(three.p_value, o.alpha);
  e.history = {0, 0.002, 0.004, -0.002, -0.004, 0.001, -0.001};  // spread 1.688 × 0.2 % = 0.34 %
  MetricComparison seven;
  judge_machine_factor(seven, e, o);
  EXPECT_EQ(seven.verdict, Verdict::kSlower) << seven.note;
  EXPECT_LT(seven.p_value, o.alpha);
  // What each can catch grows with what its nights do not know: the significance a change needs.
  EXPECT_GT(three.min_detectable, 2 * seven.min_detectable);
}

// A level's points together (compare/level_factors.hpp) are judged by the same rule at --threshold
// (5 %), with a spread no smaller than the machine-wide factor's: a level as measured moves with
// the whole night, and a night the factor tolerates fails by no level.
TEST(MachineFactor, ALevelIsJudgedAtTheThresholdAndNeverTighterThanTheNight) {
  CompareOptions o;
  MachineFactorEvidence e;
  e.history = {0.001, -0.001, 0.0005, -0.0005, 0};  // spread ≈ 0.1 %
  e.tonight = std::log(1 / 0.94);                   // 6 % less throughput
  MetricComparison m;
  judge_together(m, e, o, o.threshold_pct, "a level");
  EXPECT_NEAR(m.tolerance, 0.05, 1e-12);  // --threshold, not --machine-threshold
  EXPECT_EQ(m.verdict, Verdict::kSlower) << m.note;
  EXPECT_EQ(m.note.rfind("a level; judged against its spread", 0), 0u) << m.note;
  e.spread_floor = 0.02;  // the night's factor: 2 % between nights, tolerance 10 %
  e.spread_floor_what = "the machine-wide factor's";
  judge_together(m, e, o, o.threshold_pct, "a level");
  EXPECT_NEAR(m.spread, 0.02, 1e-12);
  EXPECT_NEAR(m.tolerance, -std::expm1(-5 * 0.02), 1e-12);
  EXPECT_EQ(m.verdict, Verdict::kSame) << m.note;
  EXPECT_NE(m.note.find("raised to the machine-wide factor's, 2.00 %"), std::string::npos)
      << m.note;
}

// The printed minimum detectable machine-wide change is a promise: a slowdown of that size is
// called SLOWER even when tonight's own factor scatters its way as far as 95 % of nights do,
// counted in a spread from 7 nights (T_7: 2.6 spreads, not a normal z's 1.645), not only on the
// half of nights the threshold alone would catch.
TEST(MachineFactor, TheMinimumDetectableChangeIsCaughtInNinetyFivePercentOfNights) {
  CompareOptions o;
  MachineFactorEvidence e;
  e.history = {0.03, -0.03, 0.015, -0.015, 0, 0.02, -0.02};
  MetricComparison m;
  judge_machine_factor(m, e, o);
  ASSERT_GT(m.spread, 0);
  const double mdc = m.min_detectable, shift = -std::log1p(-mdc);
  EXPECT_GT(mdc, m.tolerance);
  for (double scatter : {-0.999 * few_nights_quantile(7, 0.95), -1.64, 0.0,
                         1.0}) {  // tonight's factor: the change plus scatter
    e.tonight = shift + scatter * m.spread;
    MetricComparison planted;
    judge_machine_factor(planted, e, o);
    EXPECT_EQ(planted.verdict, Verdict::kSlower) << scatter << " spreads: " << planted.note;
  }
  // The threshold alone (the old figure) is missed by a night that scatters against it.
  e.tonight = -std::log1p(-m.tolerance) - 0.5 * m.spread;
  MetricComparison at_threshold;
  judge_machine_factor(at_threshold, e, o);
  EXPECT_NE(at_threshold.verdict, Verdict::kSlower) << at_threshold.note;
}

// Held to a re-measure, a change is called only when both runs call it: each must catch it in
// sqrt(95 %) of nights (T_7's 97.5 % quantile past the threshold, not its 95 %), so the promise
// grows.
TEST(MachineFactor, HeldToARemeasureTheMinimumDetectableChangeIsBothRunsCatchingIt) {
  CompareOptions o;
  MachineFactorEvidence e;
  e.history = {0.03, -0.03, 0.015, -0.015, 0, 0.02, -0.02};
  MetricComparison once, twice;
  judge_machine_factor(once, e, o);
  o.remeasured = 1;
  judge_machine_factor(twice, e, o);
  ASSERT_GT(once.spread, 0);
  const double shift = -std::log1p(-twice.min_detectable) - -std::log1p(-once.min_detectable);
  const double q1 = few_nights_quantile(7, std::sqrt(0.95)), q0 = few_nights_quantile(7, 0.95);
  EXPECT_NEAR(shift / once.spread, q1 - q0, 0.01);
  EXPECT_GT(q1 - q0, 1.955 - 1.645);  // a few nights' spread: wider than a normal z's step
  // At that figure a night that scatters that many spreads against it is still caught.
  e.tonight = -std::log1p(-twice.min_detectable) - 0.999 * q1 * twice.spread;
  MetricComparison planted;
  judge_machine_factor(planted, e, o);
  EXPECT_EQ(planted.verdict, Verdict::kSlower) << planted.note;
}

// With k re-measures all k + 1 runs must call it: each in 95 %^(1/(k+1)) of nights. Two
// re-measures (scripts/nightly's default) ask T_7's 98.3 % quantile past the threshold, one its
// 97.5 %.
TEST(MachineFactor, HeldToTwoRemeasuresTheMinimumDetectableChangeGrowsAgain) {
  CompareOptions o;
  MachineFactorEvidence e;
  e.history = {0.03, -0.03, 0.015, -0.015, 0, 0.02, -0.02};
  MetricComparison one, two;
  o.remeasured = 1;
  judge_machine_factor(one, e, o);
  o.remeasured = 2;
  judge_machine_factor(two, e, o);
  ASSERT_GT(one.spread, 0);
  EXPECT_GT(two.min_detectable, one.min_detectable);
  const double shift = -std::log1p(-two.min_detectable) - -std::log1p(-one.min_detectable);
  EXPECT_NEAR(
      shift / one.spread,
      few_nights_quantile(7, std::pow(0.95, 1.0 / 3)) - few_nights_quantile(7, std::sqrt(0.95)),
      0.01);
  // The verdict itself does not depend on how many re-measures there are.
  EXPECT_EQ(two.tolerance, one.tolerance);
}

}  // namespace
}  // namespace ridgeline
