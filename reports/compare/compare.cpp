#include "reports/compare/compare.hpp"

#include <map>
#include <set>
#include <string>

#include "reports/compare/compare_points.hpp"
#include "reports/compare/compare_roofs.hpp"
#include "reports/compare/level_factors.hpp"
#include "reports/compare/machine_factor.hpp"
#include "reports/compare/point_rows.hpp"
#include "reports/compare/shared_level.hpp"

namespace ridgeline {

Comparison compare_history(const std::vector<const FileAnalysis*>& all_history,
                           const FileAnalysis& current, const CompareOptions& o) {
  Comparison c;
  const std::vector<const FileAnalysis*> history =
      choose_history(all_history, current, o.min_history, c);
  if (history.empty()) return c;
  PointMatch match = match_points(history, current, c);
  mark_levels(match, current.results);
  mark_clock_driven(match.rows, *history.back());
  // The factors need a history whose spread is known (3 nights), whatever --min-history says.
  const bool normalise = history.size() >= 3 && match.rows.size() >= kMinCommonPoints;
  const Factors f = machine_factors(match.rows, history.size(), normalise);
  std::map<std::string, Factors> clock_driven;  // by space, where complete
  if (normalise) {
    c.machine = machine_metric(f, o);
    c.levels = level_metrics(match.rows, *c.machine, history.size(), o);
    // Only where the machine-wide factor leaves the private levels out (a hypervisor's tenants
    // may share them): elsewhere it counts them, and moves with the clock as they do.
    std::set<std::string> spaces, counted;
    for (const PointRow& r : match.rows)
      if (r.private_level) (r.unowned_level.empty() ? counted : spaces).insert(r.current->space);
    for (const std::string& space : spaces)
      if (!counted.count(space))
        if (Factors cf = clock_driven_factors(match.rows, history.size(), space); cf.complete)
          clock_driven.emplace(space, std::move(cf));
  }
  compare_roofs(history, current, f, clock_driven, o, c);
  compare_points(match, f, clock_driven, o, c);
  annotate_points(match, c);
  annotate_roofs(history, current, c);
  if (c.machine) explain_machine(c, match.rows, o);
  note_new_points(*history.back(), current, c);
  return c;
}

}  // namespace ridgeline
