// `compare` for an application's kernels: planted kernels files (a memory-bound kernel with
// annotated counts, one without) over four history nights, tonight slower because the code got
// slower (the roofs of a normal night) or because the machine did (the roofs of
// tests/data/cpu_run_slow.json, whose bandwidth is 10 % lower, and the kernel 10 % slower).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "reports/compare/few_nights.hpp"
#include "reports/compare/kernel_compare.hpp"
#include "reports/fit/analysis.hpp"
#include "results/kernels_file.hpp"
#include "tests/reports/cli_test_support.hpp"

namespace ridgeline {
namespace {

using namespace test;
using nlohmann::json;

// Bytes and FLOP per call of the planted stream kernel: intensity 0.1, far below the ridge.
constexpr double kBytes = 1e8, kFlop = 1e7;
constexpr double kStreamS = 0.004, kCheckS = 0.001;
constexpr double kHistory[] = {1.0, 1.004, 0.997, 1.002};  // the nights' jitter

json kernel_json(const std::string& label, double median, bool counted) {
  json k = kernel_entry(label, median);
  if (counted)
    k["counts"] = {{"flop_per_call", kFlop},
                   {"bytes_per_call", kBytes},
                   {"dtype", "fp64"},
                   {"source", "annotation"}};
  return k;
}

// A night's kernels file: the stream kernel and the check kernel, slowed by the factors given.
json night(double stream_factor, double check_factor = 1, bool with_check = true) {
  json doc = {{"schema", "ridgeline-kernels"},
              {"schema_version", "1.0.0"},
              {"complete", true},
              {"host", {{"hostname", "devbox"}}},
              {"kokkos", {{"global_fencing", true}}},
              {"kernels", json::array()}};
  doc["kernels"].push_back(kernel_json("app::stream", kStreamS * stream_factor, true));
  if (with_check)
    doc["kernels"].push_back(kernel_json("app::check", kCheckS * check_factor, false));
  return doc;
}

class KernelCompareTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    a_ = new FileAnalysis(analyze(load_results(kData + "/cpu_run_a.json"), 200, 11));
    b_ = new FileAnalysis(analyze(load_results(kData + "/cpu_run_b.json"), 200, 12));
    slow_ = new FileAnalysis(analyze(load_results(kData + "/cpu_run_slow.json"), 200, 13));
  }
  static void TearDownTestSuite() { delete a_, delete b_, delete slow_; }

  KernelsComparison compare(const json& tonight, const FileAnalysis* tonight_roofs) {
    files_.clear();
    for (double f : kHistory) files_.push_back(parse_kernels(night(f, f).dump(), "night.json"));
    files_.push_back(parse_kernels(tonight.dump(), "tonight.json"));
    std::vector<KernelNight> history;
    for (std::size_t i = 0; i + 1 < files_.size(); ++i)
      history.push_back({&files_[i], i % 2 ? b_ : a_});
    return compare_kernel_history(history, {&files_.back(), tonight_roofs}, CompareOptions{});
  }
  static const KernelComparison& named(const KernelsComparison& c, const std::string& label) {
    for (const auto& k : c.kernels)
      if (k.kernel.rfind(label, 0) == 0) return k;
    throw std::runtime_error("no " + label);
  }
  std::vector<KernelsFile> files_;
  static FileAnalysis *a_, *b_, *slow_;
};
FileAnalysis* KernelCompareTest::a_ = nullptr;
FileAnalysis* KernelCompareTest::b_ = nullptr;
FileAnalysis* KernelCompareTest::slow_ = nullptr;

TEST_F(KernelCompareTest, AnUnchangedNightIsSame) {
  const auto c = compare(night(1.001), a_);
  EXPECT_TRUE(c.gates_speed);
  ASSERT_EQ(c.kernels.size(), 2u);
  EXPECT_EQ(c.regressions(), 0);
  const auto& s = named(c, "app::stream");
  EXPECT_EQ(s.time.verdict, Verdict::kSame) << s.time.note;
  ASSERT_TRUE(s.fraction);
  EXPECT_EQ(s.fraction->verdict, Verdict::kSame) << s.fraction->note;
  EXPECT_EQ(s.cause, SlowdownCause::kNone);
  EXPECT_FALSE(named(c, "app::check").fraction);  // no counts: time only
  // What it prints it can catch is caught in 95 % of nights: past the tolerance by T_4's 95 %
  // quantile of spreads (compare/few_nights.hpp), as for roofs and points.
  ASSERT_GT(s.time.spread, 0);
  EXPECT_EQ(s.time.nights, 4);
  EXPECT_NEAR(-std::log1p(-s.time.min_detectable),
              std::max(-std::log1p(-s.time.tolerance), 2.5758 * s.time.test_noise) +
                  few_nights_quantile(4, 0.95) * s.time.spread,
              1e-3);
}

TEST_F(KernelCompareTest, SlowerCodeOnTheSameRoofsIsTheCode) {
  const auto c = compare(night(1.5), a_);
  const auto& s = named(c, "app::stream");
  EXPECT_EQ(s.time.verdict, Verdict::kSlower) << s.time.note;
  EXPECT_NEAR(s.time.change, 1 / 1.5 - 1, 0.01);
  ASSERT_TRUE(s.fraction);
  EXPECT_EQ(s.fraction->verdict, Verdict::kSlower) << s.fraction->note;
  EXPECT_EQ(s.cause, SlowdownCause::kCode);
  EXPECT_EQ(s.explanation.rfind("the code got slower (the roof held)", 0), 0u) << s.explanation;
  EXPECT_EQ(c.regressions(), 1);
}

