// The backend-independent parts of measurement: telemetry decoding and flagging, the per-point
// summary, the SM clock of a kernel's stamps, L2 flush sizing, which families get a cold cache,
// the host backend's timer, and what a point records about how it was measured. They run in the
// CPU build (CI has no GPU).
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <thread>

#include "backends/device_caches.hpp"
#include "backends/measurement.hpp"
#include "backends/spaces.hpp"
#include "backends/telemetry.hpp"
#include "harness/probes/device_clock.hpp"
#include "results/point_entry.hpp"

namespace ridgeline {
namespace {

using nlohmann::json;

TelemetryReading reading(double sm, double power, std::uint64_t reasons = 0) {
  TelemetryReading r;
  r.sm_clock_mhz = sm;
  r.mem_clock_mhz = 2619;
  r.power_w = power;
  r.temp_c = 60;
  r.throttle_reasons = reasons;
  return r;
}

TEST(Telemetry, DecodesNvmlThrottleBits) {
  EXPECT_TRUE(throttle_reason_names(0).empty());
  EXPECT_EQ(throttle_reason_names(throttle::kSwPowerCap | throttle::kHwThermalSlowdown),
            (std::vector<std::string>{"sw_power_cap", "hw_thermal_slowdown"}));
  EXPECT_EQ(throttle_reason_names(throttle::kGpuIdle), (std::vector<std::string>{"gpu_idle"}));
  // Bits NVML may add later are kept, not dropped.
  EXPECT_EQ(throttle_reason_names(0x1000 | throttle::kHwSlowdown),
            (std::vector<std::string>{"hw_slowdown", "0x1000"}));
}

TEST(Telemetry, FlagsSlowdownReasonsAndLowClocksOnly) {
  EXPECT_FALSE(is_throttled(reading(1980, 500), 1980));
  EXPECT_TRUE(is_throttled(reading(1980, 700, throttle::kSwPowerCap), 1980));
  EXPECT_TRUE(is_throttled(reading(1980, 700, throttle::kHwPowerBrakeSlowdown), 1980));
  // Idle, application clocks, sync boost and display clock describe settings, not slowdowns.
  EXPECT_FALSE(is_throttled(reading(1980, 500,
                                    throttle::kGpuIdle | throttle::kApplicationsClocksSetting |
                                        throttle::kSyncBoost | throttle::kDisplayClockSetting),
                            1980));
  // Below 75 % of the reference clock counts without a reason bit; unknown reference: no test.
  EXPECT_TRUE(is_throttled(reading(1400, 500), 1980));
  EXPECT_FALSE(is_throttled(reading(1500, 500), 1980));
  EXPECT_FALSE(is_throttled(reading(1400, 500), 0));
  EXPECT_FALSE(is_throttled(reading(NAN, 500), 1980));
}

TEST(Telemetry, SummaryHasMediansAndOneFlagPerSample) {
  const std::vector<std::vector<TelemetryReading>> samples = {
      {reading(1980, 400), reading(1970, 420)},
      {reading(1755, 700, throttle::kSwPowerCap)},
      {},  // a sample without a reading is not throttled
      {reading(1980, 410)}};
  const json t = summarize_telemetry(samples, 1980);
  ASSERT_TRUE(t.is_object());
  EXPECT_DOUBLE_EQ(t["sm_clock_mhz"].get<double>(), 1975);
  EXPECT_DOUBLE_EQ(t["power_w"].get<double>(), 415);
  EXPECT_DOUBLE_EQ(t["mem_clock_mhz"].get<double>(), 2619);
  EXPECT_DOUBLE_EQ(t["temp_c"].get<double>(), 60);
  EXPECT_TRUE(t["throttled"].get<bool>());
  EXPECT_EQ(t["throttle_reasons"], json::array({"sw_power_cap"}));
  EXPECT_EQ(t["throttled_samples"], json::array({false, true, false, false}));
  EXPECT_DOUBLE_EQ(t["reference_sm_clock_mhz"].get<double>(), 1980);
}

// The stamps' clock is the one median: of an even count, the mean of the two middle clocks.
// Stamps shorter than the wall clock's resolution allows are left out; none left is 0.
TEST(DeviceClock, StampsGiveTheMedianClock) {
  const std::vector<ClockStamp> begin(5);
  const std::vector<ClockStamp> end = {{3000, 2000},    // 1500 MHz
                                       {500000, 1000},  // too short to count
                                       {7000, 2000},    // 3500 MHz
                                       {4000, 2000},    // 2000 MHz
                                       {10000, 2000}};  // 5000 MHz
  EXPECT_DOUBLE_EQ(median_clock_mhz(begin, end, 1.0), 2750);
  EXPECT_EQ(median_clock_mhz(begin, {{500000, 1000}}, 1.0), 0);
  // HIP's REALTIME counter at 100 MHz: a tick is 10 ns, so the same stamps are a tenth the clock.
  EXPECT_DOUBLE_EQ(median_clock_mhz(begin, {{3000, 200}}, 10.0), 1500);
  EXPECT_EQ(median_clock_mhz(begin, {{3000, 199}}, 10.0), 0);  // 1990 ns: under the 2 µs floor
}

// Host spaces stamp nothing, so their wall clock has no tick (a GPU build answers for its device).
TEST(DeviceClock, HostSpacesHaveNoWallClockTick) {
  EXPECT_EQ(wall_clock_tick_ns("Serial"), 0);
  EXPECT_EQ(wall_clock_tick_ns("OpenMP"), 0);
}

// NVML's power is a ~1 s average and the software power cap is decided on it: a point whose
// samples span 0.2 s gets neither its power nor a power-cap verdict; the clock test still holds.
TEST(Telemetry, PointsShorterThanTheSamplingWindowAreNotResolved) {
  const auto at = [](double wall_s, double mhz, std::uint64_t reasons) {
    TelemetryReading r = reading(mhz, 201, reasons);
    r.wall_s = wall_s;
    return r;
  };
  const json brief = summarize_telemetry(
      {{at(10.0, 1980, throttle::kSwPowerCap)}, {at(10.2, 1980, throttle::kSwPowerCap)}}, 1980);
  EXPECT_FALSE(brief["resolved"].get<bool>());
  EXPECT_TRUE(brief["power_w"].is_null());
  EXPECT_FALSE(brief["throttled"].get<bool>());
  EXPECT_EQ(brief["throttled_samples"], json::array({false, false}));
  const json slow =
      summarize_telemetry({{at(10.0, 1200, throttle::kSwPowerCap)}, {at(10.2, 1200, 0)}}, 1980);
  EXPECT_TRUE(slow["throttled"].get<bool>()) << "the clock under 75 % still counts";
  EXPECT_EQ(slow["throttle_reasons"], json::array({"sm_clock_below_75_percent"}));
  const json whole = summarize_telemetry(
      {{at(10.0, 1980, throttle::kSwPowerCap)}, {at(11.5, 1980, throttle::kSwPowerCap)}}, 1980);
  EXPECT_TRUE(whole["resolved"].get<bool>());
  EXPECT_DOUBLE_EQ(whole["power_w"].get<double>(), 201);
  EXPECT_TRUE(whole["throttled"].get<bool>());
}

TEST(Telemetry, ClockOnlyThrottlingIsNamed) {
  const json t = summarize_telemetry({{reading(900, 300)}}, 1980);
  EXPECT_TRUE(t["throttled"].get<bool>());
  EXPECT_EQ(t["throttle_reasons"], json::array({"sm_clock_below_75_percent"}));
}

TEST(Telemetry, NoReadingsGiveNullAndUnknownValuesGiveNullFields) {
  EXPECT_TRUE(summarize_telemetry({}, 1980).is_null());
  EXPECT_TRUE(summarize_telemetry({{}, {}}, 1980).is_null());
  TelemetryReading only_clock;
  only_clock.sm_clock_mhz = 2520;
  const json t = summarize_telemetry({{only_clock}}, 0);
  EXPECT_DOUBLE_EQ(t["sm_clock_mhz"].get<double>(), 2520);
  EXPECT_TRUE(t["power_w"].is_null());
  EXPECT_TRUE(t["reference_sm_clock_mhz"].is_null());
  EXPECT_FALSE(t["throttled"].get<bool>());
  // The summary must be valid JSON: no NaN anywhere.
  EXPECT_EQ(t.dump().find("NaN"), std::string::npos);
}

TelemetryReading counters(double wall_s, double energy_j, double power_violation_s) {
  TelemetryReading r = reading(1785, 650);
  r.wall_s = wall_s;
  r.energy_j = energy_j;
  r.power_violation_s = power_violation_s;
  r.thermal_violation_s = 0;
  return r;
}

TEST(Telemetry, CountersGiveMeanPowerAndLimitedTimeOverAtLeastOneSecond) {
  // 2 s, 1300 J, 0.5 s power-capped: 650 W, a quarter of the time; the clock at 1785 of 1980.
  const json t = summarize_telemetry({{counters(10, 5000, 3)}, {counters(12, 6300, 3.5)}}, 1980);
  EXPECT_DOUBLE_EQ(t["span_s"].get<double>(), 2);
  EXPECT_DOUBLE_EQ(t["mean_power_w"].get<double>(), 650);
  EXPECT_DOUBLE_EQ(t["power_limited_fraction"].get<double>(), 0.25);
  EXPECT_DOUBLE_EQ(t["thermal_limited_fraction"].get<double>(), 0);
  EXPECT_NEAR(t["sm_clock_fraction"].get<double>(), 1785.0 / 1980, 1e-12);
  // NVML's counters step coarsely: over a short span their differences mean nothing (an H200
  // run read 789 W on a 700 W card and 128 % of the time capped), so they are left out.
  const json s = summarize_telemetry({{counters(10, 5000, 3)}, {counters(10.2, 5158, 3.25)}}, 1980);
  EXPECT_TRUE(s["mean_power_w"].is_null());
  EXPECT_TRUE(s["power_limited_fraction"].is_null());
  // A counter that did not move is unknown, not zero watts.
  EXPECT_TRUE(
      summarize_telemetry({{counters(10, 5000, 3)}, {counters(12, 5000, 3)}}, 1980)["mean_power_w"]
          .is_null());
}

// The L1 the cache sweep's names rest on, from the vendors' guides (the runtimes do not say).
TEST(DeviceCaches, OneSmsOrCusL1ByArchitecture) {
  constexpr std::uint64_t KiB = 1024;
  EXPECT_EQ(cuda_l1_bytes_per_sm(9, 0), 256 * KiB);  // H100, H200
  EXPECT_EQ(cuda_l1_bytes_per_sm(8, 9), 128 * KiB);  // RTX 4090
  EXPECT_EQ(cuda_l1_bytes_per_sm(8, 0), 192 * KiB);  // A100
  EXPECT_EQ(cuda_l1_bytes_per_sm(6, 1), 0u);         // not in the table: not guessed
  EXPECT_EQ(hip_l1_bytes_per_cu("gfx90a:sramecc+:xnack-"), 16 * KiB);  // MI250X
  EXPECT_EQ(hip_l1_bytes_per_cu("gfx942"), 32 * KiB);                  // MI300X
  EXPECT_EQ(hip_l1_bytes_per_cu("gfx1100"), 0u);
}

TEST(FlushSizing, TwiceTheL2RoundedUpAndCapped) {
  constexpr std::uint64_t MiB = 1 << 20;
  EXPECT_EQ(l2_flush_bytes(0, 80ull << 30), 0u);                 // unknown L2: no flush
  EXPECT_EQ(l2_flush_bytes(72 * MiB, 24ull << 30), 144 * MiB);   // RTX 4090
  EXPECT_EQ(l2_flush_bytes(50 * MiB, 80ull << 30), 100 * MiB);   // H100 SXM
  EXPECT_EQ(l2_flush_bytes(60 * MiB, 141ull << 30), 120 * MiB);  // H200
  EXPECT_EQ(l2_flush_bytes(MiB + 1, 0), 4 * MiB);                // rounded up to 2 MiB
  EXPECT_EQ(l2_flush_bytes(256 * MiB, 1024 * MiB), 64 * MiB);    // at most 1/16 of memory
}

TEST(FlushSizing, OnlyDramFamiliesAreTimedCold) {
  EXPECT_TRUE(wants_cold_cache("bandwidth"));
  EXPECT_TRUE(wants_cold_cache("fma"));
  EXPECT_FALSE(wants_cold_cache("cache"));
  EXPECT_FALSE(wants_cold_cache("peak"));
  EXPECT_FALSE(wants_cold_cache("library"));
}

TEST(HostBackend, TimesBetweenFencesWithoutFlushOrTelemetry) {
  for (const char* space : {"OpenMP", "Serial"}) {
    auto b = open_measurement_backend(space);
    EXPECT_STREQ(b->timer_name(), "steady_clock");
    EXPECT_EQ(b->flush_bytes(), 0u);
    b->flush_cache();  // a no-op, and harmless
    EXPECT_FALSE(b->read_telemetry().has_value());
    b->timer().start();
    bool waited = false;
    const double s = b->timer().stop([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      waited = true;
    });
    EXPECT_TRUE(waited);
    EXPECT_GE(s, 0.019);  // the wait (the probe's fence) is inside a host sample
    EXPECT_LT(s, 5.0);
  }
}

TEST(PointJson, RecordsHowThePointWasMeasured) {
  PointEntry e;
  e.info.name = "triad/Cuda/fp64/n:1";
  e.info.family = "bandwidth";
  e.info.flops = 2;
  e.info.bytes = 24;
  e.samples = {0.5};
  PointMeasurement m;
  m.timer = "cuda_event";
  m.l2_flush_bytes = 104857600;
  m.telemetry = summarize_telemetry({{reading(1980, 500)}}, 1980);
  e.measurement = m;
  const json p = to_json(e);
  EXPECT_EQ(p["timer"], "cuda_event");
  EXPECT_EQ(p["l2_flush_bytes"], 104857600);
  EXPECT_EQ(p["telemetry"]["throttled_samples"], json::array({false}));
  // Skipped points and callers without a backend record nothing.
  PointEntry skipped = e;
  skipped.samples.clear();
  skipped.skipped_reason = "not implemented";
  const json s = to_json(skipped);
  EXPECT_TRUE(s["timer"].is_null());
  EXPECT_EQ(s["l2_flush_bytes"], 0);
  EXPECT_TRUE(s["telemetry"].is_null());
  e.measurement.reset();
  EXPECT_TRUE(to_json(e)["telemetry"].is_null());
}

}  // namespace
}  // namespace ridgeline
