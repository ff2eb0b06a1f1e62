#pragma once
// Mann–Whitney U test (two-sided) for "are these two sets of samples from the same distribution".
#include <vector>

namespace ridgeline {

struct MannWhitney {
  double p_value = 1;
  // The smallest two-sided p the test can give for these sample counts (exact test): with 3 + 3
  // samples it is 0.1, so such a test can never reach alpha = 0.01.
  double min_p_value = 1;
  bool exact = false;
};

// Exact distribution when there are no ties and both samples are small; otherwise the normal
// approximation with tie and continuity corrections.
MannWhitney mann_whitney(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace ridgeline
