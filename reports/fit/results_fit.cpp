#include "fit/results_fit.hpp"

#include <algorithm>

namespace ridgeline {

std::vector<std::pair<std::string, std::string>> space_dtype_groups(const Results& r) {
  std::vector<std::pair<std::string, std::string>> groups;
  for (const auto& p : r.points) {
    const std::pair<std::string, std::string> g{p.space, p.dtype};
    if (std::find(groups.begin(), groups.end(), g) == groups.end()) groups.push_back(g);
  }
  return groups;
}

Observations observations_for(const Results& r, const std::string& space,
                              const std::string& dtype) {
  Observations o;
  for (const auto& p : r.points) {
    if (p.space != space || p.dtype != dtype || !p.fittable()) continue;
    if (p.family == "peak" && p.flops_per_s) {
      o.peak.push_back(*p.flops_per_s);
    } else if (p.family == "bandwidth" || p.family == "fma") {
      if (p.intensity && p.flops_per_s)
        o.add_point(*p.intensity, *p.flops_per_s);
      else if (p.bytes_per_s)
        o.bandwidth.push_back(*p.bytes_per_s);
    }
  }
  return o;
}

std::vector<GroupFit> fit_results(const Results& r, int replicates, std::uint64_t seed) {
  std::vector<GroupFit> out;
  for (const auto& [space, dtype] : space_dtype_groups(r)) {
    GroupFit g{space, dtype, std::nullopt, {}, false};
    std::string skipped;
    for (const auto& p : r.points) {
      if (p.space != space || p.dtype != dtype) continue;
      if (p.measured()) g.measured = true;
      if (!p.measured() && skipped.empty()) skipped = p.skipped_reason;
    }
    if (!g.measured) {
      g.not_fitted = "not measured: " + skipped;
    } else {
      try {
        g.fit = fit_roofline_with_bootstrap(observations_for(r, space, dtype), replicates, seed);
      } catch (const FitError& e) {
        g.not_fitted = std::string("not fitted: ") + e.what();
      }
    }
    out.push_back(std::move(g));
  }
  return out;
}

}  // namespace ridgeline
