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
  // Each group was fitted from its own points: its indices become the file's, so that memory
  // roofs can pool points of several dtypes.
  std::vector<GroupFit*> fits;
  for (auto& g : a.groups) {
    GroupFit& f = g.fit;
    const std::vector<const Point*>& own = a.points_of(f.space, f.dtype);
    const auto to_file = [&](std::vector<std::size_t>& indices) {
      for (std::size_t& i : indices)
        i = static_cast<std::size_t>(own.at(i) - a.results.points.data());
    };
    to_file(f.peak_points);
    to_file(f.bandwidth_points);
    for (MixRoof& m : f.mixes) to_file(m.points);
    if (f.matrix) to_file(f.matrix->points);
    fits.push_back(&f);
  }
  pool_memory_roofs(a.results, fits, replicates, seed);
  // A matrix roof whose own group measured no B (tf32 runs only the GEMM) takes the space's B,
  // the device's: that of its storage type's group where there is one, else of any fitted group.
  for (auto& g : a.groups) {
    auto& m = g.fit.matrix;
    if (!m || m->ridge) continue;
    const GroupAnalysis* s = a.find(g.fit.space, storage_dtype(g.fit.dtype));
    for (const auto& other : a.groups)
      if ((!s || !s->fit.fit) && other.fit.space == g.fit.space && other.fit.fit) s = &other;
    if (s && s->fit.fit) set_matrix_ridges(*m, s->fit);
  }
  // (A group without a read kernel, fp16 or bf16, holds the device's B_read since the pooling:
  // its read ridge is set with its own.)
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
