#pragma once
// Robust location of a sample: Tukey's biweight M-estimator around the median, scaled by the MAD.
// Slow runs (outliers far below the roof) get weight zero instead of dragging the mean down.
#include <vector>

namespace ridgeline {

double median(std::vector<double> v);  // v must not be empty

// `scale_floor` keeps near-identical values from shrinking the scale to zero (which would
// reject everything but the median).
double tukey_biweight_location(const std::vector<double>& v, double scale_floor = 1e-3);

}  // namespace ridgeline
