#include <gtest/gtest.h>

#include "cli_test_support.hpp"
#include "compare/compare.hpp"
#include "compare/mann_whitney.hpp"

namespace ridgeline {
namespace {

using namespace test;

TEST(Compare, SameDataTwiceIsNoRegression) {
  const auto r =
      run_command(kBin + " compare " + kData + "/cpu_run_a.json " + kData + "/cpu_run_a.json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("no regression — 0 slower, 0 faster, 0 ambiguous"), std::string::npos)
      << r.out;
}

TEST(Compare, TwoRunsOfTheSameMachineAreNoRegression) {
  const auto r =
      run_command(kBin + " compare " + kData + "/cpu_run_a.json " + kData + "/cpu_run_b.json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("## ridgeline compare: no regression — 0 slower"), std::string::npos)
      << r.out.substr(0, 300);
}

// cpu_run_slow.json: every fp64 memory-bound time 10 % longer (make_fixtures.py), 8 repetitions.
TEST(Compare, PlantedTenPercentSlowdownIsCaught) {
  TempDir dir;
  const auto r = run_command(kBin + " compare " + kData + "/cpu_run_a.json " + kData +
                             "/cpu_run_slow.json --out " + dir.path + "/summary.md");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("REGRESSION"), std::string::npos);
  EXPECT_NE(r.out.find("| `B OpenMP/fp64` | 49.84 GB/s | 45.14 GB/s | -9.4 % |"), std::string::npos)
      << r.out.substr(0, 1200);
  EXPECT_NE(r.out.find("| `copy/OpenMP/fp64/n:8388608` |"), std::string::npos);
  EXPECT_NE(r.out.find("**SLOWER**"), std::string::npos);
  EXPECT_EQ(slurp(dir.path + "/summary.md"), r.out);
  // fp32 was not slowed: it must not be flagged.
  EXPECT_NE(r.out.find("| `B OpenMP/fp32` | 50.12 GB/s | 50.33 GB/s | +0.4 % |"),
            std::string::npos);
}

TEST(Compare, RefusesDifferentHostsUnlessAllowed) {
  const auto r =
      run_command(kBin + " compare " + kData + "/cpu_run_a.json " + kData + "/cpu_other_host.json");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("baselines are per host"), std::string::npos);
  const auto ok = run_command(kBin + " compare --allow-different-hosts " + kData +
                              "/cpu_run_a.json " + kData + "/cpu_other_host.json");
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
}

TEST(MannWhitney, ExactSmallSamplesAndPower) {
  // Complete separation of 3 + 3 samples: the smallest possible two-sided p, 2/20.
  const auto three = mann_whitney({1, 2, 3}, {4, 5, 6});
  EXPECT_TRUE(three.exact);
  EXPECT_DOUBLE_EQ(three.p_value, 0.1);
  EXPECT_DOUBLE_EQ(three.min_p_value, 0.1);
  // 8 + 8 separated: 2/12870.
  const auto eight = mann_whitney({1, 2, 3, 4, 5, 6, 7, 8}, {9, 10, 11, 12, 13, 14, 15, 16});
  EXPECT_NEAR(eight.p_value, 2.0 / 12870, 1e-12);
  // Interleaved samples: no evidence at all.
  EXPECT_GT(mann_whitney({1, 3, 5, 7}, {2, 4, 6, 8}).p_value, 0.5);
  // Ties use the normal approximation.
  EXPECT_FALSE(mann_whitney({1, 1, 2}, {1, 2, 2}).exact);
}

TEST(Verdict, NeedsSizeAndSignificanceAndSaysWhenTheTestHasNoPower) {
  const CompareOptions o;  // 5 %, alpha 0.01
  std::string note;
  EXPECT_EQ(decide(-0.04, 1e-6, 1e-9, o, note), Verdict::kSame);    // small, significant
  EXPECT_EQ(decide(-0.10, 1e-3, 1e-9, o, note), Verdict::kSlower);  // large, significant
  EXPECT_EQ(decide(+0.10, 1e-3, 1e-9, o, note), Verdict::kFaster);
  EXPECT_EQ(decide(-0.10, 0.2, 1e-9, o, note), Verdict::kAmbiguous);  // large, not significant
  note.clear();
  EXPECT_EQ(decide(-0.30, 0.1, 0.1, o, note), Verdict::kAmbiguous);  // 3 + 3 samples
  EXPECT_NE(note.find("too few samples"), std::string::npos) << note;
}

}  // namespace
}  // namespace ridgeline
