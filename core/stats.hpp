#pragma once
// Robust statistics of a sample, for every component: the one median, the median absolute
// deviation (MAD) and the spreads built on it, and Tukey's biweight location around the median
// (slow runs, outliers far below the roof, get weight zero instead of dragging the mean down).
#include <vector>

namespace ridgeline {

// The median; of an even count, the mean of the two middle values. 0 for no values.
double median(std::vector<double> v);

// 1.4826 × the MAD of many normal values is their standard deviation (1 / Φ⁻¹(3/4)).
inline constexpr double kMadToSigma = 1.4826;

// The median of many normal values scatters √(π/2) ≈ 1.2533 times as widely as their mean.
inline constexpr double kMedianEfficiency = 1.2533;

// The MAD of the logarithms of positive values, unscaled: their relative spread, robust to a few
// odd ones. 0 for no values.
double log_mad(const std::vector<double>& positive);

// kMadToSigma × log_mad: the standard deviation of relative changes, for many values.
double log_sigma(const std::vector<double>& positive);

// Robust relative spread of positive values: the MAD of their logarithms, scaled to estimate the
// standard deviation of relative changes (with a small-sample factor); < 0 with fewer than 3
// values.
double robust_log_spread(const std::vector<double>& values);

// Standard error of the log of a median of n samples: 1.2533 σ / √n, σ from the samples' MAD;
// 0 with fewer than 3 samples.
double median_log_se(const std::vector<double>& samples);

// Tukey's biweight gives zero weight beyond this many (MAD-estimated) standard deviations from
// the location; 4.685 gives 95 % efficiency for normal data.
inline constexpr double kBiweightTuning = 4.685;

// `scale_floor` keeps near-identical values from shrinking the scale to zero (which would
// reject everything but the median).
double tukey_biweight_location(const std::vector<double>& v, double scale_floor = 1e-3);

}  // namespace ridgeline
