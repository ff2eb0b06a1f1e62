#include "reports/fit/analysis.hpp"

#include "core/input_error.hpp"

namespace ridgeline {
namespace {

// The dtype a matrix unit's operands are stored in, whose memory roof they stream through: tf32
// is an fp32 array multiplied at reduced precision.
std::string storage_dtype(const std::string& dtype) { return dtype == "tf32" ? "fp32" : dtype; }

}  // namespace

const GroupAnalysis* FileAnalysis::find(const std::string& space, const std::string& dtype) const {
  const auto it = group_index.find({space, dtype});
  return it == group_index.end() ? nullptr : &groups[it->second];
}

const std::vector<const Point*>& FileAnalysis::points_of(const std::string& space,
                                                         const std::string& dtype) const {
  static const std::vector<const Point*> none;
  const auto it = group_points.find({space, dtype});
  return it == group_points.end() ? none : it->second;
}

FileAnalysis analyze(Results results, int replicates, std::uint64_t seed) {
  FileAnalysis a;
  const auto slash = results.file.find_last_of('/');
  a.label = slash == std::string::npos ? results.file : results.file.substr(slash + 1);
  // One Results per group, holding that group's points and the machine facts the levels need.
  std::vector<Results> parts;
  for (const auto& p : results.points) {
    const auto [it, fresh] = a.group_index.emplace(std::make_pair(p.space, p.dtype), parts.size());
    if (fresh) {
      Results part;
      part.file = results.file;
      part.caches = results.caches;
      part.caches_incomplete = results.caches_incomplete;
      part.dram_min_bytes = results.dram_min_bytes;
      if (const SpaceInfo* s = results.find_space(p.space)) part.spaces.push_back(*s);
      parts.push_back(std::move(part));
    }
    parts[it->second].points.push_back(p);
  }
  for (auto& part : parts) {
    const Point& first = part.points.front();
    auto fits = fit_results(part, replicates, seed);  // exactly one group
    auto levels = detect_memory_levels(part, first.space, first.dtype, replicates, seed);
    a.groups.push_back({std::move(fits.front()), std::move(levels)});
  }
  a.results = std::move(results);
  for (const auto& p : a.results.points) a.group_points[{p.space, p.dtype}].push_back(&p);
  // A matrix roof whose own group measured no B (tf32 runs only the GEMM) takes the B of its
  // storage type's group.
  for (auto& g : a.groups) {
    auto& m = g.fit.matrix;
    if (!m || m->ridge || storage_dtype(g.fit.dtype) == g.fit.dtype) continue;
    if (const GroupAnalysis* s = a.find(g.fit.space, storage_dtype(g.fit.dtype)))
      set_matrix_ridges(*m, s->fit);
  }
  // A group without a read kernel (fp16, bf16: the sweep reads in fp64 and fp32 only) places
  // its matrix roof against the space's highest B_read, as the above-roof check holds every
  // point against the highest memory roof measured.
  for (auto& g : a.groups) {
    auto& m = g.fit.matrix;
    if (!m || !m->ridge || m->read_ridge) continue;
    const GroupFit* best = nullptr;
    for (const auto& other : a.groups)
      if (other.fit.space == g.fit.space && other.fit.read_bandwidth &&
          (!best || other.fit.read_bandwidth->value > best->read_bandwidth->value))
        best = &other.fit;
    if (best) set_matrix_read_ridge(*m, *best);
  }
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

void require_some_measured(const FileAnalysis& a) {
  for (const auto& p : a.results.points)
    if (p.measured()) return;
  throw InputError(a.results.file, "points", "no measured point to report");
}

}  // namespace ridgeline
