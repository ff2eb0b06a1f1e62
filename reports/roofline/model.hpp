#pragma once
// The roofline model: attainable = min(P, I·B); the ridge point I* = P/B splits the regimes.
#include <algorithm>

namespace ridgeline {

struct Roof {
  double peak_flops;  // P, FLOP/s
  double bandwidth;   // B, byte/s
  double ridge_point() const { return peak_flops / bandwidth; }
  double attainable(double intensity) const { return std::min(peak_flops, intensity * bandwidth); }
  bool memory_bound(double intensity) const { return intensity < ridge_point(); }
};

}  // namespace ridgeline
