#include "reports/compare/point_rows.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "core/stats.hpp"
#include "reports/compare/gate_rule.hpp"
#include "reports/fit/roof_roles.hpp"

namespace ridgeline {
namespace {

// The work a point's time is for: its bytes, or its FLOPs where it counts no bytes.
double work(const Point& p) { return p.bytes > 0 ? p.bytes : p.flops; }

// A point's name without its size (`triad/OpenMP/fp64` of `triad/OpenMP/fp64/n:11184768`).
std::string without_size(const std::string& name) { return name.substr(0, name.rfind('/')); }

// Where the run sized its DRAM points: the plateau search's planned set, else the DRAM rule's.
double dram_points_bytes(const Results& r, const std::string& space) {
  const SpaceInfo* s = r.find_space(space);
  return s && s->plateau ? s->plateau->planned_bytes : dram_working_set_bytes(r, space);
}

// Whether a point's name says its size (`triad/…/n:11184768`, `cache_read/…/ws:268435456`), so
// that the same point run at another size has another name. A name that does not (the ladder's
// `fma/…/k:1`) is found tonight whatever size the plateau gave it: missing, it is lost.
bool named_by_size(const Point& p) {
  const std::string last = p.name.substr(p.name.rfind('/') + 1);
  const std::size_t colon = last.find(':');
  if (colon == std::string::npos) return false;
  char* end = nullptr;
  const double value = std::strtod(last.c_str() + colon + 1, &end);
  return end && *end == '\0' && value > 0 && (value == p.elements || value == p.working_set_bytes);
}

// A file's points by name, and its DRAM-plateau points by name without size where that is unique.
struct Points {
  std::unordered_map<std::string, const Point*> by_name;
  std::unordered_map<std::string, const Point*> dram_role;  // null: more than one
  explicit Points(const Results& r) {
    for (const auto& p : r.points) {
      by_name.emplace(p.name, &p);
      if (!on_dram_plateau(r, p)) continue;
      const auto [it, fresh] = dram_role.emplace(without_size(p.name), &p);
      if (!fresh) it->second = nullptr;
    }
  }
  // Whether this file ran any point of `pb`'s probe, space and dtype on its own DRAM plateau.
  bool ran_role(const Point& pb) const { return dram_role.count(without_size(pb.name)) > 0; }
  // This file's only DRAM-plateau point of `pb`'s probe, space and dtype (null: none or several).
  const Point* role_of(const Point& pb) const {
    const auto it = dram_role.find(without_size(pb.name));
    return it == dram_role.end() ? nullptr : it->second;
  }
  // `pb` here: by name, else by its DRAM role where it is the only point of that role in its own
  // file (`baseline`), so that a lost point is never matched with a sibling.
  const Point* find(const Point& pb, const Points& baseline) const {
    if (const auto it = by_name.find(pb.name); it != by_name.end()) return it->second;
    return baseline.role_of(pb) == &pb ? role_of(pb) : nullptr;
  }
};

// `p` as compared with `pb`: itself, or where its work differs, a copy whose times are for the
// baseline's work (kept in `scaled`); `how` gets what was done, e.g. "as …/n:44739200 × 4".
const Point* at_baseline_work(const Point& pb, const Point* p, std::deque<Point>& scaled,
                              std::string& how) {
  if (!p) return p;
  const double wb = work(pb), wp = work(*p);
  const bool renamed = p->name != pb.name;
  if (wb <= 0 || wp <= 0 || (!renamed && std::abs(wp / wb - 1) < 1e-9)) return p;
  // Its counts become the baseline's, so that rates taken from the copy (a shared level's DRAM
  // floor) are tonight's; its working set stays its own (the level it ran in).
  Point copy = *p;
  const double k = wb / wp;
  copy.median_s *= k;
  for (double& t : copy.samples) t *= k;
  copy.bytes = pb.bytes, copy.flops = pb.flops, copy.elements = pb.elements;
  scaled.push_back(std::move(copy));
  how = fmt::format("{}× {:.3g} of its work", renamed ? "as " + p->name + " " : "", wp / wb);
  return &scaled.back();
}

// What was matched and scaled, grouped: "tonight and history nights 1, 3 as …/n:11184768 × 0.25
// of its work; history night 2 as …/n:22369536 × 0.5 of its work". `done`: (night, how), the
// night 0 for tonight, else the history night's number from 1.
std::string describe_resized(const std::vector<std::pair<std::size_t, std::string>>& done) {
  std::vector<std::pair<std::string, std::vector<std::size_t>>> groups;
  for (const auto& entry : done) {  // not a structured binding: clang < 16 cannot capture one
    const std::string& how = entry.second;
    auto it = std::find_if(groups.begin(), groups.end(), [&](auto& g) { return g.first == how; });
    if (it == groups.end()) it = groups.insert(groups.end(), {how, {}});
    it->second.push_back(entry.first);
  }
  std::string text;
  for (const auto& [how, nights] : groups) {
    const bool tonight = nights.front() == 0;
    std::string history;
    for (std::size_t i = tonight ? 1 : 0; i < nights.size(); ++i)
      history += (history.empty() ? "" : ", ") + std::to_string(nights[i]);
    const std::size_t n = nights.size() - (tonight ? 1 : 0);
    const std::string which =
        fmt::format("{}{}{}", tonight ? "tonight" : "", tonight && n ? " and " : "",
                    n ? fmt::format("history night{} {}", n > 1 ? "s" : "", history) : "");
    text += (text.empty() ? "" : "; ") + which + " " + how;
  }
  return text;
}

}  // namespace

PointMatch match_points(const std::vector<const FileAnalysis*>& history,
                        const FileAnalysis& current, Comparison& c) {
  const FileAnalysis& newest = *history.back();
  std::vector<Points> past;
  for (const FileAnalysis* h : history) past.emplace_back(h->results);
  const Points current_points(current.results), baseline_points(newest.results);
  PointMatch match;
  for (const auto& pb : newest.results.points) {
    if (!pb.measured() || !pb.verified) {
      c.not_compared.push_back(pb.name + ": skipped or unverified in the baseline");
      continue;
    }
    const bool on_plateau = on_dram_plateau(newest.results, pb);
    PointRow row;
    row.baseline = &pb;
    row.nights.assign(history.size(), nullptr);
    std::vector<double> medians;
    std::vector<std::pair<std::size_t, std::string>> resized;  // (night: 0 tonight, how)
    for (std::size_t j = 0; j < past.size(); ++j) {
      const Point* p = past[j].find(pb, baseline_points);
      if (!p || !p->measured() || !p->verified) continue;
      std::string how;
      row.nights[j] = at_baseline_work(pb, p, match.scaled, how);
      if (!how.empty()) resized.emplace_back(j + 1, how);
      medians.push_back(row.nights[j]->median_s);
    }
    const Point* const found = current_points.find(pb, baseline_points);
    const double before = median(medians);
    const std::string before_text = fmt::format("{:.4g} s", before);
    if (!found || !found->measured()) {
      // Moved: the DRAM points ran at another size tonight (where the plateau begins may move
      // while they do not: 128, 181 or 256 MiB, the points at 256 MiB all three nights).
      const double dram_before = dram_points_bytes(newest.results, pb.space);
      const double dram_tonight = dram_points_bytes(current.results, pb.space);
      // Tonight's sweep ends at its own plateau: sets from the lower plateau up were sized by it.
      const bool plateau_sized =
          on_plateau || pb.working_set_bytes >= 0.99 * std::min(dram_before, dram_tonight);
      // Only where tonight ran its probe at its own plateau: a sweep that moved with the plateau
      // still ends there (the cache sweep's last set, every DRAM-sized probe), so a night without
      // one lost it (gate-aa: 3 of 16 lost points passed where the newest history night had found
      // its plateau from 1 GiB and tonight from 256 MiB, 2026-12-07).
      if (!found && plateau_sized && named_by_size(pb) && dram_tonight > 0 &&
          dram_tonight != dram_before && current_points.ran_role(pb)) {
        c.not_compared.push_back(fmt::format(
            "{}: sized by the DRAM plateau, which moved from {:.0f} MiB to {:.0f} MiB tonight; "
            "the DRAM roofs are compared",
            pb.name, dram_before / (1 << 20), dram_tonight / (1 << 20)));
        continue;
      }
      match.lost.push_back(missing(pb.name, false, before_text, before,
                                   !found
                                       ? "not in the current file"
                                       : "skipped in the current file: " + found->skipped_reason));
      match.order.push_back(~(match.lost.size() - 1));
      continue;
    }
    std::string how;
    row.current = at_baseline_work(pb, found, match.scaled, how);
    if (!how.empty()) resized.emplace(resized.begin(), 0, how);
    row.resized = describe_resized(resized);
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
