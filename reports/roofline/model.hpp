#pragma once
// The roofline model: attainable = min(P, I·B); the ridge point I* = P/B splits the regimes.
#include <algorithm>

namespace ridgeline {

// What a given roof may be (calc's options, machine sheets): beyond any machine by orders of
// magnitude, and far enough from overflow that I* = P/B and I·B stay finite numbers.
inline constexpr double kMinRoof = 1, kMaxPeakFlops = 1e21, kMaxBandwidth = 1e18;
inline constexpr double kMinIntensity = 1e-6, kMaxIntensity = 1e9;  // FLOP/byte

struct Roof {
  double peak_flops;  // P, FLOP/s
  double bandwidth;   // B, byte/s
  double ridge_point() const { return peak_flops / bandwidth; }
  double attainable(double intensity) const { return std::min(peak_flops, intensity * bandwidth); }
  bool memory_bound(double intensity) const { return intensity < ridge_point(); }
};

}  // namespace ridgeline
