#pragma once
// Robust fit of the roofline min(P, I·B) to measured points, with bootstrap intervals.
//
// Method (also printed in the report): in log space every point left of the ridge I* = P/B is an
// observation of log B (log perf − log I) and every point right of it one of log P. Points
// within a factor `band` of the current ridge (the rounded knee) are left out; B and P are
// Tukey-biweight locations of their sides (slow runs get weight zero), and the ridge is
// re-estimated until it settles. Pure-bandwidth probes (copy, fill, …) add direct observations
// of B, pure-compute probes direct observations of P. Intervals: percentile bootstrap over the
// observations (resampled within each kind), fixed seed.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "roofline/model.hpp"

namespace ridgeline {

// A fit that cannot be made from the data (says which roof and why); callers add the file name.
class FitError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Observations {
  std::vector<double> intensity;  // graded points: FLOP/byte …
  std::vector<double> perf;       // … and FLOP/s
  std::vector<double> bandwidth;  // direct observations of B (byte/s)
  std::vector<double> peak;       // direct observations of P (FLOP/s)
  std::size_t size() const { return perf.size() + bandwidth.size() + peak.size(); }
  void add_point(double i, double flops_per_s) {
    intensity.push_back(i);
    perf.push_back(flops_per_s);
  }
};

struct Interval {
  double low = 0, high = 0;
  bool contains(double v) const { return low <= v && v <= high; }
};

struct RoofEstimate {
  Roof roof{0, 0};
  double band = 0;        // knee band factor used: points within I*/band … I*·band left out
  int memory_points = 0;  // observations that fed B (graded + direct)
  int compute_points = 0;
  int knee_points = 0;
};

struct RoofFit {
  RoofEstimate estimate;
  Interval peak_ci, bandwidth_ci, ridge_ci;
  std::vector<Roof> replicates;  // bootstrap roofs (for compare's significance test)
  int failed_replicates = 0;     // resamples with one side empty, left out of the intervals
};

inline constexpr std::uint64_t kBootstrapSeed = 0x5eed0fu;
inline constexpr int kMinFitPoints = 3;

// Throws FitError when fewer than kMinFitPoints observations are given or one roof has no point.
RoofEstimate fit_roofline(const Observations& obs);

RoofFit fit_roofline_with_bootstrap(const Observations& obs, int replicates = 1000,
                                    std::uint64_t seed = kBootstrapSeed);

}  // namespace ridgeline
