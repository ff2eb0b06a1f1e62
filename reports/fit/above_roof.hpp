#pragma once
// Points above their roof: a roof is only a roof if nothing measured on the machine sits above
// it. Every verified point (ours or a library's) is held against the fitted roof of its space ×
// dtype at its own intensity (P_matrix for library GEMMs on tensor or matrix units, P for the
// others); the memory roof is the one of the point's traffic mix (B for kernels that read and
// write, B_read for read-only ones, B_write for write-only ones), the highest memory roof of the
// group for a kernel without a mix or whose mix has no roof there. Two lists:
// - points more than `margin` above it, with the reason when one is known: a working set that a
//   cache holds is not bound by the DRAM roof; a point below the top of the roof's own 95 %
//   interval is above the estimate only; a point within `margin` of the roof's points in the
//   same rounds (the median of its per-round ratios) is above the roof only because the machine's
//   speed changed between the rounds that its median and the roof's came from;
// - points above it beyond noise: their own 95 % interval (the repetition bootstrap of their
//   median) lies above the top of the roof's, and they are above the roof's points in the same
//   rounds too. Our own kernels never should be (each memory roof is the envelope of them); a
//   library kernel there is a ceiling the machine reaches and our kernels do not: the roof is
//   short of what the machine does.
#include <optional>
#include <string>
#include <vector>

#include "reports/fit/analysis.hpp"

namespace ridgeline {

// A point over its roof round by round: the median over the rounds both ran in of the point's
// rate over the fastest of the roof's points in that round.
struct RoundRatio {
  double ratio = 0;
  int rounds = 0;
};

struct AboveRoof {
  const Point* point = nullptr;
  bool flops = true;  // measured and roof in FLOP/s; false: byte/s (a point without FLOPs)
  double measured = 0, roof = 0, ratio = 0;
  // Cache-resident, within the roof's interval, or empty: then it should not happen (DRAM-sized,
  // register-only or compute-bound, above the roof's interval) and the roof is wrong or the point.
  std::string reason;
  std::string roof_name;  // the roof there: "P", "B", "B_read", "B_write", "P_matrix", …
  // The point's own 95 % interval and the top of the roof's at its intensity (beyond-noise list).
  Interval measured_ci;
  double roof_high = 0;
  // Against the roof's points in the same rounds, where the file has two or more rounds.
  std::optional<RoundRatio> per_round;
};

inline constexpr double kAboveRoofMargin = 0.05;

std::vector<AboveRoof> points_above_roof(const FileAnalysis& a, double margin = kAboveRoofMargin);

// Points (not cache-resident) whose 95 % interval lies above the top of their roof's interval.
std::vector<AboveRoof> points_above_roof_beyond_noise(const FileAnalysis& a,
                                                      int replicates = kBootstrapReplicates,
                                                      std::uint64_t seed = kBootstrapSeed);

}  // namespace ridgeline
