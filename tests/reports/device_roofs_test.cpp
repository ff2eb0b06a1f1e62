// Memory roofs are the device's, not a dtype's: on a constructed GPU file where fp16 runs only
// in-place ladder rungs (1:1) and fp64 runs a triad (2:1), every dtype gets the same B, B_read
// and B_write, each named by the point (and dtype) that set it; ridges are each dtype's P over that
// B; a point is held against the device's roof; the pyramid's device memory is read as B_read.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/units.hpp"
#include "reports/fit/above_roof.hpp"
#include "reports/fit/analysis.hpp"
#include "reports/render/pyramid_table.hpp"
#include "reports/render/roof_tables.hpp"
#include "reports/render/summary_tables.hpp"
#include "tests/reports/gpu_test_context.hpp"

namespace ridgeline {
namespace {

using nlohmann::json;

using test::gpu_context, test::kL2, test::kWs, test::kN;

// A verified Cuda point of `dtype` moving `bytes` (and doing `flops`) at `rate` byte/s; its
// samples spread by ±`spread` around the median.
json point(const std::string& name, const std::string& probe, const std::string& family,
           const std::string& dtype, double flops, double bytes, double rate,
           json params = json::object(), double ws = kWs, double spread = 0.01) {
  const double seconds = bytes / rate;
  return {{"name", probe + "/Cuda/" + dtype + "/" + name},
          {"probe", probe},
          {"family", family},
          {"space", "Cuda"},
          {"dtype", dtype},
          {"working_set_bytes", ws},
          {"flops", flops},
          {"bytes", bytes},
          {"params", params},
          {"samples", {seconds * (1 - spread), seconds, seconds * (1 + spread)}},
          {"median_s", seconds},
          {"verified", true}};
}

json peak(const std::string& dtype, double flops_per_s) {
  return point("k:2048", "peak", "peak", dtype, 1e12, 16, 16 * flops_per_s / 1e12, {}, 1e3);
}

// In-place ladder rungs (1:1, 16 bytes per element counted) at `rate` byte/s.
json rung(const std::string& dtype, int k, double rate, double ws = kWs) {
  return point("k:" + std::to_string(k), "fma", "fma", dtype, 2 * k * kN, 16 * kN, rate,
               {{"k", k}, {"form", "in_place"}}, ws);
}

constexpr double kTriad = 4.2e12, kDot = 4.4e12, kFill = 4.3e12;

// fp64: triad (2:1) 4.2 TB/s, copy (1:1) 4.0, dot 4.4, fill 4.3. fp16: only ladder rungs (1:1)
// at 4.03 TB/s. fp32: copy at 3.9 TB/s and a library deep_copy at 4.12, between fp32's own B and
// the device's.
json device_points() {
  json pts = json::array();
  pts.push_back(point("n:1", "triad", "bandwidth", "fp64", 2 * kN, 24 * kN, kTriad));
  pts.push_back(point("n:1", "copy", "bandwidth", "fp64", 0, 16 * kN, 4.0e12));
  pts.push_back(point("n:1", "dot", "bandwidth", "fp64", 2 * kN, 16 * kN, kDot));
  pts.push_back(point("n:1", "fill", "bandwidth", "fp64", 0, 8 * kN, kFill));
  pts.push_back(peak("fp64", 33e12));
  pts.push_back(rung("fp16", 1, 4.03e12));
  pts.push_back(rung("fp16", 2, 4.02e12));
  pts.push_back(peak("fp16", 128e12));
  pts.push_back(point("n:1", "copy", "bandwidth", "fp32", 0, 8 * kN, 3.9e12));
  pts.push_back(rung("fp32", 1, 3.88e12));
  pts.push_back(peak("fp32", 64e12));
  pts.push_back(point("n:1", "deep_copy", "library", "fp32", 0, 8 * kN, 4.12e12, {}, kWs, 0.001));
  return pts;
}

Results results(const json& points) {
  const json doc = {{"schema_version", "1.1.0"}, {"context", gpu_context()}, {"points", points}};
  return parse_results(doc.dump(), "test.json");
}

const GroupFit& fit_of(const FileAnalysis& a, const std::string& dtype) {
  const GroupAnalysis* g = a.find("Cuda", dtype);
  if (!g || !g->fit.fit) throw std::runtime_error("no fit for " + dtype);
  return g->fit;
}

TEST(DeviceRoofs, ADtypeWithoutATriadGetsTheDevicesBSetByTheFp64Triad) {
  const FileAnalysis a = analyze(results(device_points()), 200);
  const GroupFit& fp64 = fit_of(a, "fp64");
  const GroupFit& fp16 = fit_of(a, "fp16");
  const double b = fp64.fit->estimate.roof.bandwidth;
  EXPECT_NEAR(b, kTriad, 1e-6 * kTriad);
  // fp16's own points (1:1 rungs at 4.03 TB/s) would make B 4.03: it is the device's instead.
  EXPECT_EQ(fp16.fit->estimate.roof.bandwidth, b);
  EXPECT_EQ(fp16.fit->bandwidth_ci.low, fp64.fit->bandwidth_ci.low);
  EXPECT_EQ(fp16.fit->bandwidth_ci.high, fp64.fit->bandwidth_ci.high);
  EXPECT_TRUE(fp16.device_memory_roofs);
  EXPECT_EQ(fp16.bandwidth_best, "triad fp64 n:1");
  ASSERT_TRUE(fp16.bandwidth_mix);
  EXPECT_EQ(*fp16.bandwidth_mix, TrafficMix::kTwoToOne);
  // Each dtype's ridge is its own P over the device's B.
  EXPECT_NEAR(fp16.fit->estimate.roof.ridge_point(), 128e12 / kTriad, 1e-3);
  EXPECT_NEAR(fit_of(a, "fp32").fit->estimate.roof.ridge_point(), 64e12 / kTriad, 1e-3);
  EXPECT_LE(fp16.fit->ridge_ci.low, fp16.fit->estimate.roof.ridge_point());
  EXPECT_GE(fp16.fit->ridge_ci.high, fp16.fit->estimate.roof.ridge_point());
  // fp16 ran no read or write kernel: B_read and B_write are the device's too.
  ASSERT_TRUE(fp16.read_bandwidth && fp64.read_bandwidth);
  EXPECT_EQ(fp16.read_bandwidth->value, fp64.read_bandwidth->value);
  EXPECT_NEAR(fp16.read_bandwidth->value, kDot, 1e-6 * kDot);
  ASSERT_TRUE(fp16.mix_roof(TrafficMix::kWriteOnly));
  EXPECT_EQ(fp16.mix_roof(TrafficMix::kWriteOnly)->best, "fill fp64 n:1");
}

TEST(DeviceRoofs, OneBPerSpaceAcrossDtypes) {
  const FileAnalysis a = analyze(results(device_points()), 200);
  const GroupFit& fp64 = fit_of(a, "fp64");
  int fitted = 0;
  for (const auto& g : a.groups) {
    if (!g.fit.fit) continue;
    ++fitted;
    EXPECT_EQ(g.fit.fit->estimate.roof.bandwidth, fp64.fit->estimate.roof.bandwidth) << g.fit.dtype;
    ASSERT_EQ(g.fit.mixes.size(), fp64.mixes.size()) << g.fit.dtype;
    for (std::size_t i = 0; i < g.fit.mixes.size(); ++i)
      EXPECT_EQ(g.fit.mixes[i].roof.value, fp64.mixes[i].roof.value) << g.fit.dtype;
  }
  EXPECT_EQ(fitted, 3);
  // fit_results on the whole file pools the same way.
  const auto fits = fit_results(results(device_points()), 200);
  ASSERT_EQ(fits.size(), 3u);
  for (const auto& g : fits) {
    ASSERT_TRUE(g.fit) << g.dtype;
    EXPECT_NEAR(g.fit->estimate.roof.bandwidth, kTriad, 1e-6 * kTriad) << g.dtype;
  }
}

TEST(DeviceRoofs, TheReportSaysWhichDtypesPointSetEachRoof) {
  std::vector<FileAnalysis> files;
  files.push_back(analyze(results(device_points()), 200));
  std::string md;
  summary_tables(md, files, {});
  EXPECT_NE(md.find("- Cuda: B " + format_bytes_per_s(kTriad) +
                    ", set by triad fp64 n:1 (2:1 mix); B_read " + format_bytes_per_s(kDot) +
                    ", set by dot fp64 n:1; B_write " + format_bytes_per_s(kFill) +
                    ", set by fill fp64 n:1\n"),
            std::string::npos)
      << md;
  std::string roofs;
  roofs_and_ceilings(roofs, files);
  const auto fp16 = roofs.find("### `test.json` Cuda fp16");
  ASSERT_NE(fp16, std::string::npos) << roofs;
  EXPECT_NE(roofs.find("the envelope, set by the 2:1 mix: **triad fp64 n:1** (of ", fp16),
            std::string::npos)
      << roofs.substr(fp16);
}

// fp32's own B would be 3.9 TB/s, and its deep_copy at 4.12 above it beyond noise; the device's B
// (4.2, the fp64 triad) bounds it. With fp32's points alone it is flagged in both lists: the
// check has teeth.
TEST(DeviceRoofs, ADeepCopyBelowTheDevicesBIsNotFlagged) {
  const auto flagged = [](const FileAnalysis& a) {
    int n = 0;
    for (const auto& above : points_above_roof(a))
      n += above.point->probe == "deep_copy" && above.reason.empty();
    for (const auto& above : points_above_roof_beyond_noise(a, 200))
      n += above.point->probe == "deep_copy";
    return n;
  };
  EXPECT_EQ(flagged(analyze(results(device_points()), 200)), 0);
  json fp32 = json::array();
  for (const auto& p : device_points())
    if (p["dtype"] == "fp32") fp32.push_back(p);
  EXPECT_EQ(flagged(analyze(results(fp32), 200)), 2);
}

// A point above the device's envelope stays flagged: the roof is the device's, not any dtype's
// own, and nothing of our own reached it.
TEST(DeviceRoofs, ADeepCopyAboveTheDevicesBStaysFlagged) {
  json pts = device_points();
  pts.push_back(point("n:2", "deep_copy", "library", "fp32", 0, 8 * kN, 4.5e12, {}, kWs, 0.001));
  const FileAnalysis a = analyze(results(pts), 200);
  const auto beyond = points_above_roof_beyond_noise(a, 200);
  ASSERT_EQ(beyond.size(), 1u);
  EXPECT_EQ(beyond[0].point->name, "deep_copy/Cuda/fp32/n:2");
  EXPECT_EQ(beyond[0].roof_name, "B");
  EXPECT_NEAR(beyond[0].roof, kTriad, 1e-6 * kTriad);
}

// A dtype whose B comes from sets below the DRAM size (a fallback with a caveat) does not pull
// the device's B up: it takes the DRAM-sized one, and loses the caveat.
TEST(DeviceRoofs, CacheSizedFallbackPointsDoNotSetTheDevicesB) {
  json pts = json::array();
  pts.push_back(point("n:1", "triad", "bandwidth", "fp64", 2 * kN, 24 * kN, kTriad));
  pts.push_back(point("n:1", "copy", "bandwidth", "fp64", 0, 16 * kN, 4.0e12));
  pts.push_back(peak("fp64", 33e12));
  pts.push_back(rung("fp16", 1, 9e12, 2 * kL2));  // an L2-sized set, twice DRAM's rate
  pts.push_back(rung("fp16", 2, 9e12, 2 * kL2));
  pts.push_back(peak("fp16", 128e12));
  const FileAnalysis alone = analyze(results(json::array({pts[3], pts[4], pts[5]})), 200);
  const GroupFit& own = fit_of(alone, "fp16");
  EXPECT_NEAR(own.fit->estimate.roof.bandwidth, 9e12, 1e-6 * 9e12);
  ASSERT_FALSE(own.caveats.empty());

  const FileAnalysis a = analyze(results(pts), 200);
  const GroupFit& fp16 = fit_of(a, "fp16");
  EXPECT_NEAR(fp16.fit->estimate.roof.bandwidth, kTriad, 1e-6 * kTriad);
  for (const auto& c : fp16.caveats)
    EXPECT_EQ(c.find("working sets below"), std::string::npos) << c;
}

// The pyramid reads every level, device memory included: its cell is B_read (the dot's), not B
// (the triad's), and says which roof it is.
TEST(DeviceRoofs, ThePyramidsDeviceMemoryReadCellIsBRead) {
  std::vector<FileAnalysis> files;
  files.push_back(analyze(results(device_points()), 200));
  const GroupFit& fp16 = fit_of(files[0], "fp16");
  ASSERT_TRUE(fp16.read_bandwidth);
  std::string md;
  memory_pyramid(md, files, {});
  const auto at = md.find("| test.json | Cuda | device memory | – | ");
  ASSERT_NE(at, std::string::npos) << md;
  const std::string row = md.substr(at, md.find('\n', at) - at);
  EXPECT_NE(
      row.find("| " + format_bytes_with_ci(fp16.read_bandwidth->value, fp16.read_bandwidth->ci) +
               " | B_read, set by dot fp64 n:1 |"),
      std::string::npos)
      << row;
  EXPECT_EQ(row.find(format_bytes_per_s(kTriad)), std::string::npos) << row;
}

}  // namespace
}  // namespace ridgeline
