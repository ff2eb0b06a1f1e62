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

std::string reading(const Remeasure& r) {
  return fmt::format("{:+.1f} % ({})", 100 * r.change, verdict_name(r.verdict));
}

// `again[i]`: the metric in the i-th re-measure (nullptr where it has none).
void hold(MetricComparison& m, const std::vector<const MetricComparison*>& again,
          const std::vector<std::string>& labels, int& not_reproduced) {
  if (m.verdict != Verdict::kSlower) return;
  const std::size_t n = again.size();
  std::optional<std::size_t> contradicted;  // the first re-measure that clears it
  std::string seen;                         // what the re-measures before it read
  for (std::size_t i = 0; i < n; ++i) {
    if (!again[i]) {
      if (n > 1 && !contradicted)
        seen += fmt::format("{}re-measure {} has no such metric", seen.empty() ? "" : ", ", i + 1);
      continue;
    }
    m.remeasures.push_back(Remeasure{again[i]->change, again[i]->verdict, labels[i]});
    if (!contradicted && clears(m, *again[i])) {
      contradicted = i;
      m.remeasure = m.remeasures.back();
    } else if (!contradicted) {
      seen += (seen.empty() ? "" : ", ") + reading(m.remeasures.back());
    }
  }
  if (!contradicted) {
    if (m.remeasures.empty()) {
      m.note += n == 1 ? "; the re-measure has no such metric: it stands"
                       : "; no re-measure has such a metric: it stands";
      return;
    }
    m.remeasure = m.remeasures.back();
    m.note += n == 1 ? "; reproduced by the re-measure: " + seen
                     : fmt::format("; reproduced by all {} re-measures: {}", n, seen);
    return;
  }
  m.verdict = Verdict::kAmbiguous;
  const std::size_t i = *contradicted;
  if (n == 1)
    m.note = "not reproduced: the re-measure right after read " + reading(*m.remeasure) +
             ", a transient slowdown, not gated; tonight's test: " + m.note;
  else
    m.note = fmt::format(
                 "not reproduced: re-measure {} of {} ({}, {}) read {}, a transient slowdown, not "
                 "gated{}; tonight's test: ",
                 i + 1, n, labels[i], i == 0 ? "right after" : "later", reading(*m.remeasure),
                 seen.empty() ? ""
                              : "; the re-measure" + std::string(i > 1 ? "s" : "") +
                                    " before it read " + seen) +
             m.note;
  ++not_reproduced;
}

}  // namespace remeasure_detail

void hold_to_remeasures(Comparison& night, const std::vector<RemeasureRun>& again) {
  night.remeasures.clear();
  std::vector<std::map<std::string, const MetricComparison*>> by_name(again.size());
  for (std::size_t i = 0; i < again.size(); ++i) {
    night.remeasures.push_back(again[i].label);
    for (const auto* list :
         {&again[i].comparison.levels, &again[i].comparison.roofs, &again[i].comparison.points})
      for (const MetricComparison& m : *list) by_name[i].emplace(m.metric, &m);
  }
  const auto find = [&by_name](const std::string& name) {
    std::vector<const MetricComparison*> found;
    for (const auto& names : by_name) {
      const auto it = names.find(name);
      found.push_back(it == names.end() ? nullptr : it->second);
    }
    return found;
  };
  for (auto* list : {&night.levels, &night.roofs, &night.points})
    for (MetricComparison& m : *list)
      remeasure_detail::hold(m, find(m.metric), night.remeasures, night.not_reproduced);
  if (night.machine) {
    std::vector<const MetricComparison*> machines;
    for (const RemeasureRun& a : again)
      machines.push_back(a.comparison.machine ? &*a.comparison.machine : nullptr);
    remeasure_detail::hold(*night.machine, machines, night.remeasures, night.not_reproduced);
  }
}

void hold_to_remeasure(Comparison& night, const Comparison& again, const std::string& label) {
  hold_to_remeasures(night, {RemeasureRun{label, again}});
}

}  // namespace ridgeline
