#include "reports/compare/point_rows.hpp"

#include <fmt/format.h>

#include <string>
#include <unordered_map>
#include <unordered_set>

#include "core/stats.hpp"
#include "reports/compare/gate_rule.hpp"

namespace ridgeline {

PointMatch match_points(const std::vector<const FileAnalysis*>& history,
                        const FileAnalysis& current, Comparison& c) {
  const FileAnalysis& newest = *history.back();
  std::vector<std::unordered_map<std::string, const Point*>> past(history.size());
  for (std::size_t i = 0; i < history.size(); ++i)
    for (const auto& p : history[i]->results.points) past[i].emplace(p.name, &p);
  std::unordered_map<std::string, const Point*> current_points;
  for (const auto& p : current.results.points) current_points.emplace(p.name, &p);
  PointMatch match;
  for (const auto& pb : newest.results.points) {
    if (!pb.measured() || !pb.verified) {
      c.not_compared.push_back(pb.name + ": skipped or unverified in the baseline");
      continue;
    }
    PointRow row;
    row.baseline = &pb;
    row.nights.assign(history.size(), nullptr);
    std::vector<double> medians;
    for (std::size_t j = 0; j < past.size(); ++j) {
      const auto it = past[j].find(pb.name);
      if (it == past[j].end() || !it->second->measured() || !it->second->verified) continue;
      row.nights[j] = it->second;
      medians.push_back(it->second->median_s);
    }
    const auto it = current_points.find(pb.name);
    const double before = median(medians);
    const std::string before_text = fmt::format("{:.4g} s", before);
    if (it == current_points.end() || !it->second->measured()) {
      match.lost.push_back(missing(pb.name, false, before_text, before,
                                   it == current_points.end() ? "not in the current file"
                                                              : "skipped in the current file: " +
                                                                    it->second->skipped_reason));
      match.order.push_back(~(match.lost.size() - 1));
      continue;
    }
    row.current = it->second;
    match.order.push_back(match.rows.size());
    match.rows.push_back(std::move(row));
  }
  return match;
}

void note_new_points(const FileAnalysis& newest, const FileAnalysis& current, Comparison& c) {
  std::unordered_set<std::string> baseline_names;
  for (const auto& pb : newest.results.points) baseline_names.insert(pb.name);
  for (const auto& pc : current.results.points)
    if (!baseline_names.count(pc.name)) c.not_compared.push_back(pc.name + ": not in the baseline");
}

}  // namespace ridgeline
