// What a user of git, cargo or Google Benchmark expects of a CLI: --version, usage and "did you
// mean" on a bare or mistyped call, `list`, filters that take comma lists, no overwriting of a
// finished sweep, a quiet console that ends with the answer.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "results/results_file.hpp"
#include "tests/support/cli_test.hpp"
#include "tests/support/run_command.hpp"

namespace ridgeline {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::run_command;
using test::slurp;

using test::kBin;
using test::kTiny;

bool has(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

class Conventions : public test::CliTest {
 protected:
};

TEST_F(Conventions, VersionNamesRidgelineKokkosAndGoogleBenchmark) {
  for (const char* flag : {" --version", " -V"}) {
    const auto r = run_command(kBin + flag);
    EXPECT_EQ(r.exit_code, 0) << flag << r.err;
    EXPECT_EQ(r.out.rfind("ridgeline ", 0), 0u) << r.out;
    EXPECT_TRUE(has(r.out, "Kokkos ")) << r.out;
    EXPECT_TRUE(has(r.out, "Google Benchmark ")) << r.out;
  }
}

TEST_F(Conventions, BareCallPrintsUsage) {
  const auto r = run_command(kBin);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(has(r.err, "Usage:")) << r.err;
  EXPECT_TRUE(has(r.err, "run")) << r.err;
  EXPECT_TRUE(has(r.err, "ridgeline: error: a command is required")) << r.err;
}

TEST_F(Conventions, MistypedCommandSuggestsTheClosest) {
  const auto r = run_command(kBin + " runn");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(test::line_count(r.err), 1) << r.err;
  EXPECT_TRUE(has(r.err, "unknown command 'runn' (did you mean 'run'?)")) << r.err;
  const auto opt = run_command(kBin + " --profile quick");
  EXPECT_EQ(opt.exit_code, 2);
  EXPECT_TRUE(has(opt.err, "'--profile' comes before a command")) << opt.err;
  const auto help = run_command(kBin + " help run");
  EXPECT_EQ(help.exit_code, 0) << help.err;
  EXPECT_TRUE(has(help.out, "--resume")) << help.out;
}

TEST_F(Conventions, TestHooksAreHiddenFromHelp) {
  const auto r = run_command(kBin + " run --help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(has(r.out, "--dtype")) << r.out;
  EXPECT_TRUE(has(r.out, "--benchmark_out")) << r.out;  // its own JSON/CSV is documented
  EXPECT_FALSE(has(r.out, "--test-")) << r.out;
}

TEST_F(Conventions, ListNamesProbesSpacesDtypesAndProfiles) {
  const auto r = run_command(kBin + " list");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  for (const char* needle : {"bandwidth", "triad", "cache_read", "vendor_gemm", "Serial", "fp64",
                             "bf16", "quick", "nightly", "full"})
    EXPECT_TRUE(has(r.out, needle)) << needle << "\n" << r.out;
}

TEST_F(Conventions, UnknownProbeOrDtypeListsTheKnownOnes) {
  const auto probe = run_command(kBin + " run --quiet --probe triadd --out " + path("r.json"));
  EXPECT_EQ(probe.exit_code, 2);
  EXPECT_TRUE(has(probe.err, "(did you mean 'triad'?)")) << probe.err;
  EXPECT_TRUE(has(probe.err, "cache_read")) << probe.err;
  const auto dtype = run_command(kBin + " run --quiet --dtype fp63 --out " + path("r.json"));
  EXPECT_EQ(dtype.exit_code, 2);
  EXPECT_EQ(test::line_count(dtype.err), 1) << dtype.err;
  EXPECT_TRUE(has(dtype.err, "unknown dtype 'fp63' (did you mean 'fp64'?)")) << dtype.err;
  EXPECT_FALSE(fs::exists(path("r.json")));
}

TEST_F(Conventions, CommaListsAndDtypeFilter) {
  const auto r =
      run_command(kBin + " run --quiet --profile " + kTiny +
                  " --space Serial --probe triad,copy --dtype fp32 --out " + path("r.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::set<std::string> probes;
  const json doc = read_results_file(path("r.json"));  // named: a temporary's member would dangle
  for (const auto& p : doc["points"]) {
    EXPECT_EQ(p["dtype"], "fp32") << p["name"];
    EXPECT_EQ(p["space"], "Serial") << p["name"];
    probes.insert(p["probe"].get<std::string>());
  }
  EXPECT_EQ(probes, (std::set<std::string>{"triad", "copy"}));
}

TEST_F(Conventions, RunDoesNotOverwriteWithoutForce) {
  std::ofstream(path("r.json")) << "a long sweep";
  const std::string args =
      " run --quiet --profile " + kTiny + " --space Serial --probe fill --out " + path("r.json");
  const auto refused = run_command(kBin + args);
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_EQ(test::line_count(refused.err), 1) << refused.err;
  EXPECT_TRUE(has(refused.err, path("r.json") + ": exists; --resume")) << refused.err;
  EXPECT_EQ(slurp(path("r.json")), "a long sweep");
  const auto forced = run_command(kBin + args + " --force");
  EXPECT_EQ(forced.exit_code, 0) << forced.err;
  EXPECT_FALSE(read_results_file(path("r.json"))["points"].empty());
}

// The default console: one progress line per point on stderr (not a terminal here), the answer
// on stdout, no Google Benchmark rows; --verbose adds them.
TEST_F(Conventions, ConsoleIsOneLinePerPointAndEndsWithTheRoofs) {
  const std::string args = " run --threads 2 --profile " + kTiny +
                           " --space Serial --dtype fp64 --probe bandwidth,fma,peak --out ";
  const auto r = run_command("NO_COLOR=1 " + kBin + args + path("r.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::size_t points = read_results_file(path("r.json"))["points"].size();
  std::size_t progress = 0;
  std::istringstream lines(r.err);
  for (std::string line; std::getline(lines, line);) progress += line.rfind("[", 0) == 0;
  EXPECT_EQ(progress, points) << r.err;
  EXPECT_TRUE(has(r.err, "/fp64/n:")) << r.err;
  EXPECT_TRUE(has(r.err, ", verified (")) << r.err;
  EXPECT_TRUE(has(r.err, "ridgeline: " + std::to_string(points) + " points in ")) << r.err;
  EXPECT_FALSE(has(r.err, "\033[")) << "NO_COLOR must leave the log plain";
  EXPECT_FALSE(has(r.err + r.out, "Library was built as DEBUG")) << r.err;
  EXPECT_FALSE(has(r.out, "Iterations")) << r.out;
  // The answer: the header and one fitted row with P, B and I* in units.
  EXPECT_EQ(r.out.rfind("space ", 0), 0u) << r.out;
  EXPECT_TRUE(has(r.out, "I* (FLOP/byte)")) << r.out;
  EXPECT_TRUE(has(r.out, "\nSerial  fp64 ")) << r.out;
  EXPECT_TRUE(has(r.out, "FLOP/s")) << r.out;
  EXPECT_TRUE(has(r.out, "GB/s")) << r.out;

  const auto v = run_command(kBin + args + path("v.json") + " --verbose");
  ASSERT_EQ(v.exit_code, 0) << v.err;
  EXPECT_TRUE(has(v.out, "Iterations")) << v.out;
  EXPECT_TRUE(has(v.out, "_median")) << v.out;
  const auto agg = run_command(kBin + args + path("a.json") +
                               " --verbose --benchmark_display_aggregates_only=true");
  ASSERT_EQ(agg.exit_code, 0) << agg.err;
  EXPECT_TRUE(has(agg.out, "_median")) << agg.out;
  EXPECT_LT(test::line_count(agg.out), test::line_count(v.out)) << agg.out;
  // The aggregates flag changes only what is shown: every repetition is still recorded.
  const json doc = read_results_file(path("a.json"));
  for (const auto& p : doc["points"])
    if (p["skipped_reason"].is_null()) {
      EXPECT_EQ(p["samples"].size(), 3u) << p["name"];
    }
}

TEST_F(Conventions, ResumeOfAFinishedFileSaysSo) {
  const std::string args =
      " run --profile " + kTiny + " --space Serial --probe fill --out " + path("r.json");
  ASSERT_EQ(run_command(kBin + args + " --quiet").exit_code, 0);
  const auto r = run_command(kBin + args + " --resume");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(has(r.err, "every planned point is already there")) << r.err;
  EXPECT_FALSE(has(r.err, "Failed to match")) << r.err;
}

}  // namespace
}  // namespace ridgeline
