#pragma once
// Robust fit of the roofline min(P, I·B) to measured points, with intervals from repetitions.
//
// Method (also printed in the report): in log space every graded point left of the ridge
// I* = P/B is an observation of log B (log perf − log I) and every point right of it one of
// log P, unless it may only observe one roof (a ladder rung whose compute side is not P). Points
// within a factor `band` of the current ridge (the rounded knee) are left out; P is the
// Tukey-biweight location of its side (slow points get weight zero), B the same, and the ridge
// is re-estimated until it settles; for observations that are distinct kernels measured with
// repetitions, P and B are then the envelopes (largest per-point values) of the sides of that
// final split (Observations::envelopes). Pure-bandwidth observations (no FLOPs) observe B directly,
// register-only peaks observe P directly.
//
// Intervals: a block bootstrap over repetitions. Every observation carries its repetitions (one
// timed block of consecutive calls each); a replicate redraws each observation's repetitions with
// replacement, takes their median and refits. The interval is then run-to-run uncertainty of the
// roof given its defining points. The spread between those points (different kernels give
// different B) is reported apart, as the range of their per-point values. Observations without
// repetitions (a CSV of rates) fall back to resampling the observations themselves.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/interval.hpp"
#include "reports/roofline/model.hpp"

namespace ridgeline {

// A fit that cannot be made from the data (says which roof and why); callers add the file name.
class FitError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One measured point as the fit sees it: `count` FLOPs (graded, peak) or bytes (bandwidth) per
// call, and the seconds per call of each repetition.
struct Observation {
  double intensity = 0;  // FLOP/byte, graded observations only
  double count = 0;
  std::vector<double> samples;
  bool observes_peak = true;       // graded: may observe P when right of the ridge
  bool observes_bandwidth = true;  // graded: may observe B when left of it
  double rate() const;             // count / median(samples)
};

struct Observations {
  std::vector<Observation> graded;     // FLOP/s at an intensity
  std::vector<Observation> bandwidth;  // direct observations of B (byte/s)
  std::vector<Observation> peak;       // direct observations of P (FLOP/s)
  // P and B are the largest per-point values of their sides (envelopes) instead of their Tukey
  // locations. For results files: each observation is a distinct kernel (layout, traffic mix,
  // chains) whose rate is a median over repetitions, and kernels differ for real, so a location
  // would set the roof between them, below a rate the machine was measured to reach; the median
  // already takes out the per-sample noise that biases a maximum of single samples (ERT's), and
  // the repetition bootstrap shows what bias is left. Not for rates without repetitions (a CSV):
  // one noisy rate per point, whose maximum is the noise.
  bool envelopes = false;
  std::size_t size() const { return graded.size() + bandwidth.size() + peak.size(); }
  // A point known only by its rate (no repetitions), e.g. from a CSV file.
  void add_point(double intensity, double flops_per_s) {
    graded.push_back({intensity, flops_per_s, {1.0}, true});
  }
};

struct RoofEstimate {
  Roof roof{0, 0};
  double band = 0;         // knee band factor used: points within I*/band … I*·band left out
  double split_ridge = 0;  // the I* the sides were split at (the locations' ridge; for
                           // envelopes not roof.ridge_point())
  int memory_points = 0;   // observations that fed B (graded + direct)
  int compute_points = 0;
  int knee_points = 0;
  // Per-point values of the observations that fed each roof: their range is the spread across
  // probes, which the repetition intervals do not contain.
  Interval bandwidth_spread, peak_spread;
};

struct RoofFit {
  RoofEstimate estimate;
  Interval peak_ci, bandwidth_ci, ridge_ci;
  std::string interval_method;   // "repetitions" or "points" (no repetitions to resample)
  std::vector<Roof> replicates;  // bootstrap roofs (for compare's significance test)
  int failed_replicates = 0;     // resamples with one side empty, left out of the intervals
};

inline constexpr std::uint64_t kBootstrapSeed = 0x5eed0fu;
inline constexpr int kBootstrapReplicates = 1000;
// Every interval from the bootstrap replicates is the central percentile interval of this
// confidence (2.5 % to 97.5 %).
inline constexpr int kConfidencePercent = 95;
// How the reports name that confidence: "95 %".
inline std::string confidence_label() { return std::to_string(kConfidencePercent) + " %"; }
inline constexpr int kMinFitPoints = 3;

// The knee bands tried, widest first: points within I*/band … I*·band are left out, and a
// narrower band is taken only while a side would keep fewer than kMinSidePoints observations
// (one is enough where direct observations define the side). Never below a factor 2: a point at
// the ridge itself says nothing about either roof.
inline constexpr double kKneeBands[] = {8, 4, 2};
inline constexpr int kMinSidePoints = 2;

// Throws FitError when fewer than kMinFitPoints observations are given or one roof has no point.
RoofEstimate fit_roofline(const Observations& obs);

RoofFit fit_roofline_with_bootstrap(const Observations& obs, int replicates = kBootstrapReplicates,
                                    std::uint64_t seed = kBootstrapSeed);

// A single roof from direct observations only (B_read from read-only kernels): the Tukey location
// of the per-point values, with the same repetition bootstrap. Throws FitError when `obs` is empty.
struct LevelFit {
  double value = 0;
  Interval ci, spread;
  int points = 0;
  std::vector<double> replicates;  // the bootstrap values behind `ci` (ratios pair them up)
};
LevelFit fit_level(const std::vector<Observation>& obs, int replicates = kBootstrapReplicates,
                   std::uint64_t seed = kBootstrapSeed);

// A roof that is the envelope of its points (P_matrix: the best of the library GEMMs on matrix
// units, whose skinny shapes are below the roof by design, not noise): the largest per-point
// rate, with the same repetition bootstrap (each replicate redraws every point's repetitions and
// takes the largest median). Throws FitError when `obs` is empty.
LevelFit fit_envelope(const std::vector<Observation>& obs, int replicates = kBootstrapReplicates,
                      std::uint64_t seed = kBootstrapSeed);

// The kConfidencePercent percentile interval of numerator[i] / denominator[i] over paired bootstrap
// replicates (independent fits: pairing by index is a draw of both); `fallback` when there are
// none.
Interval ratio_interval(const std::vector<double>& numerator,
                        const std::vector<double>& denominator, double fallback);

}  // namespace ridgeline
