#include "backends/telemetry.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include "core/stats.hpp"

namespace ridgeline {

using nlohmann::json;

std::vector<std::string> throttle_reason_names(std::uint64_t reasons) {
  static constexpr struct {
    std::uint64_t bit;
    const char* name;
  } kNames[] = {{throttle::kGpuIdle, "gpu_idle"},
                {throttle::kApplicationsClocksSetting, "applications_clocks_setting"},
                {throttle::kSwPowerCap, "sw_power_cap"},
                {throttle::kHwSlowdown, "hw_slowdown"},
                {throttle::kSyncBoost, "sync_boost"},
                {throttle::kSwThermalSlowdown, "sw_thermal_slowdown"},
                {throttle::kHwThermalSlowdown, "hw_thermal_slowdown"},
                {throttle::kHwPowerBrakeSlowdown, "hw_power_brake_slowdown"},
                {throttle::kDisplayClockSetting, "display_clock_setting"}};
  std::vector<std::string> out;
  std::uint64_t known = 0;
  for (const auto& n : kNames) {
    known |= n.bit;
    if (reasons & n.bit) out.emplace_back(n.name);
  }
  if (const std::uint64_t rest = reasons & ~known) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(rest));
    out.emplace_back(buf);
  }
  return out;
}

bool is_throttled(const TelemetryReading& r, double reference_sm_clock_mhz) {
  if (r.throttle_reasons & throttle::kSlowdownMask) return true;
  return reference_sm_clock_mhz > 0 && std::isfinite(r.sm_clock_mhz) &&
         r.sm_clock_mhz < kThrottleClockFraction * reference_sm_clock_mhz;
}

namespace {

// A reading the device did not give is NaN (TelemetryReading::kUnknown): left out before the
// median, and none left is null.
json median_or_null(std::vector<double> v) {
  v.erase(std::remove_if(v.begin(), v.end(), [](double x) { return !std::isfinite(x); }), v.end());
  if (v.empty()) return nullptr;
  return median(std::move(v));
}

json clock_fraction(const json& median_mhz, double reference_mhz) {
  if (!median_mhz.is_number() || !(reference_mhz > 0)) return nullptr;
  return median_mhz.get<double>() / reference_mhz;
}

}  // namespace

json summarize_telemetry(const std::vector<std::vector<TelemetryReading>>& per_sample,
                         double reference_sm_clock_mhz) {
  // The first and the last reading of the reported samples: the span they cover.
  const TelemetryReading* first = nullptr;
  const TelemetryReading* last = nullptr;
  for (const auto& readings : per_sample)
    for (const auto& r : readings) {
      if (!first) first = &r;
      last = &r;
    }
  if (!first) return nullptr;
  const double span = last->wall_s - first->wall_s;
  // NVML's energy and violation counters advance in coarse steps: over less than a second their
  // differences said 789 W (on a 700 W card) and 128 % of the time power-capped on an H200. Its
  // power reading is itself a ~1 s average on Ampere and later, and the software power cap is
  // decided on it: a point whose samples span less (a 785 TF bf16 GEMM "drew" 201 W) gets neither
  // its power nor a power-cap throttle verdict. A span the readings do not tell is taken whole.
  constexpr double kMinCounterSpan = 1.0;
  const bool resolved = !(span < kMinCounterSpan);
  const std::uint64_t judged =
      resolved ? throttle::kSlowdownMask : throttle::kSlowdownMask & ~throttle::kSwPowerCap;
  std::vector<double> sm, mem, power, temp;
  json flags = json::array();
  std::uint64_t reasons = 0;
  bool any_throttled = false;
  for (const auto& readings : per_sample) {
    bool throttled = false;
    for (const auto& r : readings) {
      sm.push_back(r.sm_clock_mhz);
      mem.push_back(r.mem_clock_mhz);
      if (resolved) power.push_back(r.power_w);
      temp.push_back(r.temp_c);
      TelemetryReading seen = r;
      seen.throttle_reasons &= judged;
      if (is_throttled(seen, reference_sm_clock_mhz)) {
        throttled = true;
        reasons |= seen.throttle_reasons;
      }
    }
    flags.push_back(throttled);
    any_throttled = any_throttled || throttled;
  }
  const auto per_span = [&](double a, double b) -> json {
    if (!(span >= kMinCounterSpan) || !std::isfinite(a) || !std::isfinite(b) || b < a)
      return nullptr;
    return std::min((b - a) / span, 1.0);
  };
  const json mean_power =
      span >= kMinCounterSpan && last->energy_j > first->energy_j && std::isfinite(first->energy_j)
          ? json((last->energy_j - first->energy_j) / span)
          : json(nullptr);
  json names = json::array();
  for (auto& n : throttle_reason_names(reasons)) names.push_back(n);
  if (any_throttled && reasons == 0) names.push_back("sm_clock_below_75_percent");
  return {{"sm_clock_mhz", median_or_null(sm)},
          {"mem_clock_mhz", median_or_null(mem)},
          {"power_w", median_or_null(power)},
          {"temp_c", median_or_null(temp)},
          {"reference_sm_clock_mhz",
           reference_sm_clock_mhz > 0 ? json(reference_sm_clock_mhz) : json(nullptr)},
          // Below 1 the clock was held under the reference for part of the point (a 1785 MHz
          // median during an H200 tf32 gemm passed the 75 % throttle test).
          {"sm_clock_fraction", clock_fraction(median_or_null(sm), reference_sm_clock_mhz)},
          {"throttled", any_throttled},
          {"throttle_reasons", names},
          {"throttled_samples", flags},
          {"span_s", span > 0 ? json(span) : json(nullptr)},
          // false: the samples spanned less than NVML's ~1 s averaging window; power and the
          // software power cap are not this point's (null power, no verdict drawn from them).
          {"resolved", resolved},
          {"mean_power_w", mean_power},
          {"power_limited_fraction", per_span(first->power_violation_s, last->power_violation_s)},
          {"thermal_limited_fraction",
           per_span(first->thermal_violation_s, last->thermal_violation_s)}};
}

std::uint64_t l2_flush_bytes(std::uint64_t l2_bytes, std::uint64_t memory_bytes) {
  if (l2_bytes == 0) return 0;
  constexpr std::uint64_t kGranule = 2u << 20;
  std::uint64_t bytes = (2 * l2_bytes + kGranule - 1) / kGranule * kGranule;
  if (memory_bytes) bytes = std::min(bytes, memory_bytes / 16);
  return bytes;
}

bool wants_cold_cache(const std::string& family) {
  return family == "bandwidth" || family == "fma";
}

}  // namespace ridgeline
