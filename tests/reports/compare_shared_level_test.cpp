// The gate on a host whose L3 is shared with other tenants (issue 49): points whose working set
// lies in a cache level the run does not own are judged against the range their history shows,
// so a neighbour taking the L3 is not a regression, while a slowdown of the DRAM plateau, of P or
// of a private level still fails the night.
//
// The nights are constructed here from the issue's numbers (a 2-vCPU EPYC VM whose L3 the VM
// reports only through AMD's legacy leaf, left out as caches_incomplete): the point that set B,
// `update_xy` at 64 MiB, streams at the night's B of the issue's table (fp64 122.9 131.3 133.2
// 146.7 147.5 134.8 67.6 64.2 GB/s; fp32 95.1 119.6 134.1 139.0 145.2 67.9 74.4 59.6), and the
// other sets of 32–64 MiB (dot, the cache sweep) have two states, steady on the nights B was high
// and 40–58 % lower on those it fell below 60 % of its best (fp64 nights 7–8, fp32 nights 6–8);
// DRAM at 2 GiB (triad 38.5 GB/s), the private L1/L2 sets and the peak are steady. Noise is
// drawn from a fixed seed: the verdicts depend on nothing this machine measures. The profile's
// dram_min_bytes of 1 GiB stands for where the DRAM plateau begins on that VM (issue 45 measures
// it; 2 GiB triads ran at 38.4–38.6 GB/s there). The same nights with a cache list that knows
// the L3 (32 MiB, shared only by the run's 2 threads) are a host whose LLC the run owns, and the
// H200 sample (samples/h200) a GPU.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <set>

#include "reports/compare/cache_ownership.hpp"
#include "reports/compare/shared_level.hpp"
#include "tests/reports/cli_test_support.hpp"
#include "tests/support/test_paths.hpp"

namespace ridgeline {
namespace {

using namespace test;
using Json = nlohmann::json;

constexpr double kGiB = 1024.0 * 1024 * 1024, kMiB = 1024.0 * 1024, kKiB = 1024;

// The issue's fitted B per night (GB/s), set by the 32–64 MiB sets in the shared L3.
constexpr double kSharedB64[8] = {122.9, 131.3, 133.2, 146.7, 147.5, 134.8, 67.6, 64.2};
constexpr double kSharedB32[8] = {95.1, 119.6, 134.1, 139.0, 145.2, 67.9, 74.4, 59.6};

// Deterministic noise in [-amplitude, amplitude] (triangular), from a seed of its own.
class Noise {
 public:
  explicit Noise(std::uint64_t seed) : gen_(seed) {}
  double operator()(double amplitude) { return amplitude * (unit() + unit() - 1); }

