#pragma once
// A results file's point entry read for the reporter: every field it uses checked once here
// (InputError naming the field: "points[3].samples[0]: must be a number"), then the entry
// decoded (point_entry_from_json) into the reporter's Point with what it takes besides it.
#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "results/point_entry.hpp"
#include "results/probe_catalog.hpp"

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

// The reporter's point: a results file's entry as the fit, report and compare code use it —
// the entry's identity and counts (point_entry_from_json decodes them), the numbers as the file
// states them where the entry keeps another type (working_set_bytes: an integer) or derives them
// (median_s, from the samples), the rates from the counts and that median, and the backends'
// blobs typed.
struct Point {
  std::string name, probe, family, space, dtype;
  double working_set_bytes = 0;
  double elements = 0;  // as recorded (0 when absent): what a point's host-side check walks
  double flops = 0;     // per kernel call
  double bytes = 0;     // per kernel call
  std::optional<double> intensity;
  std::vector<double> samples;  // seconds per call, one per repetition
  // The round of each sample (schema 1.2); empty when the file records none (one round).
  std::vector<int> sample_rounds;
  double median_s = 0;
  std::optional<double> flops_per_s, bytes_per_s;
  bool verified = false;
  std::string verify_error;
  std::string skipped_reason;
  nlohmann::json params = nlohmann::json::object();  // as recorded; read with param()
  std::optional<PointTelemetry> telemetry;           // GPU points with NVML only
  // observed.sm_clock_mhz: the clock the kernel itself counted (GPU peak and ladder kernels'
  // clock stamps); nullopt where it counted none.
  std::optional<double> kernel_clock_mhz;
  // How long the process's threads waited for a CPU during the samples (schema 1.3, Linux):
  // the median share over the samples and how many samples waited 5 % or more; nullopt when
  // not recorded.
  std::optional<double> cpu_wait_share;
  int busy_samples = 0;
  int cpu_wait_threads = 0;  // the most threads that ran during one sample
  // host_clock.median_mhz (schema 1.5): the host cores' clock after the samples; nullopt on
  // device spaces and where not recorded.
  std::optional<double> host_clock_mhz;
  // Where an MPI job's point ran (schema 1.2): the rank, its host, the device (GPU name or CPU
  // model), where on the host ("GPU 0000:9b:00.0", "CPUs 0-1"), and the key that identifies the
  // device across runs (UUID, else host and CPU set). rank -1 and empty strings otherwise.
  int rank = -1;
  std::string host, device, where, device_key;

  // A string parameter ("form", "blas", …), empty when absent or not a string.
  std::string param(const std::string& key) const;
  bool measured() const { return skipped_reason.empty(); }
  // Library points are ceilings; unverified or skipped points are never fitted.
  bool fittable() const { return measured() && verified && !library_ceiling(family); }
};

// `j` is points[index] of `file` (named in errors).
Point read_point_entry(const std::string& file, const nlohmann::json& j, std::size_t index);

}  // namespace ridgeline
