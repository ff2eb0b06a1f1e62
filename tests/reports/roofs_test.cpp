// Which points define which roof, what counts as DRAM-sized, and which points sit above their
// roof: on small results files written here, so each rule is seen in isolation.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fstream>

#include "reports/fit/above_roof.hpp"
#include "reports/fit/analysis.hpp"
#include "reports/fit/roof_roles.hpp"
#include "reports/render/report_markdown.hpp"
#include "tests/reports/cli_test_support.hpp"
#include "tests/support/temp_dir.hpp"
#include "tests/support/test_paths.hpp"

namespace ridgeline {
namespace {

using nlohmann::json;
using namespace test;

constexpr double kMiB = 1 << 20;

json cpu_context(int llc_instances, int threads) {
  json llc = {
      {"level", 3}, {"type", "unified"}, {"size_bytes", 32 * kMiB}, {"shared_by_threads", 8}};
  if (llc_instances > 0) llc["instances"] = llc_instances;
  return {{"host", {{"hostname", "h"}}},
          {"cpu", {{"model", "test cpu"}, {"caches", json::array({llc})}}},
          {"spaces", json::array({{{"name", "OpenMP"},
                                   {"kind", "host"},
                                   {"concurrency", threads},
                                   {"device", nullptr}}})}};
}

// A measured, verified point whose samples all take `seconds`.
json point(const std::string& probe, const std::string& family, double ws, double flops,
           double bytes, double seconds, json params = json::object()) {
  const std::string grade =
      params.contains("k") ? "k:" + params["k"].dump() : "ws:" + std::to_string(long(ws));
  return {{"name", probe + "/OpenMP/fp64/" + grade},
          {"probe", probe},
          {"family", family},
          {"space", "OpenMP"},
          {"dtype", "fp64"},
          {"working_set_bytes", ws},
          {"flops", flops},
          {"bytes", bytes},
          {"params", params},
          {"samples", {seconds * 0.99, seconds, seconds * 1.01}},
          {"median_s", seconds},
          {"verified", true}};
}

Results results(const json& context, const json& points) {
  const json doc = {{"schema_version", "1.1.0"}, {"context", context}, {"points", points}};
  return parse_results(doc.dump(), "test.json");
}

// Every own streaming kernel and ladder defines the roof of its traffic mix (on a write-allocate
// CPU as a lower bound: its stores read lines it does not count); library points are ceilings.
TEST(RoofRoles, OwnKernelsDefineTheRoofOfTheirTrafficMix) {
  const json in_place = {{"k", 1}, {"form", "in_place"}};
  const Results r = results(
      cpu_context(1, 2),
      {point("fma", "fma", 1e9, 1e8, 8e8, 0.02, in_place), point("fma", "fma", 1e9, 1e8, 8e8, 0.02),
       point("read", "bandwidth", 1e9, 1e8, 8e8, 0.02),
       point("triad", "bandwidth", 1e9, 1e8, 8e8, 0.02),
       point("axpby", "library", 1e9, 1e8, 8e8, 0.02), point("peak", "peak", 1e3, 1e9, 8, 0.01),
       point("fill", "bandwidth", 1e9, 0, 8e8, 0.02), point("copy", "bandwidth", 1e9, 0, 8e8, 0.02),
       point("deep_copy", "library", 1e9, 0, 8e8, 0.02)});
  const auto& p = r.points;
  EXPECT_EQ(roof_role(p[0]), RoofRole::kBandwidth);  // the in-place ladder
  EXPECT_EQ(roof_role(p[1]), RoofRole::kBandwidth);  // a ladder before schema 1.1 (two arrays)
  EXPECT_EQ(roof_role(p[2]), RoofRole::kReadBandwidth);
  EXPECT_EQ(roof_role(p[3]), RoofRole::kBandwidth);  // a lower bound where stores allocate
  EXPECT_EQ(roof_role(p[4]), RoofRole::kCeiling);
  EXPECT_EQ(roof_role(p[5]), RoofRole::kPeak);
  EXPECT_EQ(roof_role(p[6]), RoofRole::kWriteBandwidth);
  EXPECT_EQ(traffic_mix(p[0]), TrafficMix::kOneToOne);
  EXPECT_EQ(traffic_mix(p[1]), TrafficMix::kOneToOne);
  EXPECT_EQ(traffic_mix(p[2]), TrafficMix::kReadOnly);
  EXPECT_EQ(traffic_mix(p[3]), TrafficMix::kTwoToOne);
  EXPECT_EQ(traffic_mix(p[4]), TrafficMix::kTwoToOne);  // axpby: x and y read, y written
  EXPECT_EQ(traffic_mix(p[5]), std::nullopt);
  EXPECT_EQ(traffic_mix(p[6]), TrafficMix::kWriteOnly);
  EXPECT_EQ(traffic_mix(p[7]), TrafficMix::kOneToOne);
  EXPECT_EQ(traffic_mix(p[8]), TrafficMix::kOneToOne);  // deep_copy
  EXPECT_DOUBLE_EQ(moved_per_counted(p[3], false), 4.0 / 3);
  EXPECT_DOUBLE_EQ(moved_per_counted(p[3], true), 1.0);
  EXPECT_DOUBLE_EQ(moved_per_counted(p[0], false), 1.0);
  EXPECT_NE(bytes_convention(p[3], false).find("write-allocate"), std::string::npos);
}

// A 2-vCPU Zen 3 VM ran the library's in-place axpby (x read, y read and written: 2:1, no
// write-allocate) at 1.18 x B: no own kernel had that mix with its bytes moved (triad's stores
// allocate). update_xy is that kernel: a roof of the 2:1 mix whose counted bytes are moved bytes,
// so B is the envelope for that mix and the axpby at update_xy's rate is no longer above it.
TEST(RoofRoles, UpdateXyJoinsTheTwoToOneEnvelopeAndBoundsTheLibraryAxpby) {
  const json in_place1 = {{"k", 1}, {"form", "in_place"}},
             in_place2 = {{"k", 2}, {"form", "in_place"}};
  // Every working set DRAM-sized (4 x 32 MiB x 1 copy = 128 MiB): one, three or two arrays.
  const double ws = 160 * kMiB, n1 = ws / 8, n3 = ws / 24, n = ws / 16;
  const json own = {point("fma", "fma", ws, 2 * n1, 16 * n1, 16 * n1 / 35e9, in_place1),
                    point("fma", "fma", ws, 4 * n1, 16 * n1, 16 * n1 / 35e9, in_place2),
                    point("triad", "bandwidth", ws, 2 * n3, 24 * n3, 24 * n3 / 30e9),
                    point("peak", "peak", 1e3, 1e10, 16, 1e10 / 200e9)};
  const json axpby = point("axpby", "library", ws, 2 * n, 24 * n, 24 * n / 41.3e9);
  const json update = point("update_xy", "bandwidth", ws, 3 * n, 24 * n, 24 * n / 42e9);

  json before = own;
  before.push_back(axpby);
  const FileAnalysis a = analyze(results(cpu_context(1, 2), before), 200);
  ASSERT_TRUE(a.groups.at(0).fit.fit) << a.groups.at(0).fit.not_fitted;
  EXPECT_NEAR(a.groups[0].fit.fit->estimate.roof.bandwidth, 35e9, 0.4e9) << "the 1:1 ladder";
  const auto above_before = points_above_roof_beyond_noise(a, 200);
  ASSERT_EQ(above_before.size(), 1u);
  EXPECT_EQ(above_before[0].point->probe, "axpby");
  EXPECT_NEAR(above_before[0].ratio, 41.3 / 35, 0.02);

  json with = own;
  with.push_back(axpby);
  with.push_back(update);
  const FileAnalysis b = analyze(results(cpu_context(1, 2), with), 200);
  const Point& u = b.results.points.back();
  EXPECT_EQ(roof_role(u), RoofRole::kBandwidth);
  EXPECT_EQ(traffic_mix(u), TrafficMix::kTwoToOne);
  EXPECT_DOUBLE_EQ(moved_per_counted(u, false), 1.0) << "y's lines are read before written";
  EXPECT_EQ(bytes_convention(u, false).rfind("moved (", 0), 0u) << bytes_convention(u, false);
  const GroupFit& g = b.groups.at(0).fit;
  ASSERT_TRUE(g.fit) << g.not_fitted;
  EXPECT_NEAR(g.fit->estimate.roof.bandwidth, 42e9, 0.5e9);
  EXPECT_EQ(g.bandwidth_mix, TrafficMix::kTwoToOne);
  EXPECT_EQ(g.bandwidth_best, "update_xy ws:" + std::to_string(long(ws)));
  EXPECT_FALSE(g.bandwidth_lower_bound) << "update_xy counts what it moves";
  const MixRoof* two_to_one = g.mix_roof(TrafficMix::kTwoToOne);
  ASSERT_NE(two_to_one, nullptr);
  EXPECT_EQ(two_to_one->best, g.bandwidth_best);
  EXPECT_FALSE(two_to_one->lower_bound);
  for (const auto& p : points_above_roof(b))
    EXPECT_NE(p.point->probe, "axpby") << "axpby at " << p.ratio << " x B";
  EXPECT_TRUE(points_above_roof_beyond_noise(b, 200).empty());
}

TEST(RoofRoles, DramSizedMeansFourTimesEveryCopyOfTheLastLevelCache) {
  // Two copies of a 32 MiB L3 (two CCDs): 256 MiB, whatever one thread sees.
  EXPECT_DOUBLE_EQ(dram_working_set_bytes(results(cpu_context(2, 16), json::array()), "OpenMP"),
                   256 * kMiB);
  // Files before schema 1.1 do not count copies: the space's threads tell (16 / 8 sharing).
  EXPECT_DOUBLE_EQ(dram_working_set_bytes(results(cpu_context(0, 16), json::array()), "OpenMP"),
                   256 * kMiB);
  EXPECT_DOUBLE_EQ(dram_working_set_bytes(results(cpu_context(0, 2), json::array()), "OpenMP"),
                   128 * kMiB);
}

// B from the in-place rungs only when they are DRAM-sized; a point planted above the roof at a
// DRAM-sized working set is listed without a reason, a cache-resident one with its level.
TEST(RoofRoles, PointsAboveTheRoofAreListedWithTheirReason) {
  const json in_place1 = {{"k", 1}, {"form", "in_place"}},
             in_place2 = {{"k", 2}, {"form", "in_place"}};
  const double ws = 160 * kMiB, n = ws / 8;  // DRAM-sized: 4 x 32 MiB x 1 copy = 128 MiB
  // B = 50 GB/s from two rungs; P = 200 GFLOP/s from two peaks.
  json pts = {
      point("fma", "fma", ws, 2 * n, 16 * n, 16 * n / 50e9, in_place1),
      point("fma", "fma", ws, 4 * n, 16 * n, 16 * n / 50e9, in_place2),
      point("peak", "peak", 1e3, 1e10, 16, 1e10 / 200e9),
      point("peak", "peak", 2e3, 2e10, 16, 2e10 / 200e9),
      // a read-only kernel at 70 GB/s, DRAM-sized: B_read, the roof of read-only kernels
      point("read", "bandwidth", ws, n, 8 * n, 8 * n / 70e9),
      // a library axpby (2 reads : 1 write) at 100 GB/s, DRAM-sized: 2 x B, unexplained
      point("axpby", "library", ws, 2 * n, 24 * n, 24 * n / 100e9),
      // a cache-resident rung at 16 MiB: cached, explained
      point("fma", "fma", 16 * kMiB, 2 * 2 * kMiB, 16 * 2 * kMiB, 16 * 2 * kMiB / 90e9, in_place1),
      // a library point 2 x P: unexplained
      point("gemm", "library", 24 * kMiB, 1e11, 24 * kMiB, 1e11 / 400e9)};
  pts[6]["name"] = "fma/OpenMP/fp64/k:1-cached";  // point names are unique in a results file
  const FileAnalysis a = analyze(results(cpu_context(1, 2), pts), 200);
  ASSERT_TRUE(a.groups.at(0).fit.fit) << a.groups.at(0).fit.not_fitted;
  const Roof roof = a.groups[0].fit.fit->estimate.roof;
  EXPECT_NEAR(roof.bandwidth, 50e9, 0.5e9);
  EXPECT_NEAR(roof.peak_flops, 200e9, 2e9);
  EXPECT_EQ(a.groups[0].fit.bandwidth_from, "fma k:1, k:2") << "the cached rung defines nothing";
  ASSERT_TRUE(a.groups[0].fit.read_bandwidth);
  EXPECT_NEAR(a.groups[0].fit.read_bandwidth->value, 70e9, 1e9);

  const auto above = points_above_roof(a);
  ASSERT_EQ(above.size(), 3u);
  // Repetitions spread by 1 %: the roofs' intervals stay far below the planted points.
  EXPECT_LT(a.groups[0].fit.fit->bandwidth_ci.high, 1.05 * roof.bandwidth);
  EXPECT_EQ(above[0].point->probe, "axpby");
  EXPECT_TRUE(above[0].reason.empty());
  EXPECT_EQ(above[0].roof_name, "B") << "a 2:1 kernel is held against B, not B_read";
  EXPECT_NEAR(above[0].ratio, 100.0 / 50, 0.02);
  EXPECT_EQ(above[1].point->working_set_bytes, 16 * kMiB);
  EXPECT_NE(above[1].reason.find("L3 (LLC)"), std::string::npos) << above[1].reason;
  EXPECT_EQ(above[2].point->probe, "gemm");
  EXPECT_TRUE(above[2].reason.empty());
  EXPECT_NEAR(above[2].ratio, 2.0, 0.05);
  // Beyond noise: the two library points, not the cached rung.
  const auto beyond = points_above_roof_beyond_noise(a, 200);
  ASSERT_EQ(beyond.size(), 2u);
  EXPECT_EQ(beyond[0].point->probe, "axpby");
  EXPECT_EQ(beyond[1].point->probe, "gemm");
}

// A machine that swings between rounds (a 2-vCPU VM's bus ran 70 then 140 GB/s within minutes)
// moves a point's median with the rounds its samples fell in: update_xy, 3 of its 5 samples in a
// slow round, has its median there, an axpby with 3 of 5 in the fast round has its median at 2 x
// B. Round by round the axpby runs at update_xy's rate: above B only across rounds, and the
// report says so. One at 1.2 x update_xy in every round is above B in the same rounds too.
TEST(RoofRoles, APointAboveTheRoofOnlyAcrossRoundsSaysSo) {
  const json in_place = {{"k", 64}, {"form", "in_place"}};
  const double ws = 160 * kMiB, n = ws / 16, bytes = 24 * n;
  // Samples at `slow` GB/s in round 0 and `fast` in round 1, `in_slow` of five in round 0.
  const auto rounds = [&](json p, double slow, double fast, int in_slow) {
    p["samples"] = json::array();
    p["sample_rounds"] = json::array();
    for (int i = 0; i < 5; ++i) {
      const bool s = i < in_slow;
      p["samples"].push_back(bytes / ((s ? slow : fast) * 1e9) * (1 + 0.001 * i));
      p["sample_rounds"].push_back(s ? 0 : 1);
    }
    p.erase("median_s");
    return p;
  };
  const json update = rounds(point("update_xy", "bandwidth", ws, 3 * n, bytes, 1), 70, 140, 3);
  const json peak = point("peak", "peak", 1e3, 1e10, 16, 1e10 / 200e9);
  const json rung = point("fma", "fma", 1e3, 128e9, 1e9, 128e9 / 190e9, in_place);
  const auto analysed = [&](const json& axpby) {
    json doc = {{"schema_version", "1.2.0"},
                {"context", cpu_context(1, 2)},
                {"points", {update, peak, rung, axpby}}};
    return analyze(parse_results(doc.dump(), "test.json"), 200);
  };

  const FileAnalysis a =
      analysed(rounds(point("axpby", "library", ws, 2 * n, bytes, 1), 70, 140, 2));
  const GroupFit& g = a.groups.at(0).fit;
  ASSERT_TRUE(g.fit) << g.not_fitted;
  EXPECT_NEAR(g.fit->estimate.roof.bandwidth, 70e9, 0.5e9) << "update_xy's median: round 0";
  const auto above = points_above_roof(a);
  ASSERT_EQ(above.size(), 1u);
  EXPECT_EQ(above[0].point->probe, "axpby");
  EXPECT_NEAR(above[0].ratio, 2.0, 0.02) << "its median: round 1";
  ASSERT_TRUE(above[0].per_round);
  EXPECT_EQ(above[0].per_round->rounds, 2);
  EXPECT_NEAR(above[0].per_round->ratio, 1.0, 0.01);
  EXPECT_NE(above[0].reason.find("1.00 × the roof in the same rounds (median over 2 rounds)"),
            std::string::npos)
      << above[0].reason;

  const FileAnalysis b =
      analysed(rounds(point("axpby", "library", ws, 2 * n, bytes, 1), 84, 168, 2));
  const auto above_b = points_above_roof(b);
  ASSERT_EQ(above_b.size(), 1u);
  ASSERT_TRUE(above_b[0].per_round);
  EXPECT_NEAR(above_b[0].per_round->ratio, 1.2, 0.01);
  EXPECT_EQ(above_b[0].reason.find("same rounds"), std::string::npos) << above_b[0].reason;

  // Without rounds (one round, or a file before schema 1.2) there is no per-round ratio.
  json one_round = point("axpby", "library", ws, 2 * n, bytes, bytes / 140e9);
  json plain_update = point("update_xy", "bandwidth", ws, 3 * n, bytes, bytes / 70e9);
  json doc = {{"schema_version", "1.1.0"},
              {"context", cpu_context(1, 2)},
              {"points", {plain_update, peak, rung, one_round}}};
  const FileAnalysis c = analyze(parse_results(doc.dump(), "test.json"), 200);
  const auto above_c = points_above_roof(c);
  ASSERT_EQ(above_c.size(), 1u);
  EXPECT_FALSE(above_c[0].per_round);
  EXPECT_TRUE(above_c[0].reason.empty());
}

// On-chip scratch runs far above DRAM by design: the SRAM points define no roof, are never held
// against the DRAM roofs, and the report shows them under Memory levels and per probe.
TEST(RoofRoles, SramPointsAreAMemoryLevelNotPartOfTheFit) {
  const json in_place1 = {{"k", 1}, {"form", "in_place"}},
             in_place2 = {{"k", 2}, {"form", "in_place"}};
  const double ws = 160 * kMiB, n = ws / 8;
  const double scratch = 16384, sram_bytes = 8 * scratch * 257;  // 8 teams, fill + 256 sweeps
  json sram_read = point("sram_read", "sram", scratch, sram_bytes / 8, sram_bytes,
                         sram_bytes / 400e9, {{"passes", 256}});
  sram_read["name"] = "sram_read/OpenMP/fp64/scratch:16384";
  json sram_update = point("sram_update", "sram", scratch, sram_bytes / 4, sram_bytes,
                           sram_bytes / 300e9, {{"passes", 128}});
  sram_update["name"] = "sram_update/OpenMP/fp64/scratch:16384";
  const json pts = {point("fma", "fma", ws, 2 * n, 16 * n, 16 * n / 50e9, in_place1),
                    point("fma", "fma", ws, 4 * n, 16 * n, 16 * n / 50e9, in_place2),
                    point("peak", "peak", 1e3, 1e10, 16, 1e10 / 200e9), sram_read, sram_update};
  std::vector<FileAnalysis> files;
  files.push_back(analyze(results(cpu_context(1, 2), pts), 200));
  const FileAnalysis& a = files[0];
  EXPECT_EQ(roof_role(a.results.points[3]), RoofRole::kLevel);
  EXPECT_EQ(roof_role(a.results.points[4]), RoofRole::kLevel);
  ASSERT_TRUE(a.groups.at(0).fit.fit) << a.groups.at(0).fit.not_fitted;
  EXPECT_NEAR(a.groups[0].fit.fit->estimate.roof.bandwidth, 50e9, 0.5e9);
  EXPECT_EQ(a.groups[0].fit.bandwidth_from, "fma k:1, k:2");
  EXPECT_TRUE(points_above_roof(a).empty()) << "8x B, but a level of its own";
  const std::string md = render_report_markdown(files, {}, {});
  EXPECT_NE(md.find("| sram_read | SRAM (scratch in L1d) | 16 KiB – 16 KiB per team | 1 | 400"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| sram_update | SRAM (scratch in L1d) |"), std::string::npos);
  EXPECT_NE(md.find("<code>sram_read</code>"), std::string::npos) << "its per-probe table";
}

// The cache sweep's sets at DRAM size are own streams that count moved bytes: they join the
// envelope of their mix (cache_update B, cache_read B_read) and so never sit above it; sets a
// cache holds stay memory levels.
TEST(RoofRoles, DramSizedCacheSweepSetsJoinTheEnvelopeOfTheirMix) {
  const json in_place1 = {{"k", 1}, {"form", "in_place"}},
             in_place2 = {{"k", 2}, {"form", "in_place"}};
  const json passes = {{"passes", 1}};
  const double ws = 160 * kMiB, n = ws / 8, big = 256 * kMiB, small = 64 * kMiB;
  json update_dram = point("cache_update", "cache", big, big / 4, 2 * big, 2 * big / 55e9, passes);
  json update_small =
      point("cache_update", "cache", small, small / 4, 2 * small, 2 * small / 90e9, passes);
  json read_dram = point("cache_read", "cache", big, big / 8, big, big / 60e9, passes);
  const json pts = {point("fma", "fma", ws, 2 * n, 16 * n, 16 * n / 50e9, in_place1),
                    point("fma", "fma", ws, 4 * n, 16 * n, 16 * n / 50e9, in_place2),
                    point("read", "bandwidth", ws, n, 8 * n, 8 * n / 45e9),
                    point("peak", "peak", 1e3, 1e10, 16, 1e10 / 200e9),
                    update_dram,
                    update_small,
                    read_dram};
  std::vector<FileAnalysis> files;
  files.push_back(analyze(results(cpu_context(1, 2), pts), 200));
  const GroupFit& g = files[0].groups.at(0).fit;
  ASSERT_TRUE(g.fit) << g.not_fitted;
  EXPECT_NEAR(g.fit->estimate.roof.bandwidth, 55e9, 0.5e9) << "the DRAM-sized cache_update";
  EXPECT_EQ(g.bandwidth_best, "cache_update ws:268435456");
  ASSERT_TRUE(g.read_bandwidth);
  EXPECT_NEAR(g.read_bandwidth->value, 60e9, 0.5e9) << "the DRAM-sized cache_read";
  for (const auto& p : points_above_roof(files[0]))
    EXPECT_NE(p.reason.find("cache"), std::string::npos)
        << p.point->name << " above its roof without a cache holding it";
}

// A host whose cache list lacks its L3 (a 2-vCPU Zen 5 VM: the legacy leaf's 508 MiB left out)
// knows no last-level cache. Every working set counted as DRAM-sized there, and a cache_triad set
// inside L1 set B at 913 GB/s, 6 x the streams of the same file. The profile's dram_min_bytes,
// what the planner sized the DRAM kernels at, is the threshold then; without it no cache-sweep
// set joins B.
TEST(RoofRoles, WithoutALastLevelCacheTheProfilesDramMinimumSaysWhatIsDram) {
  const json passes = {{"passes", 1}};
  const double ws = 128 * kMiB, n = ws / 24, l1 = 15 * 1024, big = 128 * kMiB;
  const double n1 = ws / 8;
  const json pts = {
      point("triad", "bandwidth", ws, 2 * n, 24 * n, 24 * n / 80e9),
      point("fma", "fma", ws, 2 * n1, 16 * n1, 16 * n1 / 40e9, {{"k", 1}, {"form", "in_place"}}),
      point("peak", "peak", 1e3, 1e10, 16, 1e10 / 200e9),
      point("cache_triad", "cache", l1, l1 / 12, l1, l1 / 900e9, passes),
      point("cache_triad", "cache", big, big / 12, big, big / 90e9, passes)};
  json context = cpu_context(1, 2);
  context["cpu"]["caches"] = json::array(
      {{{"level", 1}, {"type", "data"}, {"size_bytes", 48 * 1024}, {"shared_by_threads", 1}},
       {{"level", 2}, {"type", "unified"}, {"size_bytes", 1 * kMiB}, {"shared_by_threads", 1}}});
  context["cpu"]["caches_incomplete"] = "L3 left out";
  const auto fitted = [&](const json& profile) {
    json doc = {{"schema_version", "1.3.0"}, {"context", context}, {"points", pts}};
    if (!profile.is_null()) doc["profile"] = profile;
    return analyze(parse_results(doc.dump(), "test.json"), 200);
  };

  const FileAnalysis with = fitted({{"name", "nightly"}, {"dram_min_bytes", 128 * kMiB}});
  EXPECT_DOUBLE_EQ(dram_working_set_bytes(with.results, "OpenMP"), 128 * kMiB);
  const GroupFit& g = with.groups.at(0).fit;
  ASSERT_TRUE(g.fit) << g.not_fitted;
  EXPECT_NEAR(g.fit->estimate.roof.bandwidth, 90e9, 1e9) << "the 128 MiB cache_triad, not L1";
  EXPECT_EQ(g.bandwidth_best, "cache_triad ws:134217728");
  ASSERT_FALSE(g.caveats.empty());
  EXPECT_NE(g.caveats[0].find("dram_min_bytes, 128 MiB"), std::string::npos) << g.caveats[0];

  const FileAnalysis without = fitted(nullptr);
  EXPECT_DOUBLE_EQ(dram_working_set_bytes(without.results, "OpenMP"), 0);
  const GroupFit& h = without.groups.at(0).fit;
  ASSERT_TRUE(h.fit) << h.not_fitted;
  EXPECT_NEAR(h.fit->estimate.roof.bandwidth, 80e9, 1e9) << "the stream alone";
  EXPECT_EQ(h.bandwidth_best, "triad ws:" + std::to_string(long(ws)));
  ASSERT_FALSE(h.caveats.empty());
  EXPECT_NE(h.caveats[0].find("streams alone"), std::string::npos) << h.caveats[0];
}

// A point above the estimate but inside the roof's own interval (noisy peak repetitions) is
// listed with that reason, not as a broken roof.
TEST(RoofRoles, APointInsideTheRoofsIntervalSaysSo) {
  json peak = point("peak", "peak", 1e3, 1e10, 16, 1e10 / 200e9);
  peak["samples"] = {1e10 / 200e9, 1e10 / 120e9, 1e10 / 200e9, 1e10 / 110e9, 1e10 / 120e9};
  peak["median_s"] = 1e10 / 120e9;
  const double ws = 160 * kMiB, n = ws / 8;
  // P = 150 GFLOP/s (the rung; the peak's median is 120), its interval reaches ~200 (the peak's
  // redrawn medians); a library GEMM at 170 is above P but inside that interval.
  const json pts = {
      point("fma", "fma", ws, 2 * n, 16 * n, 16 * n / 50e9, {{"k", 1}, {"form", "in_place"}}),
      point("fma", "fma", ws, 4 * n, 16 * n, 16 * n / 50e9, {{"k", 2}, {"form", "in_place"}}), peak,
      point("fma", "fma", 1e6, 2e9, 1e6, 2e9 / 150e9, {{"k", 1024}, {"form", "in_place"}}),
      point("gemm", "library", 1e6, 2e9, 1e6, 2e9 / 170e9)};
  const FileAnalysis a = analyze(results(cpu_context(1, 2), pts), 200);
  ASSERT_TRUE(a.groups.at(0).fit.fit);
  EXPECT_NEAR(a.groups[0].fit.fit->estimate.roof.peak_flops, 150e9, 1e9);
  const auto above = points_above_roof(a);
  ASSERT_EQ(above.size(), 1u);
  EXPECT_EQ(above[0].point->probe, "gemm");
  EXPECT_NE(above[0].reason.find("within the roof's 95 % interval"), std::string::npos)
      << above[0].reason;
}

// Without the in-place ladder the envelope is set by a STREAM-style kernel, whose counted bytes
// on a write-allocate CPU are a lower bound of what the memory moved: the report says so.
TEST(RoofRoles, AStreamSettingBOnAHostIsALowerBoundAndSaysSo) {
  const double ws = 160 * kMiB, n = ws / 24;
  const json pts = {point("triad", "bandwidth", ws, 2 * n, 24 * n, 24 * n / 30e9),
                    point("copy", "bandwidth", ws, 0, 16 * n, 16 * n / 28e9),
                    point("peak", "peak", 1e3, 1e10, 16, 1e10 / 200e9)};
  const FileAnalysis a = analyze(results(cpu_context(1, 2), pts), 100);
  ASSERT_TRUE(a.groups.at(0).fit.fit) << a.groups.at(0).fit.not_fitted;
  EXPECT_NEAR(a.groups[0].fit.fit->estimate.roof.bandwidth, 30e9, 0.3e9);
  EXPECT_TRUE(a.groups[0].fit.bandwidth_lower_bound);
  ASSERT_EQ(a.groups[0].fit.caveats.size(), 1u);
  EXPECT_NE(a.groups[0].fit.caveats[0].find("lower bound"), std::string::npos);
}

// A run without the peak probe: P from the ladder's compute-bound rungs, which never feed B.
TEST(RoofRoles, WithoutAPeakTheLadderObservesP) {
  const double ws = 160 * kMiB, n = ws / 8;
  json pts = json::array();
  for (int k : {1, 2})
    pts.push_back(point("fma", "fma", ws, 2.0 * k * n, 16 * n, 16 * n / 50e9,
                        {{"k", k}, {"form", "in_place"}}));
  for (int k : {256, 512, 1024}) {  // small, cache-resident, compute-bound: 200 GFLOP/s
    const double m = 1 << 16;
    pts.push_back(point("fma", "fma", 8 * m, 2.0 * k * m, 16 * m, 2.0 * k * m / 200e9,
                        {{"k", k}, {"form", "in_place"}}));
  }
  const FileAnalysis a = analyze(results(cpu_context(1, 2), pts), 100);
  ASSERT_TRUE(a.groups.at(0).fit.fit) << a.groups.at(0).fit.not_fitted;
  const Roof roof = a.groups[0].fit.fit->estimate.roof;
  EXPECT_NEAR(roof.peak_flops, 200e9, 2e9);
  EXPECT_NEAR(roof.bandwidth, 50e9, 0.5e9);
  EXPECT_EQ(a.groups[0].fit.bandwidth_from, "fma k:1, k:2");
  ASSERT_EQ(a.groups[0].fit.caveats.size(), 1u);
  EXPECT_NE(a.groups[0].fit.caveats[0].find("no register-only peak"), std::string::npos);
}

// One CUDA space on a GPU with this L2.
json gpu_context(double l2) {
  return {{"host", {{"hostname", "h"}}},
          {"spaces", json::array({{{"name", "Cuda"},
                                   {"kind", "device"},
                                   {"concurrency", 1 << 18},
                                   {"device", {{"name", "test gpu"}, {"l2_bytes", l2}}}}})}};
}

// A GPU's read/write mixes differ (the H200: reads alone 4.42 TB/s, fill 4.30, copy and the
// in-place ladder 4.03): B comes from the kernels that read and write, B_read from the read-only
// ones, B_write from fill, and no own kernel is above the roof of its mix. Tensor-unit GEMMs, far
// above the vector P by design, are held against the sheet instead.
TEST(RoofRoles, OnAGpuReadsDefineBReadAndMixesDefineB) {
  const double l2 = 60 * kMiB, ws = 8 * l2, n = ws / 8;
  const json context = gpu_context(l2);
  json pts = {
      point("fma", "fma", ws, 2 * n, 16 * n, 16 * n / 4.03e12, {{"k", 1}, {"form", "in_place"}}),
      point("fma", "fma", ws, 4 * n, 16 * n, 16 * n / 4.02e12, {{"k", 2}, {"form", "in_place"}}),
      point("copy", "bandwidth", ws, 0, 16 * n, 16 * n / 4.03e12),
      point("read", "bandwidth", ws, n, 8 * n, 8 * n / 4.42e12),
      point("dot", "bandwidth", ws, 2 * n, 16 * n, 16 * n / 4.43e12),
      point("fill", "bandwidth", ws, 0, 8 * n, 8 * n / 4.30e12),
      point("peak", "peak", 1e3, 1e12, 16, 1e12 / 33e12),
      point("vendor_gemm", "library", ws, 1e13, 3 * 8 * n, 1e13 / 55e12,
            {{"unit", "tensor"}, {"n", 8192}})};
  for (auto& q : pts) {
    q["space"] = "Cuda";
    q["name"] =
        q["probe"].get<std::string>() + "/Cuda/fp64/" + q["params"].value("k", json(0)).dump();
  }
  const FileAnalysis a = analyze(results(context, pts), 200);
  ASSERT_TRUE(a.groups.at(0).fit.fit) << a.groups.at(0).fit.not_fitted;
  EXPECT_EQ(roof_role(a.results.points[3]), RoofRole::kReadBandwidth);
  EXPECT_EQ(roof_role(a.results.points[5]), RoofRole::kWriteBandwidth);
  EXPECT_NEAR(a.groups[0].fit.fit->estimate.roof.bandwidth, 4.03e12, 0.02e12);
  ASSERT_TRUE(a.groups[0].fit.read_bandwidth);
  EXPECT_NEAR(a.groups[0].fit.read_bandwidth->value, 4.42e12, 0.02e12);
  EXPECT_TRUE(is_tensor_point(a.results.points[7]));
  const auto above = points_above_roof(a);
  EXPECT_TRUE(above.empty()) << above.size() << " points, the first " << above[0].point->name;
}

// A GPU group as the H200 sample has it: the 1:1 kernels (copy, the in-place ladder) at 4.00 TB/s,
// the 2:1 ones (add, triad) `two_to_one` × that, reads alone 4.42, fill 4.30, and the libraries
// (deep_copy 1:1, axpby 2:1, lib_dot read-only) at the given rates.
json gpu_mixes(double two_to_one, double deep_copy, double axpby) {
  const double l2 = 60 * kMiB, ws = 8 * l2, n = ws / 8, b = 4.00e12;
  json pts = {point("fma", "fma", ws, 2 * n, 16 * n, 16 * n / b, {{"k", 1}, {"form", "in_place"}}),
              point("fma", "fma", ws, 4 * n, 16 * n, 16 * n / (0.998 * b),
                    {{"k", 2}, {"form", "in_place"}}),
              point("copy", "bandwidth", ws, 0, 16 * n, 16 * n / (1.001 * b)),
              point("add", "bandwidth", ws, n, 24 * n, 24 * n / (0.995 * two_to_one * b)),
              point("triad", "bandwidth", ws, 2 * n, 24 * n, 24 * n / (two_to_one * b)),
              point("read", "bandwidth", ws, n, 8 * n, 8 * n / 4.42e12),
              point("fill", "bandwidth", ws, 0, 8 * n, 8 * n / 4.30e12),
              point("peak", "peak", 1e3, 1e12, 16, 1e12 / 33e12),
              point("deep_copy", "library", ws, 0, 16 * n, 16 * n / deep_copy),
              point("axpby", "library", ws, 2 * n, 24 * n, 24 * n / axpby),
              point("lib_dot", "library", ws, 2 * n, 16 * n, 16 * n / 4.35e12)};
  for (auto& q : pts) {
    q["space"] = "Cuda";
    q["name"] = q["probe"].get<std::string>() + "/Cuda/fp64/" +
                (q["params"].contains("k") ? "k:" + q["params"]["k"].dump() : "n:1");
  }
  const json context = gpu_context(l2);
  return {{"schema_version", "1.1.0"}, {"context", context}, {"points", pts}};
}

FileAnalysis analyzed(const json& doc) { return analyze(parse_results(doc.dump(), "t.json"), 200); }

// B is the envelope of the mixes that read and write: it follows the one that is 5 % faster and
// names it, whichever it is; B_read and B_write are the one-direction mixes.
TEST(TrafficMixes, BFollowsTheFasterMixAndNamesIt) {
  {
    const FileAnalysis a = analyzed(gpu_mixes(1.05, 4.0e12, 4.0e12));
    const GroupFit& g = a.groups.at(0).fit;
    ASSERT_TRUE(g.fit) << g.not_fitted;
    EXPECT_NEAR(g.fit->estimate.roof.bandwidth, 4.20e12, 0.005e12);
    ASSERT_TRUE(g.bandwidth_mix);
    EXPECT_EQ(*g.bandwidth_mix, TrafficMix::kTwoToOne);
    EXPECT_EQ(g.bandwidth_best, "triad n:1");
    ASSERT_TRUE(g.mix_roof(TrafficMix::kOneToOne));
    EXPECT_NEAR(g.mix_roof(TrafficMix::kOneToOne)->roof.value, 4.004e12, 0.005e12);
    EXPECT_EQ(g.mix_roof(TrafficMix::kOneToOne)->best, "copy n:1");
    ASSERT_TRUE(g.mix_roof(TrafficMix::kWriteOnly));
    EXPECT_NEAR(g.mix_roof(TrafficMix::kWriteOnly)->roof.value, 4.30e12, 0.005e12);
    ASSERT_TRUE(g.read_bandwidth);
    EXPECT_NEAR(g.read_bandwidth->value, 4.42e12, 0.005e12);
    // The ridge printed is P / B of the envelopes.
    EXPECT_NEAR(g.fit->estimate.roof.ridge_point(), 33e12 / 4.20e12, 0.01);
    EXPECT_TRUE(points_above_roof_beyond_noise(a, 200).empty());
  }
  {
    const FileAnalysis a = analyzed(gpu_mixes(1 / 1.05, 4.0e12, 3.8e12));
    const GroupFit& g = a.groups.at(0).fit;
    ASSERT_TRUE(g.fit && g.bandwidth_mix);
    EXPECT_EQ(*g.bandwidth_mix, TrafficMix::kOneToOne);
    EXPECT_EQ(g.bandwidth_best, "copy n:1");
    EXPECT_NEAR(g.fit->estimate.roof.bandwidth, 4.004e12, 0.005e12);
  }
}

TEST(TrafficMixes, TheReportSaysWhichMixSetsB) {
  TempDir dir;
  const std::string file = dir.path + "/r.json";
  std::ofstream(file) << gpu_mixes(1.05, 4.0e12, 4.0e12).dump();
  const auto r = run_command(kBin + " report " + file + " --out " + dir.path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string md = slurp(dir.path + "/report.md");
  EXPECT_NE(md.find("the envelope, set by the 2:1 mix: **triad n:1**"), std::string::npos) << md;
  EXPECT_NE(md.find("| **B_1:1** (reads : writes 1:1, 0.95 × B) | 4.004 TB/s |"),
            std::string::npos);
  EXPECT_NE(md.find("| **B_write** (write-only, 1.02 × B) | 4.300 TB/s |"), std::string::npos);
  // fit says it too, in words and in --json.
  const auto text = run_command(kBin + " fit " + file);
  EXPECT_NE(text.out.find("B is the envelope, set by the 2:1 mix: triad n:1"), std::string::npos)
      << text.out;
  const auto fit = run_command(kBin + " fit --json " + file);
  ASSERT_EQ(fit.exit_code, 0) << fit.err;
  const json j = json::parse(fit.out).at(0);
  EXPECT_EQ(j["bandwidth_mix"], "2:1");
  EXPECT_EQ(j["bandwidth_set_by"], "triad n:1");
  EXPECT_NEAR(j["mixes"]["1:1"]["value"].get<double>(), 4.004e12, 0.005e12);
  EXPECT_EQ(j["mixes"]["write-only"]["set_by"], "fill n:1");
}

// Library kernels are ceilings: one above B beyond noise (a deep_copy 5 % above our fastest
// kernel) is flagged in the ceilings table and listed; one under its own mix's roof (lib_dot under
// B_read, above B) is not.
TEST(TrafficMixes, ALibraryKernelAboveBBeyondNoiseIsFlagged) {
  const FileAnalysis a = analyzed(gpu_mixes(1.0, 4.2e12, 3.9e12));
  const auto beyond = points_above_roof_beyond_noise(a, 200);
  ASSERT_EQ(beyond.size(), 1u);
  EXPECT_EQ(beyond[0].point->probe, "deep_copy");
  EXPECT_EQ(beyond[0].roof_name, "B");
  EXPECT_NEAR(beyond[0].ratio, 4.2 / 4.004, 0.005);
  EXPECT_GT(beyond[0].measured_ci.low, beyond[0].roof_high);

  TempDir dir;
  const std::string file = dir.path + "/r.json";
  std::ofstream(file) << gpu_mixes(1.0, 4.2e12, 3.9e12).dump();
  const auto r = run_command(kBin + " report " + file + " --out " + dir.path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string md = slurp(dir.path + "/report.md");
  EXPECT_NE(md.find("| `deep_copy/Cuda/fp64/n:1` | – | 4.200 TB/s | 1.05 × B; **above B beyond "
                    "noise** |"),
            std::string::npos)
      << md;
  // The file is named by its GPU ("test gpu"), not its host ("h").
  EXPECT_NE(md.find("| test gpu | `deep_copy/Cuda/fp64/n:1` | library (ceiling) |"),
            std::string::npos);
  const auto lib_dot = md.find("| `lib_dot/Cuda/fp64/n:1` |");
  ASSERT_NE(lib_dot, std::string::npos);
  const std::string row = md.substr(lib_dot, md.find('\n', lib_dot) - lib_dot);
  EXPECT_NE(row.find("0.98 × roof at I = 0.125 (B_read) |"), std::string::npos) << row;
}

// The committed samples: no own verified kernel lies above its roof beyond noise (each roof is the
// envelope of them), on the H200 and on the development VM.
TEST(TrafficMixes, NoOwnPointOfTheSamplesIsAboveItsRoofBeyondNoise) {
  for (const char* sample : {"h200", "dev-vm"}) {
    const FileAnalysis a = analyze(load_results(std::string(ridgeline::test::paths::kSourceDir) +
                                                "/samples/" + sample + "/results.json"),
                                   300);
    int library = 0;
    for (const auto& b : points_above_roof_beyond_noise(a, 300)) {
      EXPECT_EQ(b.point->family, "library") << sample << ": " << b.point->name << " " << b.measured
                                            << " above " << b.roof_name << " " << b.roof_high;
      library += b.point->family == "library";
    }
    // The check has teeth: the samples' library kernels that beat our kernels are caught.
    EXPECT_GT(library, 0) << sample;
    for (const auto& above : points_above_roof(a))
      if (above.reason.empty()) {
        EXPECT_EQ(above.point->family, "library") << sample << ": " << above.point->name;
      }
  }
}

}  // namespace
}  // namespace ridgeline
