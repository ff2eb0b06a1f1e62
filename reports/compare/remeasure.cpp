#include "reports/compare/remeasure.hpp"

#include <fmt/format.h>

#include <map>

namespace ridgeline {
namespace remeasure_detail {

// Whether the re-measure clears a slowdown: it did not call it (SAME, FASTER or AMBIGUOUS; SLOWER
// confirms it, FAILED or MISSING cannot clear anything) AND it read the metric within tonight's
// tolerance. A re-measure that still reads the slowdown but could not call it (its samples noisy
// or busy, its own tolerance widened: night-07 of the 2026-12-06 Xeon series read a planted
// 10 % peak slowdown as -31.8 %, SAME against a 47 % tolerance) has not contradicted it.
bool clears(const MetricComparison& night, const MetricComparison& again) {
  const bool not_called = again.verdict == Verdict::kSame || again.verdict == Verdict::kFaster ||
                          again.verdict == Verdict::kAmbiguous;
  return not_called && again.change > -night.tolerance;
}

void hold(MetricComparison& m, const MetricComparison* again, int& not_reproduced) {
  if (m.verdict != Verdict::kSlower) return;
  if (!again) {
    m.note += "; the re-measure has no such metric: it stands";
    return;
  }
  m.remeasure = Remeasure{again->change, again->verdict};
  if (!clears(m, *again)) {
    m.note += fmt::format("; reproduced by the re-measure: {:+.1f} % ({})", 100 * again->change,
                          verdict_name(again->verdict));
    return;
  }
  m.verdict = Verdict::kAmbiguous;
  m.note = fmt::format(
               "not reproduced: the re-measure right after read {:+.1f} % ({}), a transient "
               "slowdown, not gated; tonight's test: ",
               100 * again->change, verdict_name(again->verdict)) +
           m.note;
  ++not_reproduced;
}

}  // namespace remeasure_detail

void hold_to_remeasure(Comparison& night, const Comparison& again, const std::string& label) {
  night.remeasure = label;
  std::map<std::string, const MetricComparison*> by_name;
  for (const auto* list : {&again.roofs, &again.points})
    for (const MetricComparison& m : *list) by_name.emplace(m.metric, &m);
  const auto find = [&by_name](const std::string& name) -> const MetricComparison* {
    const auto it = by_name.find(name);
    return it == by_name.end() ? nullptr : it->second;
  };
  for (auto* list : {&night.roofs, &night.points})
    for (MetricComparison& m : *list)
      remeasure_detail::hold(m, find(m.metric), night.not_reproduced);
  if (night.machine)
    remeasure_detail::hold(*night.machine, again.machine ? &*again.machine : nullptr,
                           night.not_reproduced);
}

}  // namespace ridgeline