 private:
  double unit() { return double(gen_() >> 11) * 0x1.0p-53; }
  std::mt19937_64 gen_;
};

// Where a constructed point's working set lives, which decides how it moves between nights.
enum class Where { kPrivate, kShared, kDram, kPeak };

struct Spec {
  std::string probe, family, dtype, axis;  // axis: "ws:…", "n:…", "k:…"
  Where where;
  double working_set, bytes, flops;
  double rate;  // byte/s (flop/s for peaks) on a night with the L3 to itself
  // L3 sets other than update_xy: their rate when a neighbour holds the L3, as a share of `rate`.
  double low_state = 1;
};

// The points of one night: the quick profile's families on OpenMP, fp64 and fp32.
std::vector<Spec> specs() {
  std::vector<Spec> s;
  for (const std::string dt : {"fp64", "fp32"}) {
    const double e = dt == "fp64" ? 8 : 4, peak = dt == "fp64" ? 115e9 : 230e9;
    const auto n = [e](double ws, int arrays) { return fmt::format("n:{:.0f}", ws / e / arrays); };
    s.push_back({"peak", "peak", dt, "k:1024", Where::kPeak, 256, 256, 4e8, peak});
    // The in-place ladder: 2k FLOP per element, read and written once (intensity k / e).
    for (int k : {256, 1024, 4096}) {
      const double ws = k == 256 ? kMiB : k == 1024 ? 512 * kKiB : 256 * kKiB;
      s.push_back({"fma", "fma", dt, fmt::format("k:{}", k), Where::kPrivate, ws, 2 * ws,
                   2 * k * ws / e, 0.97 * peak * e / k});
    }
    s.push_back({"fma", "fma", dt, "k:64", Where::kShared, 16 * kMiB, 32 * kMiB,
                 2 * 64 * 16 * kMiB / e, 0.9 * peak * e / 64});
    for (int k : {1, 4})
      s.push_back({"fma", "fma", dt, fmt::format("k:{}", k), Where::kDram, 2 * kGiB, 4 * kGiB,
                   2 * k * 2 * kGiB / e, 45e9});
    s.push_back(
        {"copy", "bandwidth", dt, n(2 * kGiB, 2), Where::kDram, 2 * kGiB, 2 * kGiB, 0, 30e9});
    s.push_back({"triad", "bandwidth", dt, n(2 * kGiB, 3), Where::kDram, 2 * kGiB, 2 * kGiB,
                 2 * 2 * kGiB / 3 / e, 38.5e9});
    s.push_back({"read", "bandwidth", dt, n(2 * kGiB, 1), Where::kDram, 2 * kGiB, 2 * kGiB,
                 2 * kGiB / e, 40e9});
    s.push_back({"dot", "bandwidth", dt, n(32 * kMiB, 2), Where::kShared, 32 * kMiB, 32 * kMiB,
                 2 * 32 * kMiB / 2 / e, 120e9, 0.42});
    s.push_back({"update_xy", "bandwidth", dt, n(64 * kMiB, 2), Where::kShared, 64 * kMiB,
                 96 * kMiB, 2 * 64 * kMiB / 2 / e, 0});  // rate: the night's B (above)
  }
  // The cache sweep, fp64 as in the quick profile: L1 (2 × 48 KiB), L2 (2 × 1 MiB), the L3.
  const auto cache = [&s](const char* probe, double ws, Where where, double rate,
                          double low_state = 1) {
    s.push_back({probe, "cache", "fp64", fmt::format("ws:{:.0f}", ws), where, ws,
                 std::string(probe) == "cache_update" ? 2 * ws : ws, ws / 8, rate, low_state});
  };
  cache("cache_read", 32 * kKiB, Where::kPrivate, 400e9);
  cache("cache_read", 64 * kKiB, Where::kPrivate, 390e9);
  cache("cache_read", 512 * kKiB, Where::kPrivate, 200e9);
  cache("cache_read", kMiB, Where::kPrivate, 195e9);
  cache("cache_update", 64 * kKiB, Where::kPrivate, 380e9);
  cache("cache_update", kMiB, Where::kPrivate, 190e9);
  cache("cache_read", 32 * kMiB, Where::kShared, 170e9, 0.5);
  cache("cache_read", 64 * kMiB, Where::kShared, 150e9, 0.45);
  cache("cache_update", 32 * kMiB, Where::kShared, 160e9, 0.55);
  cache("cache_update", 64 * kMiB, Where::kShared, 147.5e9, 0.6);
  return s;
}

std::string name_of(const Spec& s) { return s.probe + "/OpenMP/" + s.dtype + "/" + s.axis; }

// One night (0-based) of the shared-cache host: its context says the LLC is unknown, unless
// `owned_l3`, which records the L3 the run owns.
Json night(int i, bool owned_l3 = false) {
  Json doc = fixture("cpu_run_a.json");
  doc["profile"]["dram_min_bytes"] = 1 * kGiB;
  Json& cpu = doc["context"]["cpu"];
  cpu["model"] = "AMD EPYC 9R45 (constructed from issue 49)";
  if (!owned_l3) {
    cpu["caches"].erase(2);  // the L3
    cpu["caches_incomplete"] =
        "L3 left out: the legacy leaf 0x80000006 gives 508 MiB without saying which threads "
        "share it (on a VM, often the host package's), and no topology leaf tells";
  }
  const Json tmpl = doc["points"][0];
  doc["points"] = Json::array();
  Noise night_noise(1000 + std::uint64_t(i));
  const double night_factor = 1 + night_noise(0.004);  // the machine, the same for every point
  const std::vector<Spec> all = specs();
  for (std::size_t k = 0; k < all.size(); ++k) {
    const Spec& s = all[k];
    Noise noise(std::uint64_t(i) * 7919 + k);
    double rate = s.rate;
    const double* b = s.dtype == "fp64" ? kSharedB64 : kSharedB32;
    // A neighbour holds the L3 on the nights whose B fell below 60 % of the best.
    const bool taken = b[i] < 0.6 * *std::max_element(b, b + 8);
    if (s.probe == "update_xy")
      rate = b[i] * 1e9;
    else if (taken)
      rate *= s.low_state;
    // Each night a little apart, each sample a little more.
    const double t =
        (s.where == Where::kPeak ? s.flops : s.bytes) / rate * night_factor * (1 + noise(0.004));
    Json p = tmpl;
    p["name"] = name_of(s);
    p["probe"] = s.probe;
    p["family"] = s.family;
    p["dtype"] = s.dtype;
    p["working_set_bytes"] = s.working_set;
    p["elements"] = s.working_set / (s.dtype == "fp64" ? 8 : 4);
    p["bytes"] = s.bytes;
    p["flops"] = s.flops;
    p["intensity"] = s.bytes > 0 ? s.flops / s.bytes : 0.0;
    p["params"] = s.probe == "fma" ? Json{{"form", "in_place"}} : Json::object();
    Json samples = Json::array();
    for (int r = 0; r < 8; ++r) samples.push_back(t * (1 + noise(0.008)));
    std::vector<double> sorted = samples.get<std::vector<double>>();
    std::sort(sorted.begin(), sorted.end());
    const double med = 0.5 * (sorted[3] + sorted[4]);
    p["samples"] = samples;
    p["median_s"] = med;
    p["min_s"] = sorted.front();
    p["max_s"] = sorted.back();
    p["bytes_per_s"] = s.bytes > 0 ? Json(s.bytes / med) : Json(nullptr);
    p["flops_per_s"] = s.flops > 0 ? Json(s.flops / med) : Json(nullptr);
    doc["points"].push_back(p);
  }
  return doc;
}

// Times × f (rates ÷ f) of the points `which` selects.
Json slowed(Json doc, double f, const std::function<bool(const Json&)>& which) {
  for (auto& p : doc["points"]) {
    if (!p["median_s"].is_number() || !which(p)) continue;
    for (auto& s : p["samples"]) s = s.get<double>() * f;
    for (const char* k : {"median_s", "min_s", "max_s"}) p[k] = p[k].get<double>() * f;
    for (const char* rate : {"flops_per_s", "bytes_per_s"})
      if (p[rate].is_number()) p[rate] = p[rate].get<double>() / f;
  }
  return doc;
}

// What a constructed point was built as, by its name.
Where where_of(const std::string& name) {
  for (const Spec& s : specs())
    if (name_of(s) == name) return s.where;
  throw std::runtime_error("not a constructed point: " + name);
}
Where where_of(const Json& point) { return where_of(point["name"].get<std::string>()); }

struct GateRun {
  CommandResult r;
  Json j;
  const Json& metric(const std::string& name) const {
    for (const auto& m : j["metrics"])
      if (m["metric"] == name) return m;
    throw std::runtime_error("no metric " + name + ":\n" + r.out);
  }
  int count(const char* verdict) const { return j["counts"][verdict].get<int>(); }
};

class CompareSharedLevel : public ::testing::Test {
 protected:
  // `again`: tonight's re-measures, in order (compare --confirm).
  GateRun gate(const std::vector<Json>& history, const Json& tonight,
               const std::vector<Json>& again = {}) {
    std::string files, confirm;
    for (std::size_t i = 0; i < history.size(); ++i) {
      const std::string f = dir_.path + "/night-" + std::to_string(i) + ".json";
      write_json(f, history[i]);
      files += f + " ";
    }
    for (std::size_t i = 0; i < again.size(); ++i) {
      const std::string f = dir_.path + "/again-" + std::to_string(i) + ".json";
      write_json(f, again[i]);
      confirm += " --confirm " + f;
    }
    write_json(dir_.path + "/tonight.json", tonight);
    std::filesystem::remove(dir_.path + "/c.json");
    GateRun run{run_command(kBin + " compare " + files + dir_.path + "/tonight.json --json " +
                            dir_.path + "/c.json" + confirm),
                nullptr};
    if (std::filesystem::exists(dir_.path + "/c.json"))
      run.j = Json::parse(slurp(dir_.path + "/c.json"));
    return run;
  }
  // Nights [0, n) of a host.
  static std::vector<Json> nights(int n, bool owned_l3 = false) {
    std::vector<Json> h;
    for (int i = 0; i < n; ++i) h.push_back(night(i, owned_l3));
    return h;
  }
  TempDir dir_;
};

const std::string kUpdate64 = "update_xy/OpenMP/fp64/n:4194304";
const std::string kUpdate32 = "update_xy/OpenMP/fp32/n:8388608";

// An OpenMP fp64 point of `family` (a cache sweep's read by default) with working set `ws`.
Point cache_point(double ws, const std::string& family = "cache") {
  Point p;
  p.probe = family == "cache" ? "cache_read" : family;
  p.family = family;
  p.space = "OpenMP";
  p.dtype = "fp64";
  p.working_set_bytes = ws;
  return p;
}

// Which levels the run owns, from the cache list and the space's threads.
TEST(CacheOwnership, ALevelIsTheRunsWhenItsThreadsAloneShareIt) {
  Results r;
  r.caches = {{1, "data", 48 * kKiB, 1, 64},
              {1, "instruction", 32 * kKiB, 1, 64},
              {2, "unified", kMiB, 1, 64},
              {3, "unified", 32 * kMiB, 64, 1}};
  r.spaces = {{"OpenMP", "host", 2, std::nullopt, std::nullopt}};
  const auto at = [](double ws) {
    Point p;
    p.space = "OpenMP";
    p.working_set_bytes = ws;
    return p;
  };
  EXPECT_EQ(unowned_level_reason(r, at(64 * kKiB)), "");  // the two threads' L1s
  EXPECT_EQ(unowned_level_reason(r, at(2 * kMiB)), "");   // their L2s
  // A cache sweep's set within an octave of a capacity is split between two levels.
  const auto swept = [&at](double ws) {
    Point p = at(ws);
    p.family = "cache";
    return p;
  };
  EXPECT_EQ(unowned_level_reason(r, swept(512 * kKiB)), "");
  EXPECT_NE(
      unowned_level_reason(r, swept(2 * kMiB)).find("within an octave of the L2 capacity (2 MiB)"),
      std::string::npos)
      << unowned_level_reason(r, swept(2 * kMiB));
  // Beyond the L2's edge into an L3 shared by 64 threads: the sharing is the reason.
  EXPECT_NE(unowned_level_reason(r, swept(4 * kMiB)).find("shared by 64 threads"),
            std::string::npos);
  EXPECT_NE(unowned_level_reason(r, swept(128 * kKiB))
                .find("within an octave of the L1 capacity (96 KiB)"),
            std::string::npos);
  EXPECT_EQ(unowned_level_reason(r, at(16 * kMiB)),
            "L3 (32 MiB) is shared by 64 threads, the run has 2");
  // Past the L3, below DRAM (4 × the L3): still partly in it.
  EXPECT_NE(unowned_level_reason(r, at(64 * kMiB)), "");
  EXPECT_EQ(unowned_level_reason(r, at(128 * kMiB)), "");  // DRAM
  r.caches[3].shared_by_threads = 2;                       // a VM's whole L3, both vCPUs the run's
  EXPECT_EQ(unowned_level_reason(r, at(16 * kMiB)), "");
  r.caches.pop_back();  // the L3 unknown
  r.caches_incomplete = "L3 left out";
  r.dram_min_bytes = 1 * kGiB;
  EXPECT_EQ(unowned_level_reason(r, at(2 * kMiB)), "");
  EXPECT_NE(
      unowned_level_reason(r, at(16 * kMiB)).find("last-level cache of unknown size (L3 left out)"),
      std::string::npos);
  EXPECT_EQ(unowned_level_reason(r, at(2 * kGiB)), "");
  // A GPU's caches are the run's.
  r.spaces.push_back({"Cuda", "device", 1, DeviceInfo{"GPU", 50 * kMiB, 0, 0, 132}, std::nullopt});
  Point g = at(16 * kMiB);
  g.space = "Cuda";
  EXPECT_EQ(unowned_level_reason(r, g), "");
}

// What compare.json's `level` says of a point (point_level): the smallest level of the cache list
// that holds its working set, as many copies as the space's threads fill; the DRAM plateau by the
// gate's rule; nothing for P's register-only points or where the file records no caches.
TEST(CacheOwnership, EachPointIsNamedByTheLevelThatHoldsItsWorkingSet) {
  Results r;
  r.spaces.push_back({"OpenMP", "host", 2, std::nullopt, std::nullopt});
  r.caches = {{1, "data", 48 * kKiB, 1, 2},
              {2, "unified", 1 * kMiB, 1, 2},
              {3, "unified", 32 * kMiB, 2, 1}};
  const auto level = [&r](const Point& p) { return point_level(r, p).value_or("null"); };
  EXPECT_EQ(level(cache_point(64 * kKiB)), "L1");  // the two threads' L1s: 96 KiB
  EXPECT_EQ(level(cache_point(512 * kKiB)), "L2");
  EXPECT_EQ(level(cache_point(2 * kMiB)), "L2");  // their L2s: 2 MiB
  EXPECT_EQ(level(cache_point(16 * kMiB)), "L3");
  EXPECT_EQ(level(cache_point(64 * kMiB)),
            "beyond the listed caches");  // partly the L3, below DRAM
  EXPECT_EQ(level(cache_point(128 * kMiB, "bandwidth")), "DRAM plateau");  // 4 x the L3
  EXPECT_EQ(level(cache_point(256, "peak")), "null");  // P: registers, its output
  EXPECT_EQ(level(cache_point(0, "fma")), "null");     // no working set
  // A measured plateau decides where DRAM begins.
  MemoryPlateau plateau;
  plateau.reached = true;
  plateau.start_bytes = plateau.planned_bytes = 512 * kMiB;
  r.spaces[0].plateau = plateau;
  EXPECT_EQ(level(cache_point(128 * kMiB, "bandwidth")), "beyond the listed caches");
  EXPECT_EQ(level(cache_point(512 * kMiB, "bandwidth")), "DRAM plateau");
  // An incomplete list (the L3 unknown): beyond the L2 and below the plateau.
  r.spaces[0].plateau.reset();
  r.caches.pop_back();
  r.caches_incomplete = "L3 left out";
  r.dram_min_bytes = 1 * kGiB;
  EXPECT_EQ(level(cache_point(64 * kKiB)), "L1");
  EXPECT_EQ(level(cache_point(16 * kMiB)), "beyond the listed caches");
  EXPECT_EQ(level(cache_point(2 * kGiB, "bandwidth")), "DRAM plateau");
  // No cache list: nothing to name but the DRAM plateau.
  r.caches.clear();
  EXPECT_EQ(level(cache_point(64 * kKiB)), "null");
  EXPECT_EQ(level(cache_point(2 * kGiB, "bandwidth")), "DRAM plateau");
  // A GPU: one SM's L1, the L2, then device memory from 4 x the L2.
  DeviceInfo h200;
  h200.l2_bytes = 60 * kMiB;
  h200.l1_per_unit_bytes = 256 * kKiB;
  h200.units = 132;
  r.spaces.push_back({"Cuda", "device", 1, h200, std::nullopt});
  Point g = cache_point(128 * kKiB);
  g.space = "Cuda";
  EXPECT_EQ(level(g), "L1");
  g.working_set_bytes = 32 * kMiB;
  EXPECT_EQ(level(g), "L2");
  g.working_set_bytes = 1 * kGiB;
  EXPECT_EQ(level(g), "DRAM plateau");
}

// Under a hypervisor no cache level is known to be the run's: a vCPU's per-core L1 and L2 may
// serve an SMT sibling of another tenant that the VM's cache list cannot show.
TEST(CacheOwnership, UnderAHypervisorNoCacheLevelIsTheRuns) {
  Results r;
  r.caches = {{1, "data", 48 * kKiB, 1, 2}, {2, "unified", 2 * kMiB, 1, 2}};
  r.spaces = {{"OpenMP", "host", 2, std::nullopt, std::nullopt}};
  r.dram_min_bytes = 512 * kMiB;
  Point p;
  p.space = "OpenMP";
  p.working_set_bytes = 1 * kMiB;  // inside the two L2s
  EXPECT_EQ(unowned_level_reason(r, p), "");
  r.cpu_hypervisor = true;
  EXPECT_NE(unowned_level_reason(r, p).find("L2 (2 MiB): this CPU runs under a hypervisor"),
            std::string::npos)
      << unowned_level_reason(r, p);
  p.working_set_bytes = 16 * kKiB;
  EXPECT_NE(unowned_level_reason(r, p).find("L1 (48 KiB)"), std::string::npos);
  p.working_set_bytes = 1 * kGiB;  // DRAM: judged as before
  EXPECT_EQ(unowned_level_reason(r, p), "");
  r.cpu_hypervisor = false;
  p.working_set_bytes = 1 * kMiB;
  EXPECT_EQ(unowned_level_reason(r, p), "");
}

// Which levels are judged as a whole too (private_level): those the cache list gives the run
// alone, under a hypervisor as well (its list's word on its own cores); not a level shared with
// more threads than the run has, the DRAM plateau, a set beyond the list, or P's points.
TEST(CacheOwnership, APrivateLevelIsOneTheCacheListGivesTheRunAlone) {
  Results r;
  r.caches = {{1, "data", 48 * kKiB, 1, 2},
              {2, "unified", 2 * kMiB, 1, 2},
              {3, "unified", 32 * kMiB, 64, 1}};
  r.spaces = {{"OpenMP", "host", 2, std::nullopt, std::nullopt}};
  r.dram_min_bytes = 512 * kMiB;
  const auto level = [&r](const Point& p) { return private_level(r, p).value_or("none"); };
  for (bool vm : {false, true}) {
    r.cpu_hypervisor = vm;
    EXPECT_EQ(level(cache_point(32 * kKiB)), "L1");
    EXPECT_EQ(level(cache_point(1 * kMiB)), "L2");
    EXPECT_EQ(level(cache_point(16 * kMiB)), "none");              // an L3 of 64 threads
    EXPECT_EQ(level(cache_point(1 * kGiB, "bandwidth")), "none");  // the DRAM plateau
    EXPECT_EQ(level(cache_point(256, "peak")), "none");            // P's: judged as P
  }
  r.caches[2].shared_by_threads = 2;  // the L3 the run's two threads alone share
  EXPECT_EQ(level(cache_point(16 * kMiB)), "L3");
  r.caches.pop_back();
  r.caches_incomplete = "L3 left out";
  EXPECT_EQ(level(cache_point(16 * kMiB)), "none");  // beyond the listed caches
}

// Two states visibly apart, each seen twice, against a spread of one state.
TEST(HistoryModes, TheIssuesFp32NightsAreBimodalItsFp64NightsNotYet) {
  const HistoryModes fp32 = history_modes({95.1, 119.6, 134.1, 139.0, 145.2, 67.9, 74.4}, 5);
  EXPECT_GT(fp32.gap, 0.5);
  EXPECT_GT(fp32.spread, 0);
  EXPECT_LT(fp32.spread, 0.2);
  // One low night among six high ones is an outlier, not a state.
  EXPECT_EQ(history_modes({122.9, 131.3, 133.2, 146.7, 147.5, 134.8, 67.6}, 5).gap, 0);
  // Two clusters closer than the threshold are one.
  EXPECT_EQ(history_modes({100, 100.5, 101, 103, 103.5, 104}, 5).gap, 0);
  EXPECT_GT(history_modes({100, 100.5, 101, 203, 203.5, 204}, 5).gap, 0.9);
  EXPECT_EQ(history_modes({100, 200, 201}, 5).gap, 0);  // too few nights for two of each
}

// Nights 4–8, each against the nights before it, as scripts/nightly runs them: none fails. The
// gate before this rule failed nights 6, 7 and 8 of them (dot and the cache sweep's 32–64 MiB
// sets SLOWER, 1 to 6 a night), 3 of 5 as on the VM; on nights 6–8 it is the range that holds.
TEST_F(CompareSharedLevel, EightNightsOfASharedL3PassAsTheyCame) {
  for (int tonight = 3; tonight < 8; ++tonight) {
    const GateRun g = gate(nights(tonight), night(tonight));
    ASSERT_EQ(g.r.exit_code, 0) << "night " << tonight + 1 << "\n" << g.r.out;
    EXPECT_EQ(g.j["history_decision"], "joins");
    EXPECT_EQ(g.count("SLOWER"), 0) << g.r.out;
    const Json& shared = g.j["shared_levels"];
    if (tonight >= 5) {
      EXPECT_GT(shared["varied with neighbours"].get<int>() +
                    shared["below its history, not below DRAM"].get<int>(),
                0)
          << g.r.out;
    }
    // The L3's points are judged against their range, with the reason; nothing else is.
    for (const auto& m : g.j["metrics"]) {
      if (m["kind"] != "point") continue;
      const Where w = where_of(m["metric"].get<std::string>());
      EXPECT_EQ(m["shared_level"].is_object(), w == Where::kShared) << m.dump();
      if (w != Where::kShared) continue;
      const std::string reason = m["shared_level"]["reason"];
      EXPECT_NE(reason.find("last-level cache of unknown size"), std::string::npos) << reason;
    }
  }
}

// The first night a neighbour takes the L3 falls below everything the history showed: reported
// (AMBIGUOUS, naming why), not gated, as it is not below what DRAM gives that traffic tonight.
// The next such night is within the range and SAME "varied with neighbours".
TEST_F(CompareSharedLevel, ANeighbourTakingTheL3IsReportedThenSame) {
  const GateRun first = gate(nights(6), night(6));  // fp64's first low night (67.6 GB/s)
  ASSERT_EQ(first.r.exit_code, 0) << first.r.out;
  const Json& m = first.metric(kUpdate64);
  EXPECT_LT(m["change"].get<double>(), -0.4) << m.dump();
  EXPECT_EQ(m["verdict"], "AMBIGUOUS") << m.dump();
  EXPECT_EQ(m["shared_level"]["outcome"], "below its history, not below DRAM") << m.dump();
  EXPECT_LT(m["shared_level"]["dram_floor"].get<double>(), m["change"].get<double>());
  EXPECT_NE(first.r.out.find("Below everything their history showed, not below DRAM"),
            std::string::npos)
      << first.r.out;

  const GateRun again = gate(nights(7), night(7));  // fp64's second low night (64.2 GB/s)
  ASSERT_EQ(again.r.exit_code, 0) << again.r.out;
  // Every swinging point of the L3 is SAME: by the usual tolerance where one low night among
  // seven already widened it, else for the range.
  for (const auto& m2 : again.j["metrics"])
    if (m2["kind"] == "point" && m2["metric"].get<std::string>().rfind("fma/", 0) != 0 &&
        where_of(m2["metric"].get<std::string>()) == Where::kShared) {
      EXPECT_LT(m2["change"].get<double>(), -0.4) << m2.dump();
      EXPECT_EQ(m2["verdict"], "SAME") << m2.dump();
    }
  // The header says which points were judged so and why, and what the gate still catches there.
  EXPECT_NE(again.r.out.find("**Shared cache levels**: 10 points lie in a cache level this run "
                             "does not own"),
            std::string::npos)
      << again.r.out;
  EXPECT_NE(again.r.out.find("last-level cache of unknown size"), std::string::npos);
  EXPECT_NE(again.r.out.find("shared-level points (10, judged against their history's range)"),
            std::string::npos);
  EXPECT_EQ(again.j["shared_levels"]["points"], 10);
}

// A level flipping back and forth between its two states never fails: high after low, and low
// after high, once the history has seen both.
TEST_F(CompareSharedLevel, ALevelFlippingBetweenItsStatesDoesNotFail) {
  std::vector<Json> h = nights(8);
  // Tonight high again (night 5's state), then low again (night 8's), against all eight.
  for (int like : {4, 7}) {
    const GateRun g = gate(h, night(like));
    ASSERT_EQ(g.r.exit_code, 0) << "like night " << like + 1 << "\n" << g.r.out;
    for (const std::string& name : {kUpdate64, kUpdate32}) {
      const Json& m = g.metric(name);
      EXPECT_TRUE(m["verdict"] == "SAME") << m.dump();
    }
    if (like != 7) continue;
    // Low tonight: beyond the tolerance of one state (the history is bimodal now, its spread
    // that within the clusters), within the range of both.
    const Json& m = g.metric(kUpdate64);
    EXPECT_LT(m["change"].get<double>(), -m["tolerance"].get<double>()) << m.dump();
    EXPECT_EQ(m["shared_level"]["outcome"], "varied with neighbours") << m.dump();
    EXPECT_NE(g.r.out.find("| **SAME** (shared level varied with neighbours) | shared level "
                           "varied with neighbours"),
              std::string::npos)
        << g.r.out;
    EXPECT_NE(g.r.out.find("Tonight SAME because the level varied with neighbours: "),
              std::string::npos);
  }
}

// scripts/gate-aa, the A/A replay the project holds the gate to, on the eight nights: no false
// alarm, and every plant it promises caught (each peak point 10 % slower, every DRAM-plateau
// point, every L1 point, every L2 point 10 % slower, every point 10 % slower, one point twice its
// printed minimum detectable change, a lost and a failing point).
TEST_F(CompareSharedLevel, TheAaReplayOfTheEightNightsMeetsItsTargets) {
  const std::string folder = dir_.path + "/nights";
  std::filesystem::create_directory(folder);
  for (int i = 0; i < 8; ++i)
    write_json(fmt::format("{}/night-{:02d}.json", folder, i + 1), night(i));
  const CommandResult r = run_command("python3 " + std::string(test::paths::kSourceDir) +
                                      "/scripts/gate-aa --check --bin " + kBin + " " + folder);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("A/A false alarms: 0 of 5"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("gate-aa: targets met"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("points in a shared cache level, judged against their history's range"),
            std::string::npos)
      << r.out;
  // The plants issue 49 names, chosen by compare.json's `level`: each night has DRAM-plateau,
  // L1 and L2 points, its printed minimum detectable change promises 10 %, and 10 % off all of
  // one of them fails every night.
  for (const char* what : {"DRAM-plateau", "L1", "L2"})
    EXPECT_NE(r.out.find(fmt::format("every {} point 10 % slower: caught 5 of 5; in the nights "
                                     "whose printed minimum detectable change promised it: 5 of 5",
                                     what)),
              std::string::npos)
        << what << "\n"
        << r.out;
}

// compare.json names each point's level from tonight's file: the constructed host's L1 (2 x
// 48 KiB) and L2 (2 x 1 MiB), its DRAM plateau (the profile's 1 GiB: the L3 is unknown), the sets
// between them beyond the listed caches, and no level for P's points.
TEST_F(CompareSharedLevel, EachPointSaysWhereItsWorkingSetLives) {
  const GateRun g = gate(nights(4), night(4));
  ASSERT_EQ(g.r.exit_code, 0) << g.r.out;
  EXPECT_EQ(g.metric("cache_read/OpenMP/fp64/ws:32768")["level"], "L1");
  EXPECT_EQ(g.metric("cache_read/OpenMP/fp64/ws:524288")["level"], "L2");
  EXPECT_EQ(g.metric("fma/OpenMP/fp32/k:256")["level"], "L2");
  EXPECT_EQ(g.metric("triad/OpenMP/fp64/n:89478485")["level"], "DRAM plateau");
  EXPECT_EQ(g.metric("fma/OpenMP/fp64/k:1")["level"], "DRAM plateau");
  EXPECT_EQ(g.metric(kUpdate64)["level"], "beyond the listed caches");
  EXPECT_TRUE(g.metric("peak/OpenMP/fp64/k:1024")["level"].is_null());
  for (const auto& m : g.j["metrics"])
    EXPECT_EQ(m.contains("level"), m["kind"] == "point" || m["kind"] == "level") << m.dump();
}

// What the relaxation leaves failable: 10 % off every DRAM-plateau point, off P, off the private
// L1/L2 sets; and a shared level below its history and below DRAM.
TEST_F(CompareSharedLevel, PlantedSlowdownsAreStillCaught) {
  const std::vector<Json> h = nights(7);
  const Json tonight = night(7);
  const auto is = [](Where w, const char* family = nullptr) {
    return [w, family](const Json& p) {
      return where_of(p) == w && (!family || p["family"] == family);
    };
  };
  struct Plant {
    const char* what;
    std::function<bool(const Json&)> which;
    double factor;
  };
  for (const Plant& plant : {Plant{"every DRAM-plateau point", is(Where::kDram), 1 / 0.9},
                             Plant{"P", is(Where::kPeak), 1 / 0.9},
                             Plant{"the private L1/L2 sets", is(Where::kPrivate, "cache"), 1 / 0.9},
                             Plant{"the shared L3 below DRAM", is(Where::kShared), 4}}) {
    const GateRun g = gate(h, slowed(tonight, plant.factor, plant.which));
    EXPECT_EQ(g.r.exit_code, 1) << plant.what << "\n" << g.r.out;
    std::set<std::string> planted;
    for (const auto& p : tonight["points"])
      if (plant.which(p)) planted.insert(p["name"]);
    int slower = 0;
    for (const auto& m : g.j["metrics"])
      if (planted.count(m["metric"])) slower += m["verdict"] == "SLOWER";
    EXPECT_GT(slower, 0) << plant.what << "\n" << g.r.out;
  }
}

// The same nights on a host whose L3 the run owns (known, shared only by its 2 threads): fp64's
// first halving of the L3 is a regression there, even where its history's high nights fall in two
// clusters (judged against their range, which it falls below: no DRAM floor for an owned level).
// Once the history shows the low state twice (fp32 by night 8), it is SAME, the history bimodal.
TEST_F(CompareSharedLevel, AnOwnedL3StaysGatedUntilItsHistoryShowsTheState) {
  const GateRun first = gate(nights(6, true), night(6, true));  // fp64's first low night
  EXPECT_EQ(first.r.exit_code, 1) << first.r.out;
  const Json& m = first.metric(kUpdate64);
  EXPECT_EQ(m["verdict"], "SLOWER") << m.dump();
  if (m["shared_level"].is_object()) {
    EXPECT_EQ(m["shared_level"]["reason"].get<std::string>().rfind("its history is bimodal", 0),
              0u);
    EXPECT_TRUE(m["shared_level"]["dram_floor"].is_null()) << m.dump();
  }

  const GateRun later = gate(nights(7, true), night(7, true));  // fp32 low twice before
  const Json& m2 = later.metric(kUpdate32);
  EXPECT_EQ(m2["verdict"], "SAME") << m2.dump();
  ASSERT_TRUE(m2["shared_level"].is_object()) << m2.dump();
  EXPECT_EQ(m2["shared_level"]["reason"].get<std::string>().rfind("its history is bimodal", 0), 0u)
      << m2.dump();
  // Its quiet nights pass, and its planted slowdowns are caught, as on any host.
  const GateRun aa = gate(nights(4, true), night(4, true));
  EXPECT_EQ(aa.r.exit_code, 0) << aa.r.out;
  for (const auto& p : aa.j["metrics"]) {
    if (!p["shared_level"].is_object()) continue;
    // A bimodal history, or a set at the L3's edge (split between the L3 and DRAM).
    const std::string reason = p["shared_level"]["reason"];
    EXPECT_TRUE(reason.rfind("its history is bimodal", 0) == 0 ||
                reason.rfind("within an octave of the L3 capacity", 0) == 0)
        << p.dump();
  }
  const GateRun dram = gate(nights(4, true), slowed(night(4, true), 1 / 0.9, [](const Json& p) {
                              return where_of(p) == Where::kDram;
                            }));
  EXPECT_EQ(dram.r.exit_code, 1) << dram.r.out;
}

// The constructed host as a VM sees itself (context.cpu.hypervisor): every cache point is judged
// by its history's range, a neighbour may share any level.
Json on_vm(Json doc) {
  doc["context"]["cpu"]["hypervisor"] = true;
  return doc;
}
std::vector<Json> vm_nights(int n) {
  std::vector<Json> h;
  for (int i = 0; i < n; ++i) h.push_back(on_vm(night(i)));
  return h;
}
bool is_private(const Json& p) { return where_of(p) == Where::kPrivate; }

// Under a hypervisor, 10 % off every L1 and L2 point reads, point by point, only "below its
// history" (AMBIGUOUS, not gated: a neighbour's SMT sibling could do that to one set). Their
// level together still fails the night (issue 49: a private level stays failable), an unchanged
// night passes, and the shared sets beyond the listed caches make no level.
TEST_F(CompareSharedLevel, UnderAHypervisorAPrivateLevelStillFailsAsAWhole) {
  const std::vector<Json> h = vm_nights(7);
  const Json tonight = on_vm(night(7));
  const GateRun aa = gate(h, tonight);
  ASSERT_EQ(aa.r.exit_code, 0) << aa.r.out;
  std::set<std::string> levels;
  for (const auto& m : aa.j["metrics"])
    if (m["kind"] == "level") {
      levels.insert(m["metric"].get<std::string>());
      EXPECT_EQ(m["verdict"], "SAME") << m.dump();
    }
  EXPECT_EQ(levels, (std::set<std::string>{"every OpenMP L1 point together",
                                           "every OpenMP L2 point together",
                                           "every OpenMP peak point together"}))
      << aa.r.out;
  EXPECT_EQ(aa.metric("every OpenMP peak point together")["level"], "P");

  const GateRun g = gate(h, slowed(tonight, 1 / 0.9, is_private));
  EXPECT_EQ(g.r.exit_code, 1) << g.r.out;
  for (const char* level : {"L1", "L2"}) {
    const Json& m = g.metric(fmt::format("every OpenMP {} point together", level));
    EXPECT_EQ(m["verdict"], "SLOWER") << m.dump();
    EXPECT_NEAR(m["change"].get<double>(), -0.091, 0.01) << m.dump();  // planted: -9.1 %
  }
  // The cache sweep's sets, one by one: judged by the range rule, relative to the factor of the
  // points that move with the clock (peak points, L1 and L2: OnAVmPIsJudgedAgainstThePoints…),
  // which lost what they did: not gated one by one; their levels are what fails.
  int sets = 0;
  for (const auto& p : tonight["points"])
    if (is_private(p) && p["family"] == "cache") {
      const Json& m = g.metric(p["name"]);
      EXPECT_TRUE(m["shared_level"].is_object()) << m.dump();
      EXPECT_NE(m["verdict"], "SLOWER") << m.dump();
      ++sets;
    }
  EXPECT_EQ(sets, 6);
}

// A level's slowdown is held to the re-measures like any other: one that reads the level at its
// usual speed makes it AMBIGUOUS "not reproduced"; one that reads it slower too lets it fail.
TEST_F(CompareSharedLevel, ALevelsSlowdownIsHeldToTheRemeasures) {
  const std::vector<Json> h = vm_nights(7);
  const Json tonight = on_vm(night(7));
  const Json planted = slowed(tonight, 1 / 0.9, is_private);
  const GateRun burst = gate(h, planted, {tonight});
  EXPECT_EQ(burst.r.exit_code, 0) << burst.r.out;
  const Json& m = burst.metric("every OpenMP L2 point together");
  EXPECT_EQ(m["verdict"], "AMBIGUOUS") << m.dump();
  EXPECT_EQ(m["note"].get<std::string>().rfind("not reproduced", 0), 0u) << m.dump();
  ASSERT_EQ(m["remeasures"].size(), 1u) << m.dump();
  const GateRun real = gate(h, planted, {planted});
  EXPECT_EQ(real.r.exit_code, 1) << real.r.out;
  EXPECT_EQ(real.metric("every OpenMP L2 point together")["verdict"], "SLOWER");
}

// On a VM the machine-wide factor is its DRAM and peak points' (every cache point there is a
// shared level's), and the DRAM points move with the memory bus's other tenants while the peak
// and cache points move with the host's clock. A night whose DRAM ran 18 % faster, every peak
// and cache point as before, read P 15 % slower "relative to the night" (the Xeon VM's series of
// 2026-12-07, nights 16–22); P is taken relative to its space's peak and private-cache points
// instead, so that night passes, while one peak point 10 % slower still fails.
TEST_F(CompareSharedLevel, OnAVmPIsJudgedAgainstThePointsThatMoveWithTheClock) {
  const std::vector<Json> h = vm_nights(7);
  const Json tonight = on_vm(night(7));
  const auto dram = [](const Json& p) { return where_of(p) == Where::kDram; };
  const GateRun fast_memory = gate(h, slowed(tonight, 1 / 1.18, dram));
  ASSERT_EQ(fast_memory.r.exit_code, 0) << fast_memory.r.out;
  EXPECT_EQ(fast_memory.metric("every point together")["verdict"], "FASTER");
  for (const char* dtype : {"fp64", "fp32"}) {
    const Json& p = fast_memory.metric(fmt::format("P OpenMP/{}", dtype));
    EXPECT_EQ(p["verdict"], "SAME") << p.dump();
    EXPECT_NEAR(p["change"].get<double>(), 0, 0.03) << p.dump();
    EXPECT_NE(p["note"].get<std::string>().find(
                  "relative to the factor of OpenMP's points that move with the clock"),
              std::string::npos)
        << p.dump();
  }
  const auto fp64_peak = [](const Json& p) {
    return where_of(p) == Where::kPeak && p["dtype"] == "fp64";
  };
  const GateRun slow_peak = gate(h, slowed(tonight, 1 / 0.9, fp64_peak));
  EXPECT_EQ(slow_peak.r.exit_code, 1) << slow_peak.r.out;
  // (P is the envelope of the peak point and the ladder's compute-bound rungs, which reach 97 %
  // of it here: it loses 3 %; the peak point itself fails.)
  EXPECT_EQ(slow_peak.metric("peak/OpenMP/fp64/k:1024")["verdict"], "SLOWER")
      << slow_peak.metric("peak/OpenMP/fp64/k:1024").dump();
}

// A GPU: the run owns the device's caches, so nothing is judged by a range; quiet nights pass and
// 10 % off the DRAM-sized points, off the peak points or off the L2-sized sets fails.
TEST_F(CompareSharedLevel, AGpuIsJudgedAsBefore) {
  const Json sample =
      Json::parse(slurp(std::string(test::paths::kSourceDir) + "/samples/h200/results.json"));
  const auto jittered = [&sample](int i) {
    Json doc = sample;
    for (std::size_t k = 0; k < doc["points"].size(); ++k) {
      Json& p = doc["points"][k];
      if (!p["median_s"].is_number()) continue;
      Noise noise(std::uint64_t(i) * 7919 + k);
      const double f = 1 + noise(0.004);
      for (auto& s : p["samples"]) s = s.get<double>() * f * (1 + noise(0.004));
      for (const char* t : {"median_s", "min_s", "max_s"})
        if (p[t].is_number()) p[t] = p[t].get<double>() * f;
    }
    return doc;
  };
  std::vector<Json> h;
  for (int i = 0; i < 4; ++i) h.push_back(jittered(i));
  const GateRun aa = gate(h, jittered(4));
  ASSERT_EQ(aa.r.exit_code, 0) << aa.r.out;
  EXPECT_EQ(aa.j["shared_levels"]["points"], 0) << aa.r.out;
  const auto on_gpu = [](const Json& p) { return p["space"] == "Cuda"; };
  const std::vector<std::pair<const char*, std::function<bool(const Json&)>>> plants = {
      {"DRAM-sized",
       [&](const Json& p) { return on_gpu(p) && p["working_set_bytes"] >= 4 * kGiB; }},
      {"peak", [&](const Json& p) { return on_gpu(p) && p["family"] == "peak"; }},
      {"L2-sized sets", [&](const Json& p) {
         return on_gpu(p) && p["family"] == "cache" && p["working_set_bytes"] > 1 * kMiB &&
                p["working_set_bytes"] <= 32 * kMiB;
       }}};
  for (const auto& [what, which] : plants) {
    const GateRun g = gate(h, slowed(jittered(4), 1 / 0.9, which));
    EXPECT_EQ(g.r.exit_code, 1) << what << "\n" << g.r.out;
  }
}

}  // namespace
}  // namespace ridgeline
