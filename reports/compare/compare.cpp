#include "reports/compare/compare.hpp"

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
  // The factors need a history whose spread is known (3 nights), whatever --min-history says.
  const bool normalise = history.size() >= 3 && match.rows.size() >= kMinCommonPoints;
  const Factors f = machine_factors(match.rows, history.size(), normalise);
  if (normalise) {
    c.machine = machine_metric(f, o);
    c.levels = level_metrics(match.rows, *c.machine, history.size(), o);
  }
  compare_roofs(history, current, f, o, c);
  compare_points(match, f, o, c);
  annotate_points(match, c);
  annotate_roofs(history, current, c);
  if (c.machine) explain_machine(c, match.rows, o);
  note_new_points(*history.back(), current, c);
  return c;
}

}  // namespace ridgeline
