#pragma once
// Points above their roof: a roof is only a roof if nothing measured on the machine sits above
// it. Every verified point (ours or a library's) is held against the fitted roof of its space ×
// dtype at its own intensity (P_matrix for library GEMMs on tensor or matrix units, P for the
// others), the memory roof being the higher of B and B_read; those more than `margin` above it
// are listed with the reason when one is known: a working set that a cache holds is not bound by
// the DRAM roof, and a point below the top of the roof's own 95 % interval is above the estimate
// only.
#include <string>
#include <vector>

#include "fit/analysis.hpp"

namespace ridgeline {

struct AboveRoof {
  const Point* point = nullptr;
  bool flops = true;  // measured and roof in FLOP/s; false: byte/s (a point without FLOPs)
  double measured = 0, roof = 0, ratio = 0;
  // Cache-resident, within the roof's interval, or empty: then it should not happen (DRAM-sized,
  // register-only or compute-bound, above the roof's interval) and the roof is wrong or the point.
  std::string reason;
};

inline constexpr double kAboveRoofMargin = 0.05;

std::vector<AboveRoof> points_above_roof(const FileAnalysis& a, double margin = kAboveRoofMargin);

}  // namespace ridgeline
