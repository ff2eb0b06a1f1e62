#pragma once
// Mann–Whitney U test (two-sided) for "are these two sets of samples from the same distribution".
#include <vector>

namespace ridgeline {

struct MannWhitney {
  double p_value = 1;
  // The smallest two-sided p the test can give for these sample counts: exact, 2 / C(m+n, m)
  // (with 3 + 3 samples 0.1, so such a test can never reach alpha = 0.01); with the normal
  // approximation, its p at the most extreme U.
  double min_p_value = 1;
  bool exact = false;
};

// Exact distribution when there are no ties and m·n ≤ 4096 (the normal approximation's tail is far
// too heavy for a few samples against many: 5 + 70 samples all below the others give 2e-4 where
// the exact p is 1.2e-7); otherwise the normal approximation with tie and continuity corrections.
MannWhitney mann_whitney(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace ridgeline
