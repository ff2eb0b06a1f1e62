#include <gtest/gtest.h>

#include "tests/reports/cli_test_support.hpp"

namespace ridgeline {
namespace {

using namespace test;

struct BadInput {
  const char* name;
  const char* kind;     // "json" (derived from cpu_run_a.json) or "csv"
  const char* edit;     // json: text to replace once (its first occurrence); csv: the whole file
  const char* replace;  // json: replacement
  const char* needle;   // must appear in the one-line error
  // As compare's current file, a readable file without one fittable point fails the gate
  // instead (exit 1, every baseline point MISSING; compare_test.cpp).
  bool gate_fails_instead = false;
};

void PrintTo(const BadInput& b, std::ostream* os) { *os << b.name; }

std::string derived_json(const BadInput& b) {
  const std::string good = slurp(kData + "/cpu_run_a.json");
  if (std::string(b.edit) == "truncate") return good.substr(0, good.size() / 2);
  std::string bad = good;
  const auto at = bad.find(b.edit);
  if (at == std::string::npos)
    ADD_FAILURE() << "text to edit not in the fixture: " << b.edit;
  else
    bad.replace(at, std::string(b.edit).size(), b.replace);
  return bad;
}

class BadInputTest : public ::testing::TestWithParam<BadInput> {};

// Every command: exit 2, one line naming the file and what is wrong, no output file left.
TEST_P(BadInputTest, OneLineExitTwoNoFilesLeft) {
  const BadInput& b = GetParam();
  TempDir dir;
  const bool csv = std::string(b.kind) == "csv";
  const std::string file = dir.path + "/input." + (csv ? "csv" : "json");
  write_file(file, csv ? std::string(b.edit) : derived_json(b));
  std::vector<std::string> commands;
  if (csv) {
    commands = {" fit --csv " + file, " fit --json --csv " + file};
  } else {
    commands = {" fit " + file,
                " place " + file + " --intensities 1",
                " report " + file + " --out " + dir.path + "/out",
                " export " + file + " --format bencher --out " + dir.path + "/e.json",
                " compare " + file + " " + kData + "/cpu_run_a.json --out " + dir.path + "/c.md",
                " compare " + kData + "/cpu_run_a.json " + file + " --out " + dir.path + "/c.md"};
  }
  for (const auto& c : commands) {
    if (b.gate_fails_instead && c.rfind(" compare " + kData, 0) == 0) continue;
    const auto r = run_command(kBin + c);
    EXPECT_EQ(r.exit_code, 2) << c << "\n" << r.out;
    EXPECT_EQ(line_count(r.err), 1) << c << "\n" << r.err;
    EXPECT_NE(r.err.find(file), std::string::npos) << c << "\n" << r.err;
    EXPECT_NE(r.err.find(b.needle), std::string::npos) << c << "\n" << r.err;
    EXPECT_EQ(dir.file_count(), 1) << c << ": left a file behind";
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, BadInputTest,
    ::testing::Values(
        BadInput{"truncated_json", "json", "truncate", "", "malformed JSON"},
        BadInput{"nan_token", "json", "\"median_s\":", "\"median_s\":NaN,\"x\":", "malformed JSON"},
        BadInput{"other_major", "json", "\"schema_version\":\"1.1.0\"",
                 "\"schema_version\":\"2.0.0\"", "schema_version: is 2.0.0"},
        BadInput{"negative_sample", "json", "\"samples\":[", "\"samples\":[-0.5,",
                 "points[0].samples[0]: must be positive"},
        BadInput{"zero_sample", "json", "\"samples\":[", "\"samples\":[0,", "must be positive"},
        BadInput{"rounds_not_per_sample", "json", "\"samples\":[",
                 "\"sample_rounds\":[0],\"samples\":[",
                 "points[0].sample_rounds: must be an array with one round per sample"},
        BadInput{"negative_clock", "json", "\"cpu\":{", "\"cpu\":{\"measured_clock\":{\"mhz\":-5},",
                 "context.cpu.measured_clock.mhz: must be positive"},
        BadInput{"host_clock_not_object", "json", "\"samples\":[", "\"host_clock\":5,\"samples\":[",
                 "points[0].host_clock: must be an object or null"},
        BadInput{"host_clock_zero", "json", "\"samples\":[",
                 "\"host_clock\":{\"median_mhz\":0},\"samples\":[",
                 "points[0].host_clock.median_mhz: must be a number in (0, 100000]"},
        BadInput{"huge_number", "json", "\"samples\":[", "\"samples\":[1e999,", "number overflow"},
        BadInput{"string_number", "json",
                 "\"flops\":", "\"flops\":\"many\",\"x\":", "points[0].flops: must be a number"},
        BadInput{"missing_name", "json", "\"name\":\"copy/OpenMP/fp64/n:8388608\",", "",
                 "points[0].name: missing required field"},
        BadInput{"points_not_array", "json", "\"points\":[", "\"points\":{\"x\":[",
                 "malformed JSON"},
        BadInput{"no_fittable_point", "json", "\"points\":[", "\"points\":[],\"old\":[",
                 "no measured point", true},
        BadInput{"csv_empty", "csv", "", "", "empty CSV"},
        BadInput{"csv_missing_column", "csv", "intensity,flops\n1,2\n", "", "no 'gflops' column"},
        BadInput{"csv_not_a_number", "csv", "intensity,gflops\n0.1,5\n1,abc\n10,200\n", "",
                 "line 3, gflops: 'abc' is not a number"},
        BadInput{"csv_nan", "csv", "intensity,gflops\n0.1,5\nnan,50\n10,200\n", "",
                 "line 3, intensity: 'nan' is not finite"},
        BadInput{"csv_inf", "csv", "gflops,intensity\n5,0.1\ninf,1\n200,10\n", "",
                 "'inf' is not finite"},
        BadInput{"csv_zero", "csv", "intensity,gflops\n0,5\n1,50\n10,200\n", "",
                 "line 2, intensity: '0' must be positive"},
        BadInput{"csv_negative", "csv", "intensity,gflops\n0.1,-5\n1,50\n10,200\n", "",
                 "'-5' must be positive"},
        BadInput{"csv_truncated_row", "csv", "intensity,gflops,kernel\n0.1,5,a\n1,50\n", "",
                 "line 3: has 2 columns, the header has 3"},
        BadInput{"csv_two_points", "csv", "intensity,gflops\n0.1,5\n100,200\n", "",
                 "2 fittable points; a roofline fit needs at least 3"},
        BadInput{"csv_memory_side_only", "csv", "intensity,gflops\n0.1,5\n0.2,10\n0.4,20\n0.8,40\n",
                 "", "compute roof P cannot be fitted"},
        BadInput{"csv_compute_side_only", "csv",
                 "intensity,gflops\n10,200\n20,201\n40,199\n80,200\n", "",
                 "bandwidth roof B cannot be fitted"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(BadInput, MissingFileIsOneLine) {
  const auto r = run_command(kBin + " fit /nonexistent/results.json");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(
      r.err,
      "ridgeline: error: /nonexistent/results.json: cannot open results file: No such file or "
      "directory\n");
}

}  // namespace
}  // namespace ridgeline
