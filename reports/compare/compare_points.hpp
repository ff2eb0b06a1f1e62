#pragma once
// Point-by-point comparison: each probe point's median time tonight against the history's.
#include <vector>

namespace ridgeline {

// Standard error of the log of a median of n samples: 1.2533 σ / √n, σ from the samples' MAD.
double median_log_se(const std::vector<double>& samples);

}  // namespace ridgeline
