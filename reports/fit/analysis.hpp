#pragma once
// Everything the report, place and compare commands derive from one results file: a roof fit
// and the memory levels per execution space × dtype.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "reports/fit/results_fit.hpp"
#include "reports/levels/memory_levels.hpp"
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
  // Lookups by space × dtype: the index into `groups`, and the group's points (pointers into
  // `results.points`, in file order).
  std::map<std::pair<std::string, std::string>, std::size_t> group_index;
  std::map<std::pair<std::string, std::string>, std::vector<const Point*>> group_points;

  const GroupAnalysis* find(const std::string& space, const std::string& dtype) const;
  const std::vector<const Point*>& points_of(const std::string& space,
                                             const std::string& dtype) const;

  FileAnalysis() = default;
  FileAnalysis(FileAnalysis&&) = default;  // moving keeps the points where group_points expects
  FileAnalysis& operator=(FileAnalysis&&) = default;
  FileAnalysis(const FileAnalysis&) = delete;  // a copy's group_points would point into this one
  FileAnalysis& operator=(const FileAnalysis&) = delete;
};

// Each group is fitted from its own points: the cost grows with the points, not with
// points × groups.
FileAnalysis analyze(Results results, int replicates = kBootstrapReplicates,
                     std::uint64_t seed = kBootstrapSeed);

// Throws InputError naming the file when not one group of it could be fitted.
void require_some_fit(const FileAnalysis& a);

// Throws InputError naming the file when it holds no measured point (a report of a partial run
// shows what was measured; an empty file has nothing to show).
void require_some_measured(const FileAnalysis& a);

}  // namespace ridgeline
