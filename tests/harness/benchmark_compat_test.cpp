// Both shapes of Google Benchmark's Run: 1.7 (error_occurred/error_message) and 1.8 and later
// (skipped/skip_message), whatever version this build uses.
#include "harness/sweep/benchmark_compat.hpp"

#include <gtest/gtest.h>

namespace ridgeline {
namespace {

struct RunBefore18 {
  bool error_occurred = false;
  std::string error_message;
};

enum Skipped : unsigned { NotSkipped = 0, SkippedWithMessage, SkippedWithError };
struct RunSince18 {
  Skipped skipped = NotSkipped;
  std::string skip_message;
};

TEST(BenchmarkCompat, ErrorsOfBothRunShapes) {
  RunBefore18 old;
  EXPECT_EQ(compat::run_error(old), "");
  old = {true, "setup failed: out of memory"};
  EXPECT_EQ(compat::run_error(old), "setup failed: out of memory");
  RunSince18 now;
  EXPECT_EQ(compat::run_error(now), "");
  now = {SkippedWithError, "setup failed: out of memory"};
  EXPECT_EQ(compat::run_error(now), "setup failed: out of memory");
  now = {SkippedWithMessage, ""};
  EXPECT_EQ(compat::run_error(now), "skipped");
}

TEST(BenchmarkCompat, MinTimeInThisVersionsSyntax) {
  const std::string flag = compat::min_time_flag(0.25);
#if RIDGELINE_BENCHMARK_VERSION_MAJOR > 1 || RIDGELINE_BENCHMARK_VERSION_MINOR >= 8
  EXPECT_EQ(flag, "--benchmark_min_time=0.25s");
#else
  EXPECT_EQ(flag, "--benchmark_min_time=0.25");
#endif
}

}  // namespace
}  // namespace ridgeline
