#pragma once
// A results file's point entry read for the reporter: every field it uses checked once here
// (InputError naming the field: "points[3].samples[0]: must be a number"), then the entry
// decoded (point_entry_from_json) with what the reporter takes besides it.
#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "results/point_entry.hpp"

namespace ridgeline {

// A GPU point's telemetry over its samples (schema.md, "Telemetry"): what the compare gate needs
// to tell a slower clock from a slower kernel.
struct PointTelemetry {
  double sm_clock_mhz = 0;            // median SM clock during the samples; 0 when unknown
  double reference_sm_clock_mhz = 0;  // NVML's max SM clock; 0 when unknown
  bool throttled = false;             // any sample throttled
  std::vector<std::string> throttle_reasons;
  std::vector<bool> throttled_samples;  // one flag per sample
  int throttled_count() const;
};

// What a reader takes of an entry besides the PointEntry: the numbers as the file states them
// where the entry keeps another type (working_set_bytes: an integer) or derives them (median_s,
// from the samples), the rates from the counts and that median, and the backends' blobs typed.
struct PointEntryRead {
  PointEntry entry;
  double working_set_bytes = 0;
  // A measured point's; the rest stays empty for others.
  double median_s = 0;
  std::optional<double> intensity, flops_per_s, bytes_per_s;
  std::optional<PointTelemetry> telemetry;  // GPU points with NVML only
  std::optional<double> kernel_clock_mhz;   // observed.sm_clock_mhz, where the kernel counted it
  std::optional<double> cpu_wait_share;     // nullopt when not recorded
  int busy_samples = 0;
  int cpu_wait_threads = 0;
  // An MPI job's point (entry.mpi): where it ran, from its placement.
  std::string host, device, where, device_key;
};

// `j` is points[index] of `file` (named in errors).
PointEntryRead read_point_entry(const std::string& file, const nlohmann::json& j,
                                std::size_t index);

}  // namespace ridgeline
