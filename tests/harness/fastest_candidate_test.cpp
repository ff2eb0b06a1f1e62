// The choice between an Lt library's candidate algorithms, with made-up launches and timings:
// the fastest single run wins, candidates that cannot run are passed over and not counted as
// tried, and a GEMM none of whose candidates ran is an error that names the heuristic.
#include "backends/fastest_candidate.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace ridgeline {
namespace {

// Candidate r's timed runs return times[r][0], times[r][1], … in turn (<= 0: did not run).
struct Fake {
  std::vector<bool> usable, warms;
  std::vector<std::vector<double>> times;
  std::vector<int> next = std::vector<int>(8, 0);
  int choose(GemmChoice& c, int runs = 3) {
    return fastest_candidate(
        int(usable.size()), runs, [&](int r) { return bool(usable[r]); },
        [&](int r) { return bool(warms[r]); }, [&](int r) { return times[r][next[r]++]; }, c,
        "the heuristic");
  }
};

TEST(FastestCandidate, TheFastestSingleRunWinsAndIsRecorded) {
  Fake f{{true, true, true},
         {true, true, true},
         {{3e-3, 3e-3, 3e-3}, {5e-3, 1e-3, 5e-3}, {2e-3, 2e-3, 2e-3}}};
  GemmChoice c;
  EXPECT_EQ(f.choose(c), 1);  // its best run (1 ms) beats the steadier 2 ms
  EXPECT_EQ(c.heuristic_rank, 1);
  EXPECT_EQ(c.candidates, 3);
  EXPECT_EQ(c.tried, 3);
  EXPECT_DOUBLE_EQ(c.seconds, 1e-3);
  EXPECT_EQ(f.next, (std::vector<int>{3, 3, 3, 0, 0, 0, 0, 0}));  // 3 timed runs each
}

TEST(FastestCandidate, CandidatesThatCannotRunArePassedOver) {
  // 0: the heuristic marks it unusable; 1: its untimed launch fails; 2: every timed run fails;
  // 3: runs. Only 2 and 3 count as tried; 3 is kept though 0 and 1 would have been faster.
  Fake f{{false, true, true, true},
         {true, false, true, true},
         {{1e-6, 1e-6, 1e-6}, {1e-6, 1e-6, 1e-6}, {0, -1, 0}, {4e-3, 4e-3, 4e-3}}};
  GemmChoice c;
  EXPECT_EQ(f.choose(c), 3);
  EXPECT_EQ(c.tried, 2);
  EXPECT_EQ(f.next[0] + f.next[1], 0);  // never timed
  EXPECT_DOUBLE_EQ(c.seconds, 4e-3);
}

TEST(FastestCandidate, ATieKeepsTheHeuristicsEarlierChoice) {
  Fake f{{true, true}, {true, true}, {{2e-3}, {2e-3}}};
  GemmChoice c;
  EXPECT_EQ(f.choose(c, 1), 0);
}

TEST(FastestCandidate, NoneRanIsAnErrorNamingTheHeuristic) {
  Fake f{{true, false}, {false, true}, {{1e-3}, {1e-3}}};
  GemmChoice c;
  try {
    f.choose(c, 1);
    FAIL() << "no candidate ran, yet one was chosen";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "none of the 2 algorithms the heuristic offered ran");
  }
  EXPECT_EQ(c.tried, 0);
}

}  // namespace
}  // namespace ridgeline
