#pragma once
// Backend-independent telemetry bookkeeping: one reading per sample (or several), decoded throttle
// reasons, the per-point summary written into the results, and the L2 flush size. Kokkos-free and
// vendor-free, so it is unit-tested in the CPU build.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace ridgeline {

// Throttle ("clocks event") reason bits as NVML defines them (nvmlClocksThrottleReason*; the same
// values as nvmlClocksEventReason* in newer NVML). Readers of other vendors map onto these.
namespace throttle {
inline constexpr std::uint64_t kGpuIdle = 0x1;
inline constexpr std::uint64_t kApplicationsClocksSetting = 0x2;
inline constexpr std::uint64_t kSwPowerCap = 0x4;
inline constexpr std::uint64_t kHwSlowdown = 0x8;
inline constexpr std::uint64_t kSyncBoost = 0x10;
inline constexpr std::uint64_t kSwThermalSlowdown = 0x20;
inline constexpr std::uint64_t kHwThermalSlowdown = 0x40;
inline constexpr std::uint64_t kHwPowerBrakeSlowdown = 0x80;
inline constexpr std::uint64_t kDisplayClockSetting = 0x100;
// Reasons that mean the clock was held below what the load asked for. Idle, application-clock
// and display settings, and sync boost, describe a configuration, not a slowdown.
inline constexpr std::uint64_t kSlowdownMask =
    kSwPowerCap | kHwSlowdown | kSwThermalSlowdown | kHwThermalSlowdown | kHwPowerBrakeSlowdown;
}  // namespace throttle

// A sample whose SM clock sat below this fraction of the reference clock counts as throttled
// even without a reason bit (NVBench discards such samples at 75 %).
inline constexpr double kThrottleClockFraction = 0.75;

struct TelemetryReading {
  static constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();
  double sm_clock_mhz = kUnknown;
  double mem_clock_mhz = kUnknown;
  double power_w = kUnknown;
  double temp_c = kUnknown;
  std::uint64_t throttle_reasons = 0;  // throttle:: bits
  // Counters that only grow (NaN when unknown): their differences between a point's first and
  // last reading say what happened in between, not only at the instants the readings were taken.
  double energy_j = kUnknown;             // energy used since the driver loaded
  double power_violation_s = kUnknown;    // time held below the requested clock by power
  double thermal_violation_s = kUnknown;  // … by temperature
  double wall_s = kUnknown;               // host steady clock at the reading
};

// A GPU vendor's management library as the device backends read it (NVML on CUDA,
// backends/cuda/nvml.hpp; ROCm SMI on HIP, backends/hip/rocm_smi.hpp): each is a small adapter
// from its library to these two calls, and DeviceTelemetry below serves the backend interface's
// telemetry from either.
class TelemetrySource {
 public:
  virtual ~TelemetrySource() = default;
  virtual double max_sm_clock_mhz() const = 0;  // the reference for the throttle test; 0: unknown
  virtual TelemetryReading read() const = 0;
};

// "sw_power_cap", "hw_slowdown", … for each set bit; unknown bits as "0x…".
std::vector<std::string> throttle_reason_names(std::uint64_t reasons);

// Throttled: a slowdown reason is set, or the SM clock is known and below 75 % of the reference.
bool is_throttled(const TelemetryReading& r, double reference_sm_clock_mhz);

// Per-point summary: medians over all readings of the point's samples, `throttled_samples` with
// one flag per sample (a sample is throttled if any of its readings is), the union of slowdown
// reasons, and from the counters between the first and last reading: mean power and the fraction
// of that time the clock was held down by power or temperature limits. `per_sample[i]` are the
// readings taken during sample i; an empty list of readings for every sample gives null (no
// telemetry on this backend or build).
nlohmann::json summarize_telemetry(const std::vector<std::vector<TelemetryReading>>& per_sample,
                                   double reference_sm_clock_mhz);

// Bytes an L2 flush reads: twice the L2 (evicts every earlier line whatever the replacement
// policy; Hopper's L2 is two partitions that may each hold a copy), rounded up to 2 MiB, and
// never more than 1/16 of device memory. 0 when the L2 size is unknown.
std::uint64_t l2_flush_bytes(std::uint64_t l2_bytes, std::uint64_t memory_bytes);

// Families timed with a cold L2: those whose roof is DRAM bandwidth (`bandwidth`, and the `fma`
// ladder whose low rungs feed the bandwidth fit). Cache sweeps want warm caches; compute and
// library points do not care.
bool wants_cold_cache(const std::string& family);

}  // namespace ridgeline
