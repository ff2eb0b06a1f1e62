// Where DRAM begins (results/memory_plateau.hpp): the plateau rule on recorded sweeps, and the
// reporter taking B, B_read and B_write from points on the recorded plateau only.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <tuple>

#include "core/input_error.hpp"
#include "reports/compare/compare.hpp"
#include "reports/fit/analysis.hpp"
#include "reports/fit/roof_roles.hpp"
#include "reports/render/pyramid_table.hpp"
#include "reports/render/report_markdown.hpp"
#include "results/memory_plateau.hpp"
#include "results/results_file.hpp"
#include "tests/support/test_paths.hpp"

// A named namespace: the unity build puts this file beside others with helpers of the same names.
namespace ridgeline::plateau_test {

using nlohmann::json;

constexpr double kMiB = 1 << 20, kGiB = 1 << 30;

std::vector<PlateauSet> sweep(const std::string& mix,
                              const std::vector<std::pair<double, double>>& bytes_gbs,
                              double spread = 0.005) {
  std::vector<PlateauSet> out;
  for (const auto& [bytes, gbs] : bytes_gbs) out.push_back({mix, bytes, gbs * 1e9, spread, 5});
  return out;
}

// The 2-vCPU Zen 5 VM of the issue "B must be DRAM": a triad of 3 × 64 MiB streamed 73.1 GB/s,
// 3 × 256 MiB 62.5 and 3 × 1 GiB 40.8 (BabelStream), ridgeline's at 2 GiB 38.4–38.6; the sets
// in between and the last one are the smooth fall and flat floor those numbers imply. The old
// rule (64 MiB with the L3 unknown) set B at 99 GB/s from there; the plateau begins at 3 GiB.
TEST(PlateauRule, AVmThatNamesNoLlcFindsDramBeyondItsL3) {
  const auto sets = sweep("update_xy", {{192 * kMiB, 73.1},
                                        {384 * kMiB, 66.0},
                                        {768 * kMiB, 62.5},
                                        {1536 * kMiB, 52.0},
                                        {3 * kGiB, 40.8},
                                        {6 * kGiB, 38.5},
                                        {12 * kGiB, 38.6}});
  const auto start = plateau_start(sets, 0.05, 2);
  ASSERT_TRUE(start);
  EXPECT_EQ(*start, 3 * kGiB);
  // Cut at 6 GiB (a memory limit), two doublings are not there: no plateau, never a guess.
  EXPECT_FALSE(plateau_start({sets.begin(), sets.end() - 1}, 0.05, 2));
  // A tolerance the 40.8 → 38.5 step (5.6 %) exceeds moves the start up an octave, no further.
  const auto strict = plateau_start(
      sweep("update_xy", {{3 * kGiB, 40.8}, {6 * kGiB, 38.5}, {12 * kGiB, 38.6}, {24 * kGiB, 38.4}},
            0),
      0.05, 2);
  ASSERT_TRUE(strict);
  EXPECT_EQ(*strict, 6 * kGiB);
}

// A host whose LLC the context states and this run trusts (the development VM: Xeon, 300 MiB L3):
// 4 × LLC and one doubling beyond it agree, which confirms the context; one doubling is not
// enough where nothing predicted the start.
TEST(PlateauRule, AKnownLlcIsConfirmedByOneDoubling) {
  const auto sets = sweep("read", {{1200 * kMiB, 37.0}, {2400 * kMiB, 36.4}});
  ASSERT_TRUE(plateau_start(sets, 0.05, 1));
  EXPECT_EQ(*plateau_start(sets, 0.05, 1), 1200 * kMiB);
  EXPECT_FALSE(plateau_start(sets, 0.05, 2));
  // Still falling beyond 4 × LLC: not confirmed.
  EXPECT_FALSE(plateau_start(sweep("read", {{1200 * kMiB, 52.0}, {2400 * kMiB, 37.0}}), 0.05, 1));
}

// A nightly whose recorded plateau did not hold searched anew: where tonight's plateau begins at
// or below the recorded DRAM size, the size stands (the DRAM points keep their names); where it
// begins above it, or was not reached, tonight's stands.
TEST(PlateauRule, ARecordedDramSizeOnTonightsPlateauStands) {
  MemoryPlateau recorded;
  recorded.reached = true;
  recorded.start_bytes = recorded.planned_bytes = 1 * kGiB;
  MemoryPlateau tonight;
  tonight.reached = true;
  tonight.start_bytes = tonight.planned_bytes = 256 * kMiB;  // issue 49's night 4 on the Xeon VM
  tonight.basis = "measured";
  EXPECT_TRUE(keep_recorded_dram_size(tonight, recorded));
  EXPECT_EQ(tonight.planned_bytes, 1 * kGiB);
  EXPECT_EQ(tonight.start_bytes, 256 * kMiB);  // where tonight saw it begin, as measured
  EXPECT_NE(tonight.basis.find("the recorded DRAM size (1 GiB) lies on it and stands"),
            std::string::npos)
      << tonight.basis;
  MemoryPlateau higher = tonight;
  higher.start_bytes = higher.planned_bytes = 2 * kGiB;  // the caches grew: a new size
  EXPECT_FALSE(keep_recorded_dram_size(higher, recorded));
  EXPECT_EQ(higher.planned_bytes, 2 * kGiB);
  MemoryPlateau unreached = tonight;
  unreached.reached = false;
  unreached.planned_bytes = 4 * kGiB;
  EXPECT_FALSE(keep_recorded_dram_size(unreached, recorded));
  EXPECT_EQ(unreached.planned_bytes, 4 * kGiB);
}

// Noise widens the tolerance: two sets whose calls spread 3 % each agree 10 % apart, not 12 %.
TEST(PlateauRule, TheCallsSpreadWidensTheTolerance) {
  const PlateauSet a{"read", kGiB, 100e9, 0.03, 5}, b{"read", 2 * kGiB, 90e9, 0.03, 5},
      c{"read", 2 * kGiB, 88e9, 0.03, 5};
  EXPECT_TRUE(not_falling(a, b, 0.05));
  EXPECT_FALSE(not_falling(a, c, 0.05));
  // A larger set that streams faster is noise on the plateau, not a level: DRAM at 1.2 GiB read
  // 15.0 GB/s and at 2.4 GiB 16.4 on this VM while two builds shared its cores.
  EXPECT_TRUE(not_falling({"read", 1200 * kMiB, 15.0e9, 0.01, 5},
                          {"read", 2400 * kMiB, 16.4e9, 0.01, 5}, 0.05));
}

// The committed H200 file's cache sweep (cache_triad, fp64, sets beyond the 60 MiB L2, as the
// file's medians give them): its bandwidth falls from 6.5 to 4.0 TB/s between 64 MiB and 4 GiB,
// so it holds no plateau: what the rule says of a GPU sweep whose sets never settle.
TEST(PlateauRule, TheCommittedH200CacheSweepNeverSettles) {
  const json doc = read_json_file(
      std::string(test::paths::kSourceDir) + "/samples/h200/results-run1-552c340.json",
      "results file");
  std::vector<PlateauSet> sets;
  for (const json& p : doc["points"])
    if (p.value("probe", "") == "cache_triad" && p.value("verified", false) &&
        p["working_set_bytes"].get<double>() > 60 * kMiB) {
      std::vector<double> s = p["samples"].get<std::vector<double>>();
      std::sort(s.begin(), s.end());
      const double bytes = p["bytes"].get<double>(), median = s[s.size() / 2];
      sets.push_back({"update_xy", p["working_set_bytes"].get<double>(), bytes / median,
                      (bytes / s.front() - bytes / s.back()) / 2 / (bytes / median),
                      int(s.size())});
    }
  std::sort(sets.begin(), sets.end(),
            [](const PlateauSet& a, const PlateauSet& b) { return a.bytes < b.bytes; });
  ASSERT_GE(sets.size(), 5u);
  EXPECT_FALSE(plateau_start(sets, 0.05, 2));
}

// --- the reporter on a file that recorded its plateau -----------------------------------------

json point(const std::string& probe, const std::string& family, double ws, double bytes,
           double gbs) {
  const double s = bytes / (gbs * 1e9);
  return {{"name", probe + "/OpenMP/fp64/ws:" + std::to_string(long(ws))},
          {"probe", probe},
          {"family", family},
          {"space", "OpenMP"},
          {"dtype", "fp64"},
          {"working_set_bytes", ws},
          {"flops", bytes / 8},
          {"bytes", bytes},
          {"params", {{"passes", 1}}},
          {"samples", {s * 0.99, s, s * 1.01}},
          {"median_s", s},
          {"verified", true}};
}

json peak() {
  return {{"name", "peak/OpenMP/fp64/k:1024"},
          {"probe", "peak"},
          {"family", "peak"},
          {"space", "OpenMP"},
          {"dtype", "fp64"},
          {"working_set_bytes", 1e3},
          {"flops", 1e10},
          {"bytes", 16},
          {"samples", {0.05, 0.05, 0.05}},
          {"median_s", 0.05},
          {"verified", true}};
}

json plateau(bool reached, double planned = 0) {
  json sets = json::array();
  for (const auto& [bytes, read, rw] :
       std::vector<std::tuple<double, double, double>>{{64 * kMiB, 70, 99},
                                                       {128 * kMiB, 60, 90},
                                                       {256 * kMiB, 50, 70},
                                                       {512 * kMiB, 38, 41},
                                                       {1 * kGiB, 37.5, 40.5},
                                                       {2 * kGiB, 37.2, 40.1}}) {
    sets.push_back({{"mix", "read"},
                    {"bytes", bytes},
                    {"bytes_per_s", read * 1e9},
                    {"spread", 0.01},
                    {"calls", 5}});
    sets.push_back({{"mix", "update_xy"},
                    {"bytes", bytes},
                    {"bytes_per_s", rw * 1e9},
                    {"spread", 0.01},
                    {"calls", 5}});
  }
  return {{"reached", reached},
          {"start_bytes", reached ? json(512 * kMiB) : json()},
          {"planned_bytes", planned > 0 ? planned
                            : reached   ? 512 * kMiB
                                        : 2 * kGiB},
          {"largest_bytes", 2 * kGiB},
          {"llc_bytes", nullptr},
          {"basis", "measured: two doublings beyond it stream no slower, within noise"},
          {"stopped", reached ? "" : "the time budget (15 s, memory_plateau.budget_s) ran out"},
          {"measured_in", "OpenMP"},
          {"tolerance", 0.05},
          {"sets", sets}};
}

// A host whose L3 the context does not name (the VM of the issue): the cache sweep's 64 and
// 128 MiB sets and a stream at 64 MiB run at 90–99 GB/s from that L3. With the plateau recorded
// at 512 MiB, none of them sets B, B_read or B_write: every memory roof is set by a point on the
// plateau, the B row names the plateau, and the report shows the search.
// `planned`: where the DRAM points ran, when not the plateau's start (this harness runs them one
// octave inside); a cache_update at the start then streams from the L3 (the edge moved).
FileAnalysis plateau_file(bool reached, double planned = 0) {
  json context = {
      {"host", {{"hostname", "vm"}}},
      {"cpu",
       {{"model", "AMD EPYC 9R45"},
        {"caches",
         json::array(
             {{{"level", 1}, {"type", "data"}, {"size_bytes", 48 * 1024}, {"shared_by_threads", 1}},
              {{"level", 2},
               {"type", "unified"},
               {"size_bytes", 1 * kMiB},
               {"shared_by_threads", 1}}})},
        {"caches_incomplete", "the L3 from AMD's legacy leaf (508 MiB) is the host's"}}},
      {"spaces", json::array({{{"name", "OpenMP"},
                               {"kind", "host"},
                               {"concurrency", 2},
                               {"device", nullptr},
                               {"memory_plateau", plateau(reached, planned)}}})}};
  const double dram = planned > 0 ? planned : reached ? 512 * kMiB : 2 * kGiB;
  json points = {peak(),
                 point("cache_update", "cache", 64 * kMiB, 2 * 64 * kMiB, 99),
                 point("cache_update", "cache", 128 * kMiB, 2 * 128 * kMiB, 90),
                 point("cache_read", "cache", 64 * kMiB, 64 * kMiB, 70),
                 point("update_xy", "bandwidth", 64 * kMiB, 1.5 * 64 * kMiB, 95),
                 point("cache_update", "cache", 1 * kGiB, 2 * kGiB, 40.6),
                 point("cache_read", "cache", 1 * kGiB, kGiB, 37.4),
                 point("update_xy", "bandwidth", dram, 1.5 * dram, 40.2),
                 point("triad", "bandwidth", dram, dram, 33.0),
                 point("read", "bandwidth", dram, dram, 37.0),
                 point("dot", "bandwidth", dram, dram, 36.5),
                 point("fill", "bandwidth", dram, dram, 20.0)};
  if (planned > 0) points.push_back(point("cache_update", "cache", 512 * kMiB, kGiB, 58.0));
  const json doc = {{"schema_version", "1.4.0"},
                    {"context", context},
                    {"profile", {{"name", "quick"}, {"dram_min_bytes", 64 * kMiB}}},
                    {"points", points}};
  return analyze(parse_results(doc.dump(), "vm.json"), 200);
}

// Every memory roof of every group is set by points at or above where DRAM begins: the check
// that fails when a cache level sets a "DRAM" roof.
void expect_memory_roofs_on_the_plateau(const FileAnalysis& f) {
  for (const auto& g : f.groups) {
    const GroupFit& fit = g.fit;
    const double dram = dram_working_set_bytes(f.results, fit.space);
    ASSERT_GT(dram, 0);
    for (const std::size_t i : fit.bandwidth_points)
      EXPECT_GE(f.results.points[i].working_set_bytes, 0.99 * dram)
          << f.results.points[i].name << " sets B below the DRAM plateau";
    for (const MixRoof& m : fit.mixes)
      for (const std::size_t i : m.points)
        EXPECT_GE(f.results.points[i].working_set_bytes, 0.99 * dram)
            << f.results.points[i].name << " sets a memory roof below the DRAM plateau";
  }
}

TEST(PlateauRoofs, EveryMemoryRoofIsSetOnThePlateau) {
  std::vector<FileAnalysis> files;
  files.push_back(plateau_file(true));
  const FileAnalysis& f = files[0];
  EXPECT_DOUBLE_EQ(dram_working_set_bytes(f.results, "OpenMP"), 512 * kMiB);
  const GroupFit& g = f.groups.at(0).fit;
  ASSERT_TRUE(g.fit) << g.not_fitted;
  EXPECT_NEAR(g.fit->estimate.roof.bandwidth, 40.6e9, 0.5e9) << "the 1 GiB cache_update, not L3";
  ASSERT_TRUE(g.read_bandwidth);
  EXPECT_NEAR(g.read_bandwidth->value, 37.4e9, 0.4e9);
  expect_memory_roofs_on_the_plateau(f);
  EXPECT_EQ(dram_roof_name(f.results, "OpenMP", 512 * kMiB), "DRAM plateau from 512 MiB");
  ASSERT_FALSE(g.caveats.empty());
  EXPECT_NE(g.caveats[0].find("DRAM plateau from 512 MiB"), std::string::npos) << g.caveats[0];
  EXPECT_NE(g.caveats[0].find("a cache level of this host"), std::string::npos) << g.caveats[0];
  const std::string md = render_report_markdown(files, {}, {}, "", "");
  EXPECT_NE(md.find("## Where DRAM begins"), std::string::npos);
  EXPECT_NE(md.find("DRAM plateau from **512 MiB**"), std::string::npos);
  EXPECT_NE(md.find("| 256 MiB | 50.00 GB/s ±1.0 % | 70.00 GB/s ±1.0 % | a cache level |"),
            std::string::npos)
      << md;
}

// The DRAM points one octave inside the plateau (from 512 MiB, run at 1 GiB): a set at the
// start that streamed from the L3 tonight (a neighbour moved the edge) sets no roof, and B's name
// says where the roofs come from.
TEST(PlateauRoofs, ASetOnThePlateausEdgeSetsNoRoof) {
  std::vector<FileAnalysis> files;
  files.push_back(plateau_file(true, 1 * kGiB));
  const FileAnalysis& f = files[0];
  EXPECT_DOUBLE_EQ(dram_working_set_bytes(f.results, "OpenMP"), 1 * kGiB);
  const GroupFit& g = f.groups.at(0).fit;
  ASSERT_TRUE(g.fit) << g.not_fitted;
  EXPECT_NEAR(g.fit->estimate.roof.bandwidth, 40.6e9, 0.5e9) << "not the 512 MiB edge's 58";
  expect_memory_roofs_on_the_plateau(f);
  EXPECT_EQ(dram_roof_name(f.results, "OpenMP", 1 * kGiB),
            "DRAM plateau from 512 MiB (roofs from 1 GiB)");
  const std::string md = render_report_markdown(files, {}, {}, "", "");
  EXPECT_NE(md.find("The DRAM points ran at 1 GiB, inside it, and B, B_read and B_write come from "
                    "points at or beyond that size"),
            std::string::npos)
      << md;
}

// The same file where the search ran out of time: the DRAM points ran at the largest set, only
// they count, and B is never called DRAM.
TEST(PlateauRoofs, NoPlateauIsNeverCalledDram) {
  std::vector<FileAnalysis> files;
  files.push_back(plateau_file(false));
  const FileAnalysis& f = files[0];
  EXPECT_DOUBLE_EQ(dram_working_set_bytes(f.results, "OpenMP"), 2 * kGiB);
  expect_memory_roofs_on_the_plateau(f);
  const std::string name = dram_roof_name(f.results, "OpenMP", 2 * kGiB);
  EXPECT_EQ(name, "a cache level or DRAM: no plateau up to 2 GiB, DRAM not reached");
  const GroupFit& g = f.groups.at(0).fit;
  ASSERT_FALSE(g.caveats.empty());
  EXPECT_NE(g.caveats[0].find("DRAM not reached"), std::string::npos) << g.caveats[0];
  EXPECT_NE(g.caveats[0].find("never as DRAM"), std::string::npos) << g.caveats[0];
  const std::string md = render_report_markdown(files, {}, {}, "", "");
  EXPECT_NE(md.find("**DRAM not reached**"), std::string::npos);
}

// The L2 a kernel sees: where a set that fits the stated 60 MiB already streams below the L2's
// plateau (an H200 read at L2 speed to about 44 MB in gpu-benches' sweep), the pyramid names
// how far the plateau was seen; an octave grid's last set below a capacity says nothing.
TEST(PlateauRoofs, ThePyramidNamesTheL2CapacityTheSweepSaw) {
  const auto gpu_point = [](const std::string& probe, const std::string& family, double ws,
                            double bytes, double tbs) {
    json p = point(probe, family, ws, bytes, tbs * 1e3);
    p["space"] = "Cuda";
    p["name"] = probe + "/Cuda/fp64/ws:" + std::to_string(long(ws));
    return p;
  };
  const auto file = [&](double middle_ws) {
    json points = json::array();
    for (double ws : {4 * kMiB, 8 * kMiB, 16 * kMiB, 32 * kMiB})
      points.push_back(gpu_point("cache_read", "cache", ws, 64 * ws, 9.0));
    points.push_back(gpu_point("cache_read", "cache", middle_ws, 64 * middle_ws, 5.0));
    for (double ws : {128 * kMiB, 256 * kMiB, 512 * kMiB})
      points.push_back(gpu_point("cache_read", "cache", ws, 64 * ws, 4.4));
    points.push_back(gpu_point("read", "bandwidth", 4 * kGiB, 4 * kGiB, 4.4));
    json p = peak();
    p["space"] = "Cuda";
    p["name"] = "peak/Cuda/fp64/k:1024";
    points.push_back(p);
    const json context = {
        {"host", {{"hostname", "gpu"}}},
        {"spaces",
         json::array({{{"name", "Cuda"},
                       {"kind", "device"},
                       {"concurrency", 270336},
                       {"device", {{"name", "NVIDIA H200"}, {"l2_bytes", 60 * kMiB}}}}})}};
    std::vector<FileAnalysis> files;
    files.push_back(analyze(
        parse_results(
            json({{"schema_version", "1.4.0"}, {"context", context}, {"points", points}}).dump(),
            "gpu.json"),
        200));
    std::string md;
    memory_pyramid(md, files, {});
    return md;
  };
  const std::string seen = file(48 * kMiB);
  EXPECT_NE(seen.find("| L2 | 60 MiB (its plateau seen to 32 MiB) |"), std::string::npos) << seen;
  const std::string octaves = file(64 * kMiB);
  EXPECT_NE(octaves.find("| L2 | 60 MiB |"), std::string::npos) << octaves;
}

// A hostile or broken record gets one line naming the field, never a wrong roof.
TEST(PlateauRoofs, ABrokenRecordNamesItsField) {
  const auto error_of = [](const json& p) {
    try {
      memory_plateau_from_json(p, "r.json", "context.spaces[0].memory_plateau");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  json p = plateau(true);
  p["start_bytes"] = nullptr;
  EXPECT_NE(error_of(p).find("memory_plateau.start_bytes"), std::string::npos) << error_of(p);
  p = plateau(true);
  p["sets"][3]["bytes_per_s"] = -1;
  EXPECT_NE(error_of(p).find("memory_plateau.sets[3].bytes_per_s"), std::string::npos)
      << error_of(p);
  p = plateau(true);
  p["sets"] = "many";
  EXPECT_NE(error_of(p).find("memory_plateau.sets"), std::string::npos) << error_of(p);
  p = plateau(true);
  p["tolerance"] = 7;
  EXPECT_NE(error_of(p).find("memory_plateau.tolerance"), std::string::npos) << error_of(p);
  EXPECT_EQ(error_of(plateau(true)), "");
}

// --- nights whose DRAM plateau moved (compare/point_rows.hpp) -----------------------------------

// A night of the VM above with its plateau from `dram` (the DRAM-sized points run there, named
// by their size, and the ladder's lowest rung, named without it), the DRAM points' rates ×
// `dram_speed`, the cache sweep's last set at the plateau, and a cache_read set of 768 MiB that
// the sweep ran only where the plateau began below it. `lost`: a bandwidth probe the night lacks.
FileAnalysis night_on_plateau(double dram, double dram_speed, bool with_768 = true,
                              double jitter = 0, bool with_rung = true,
                              const std::string& lost = "") {
  json plateau_record = plateau(true);
  plateau_record["start_bytes"] = dram;
  plateau_record["planned_bytes"] = dram;
  json context = {{"host", {{"hostname", "vm"}}},
                  {"cpu", {{"model", "AMD EPYC 9R45"}, {"caches", json::array()}}},
                  {"spaces", json::array({{{"name", "OpenMP"},
                                           {"kind", "host"},
                                           {"concurrency", 2},
                                           {"device", nullptr},
                                           {"memory_plateau", plateau_record}}})}};
  json points = {peak(),
                 point("cache_update", "cache", 64 * kMiB, 2 * 64 * kMiB, 99),
                 point("cache_read", "cache", 64 * kMiB, 64 * kMiB, 70),
                 point("cache_read", "cache", 16 * kMiB, 16 * kMiB, 120),
                 point("cache_update", "cache", 16 * kMiB, 2 * 16 * kMiB, 140),
                 point("cache_read", "cache", 4 * kMiB, 4 * kMiB, 200),
                 point("cache_update", "cache", 4 * kMiB, 2 * 4 * kMiB, 240)};
  if (with_768) points.push_back(point("cache_read", "cache", 768 * kMiB, 768 * kMiB, 37.4));
  points.push_back(point("cache_read", "cache", dram, dram, 37.4 * dram_speed));
  for (const auto& [probe, traffic, gbs] : std::vector<std::tuple<std::string, double, double>>{
           {"update_xy", 1.5, 40.2}, {"triad", 1, 33.0}, {"read", 1, 37.0}, {"dot", 1, 36.5}})
    if (probe != lost)
      points.push_back(point(probe, "bandwidth", dram, traffic * dram, gbs * dram_speed));
  if (with_rung) {
    json rung = point("fma", "fma", dram, dram, 39.0 * dram_speed);
    rung["name"] = "fma/OpenMP/fp64/k:1";
    points.push_back(rung);
  }
  // Seven repetitions a point, a night's own jitter on them: enough for the rank test.
  for (json& p : points) {
    const double m = p["median_s"].get<double>();
    p["samples"] = json::array();
    for (int i = 0; i < 7; ++i) p["samples"].push_back(m * (0.99 + 0.003 * i + jitter));
    p["median_s"] = p["samples"][3];
  }
  const json doc = {{"schema_version", "1.4.0"},
                    {"context", context},
                    {"profile", {{"name", "quick"}, {"dram_min_bytes", 64 * kMiB}}},
                    {"points", points}};
  return analyze(parse_results(doc.dump(), "vm.json"), 200);
}

const MetricComparison* metric(const Comparison& c, const std::string& name) {
  for (const auto* list : {&c.points, &c.roofs})
    for (const MetricComparison& m : *list)
      if (m.metric == name) return &m;
  return nullptr;
}

// Issue 49's recorded series: the plateau search found 256 MiB on most nights of a 2-vCPU VM
// and 512 MiB or 1 GiB on others, and every DRAM point of such a night was MISSING (renamed) or,
// where its name has no size (the ladder's rungs), compared by time at four times the work.
TEST(PlateauMoved, DramPointsAreComparedByRoleAndPerUnitOfWork) {
  const FileAnalysis n1 = night_on_plateau(512 * kMiB, 1, true, 0),
                     n2 = night_on_plateau(512 * kMiB, 1, true, 0.002),
                     n3 = night_on_plateau(512 * kMiB, 1, true, -0.002);
  const std::vector<const FileAnalysis*> history = {&n1, &n2, &n3};
  const std::string triad = "triad/OpenMP/fp64/ws:" + std::to_string(long(512 * kMiB));
  const std::string set_768 = "cache_read/OpenMP/fp64/ws:" + std::to_string(long(768 * kMiB));
  {
    // The same machine, its plateau found from 1 GiB tonight: nothing lost, nothing slower.
    const FileAnalysis moved = night_on_plateau(1 * kGiB, 1, false);
    const Comparison c = compare_history(history, moved, {});
    for (const auto* list : {&c.points, &c.roofs})
      for (const MetricComparison& m : *list)
        EXPECT_TRUE(m.verdict != Verdict::kMissing && m.verdict != Verdict::kSlower)
            << m.metric << " " << verdict_name(m.verdict) << ": " << m.note;
    const MetricComparison* t = metric(c, triad);
    ASSERT_TRUE(t);
    EXPECT_NEAR(t->change, 0, 0.02);
    EXPECT_NE(t->note.find("compared per unit of work: tonight as triad/OpenMP/fp64/ws:" +
                           std::to_string(long(kGiB)) + " × 2 of its work"),
              std::string::npos)
        << t->note;
    const auto skipped =
        std::find_if(c.not_compared.begin(), c.not_compared.end(),
                     [&](const std::string& s) { return s.rfind(set_768, 0) == 0; });
    ASSERT_NE(skipped, c.not_compared.end());
    EXPECT_NE(skipped->find("sized by the DRAM plateau, which moved from 512 MiB to 1024 MiB"),
              std::string::npos)
        << *skipped;
  }
  {
    // A slower memory is still caught when the plateau moved: per byte, point by point.
    const FileAnalysis slower = night_on_plateau(1 * kGiB, 0.8, false);
    const Comparison c = compare_history(history, slower, {});
    const MetricComparison* t = metric(c, triad);
    ASSERT_TRUE(t);
    EXPECT_EQ(t->verdict, Verdict::kSlower) << t->note;
    EXPECT_NEAR(t->change, -0.2, 0.02);
  }
  {
    // Moved, but the lost point's name does not say its size (the ladder's rung): tonight would
    // have it by that name at any size, so it is lost, not "not compared".
    const FileAnalysis lost = night_on_plateau(1 * kGiB, 1, false, 0, false);
    const Comparison c = compare_history(history, lost, {});
    const MetricComparison* m = metric(c, "fma/OpenMP/fp64/k:1");
    ASSERT_TRUE(m);
    EXPECT_EQ(m->verdict, Verdict::kMissing) << m->note;
    // Present, it is compared per unit of work like the others.
    const FileAnalysis kept = night_on_plateau(1 * kGiB, 1, false);
    const Comparison with_rung = compare_history(history, kept, {});
    const MetricComparison* k = metric(with_rung, "fma/OpenMP/fp64/k:1");
    ASSERT_TRUE(k);
    EXPECT_NE(k->verdict, Verdict::kMissing);
  }
  {
    // Moved, and tonight ran no triad on its plateau: lost, not "not compared" (the sweep runs
    // every DRAM-sized probe at the night's own plateau).
    const FileAnalysis lost = night_on_plateau(1 * kGiB, 1, false, 0, true, "triad");
    const Comparison c = compare_history(history, lost, {});
    const MetricComparison* m = metric(c, triad);
    ASSERT_TRUE(m);
    EXPECT_EQ(m->verdict, Verdict::kMissing) << m->note;
    // The others of its night are compared as before.
    const MetricComparison* d = metric(c, "dot/OpenMP/fp64/ws:" + std::to_string(long(512 * kMiB)));
    ASSERT_TRUE(d);
    EXPECT_NE(d->verdict, Verdict::kMissing) << d->note;
  }
  {
    // Where the plateau did not move, a lost set on it is MISSING as before.
    const FileAnalysis lost = night_on_plateau(512 * kMiB, 1, false);
    const Comparison c = compare_history(history, lost, {});
    const MetricComparison* m = metric(c, set_768);
    ASSERT_TRUE(m);
    EXPECT_EQ(m->verdict, Verdict::kMissing);
  }
}

}  // namespace ridgeline::plateau_test
