#include "reports/export/roof_export.hpp"

#include <algorithm>

#include "core/input_error.hpp"

namespace ridgeline {
namespace {

ExportedGroup exported(const GroupAnalysis& ga) {
  const GroupFit& g = ga.fit;
  ExportedGroup e;
  e.space = g.space;
  e.dtype = g.dtype;
  if (g.fit) {
    const RoofFit& f = *g.fit;
    const Roof& r = f.estimate.roof;
    e.peak = ExportedRoof{r.peak_flops, f.peak_ci, g.peak_from};
    e.bandwidth = ExportedRoof{r.bandwidth, f.bandwidth_ci, g.bandwidth_from};
    e.ridge = ExportedRoof{r.ridge_point(), f.ridge_ci, "P / B"};
    e.interval_method = f.interval_method;
  } else {
    e.notes.push_back("P, B and I* not exported: " + g.not_fitted);
  }
  if (g.read_bandwidth)
    e.read_bandwidth =
        ExportedRoof{g.read_bandwidth->value, g.read_bandwidth->ci, g.read_bandwidth_from};
  else if (g.fit)
    e.notes.push_back("B_read not exported: no read-only point was measured");
  for (const auto& c : g.caveats) e.notes.push_back(c);
  for (const auto& sweep : ga.levels)
    for (const auto& l : sweep.levels)
      if (!l.transition)  // between two levels: no roof of its own
        e.levels.push_back(
            {sweep.probe, l.name, l.bandwidth, l.min_working_set, l.max_working_set, l.points});
  return e;
}

}  // namespace

RoofExport collect_roofs(const FileAnalysis& analysis, const std::string& space,
                         const std::string& dtype) {
  require_some_fit(analysis);  // the message `fit` gives for a file with nothing to fit
  RoofExport out;
  out.results_file = analysis.results.file;
  out.results_label = analysis.label;
  out.hostname = analysis.results.hostname;
  for (const auto& ga : analysis.groups) {
    if (!space.empty() && ga.fit.space != space) continue;
    if (!dtype.empty() && ga.fit.dtype != dtype) continue;
    out.groups.push_back(exported(ga));
  }
  if (out.groups.empty()) {
    std::string have;
    for (const auto& ga : analysis.groups)
      have += (have.empty() ? "" : ", ") + ga.fit.space + " " + ga.fit.dtype;
    throw InputError(out.results_file, space.empty() ? "dtype" : "space",
                     "no group " + (space.empty() ? std::string("*") : space) + " " +
                         (dtype.empty() ? std::string("*") : dtype) + " in the file (it has " +
                         have + ")");
  }
  for (const auto& g : out.groups)
    if (g.has_roofs()) return out;
  const ExportedGroup& first = out.groups.front();
  throw InputError(out.results_file, first.space + "/" + first.dtype,
                   "no roof was fitted, nothing to export" +
                       (first.notes.empty() ? std::string() : " (" + first.notes.front() + ")"));
}

std::vector<ExportedLevel> levels_of_first_sweep(const ExportedGroup& g,
                                                 const std::vector<std::string>& probes) {
  for (const auto& probe : probes) {
    std::vector<ExportedLevel> found;
    for (const auto& l : g.levels)
      if (l.probe == probe) found.push_back(l);
    if (found.empty()) continue;
    std::stable_sort(found.begin(), found.end(),
                     [](const auto& a, const auto& b) { return a.bandwidth > b.bandwidth; });
    return found;
  }
  return {};
}

std::string group_label(const ExportedGroup& g) { return g.space + " " + g.dtype; }

bool is_main_memory(const std::string& level) {
  return level == "DRAM" || level == "device memory";  // memory_levels.cpp's names
}

}  // namespace ridgeline