TEST_F(KernelCompareTest, ASlowerMachineMovesTheRoofWithTheKernel) {
  // cpu_run_slow's memory-bound points took 1.1 × as long: B is 10 % lower, and so is the kernel.
  const auto c = compare(night(1.1), slow_);
  const auto& s = named(c, "app::stream");
  EXPECT_EQ(s.time.verdict, Verdict::kSlower) << s.time.note;
  ASSERT_TRUE(s.fraction);
  EXPECT_EQ(s.fraction->verdict, Verdict::kSame) << s.fraction->note;
  ASSERT_TRUE(s.roof_change);
  EXPECT_LT(*s.roof_change, -0.05);
  EXPECT_EQ(s.cause, SlowdownCause::kMachine);
  EXPECT_EQ(s.explanation.rfind("the machine got slower (the roof moved with it)", 0), 0u)
      << s.explanation;
}

TEST_F(KernelCompareTest, WithoutRoofsASlowdownCannotBeTold) {
  files_.clear();
  const auto c = compare(night(1, 1.5), nullptr);
  const auto& check = named(c, "app::check");
  EXPECT_EQ(check.time.verdict, Verdict::kSlower);
  EXPECT_EQ(check.cause, SlowdownCause::kUnknown);
  EXPECT_NE(check.explanation.find("no roofs given (--roofs"), std::string::npos)
      << check.explanation;
}

TEST_F(KernelCompareTest, AKernelWithoutCountsSaysWhyItsRoofIsUnknown) {
  const auto c = compare(night(1, 1.5), a_);
  const auto& check = named(c, "app::check");
  EXPECT_EQ(check.time.verdict, Verdict::kSlower);
  EXPECT_EQ(check.cause, SlowdownCause::kUnknown);
  EXPECT_NE(check.explanation.find("not placed on tonight's roofs (no counts"), std::string::npos)
      << check.explanation;
}

TEST_F(KernelCompareTest, AKernelTheNewestNightRanIsMissingTonight) {
  const auto c = compare(night(1, 1, false), a_);
  EXPECT_EQ(named(c, "app::check").time.verdict, Verdict::kMissing);
  EXPECT_EQ(c.regressions(), 1);
}

class KernelCompareCli : public ::testing::Test {
 protected:
  // Four history nights (roofs cpu_run_a/b alternately), then tonight with its roofs.
  std::string args(const json& tonight, const std::string& tonight_roofs) {
    std::string files, roofs;
    for (std::size_t i = 0; i < std::size(kHistory); ++i) {
      const std::string f = dir_.path + "/night" + std::to_string(i) + ".json";
      write_json(f, night(kHistory[i], kHistory[i]));
      files += " " + f;
      roofs += " " + kData + (i % 2 ? "/cpu_run_b.json" : "/cpu_run_a.json");
    }
    write_json(dir_.path + "/tonight.json", tonight);
    return files + " " + dir_.path + "/tonight.json --roofs" + roofs + " " + kData + "/" +
           tonight_roofs;
  }
  TempDir dir_;
};

TEST_F(KernelCompareCli, TheVerdictSaysMachineOrCodeAndTheExitCodeGates) {
  const auto same = run_command(kBin + " compare" + args(night(1.001), "cpu_run_a.json"));
  EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
  EXPECT_NE(same.out.find("**no regression**"), std::string::npos) << same.out;
  const auto code = run_command(kBin + " compare" + args(night(1.5), "cpu_run_a.json") +
                                " --json " + dir_.path + "/c.json");
  EXPECT_EQ(code.exit_code, 1) << code.err;
  EXPECT_NE(code.out.find("the code got slower (the roof held)"), std::string::npos) << code.out;
  const json j = json::parse(slurp(dir_.path + "/c.json"));
  EXPECT_EQ(j["kind"], "kernels");
  EXPECT_EQ(j["verdict"], "REGRESSION");
  ASSERT_EQ(j["kernels"].size(), 2u);
  for (const auto& k : j["kernels"])
    if (k["metric"].get<std::string>().rfind("app::stream", 0) == 0) {
      EXPECT_EQ(k["verdict"], "SLOWER");
      EXPECT_EQ(k["cause"], "code");
      EXPECT_EQ(k["fraction_of_roof"]["verdict"], "SLOWER");
    }
  const auto machine = run_command(kBin + " compare" + args(night(1.1), "cpu_run_slow.json"));
  EXPECT_EQ(machine.exit_code, 1);
  EXPECT_NE(machine.out.find("the machine got slower (the roof moved with it)"), std::string::npos)
      << machine.out;
}

TEST_F(KernelCompareCli, RoofsOfAnotherCountAndOtherHostsAreOneLineExitTwo) {
  const std::string a = args(night(1), "cpu_run_a.json");
  const auto wrong = run_command(kBin + " compare" + a.substr(0, a.find(" --roofs")) + " --roofs " +
                                 kData + "/cpu_run_a.json");
  EXPECT_EQ(wrong.exit_code, 2);
  EXPECT_EQ(line_count(wrong.err), 1) << wrong.err;
  EXPECT_NE(wrong.err.find("--roofs: give one results file per kernels file"), std::string::npos)
      << wrong.err;
  json other = night(1);
  other["host"]["hostname"] = "elsewhere";
  const auto host = run_command(kBin + " compare" + args(other, "cpu_run_a.json"));
  EXPECT_EQ(host.exit_code, 2);
  EXPECT_NE(host.err.find("host.hostname: ran on 'elsewhere'"), std::string::npos) << host.err;
  const auto mixed = run_command(kBin + " compare " + kData + "/cpu_run_a.json " + kData +
                                 "/cpu_run_b.json --roofs " + kData + "/cpu_run_a.json");
  EXPECT_EQ(mixed.exit_code, 2);
  EXPECT_NE(mixed.err.find("--roofs: goes with kernels files"), std::string::npos) << mixed.err;
}

}  // namespace
}  // namespace ridgeline
