#include "fit/analysis.hpp"

#include "results/input_error.hpp"

namespace ridgeline {

const GroupAnalysis* FileAnalysis::find(const std::string& space, const std::string& dtype) const {
  for (const auto& g : groups)
    if (g.fit.space == space && g.fit.dtype == dtype) return &g;
  return nullptr;
}

FileAnalysis analyze(Results results, int replicates, std::uint64_t seed) {
  FileAnalysis a;
  const auto slash = results.file.find_last_of('/');
  a.label = slash == std::string::npos ? results.file : results.file.substr(slash + 1);
  for (auto& g : fit_results(results, replicates, seed)) {
    auto levels = detect_memory_levels(results, g.space, g.dtype);
    a.groups.push_back({std::move(g), std::move(levels)});
  }
  a.results = std::move(results);
  return a;
}

void require_some_fit(const FileAnalysis& a) {
  const GroupFit* failure = nullptr;
  for (const auto& g : a.groups) {
    if (g.fit.fit) return;
    if (g.fit.measured && !failure) failure = &g.fit;
  }
  if (failure)
    throw InputError(a.results.file, failure->space + "/" + failure->dtype, failure->not_fitted);
  throw InputError(a.results.file, "points", "no measured point to fit");
}

}  // namespace ridgeline
