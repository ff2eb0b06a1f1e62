#pragma once
// Which points of a results file feed which roof (schema.md, "How the reporter uses the points"),
// and the fit of each execution space × dtype.
#include <optional>
#include <string>
#include <vector>

#include "fit/roofline_fit.hpp"
#include "results/results_model.hpp"

namespace ridgeline {

struct GroupFit {
  std::string space, dtype;
  std::optional<RoofFit> fit;
  std::string not_fitted;  // why there is no fit (not measured, too few points, …)
  bool measured = false;   // some point of this group was measured
};

// Bandwidth-family points with FLOPs and fma rungs are graded points (I, FLOP/s); copy/fill
// (no FLOPs) observe B through byte/s; the peak family observes P. Cache and library points,
// unverified and skipped ones are left out.
Observations observations_for(const Results& r, const std::string& space, const std::string& dtype);

// Every space × dtype in order of first appearance; a group that cannot be fitted says why.
std::vector<GroupFit> fit_results(const Results& r, int replicates = 1000,
                                  std::uint64_t seed = kBootstrapSeed);

// The groups in order of first appearance.
std::vector<std::pair<std::string, std::string>> space_dtype_groups(const Results& r);

}  // namespace ridgeline
