// `ridgeline plan` end to end: the estimate as text and JSON, the budget's verdict in the exit
// status, and bad input as one line naming the file and the field (exit 2).
#include <gtest/gtest.h>

#include <fstream>

#include "results/results_file.hpp"
#include "tests/support/cli_test.hpp"
#include "tests/support/run_command.hpp"

namespace ridgeline {
namespace {

using test::kBin;
using test::run_command;

const std::string kH200 = std::string(test::paths::kSourceDir) + "/samples/h200";
const std::string kTimings = " --timings " + kH200 + "/results.json";

bool has(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

class Plan : public test::CliTest {};

TEST_F(Plan, JsonTotalsAreTheFamiliesPlusStartup) {
  const auto r = run_command(kBin + " plan --json --device-sheet h100-sxm" + kTimings);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  double sum = j.at("startup_s").get<double>();
  int points = 0;
  for (const auto& f : j.at("families")) {
    sum += f.at("seconds").get<double>();
    points += f.at("points").get<int>();
  }
  EXPECT_NEAR(j.at("total_s").get<double>(), sum, 1e-6 * sum);
  EXPECT_EQ(points, int(j.at("points").size()));
  EXPECT_EQ(j.at("device").at("compute_units"), 132);
  EXPECT_EQ(j.at("device").at("sheet"), "h100-sxm");
  EXPECT_EQ(j.at("timings").at("sheet"), "h200-sxm");
  EXPECT_TRUE(j.at("budget").is_null());
}

TEST_F(Plan, TheBudgetDecidesTheExitStatus) {
  const std::string base = kBin + " plan --device-info " + kH200 + "/info.json" + kTimings;
  const auto fits = run_command(base + " --budget 480");
  EXPECT_EQ(fits.exit_code, 0) << fits.err;
  EXPECT_TRUE(has(fits.out, "fits,")) << fits.out;
  // 200 s leaves the main sweep 20 s: far too little.
  const auto tight = run_command(base + " --budget 200 --json");
  EXPECT_EQ(tight.exit_code, 1) << tight.err;
  const nlohmann::json j = nlohmann::json::parse(tight.out);
  EXPECT_FALSE(j.at("budget").at("fits").get<bool>());
  EXPECT_LT(j.at("budget").at("points_within_allowance").get<int>(), int(j.at("points").size()));
}

TEST_F(Plan, BadInputIsOneLineNamingTheFileAndField) {
  nlohmann::json info = read_json_file(kH200 + "/info.json", "info");
  info["spaces"][0]["device"].erase("l2_bytes");
  const std::string bad_info = path("info.json");
  std::ofstream(bad_info) << info.dump();
  const auto r = run_command(kBin + " plan --device-info " + bad_info + kTimings);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(test::line_count(r.err), 1) << r.err;
  EXPECT_TRUE(has(r.err, bad_info + ": spaces[0].device.l2_bytes: missing required field"))
      << r.err;

  nlohmann::json results = read_json_file(kH200 + "/results.json", "results");
  results["points"][20].erase("name");
  const std::string bad_results = path("results.json");
  std::ofstream(bad_results) << results.dump();
  const auto t = run_command(kBin + " plan --device-sheet h100-sxm --timings " + bad_results);
  EXPECT_EQ(t.exit_code, 2);
  EXPECT_EQ(test::line_count(t.err), 1) << t.err;
  EXPECT_TRUE(has(t.err, bad_results + ": points[20].name")) << t.err;

  const auto none = run_command(kBin + " plan" + kTimings);
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_TRUE(has(none.err, "--device-info")) << none.err;
}

}  // namespace
}  // namespace ridgeline
