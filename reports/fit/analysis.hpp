#pragma once
// Everything the report, place and compare commands derive from one results file: a roof fit
// and the memory levels per execution space × dtype.
#include <string>
#include <vector>

#include "fit/results_fit.hpp"
#include "levels/memory_levels.hpp"
#include "results/results_model.hpp"

namespace ridgeline {

struct GroupAnalysis {
  GroupFit fit;
  std::vector<LevelSweep> levels;
};

struct FileAnalysis {
  Results results;
  std::string label;  // the file's base name, as tables show it
  std::vector<GroupAnalysis> groups;
  const GroupAnalysis* find(const std::string& space, const std::string& dtype) const;
};

FileAnalysis analyze(Results results, int replicates = 1000, std::uint64_t seed = kBootstrapSeed);

// Throws InputError naming the file when not one group of it could be fitted.
void require_some_fit(const FileAnalysis& a);

}  // namespace ridgeline
