#include "reports/render/console_summary.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/units.hpp"
#include "reports/fit/roof_roles.hpp"

namespace ridgeline {
namespace {

std::string counts(const std::vector<const Point*>& points) {
  int verified = 0, failed = 0, skipped = 0;
  for (const Point* p : points) {
    if (!p->measured())
      ++skipped;
    else if (p->verified)
      ++verified;
    else
      ++failed;
  }
  std::string s = fmt::format("{} verified", verified);
  if (failed) s += fmt::format(", {} FAILED", failed);
  if (skipped) s += fmt::format(", {} skipped", skipped);
  return s;
}

}  // namespace

std::string console_summary(const FileAnalysis& a) {
  using Row = std::vector<std::string>;
  // P and I* are the vector units' (P_vector); P_matrix and its ridge columns appear only where
  // a GEMM ran on tensor or matrix units.
  bool any_matrix = false;
  for (const auto& g : a.groups) any_matrix = any_matrix || g.fit.matrix;
  std::vector<Row> rows = {{"space", "dtype", "points", "P", "B", "B_read", "I* (FLOP/byte)"}};
  if (any_matrix) rows[0].insert(rows[0].end(), {"P_matrix", "I*_matrix"});
  std::vector<std::string> notes;
  std::string unmeasured;
  for (const auto& g : a.groups) {
    const GroupFit& f = g.fit;
    // Types a backend cannot run are one line below the table, not rows of dashes.
    if (!f.measured) {
      unmeasured += (unmeasured.empty() ? "" : ", ") + f.space + " " + f.dtype;
      continue;
    }
    Row row = {f.space, f.dtype, counts(a.points_of(f.space, f.dtype))};
    if (f.fit) {
      const Roof& r = f.fit->estimate.roof;
      row.push_back(format_flops_with_ci(r.peak_flops, f.fit->peak_ci));
      row.push_back(format_bytes_with_ci(r.bandwidth, f.fit->bandwidth_ci));
    } else {
      row.insert(row.end(), {"-", "-"});
      notes.push_back(fmt::format("{} {}: {}", f.space, f.dtype, f.not_fitted));
    }
    if (f.read_bandwidth)
      row.push_back(format_bytes_with_ci(f.read_bandwidth->value, f.read_bandwidth->ci));
    else
      row.push_back("-");
    row.push_back(f.fit ? format_sig(f.fit->estimate.roof.ridge_point()) + " " +
                              format_intensity_ci(f.fit->ridge_ci)
                        : "-");
    if (any_matrix) {
      const auto& m = f.matrix;
      row.push_back(m ? format_flops_with_ci(m->peak.value, m->peak.ci) : "-");
      row.push_back(m && m->ridge ? format_sig(*m->ridge) + " " + format_intensity_ci(m->ridge_ci)
                                  : "-");
    }
    rows.push_back(std::move(row));
  }
  std::vector<std::size_t> width(rows[0].size(), 0);
  for (const auto& row : rows)
    for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t c = 0; c < row.size(); ++c)
      line += c + 1 == row.size() ? row[c] : fmt::format("{:<{}}  ", row[c], width[c]);
    out += line + "\n";
  }
  for (const auto& n : notes) out += "  " + n + "\n";
  // What B's memory is, once per space that searched it: a cache level is never read as DRAM.
  for (const SpaceInfo& s : a.results.spaces)
    if (s.plateau)
      out +=
          fmt::format("  {} B: {}\n", s.name,
                      dram_roof_name(a.results, s.name, dram_working_set_bytes(a.results, s.name)));
  if (!unmeasured.empty()) out += "  not measured: " + unmeasured + " (the report says why)\n";
  return out;
}

}  // namespace ridgeline
