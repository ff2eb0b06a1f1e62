#pragma once
// One point's entry of the results file, typed: what the harness writes after each visit of a
// point and what a reader gets back. to_json owns every key of an entry (results/schema.md,
// "points") and the figures derived from the samples; point_entry_from_json is its inverse.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "results/point_info.hpp"

namespace ridgeline {

// How a measured point was timed, from its space's backend (backends/measurement.hpp). The
// telemetry and CPU-wait summaries keep their backends' schema, as JSON.
struct PointMeasurement {
  std::string timer;  // "steady_clock", "cuda_event", …
  // Absent from files of older builds, so optional when read back.
  std::optional<bool> stream_hold;
  std::optional<std::uint64_t> hold_timeouts;
  std::uint64_t l2_flush_bytes = 0;  // 0: no flush
  std::optional<std::string> l2_flush;
  nlohmann::json telemetry;            // null: none
  std::string telemetry_unavailable;   // why there is none; written only while telemetry is null
  nlohmann::json cpu_wait;             // null: none
  std::string cpu_wait_unavailable;    // likewise, for cpu_wait
  nlohmann::json host_clock;           // null: none (device spaces, no reading)
  std::string host_clock_unavailable;  // why a host space has none
};

// Where an MPI job's rank measured the point (harness/mpi/placement.hpp, point_placement).
struct PointRank {
  int rank = 0;
  nlohmann::json placement;
  double wall_s = 0;  // from the point's barrier (or turn) to its last repetition
};

struct PointEntry {
  PointInfo info;
  std::vector<double> samples;     // seconds per call; a non-finite one is written as null
  std::vector<int> sample_rounds;  // the round of each sample
  Verification verification;       // a measured point's; not written for others
  std::string skipped_reason;      // empty for a measured point
  std::optional<PointMeasurement> measurement;  // written for measured points only
  std::optional<nlohmann::json> observed;       // absent for points skipped before the sweep
  std::optional<PointRank> mpi;                 // an MPI job's entries only

  // An entry without samples is written as skipped ("no samples").
  bool measured() const { return skipped_reason.empty() && !samples.empty(); }
};

// What an entry derives from its counts and samples: nullopt where to_json writes null (a
// non-finite figure, a zero count, a point not measured).
struct PointFigures {
  std::optional<double> intensity;  // flops / bytes
  std::optional<double> median_s, min_s, max_s, flops_per_s, bytes_per_s;
};
PointFigures point_figures(const PointEntry& e);

nlohmann::json to_json(const PointEntry& e);

// The entry to_json wrote: reads each field by its type and checks nothing (read_point_entry in
// point_entry_reader.hpp checks a file's entry first). A null sample comes back as NaN.
PointEntry point_entry_from_json(const nlohmann::json& j);

}  // namespace ridgeline
