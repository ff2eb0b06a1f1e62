#include "reports/compare/history.hpp"

#include <algorithm>

#include "core/stats.hpp"

namespace ridgeline {

double night_cpu_wait(const Results& r) {
  std::vector<double> shares;
  for (const auto& p : r.points)
    if (p.cpu_wait_share) shares.push_back(*p.cpu_wait_share);
  return shares.empty() ? -1 : median(shares);
}

HistoryDecision history_decision(const Comparison& c, int min_history) {
  if (c.regressions() > 0) return HistoryDecision::kRegressed;
  if (c.busy_night() && c.quiet_history_nights >= min_history) return HistoryDecision::kBusyKeptOut;
  if (c.not_reproduced > 0) return HistoryDecision::kTransientKeptOut;
  return HistoryDecision::kJoins;
}

const char* history_decision_name(HistoryDecision d) {
  switch (d) {
    case HistoryDecision::kJoins:
      return "joins";
    case HistoryDecision::kRegressed:
      return "regressed";
    case HistoryDecision::kBusyKeptOut:
      return "busy_kept_out";
    case HistoryDecision::kTransientKeptOut:
      return "transient_kept_out";
  }
  return "joins";
}

std::vector<const FileAnalysis*> quiet_history(const std::vector<const FileAnalysis*>& history,
                                               int min_history,
                                               std::vector<std::string>& left_out) {
  std::vector<const FileAnalysis*> quiet;
  for (const FileAnalysis* h : history)
    if (night_cpu_wait(h->results) < kBusyShare) quiet.push_back(h);
  if (quiet.size() == history.size() || int(quiet.size()) < std::max(min_history, 1))
    return history;
  for (const FileAnalysis* h : history)
    if (std::find(quiet.begin(), quiet.end(), h) == quiet.end()) left_out.push_back(h->label);
  return quiet;
}

std::vector<const FileAnalysis*> choose_history(const std::vector<const FileAnalysis*>& all_history,
                                                const FileAnalysis& current, int min_history,
                                                Comparison& c) {
  c.night_cpu_wait = night_cpu_wait(current.results);
  std::vector<const FileAnalysis*> history =
      quiet_history(all_history, min_history, c.busy_history);
  for (const FileAnalysis* h : all_history)
    c.quiet_history_nights += night_cpu_wait(h->results) < kBusyShare;
  for (const FileAnalysis* h : history) c.history.push_back(h->label);
  c.history_nights = int(history.size());
  c.gates_speed = c.history_nights >= min_history;
  return history;
}

}  // namespace ridgeline
