// Large files: every command stays linear in the points. Each case is one a quadratic step turns
// into minutes (50k groups x 50k points, a 100k-point cache sweep). The bound is on CPU time
// (ulimit -t), which other work on the machine does not stretch the way it stretches wall time:
// each command takes seconds of CPU now (on a 2-vCPU Zen 5 VM about 8 s per command of the 50k
// case, 18 s for the 100k-point report: ctest's cost data), a quadratic step took minutes. The
// wall-clock timeout only keeps a hang from stalling the suite.
#include <gtest/gtest.h>

#include "tests/reports/cli_test_support.hpp"

namespace ridgeline {
namespace {

using namespace test;
using nlohmann::json;

json measured_point(const std::string& name, const std::string& probe, const std::string& family,
                    const std::string& dtype, double ws, double flops, double seconds) {
  return {{"name", name},
          {"probe", probe},
          {"family", family},
          {"space", "OpenMP"},
          {"dtype", dtype},
          {"working_set_bytes", ws},
          {"flops", flops},
          {"bytes", ws},
          {"samples", {seconds, seconds * 1.01, seconds * 0.99}},
          {"median_s", seconds},
          {"verified", true},
          {"skipped_reason", nullptr}};
}

// The fixture (one fittable run) plus `extra`.
std::string with_points(const std::vector<json>& extra) {
  json doc = fixture("cpu_run_a.json");
  for (const auto& p : extra) doc["points"].push_back(p);
  return doc.dump();
}

// SIGXCPU past 60 CPU seconds (exit 152, or 124 from the 15-minute guard against a hang).
constexpr const char* kTimeout = "ulimit -t 60; timeout 900 ";

TEST(Scale, FiftyThousandGroupsAndProbes) {
  TempDir dir;
  std::vector<json> extra;
  for (int i = 0; i < 50000; ++i) {
    const std::string id = std::to_string(i);
    extra.push_back(measured_point("p" + id + "/OpenMP/d" + id + "/n:1", "p" + id, "bandwidth",
                                   "d" + id, 1e6, 1e5, 1e-4));
  }
  const std::string file = dir.path + "/many.json";
  write_file(file, with_points(extra));
  for (const std::string& args :
       {" fit --json " + file, " report " + file + " --out " + dir.path + "/out",
        " compare " + file + " " + file}) {
    const auto r = run_command(kTimeout + kBin + args + " >/dev/null");
    EXPECT_EQ(r.exit_code, 0) << args << " (152: over its CPU time, 124: hung)\n"
                              << r.err.substr(0, 500);
  }
}

TEST(Scale, HundredThousandPointCacheSweep) {
  TempDir dir;
  std::vector<json> extra;
  for (int i = 0; i < 100000; ++i) {
    const double ws = 4096 * std::pow(2.0, i / 5000.0);
    extra.push_back(measured_point("cache_read/OpenMP/fp64/sweep:" + std::to_string(i),
                                   "cache_read", "cache", "fp64", ws, ws / 8,
                                   ws / (ws < 1e6 ? 1e11 : 3e10)));
  }
  const std::string file = dir.path + "/sweep.json";
  write_file(file, with_points(extra));
  const auto r = run_command(kTimeout + kBin + " report " + file + " --out " + dir.path + "/out");
  ASSERT_EQ(r.exit_code, 0) << "(152: over its CPU time, 124: hung)\n" << r.err;
  const std::string md = slurp(dir.path + "/out/report.md");
  // One plateau from 4 KiB to 1 MB: the L1 and the L2 of the fixture's host, not told apart.
  EXPECT_NE(md.find("| cache_read | L1–L2 |"), std::string::npos)
      << md.substr(md.find("## Memory"), 2000);
  // And one from 1 MB to 4 GiB, its smallest sets still in the L2.
  EXPECT_NE(md.find("| cache_read | L2–DRAM |"), std::string::npos)
      << md.substr(md.find("## Memory"), 2000);
}

}  // namespace
}  // namespace ridgeline
