// The typed point entry both ways: what to_json writes, the decoder gives back field for field
// and the checked reader gives the reporter's point of (a measured, a skipped and an MPI entry),
// and the reader's errors.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/input_error.hpp"
#include "results/point_entry.hpp"
#include "results/point_entry_reader.hpp"

namespace ridgeline {
namespace {

using nlohmann::json;

PointEntry entry_measured_for_round_trip() {
  PointEntry e;
  e.info.name = "triad/Cuda/fp64/n:1024";
  e.info.probe = "triad";
  e.info.family = "bandwidth";
  e.info.space = "Cuda";
  e.info.dtype = "fp64";
  e.info.working_set_bytes = 24576;
  e.info.elements = 1024;
  e.info.flops = 2048;
  e.info.bytes = 24576;
  e.info.params = {{"passes", 1}, {"layout", "grid_stride"}};
  e.samples = {2e-6, 1e-6, 3e-6};
  e.sample_rounds = {0, 1, 1};
  e.verification = {false, "x[3] is 2, expected 3"};
  PointMeasurement m;
  m.timer = "cuda_event";
  m.stream_hold = true;
  m.hold_timeouts = 2;
  m.l2_flush_bytes = 104857600;
  m.l2_flush = "read";
  m.telemetry = {
      {"sm_clock_mhz", 1980}, {"throttled", false}, {"throttled_samples", {false, false, false}}};
  m.cpu_wait_unavailable = "no schedstat";
  e.measurement = m;
  e.observed = json{{"sm_clock_mhz", 1975.5}};
  return e;
}

PointEntry entry_skipped_for_round_trip() {
  PointEntry e;
  e.info.name = "gemm/OpenMP/fp16/n:48";
  e.info.probe = "gemm";
  e.info.family = "library";
  e.info.space = "OpenMP";
  e.info.dtype = "fp16";
  e.info.flops = 221184;
  e.skipped_reason = "fp16 has no host arithmetic";
  return e;
}

// Every field of two entries, each with its name in a failure.
void expect_same_entry(const PointEntry& a, const PointEntry& b) {
  EXPECT_EQ(a.info.name, b.info.name);
  EXPECT_EQ(a.info.probe, b.info.probe);
  EXPECT_EQ(a.info.family, b.info.family);
  EXPECT_EQ(a.info.space, b.info.space);
  EXPECT_EQ(a.info.dtype, b.info.dtype);
  EXPECT_EQ(a.info.working_set_bytes, b.info.working_set_bytes);
  EXPECT_EQ(a.info.elements, b.info.elements);
  EXPECT_EQ(a.info.flops, b.info.flops);
  EXPECT_EQ(a.info.bytes, b.info.bytes);
  EXPECT_EQ(a.info.params, b.info.params);
  EXPECT_EQ(a.samples, b.samples);
  EXPECT_EQ(a.sample_rounds, b.sample_rounds);
  EXPECT_EQ(a.verification.ok, b.verification.ok);
  EXPECT_EQ(a.verification.error, b.verification.error);
  EXPECT_EQ(a.skipped_reason, b.skipped_reason);
  ASSERT_EQ(a.measurement.has_value(), b.measurement.has_value());
  if (a.measurement) {
    const PointMeasurement &x = *a.measurement, &y = *b.measurement;
    EXPECT_EQ(x.timer, y.timer);
    EXPECT_EQ(x.stream_hold, y.stream_hold);
    EXPECT_EQ(x.hold_timeouts, y.hold_timeouts);
    EXPECT_EQ(x.l2_flush_bytes, y.l2_flush_bytes);
    EXPECT_EQ(x.l2_flush, y.l2_flush);
    EXPECT_EQ(x.telemetry, y.telemetry);
    EXPECT_EQ(x.telemetry_unavailable, y.telemetry_unavailable);
    EXPECT_EQ(x.cpu_wait, y.cpu_wait);
    EXPECT_EQ(x.cpu_wait_unavailable, y.cpu_wait_unavailable);
  }
  EXPECT_EQ(a.observed, b.observed);
  ASSERT_EQ(a.mpi.has_value(), b.mpi.has_value());
  if (a.mpi) {
    EXPECT_EQ(a.mpi->rank, b.mpi->rank);
    EXPECT_EQ(a.mpi->placement, b.mpi->placement);
    EXPECT_EQ(a.mpi->wall_s, b.mpi->wall_s);
  }
}

// The reporter's point has the entry's identity, counts, samples and check, field for field (a
// point not measured keeps no samples or check).
void expect_point_of_entry(const Point& p, const PointEntry& e) {
  EXPECT_EQ(p.name, e.info.name);
  EXPECT_EQ(p.probe, e.info.probe);
  EXPECT_EQ(p.family, e.info.family);
  EXPECT_EQ(p.space, e.info.space);
  EXPECT_EQ(p.dtype, e.info.dtype);
  EXPECT_EQ(p.working_set_bytes, double(e.info.working_set_bytes));
  EXPECT_EQ(p.elements, double(e.info.elements));
  EXPECT_EQ(p.flops, e.info.flops);
  EXPECT_EQ(p.bytes, e.info.bytes);
  EXPECT_EQ(p.params, e.info.params);
  EXPECT_EQ(p.skipped_reason, e.skipped_reason);
  if (p.measured()) {
    EXPECT_EQ(p.samples, e.samples);
    EXPECT_EQ(p.sample_rounds, e.sample_rounds);
    EXPECT_EQ(p.verified, e.verification.ok);
    EXPECT_EQ(p.verify_error, e.verification.error);
  } else {
    EXPECT_TRUE(p.samples.empty());
    EXPECT_FALSE(p.verified);
  }
  EXPECT_EQ(p.rank, e.mpi ? e.mpi->rank : -1);
}

// As a results file carries it: written as text and parsed again.
json entry_through_text(const PointEntry& e) { return json::parse(to_json(e).dump()); }

TEST(PointEntry, MeasuredEntryComesBackFieldForField) {
  const PointEntry e = entry_measured_for_round_trip();
  const json j = entry_through_text(e);
  EXPECT_EQ(j["median_s"], 2e-6);
  EXPECT_EQ(j["min_s"], 1e-6);
  EXPECT_EQ(j["max_s"], 3e-6);
  EXPECT_EQ(j["bytes_per_s"], 24576 / 2e-6);
  EXPECT_EQ(j["intensity"], 2048.0 / 24576);
  EXPECT_FALSE(j["verified"]);
  EXPECT_EQ(j["verify_error"], "x[3] is 2, expected 3");
  EXPECT_TRUE(j["skipped_reason"].is_null());
  EXPECT_EQ(j["cpu_wait_unavailable"], "no schedstat");
  EXPECT_FALSE(j.contains("telemetry_unavailable"));  // there is telemetry
  EXPECT_FALSE(j.contains("rank"));
  expect_same_entry(point_entry_from_json(j), e);
  const Point read = read_point_entry("run.json", j, 0);
  expect_point_of_entry(read, e);
  EXPECT_EQ(read.median_s, 2e-6);
  EXPECT_EQ(read.working_set_bytes, 24576);
  ASSERT_TRUE(read.telemetry.has_value());
  EXPECT_EQ(read.telemetry->sm_clock_mhz, 1980);
  EXPECT_EQ(read.telemetry->throttled_samples.size(), 3u);
  EXPECT_FALSE(read.cpu_wait_share.has_value());
}

TEST(PointEntry, SkippedEntryComesBackWithoutTimings) {
  const PointEntry e = entry_skipped_for_round_trip();
  const json j = entry_through_text(e);
  EXPECT_EQ(j["skipped_reason"], "fp16 has no host arithmetic");
  EXPECT_EQ(j["samples"], json::array());
  EXPECT_EQ(j["sample_rounds"], json::array());
  for (const char* key : {"median_s", "min_s", "max_s", "flops_per_s", "bytes_per_s", "timer",
                          "telemetry", "cpu_wait", "verify_error", "intensity"})
    EXPECT_TRUE(j[key].is_null()) << key;
  EXPECT_FALSE(j["verified"]);
  EXPECT_EQ(j["l2_flush_bytes"], 0);
  EXPECT_FALSE(j.contains("observed"));  // skipped before the sweep: never visited
  EXPECT_FALSE(j.contains("stream_hold"));
  expect_same_entry(point_entry_from_json(j), e);
  expect_point_of_entry(read_point_entry("run.json", j, 0), e);
  // A measurement of a point that was not measured is not written.
  PointEntry failed = entry_measured_for_round_trip();
  failed.samples.clear();
  failed.sample_rounds.clear();
  failed.skipped_reason = "setup failed: out of memory";
  const json f = to_json(failed);
  EXPECT_TRUE(f["timer"].is_null());
  EXPECT_FALSE(f.contains("l2_flush"));
  EXPECT_FALSE(point_entry_from_json(f).measurement.has_value());
}

TEST(PointEntry, MpiEntryComesBackWithItsRankAndPlacement) {
  PointEntry e = entry_measured_for_round_trip();
  e.verification = {};
  e.mpi = PointRank{2,
                    {{"rank", 2},
                     {"host", "node7"},
                     {"device", "NVIDIA H100"},
                     {"pci_bus_id", "0000:9b:00.0"},
                     {"key", "GPU-1234"}},
                    0.84};
  const json j = entry_through_text(e);
  EXPECT_EQ(j["rank"], 2);
  EXPECT_EQ(j["mpi_wall_s"], 0.84);
  EXPECT_TRUE(j["verified"]);
  EXPECT_TRUE(j["verify_error"].is_null());
  expect_same_entry(point_entry_from_json(j), e);
  const Point read = read_point_entry("run.json", j, 4);
  expect_point_of_entry(read, e);
  EXPECT_EQ(read.host, "node7");
  EXPECT_EQ(read.device_key, "GPU-1234");
  EXPECT_EQ(read.where, "GPU 0000:9b:00.0");
}

TEST(PointEntry, NonFiniteSampleIsWrittenAsNull) {
  PointEntry e = entry_measured_for_round_trip();
  e.samples = {1e-6, std::numeric_limits<double>::infinity(), 3e-6};
  const json j = entry_through_text(e);
  EXPECT_EQ(j["samples"], json::parse("[1e-6, null, 3e-6]"));
  EXPECT_TRUE(j["max_s"].is_null());  // infinity
  EXPECT_EQ(j["min_s"], 1e-6);
  const PointEntry back = point_entry_from_json(j);
  ASSERT_EQ(back.samples.size(), 3u);
  EXPECT_TRUE(std::isnan(back.samples[1]));
}

TEST(PointEntry, ReaderNamesTheFieldThatIsWrong) {
  PointEntry e = entry_measured_for_round_trip();
  e.samples = {1e-6, std::nan(""), 3e-6};
  try {
    read_point_entry("run.json", to_json(e), 3);
    FAIL() << "a null sample was read";
  } catch (const InputError& err) {
    EXPECT_STREQ(err.what(), "run.json: points[3].samples[1]: must be a number");
  }
}

// The MPI job decodes unchecked: a field of another type is left empty, a number out of range
// is never converted into one.
TEST(PointEntry, DecoderTakesOnlyWhatHasItsType) {
  const json j = json::parse(R"({"name": 7, "working_set_bytes": -5, "flops": "many",
      "samples": [1e-6, "x", null], "sample_rounds": [18446744073709551615, -1, 2.5, 3],
      "skipped_reason": null, "verified": "yes", "timer": "steady_clock",
      "l2_flush_bytes": -1, "rank": 1e300, "mpi_wall_s": "slow"})");
  const PointEntry e = point_entry_from_json(j);
  EXPECT_EQ(e.info.name, "");
  EXPECT_EQ(e.info.working_set_bytes, 0u);
  EXPECT_EQ(e.info.flops, 0);
  ASSERT_EQ(e.samples.size(), 3u);
  EXPECT_TRUE(std::isnan(e.samples[1]) && std::isnan(e.samples[2]));
  EXPECT_EQ(e.sample_rounds, (std::vector<int>{-1, 3}));
  EXPECT_FALSE(e.verification.ok);
  ASSERT_TRUE(e.measurement.has_value());
  EXPECT_EQ(e.measurement->l2_flush_bytes, 0u);
  ASSERT_TRUE(e.mpi.has_value());
  EXPECT_EQ(e.mpi->rank, 1000000000);
  EXPECT_EQ(e.mpi->wall_s, 0);
  EXPECT_EQ(point_entry_from_json(json::array()).info.name, "");
}

}  // namespace
}  // namespace ridgeline
