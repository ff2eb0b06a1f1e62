#include "reports/compare/shared_level.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>

#include "core/stats.hpp"
#include "reports/compare/cache_ownership.hpp"
#include "reports/fit/roof_roles.hpp"

namespace ridgeline {
namespace {

// Ashman's D above which two clusters are cleanly apart (Ashman, Bird & Zepf 1994). The issue's
// fp32 nights 1–7 (95–145 GB/s and 68–74 GB/s) give 5.0; its fp64 nights 1–7, one low night
// among six high ones, split no better than 1.3.
constexpr double kModeSeparation = 2;

}  // namespace

void mark_levels(PointMatch& match, const Results& current) {
  // Tonight's DRAM rate per space and traffic mix: the median byte rate of its verified memory
  // kernels on the DRAM plateau (every dtype: bytes are bytes to the memory).
  std::map<std::pair<std::string, TrafficMix>, std::vector<double>> rates;
  for (const auto& p : current.points) {
    const std::optional<TrafficMix> mix = traffic_mix(p);
    if (!mix || !p.fittable() || p.bytes <= 0 || p.median_s <= 0) continue;
    if (on_dram_plateau(current, p)) rates[{p.space, *mix}].push_back(p.bytes / p.median_s);
  }
  for (PointRow& row : match.rows) {
    const Point& p = *row.current;
    row.level = point_level(current, p);
    row.private_level = private_level(current, p);
    // P and the DRAM plateau are the machine's: never judged by a range.
    row.range_judgeable =
        p.family != "peak" && p.working_set_bytes > 0 && !on_dram_plateau(current, p);
    if (!row.range_judgeable) continue;
    row.unowned_level = unowned_level_reason(current, p);
    const std::optional<TrafficMix> mix = traffic_mix(p);
    const auto it = mix ? rates.find({p.space, *mix}) : rates.end();
    if (it != rates.end()) row.dram_rate = median(it->second);
  }
}

HistoryModes history_modes(const std::vector<double>& values, double threshold_pct) {
  HistoryModes modes;
  std::vector<double> x;
  for (double v : values)
    if (v > 0) x.push_back(std::log(v));
  std::sort(x.begin(), x.end());
  const std::size_t n = x.size();
  const auto mean_sd = [](auto begin, auto end) {
    const double count = double(end - begin);
    double sum = 0, squares = 0;
    for (auto it = begin; it != end; ++it) sum += *it;
    const double mean = sum / count;
    for (auto it = begin; it != end; ++it) squares += (*it - mean) * (*it - mean);
    return std::pair{mean, std::sqrt(squares / count)};
  };
  // The split into a lower and an upper cluster, two nights at least in each (one odd night is
  // an outlier, not a second state), that separates them best: Ashman's D, the distance of their
  // means in units of their pooled standard deviation, times √2.
  double best = 0, separation = 0;
  std::size_t split = 0;
  for (std::size_t i = 2; i + 2 <= n; ++i) {
    const auto [low, low_sd] = mean_sd(x.begin(), x.begin() + long(i));
    const auto [high, high_sd] = mean_sd(x.begin() + long(i), x.end());
    const double pooled = std::sqrt(low_sd * low_sd + high_sd * high_sd);
    const double d = pooled > 0 ? std::sqrt(2.0) * (high - low) / pooled : kModeSeparation + 1;
    if (d > best) best = d, separation = high - low, split = i;
  }
  if (!split || best <= kModeSeparation || separation <= -std::log1p(-threshold_pct / 100))
    return modes;
  const double low = median({x.begin(), x.begin() + long(split)});
  const double high = median({x.begin() + long(split), x.end()});
  std::vector<double> around;  // each night relative to its own cluster
  for (std::size_t i = 0; i < n; ++i) around.push_back(std::exp(x[i] - (i < split ? low : high)));
  modes.gap = std::expm1(high - low);
  modes.spread = robust_log_spread(around);
  return modes;
}

void describe_shared_level(MetricComparison& m, const PointRow& r,
                           const std::vector<double>& medians, double current_factor,
                           const CompareOptions& o) {
  if (!r.range_judgeable || medians.empty() || m.baseline_value <= 0) return;
  const HistoryModes modes = history_modes(medians, o.threshold_pct);
  SharedLevel s;
  s.reason = r.unowned_level;
  if (s.reason.empty()) {
    if (modes.gap <= 0) return;
    s.reason = fmt::format("its history is bimodal: two clusters of nights {:.0f} % apart",
                           100 * modes.gap);
  }
  const auto [fastest, slowest] = std::minmax_element(medians.begin(), medians.end());
  s.lowest = m.baseline_value / *slowest - 1;  // times: the slowest night is the longest
  s.highest = m.baseline_value / *fastest - 1;
  // Both rates tonight with the night's factor taken out, as the point's change is. Only where
  // the cache list says the level is not the run's: a neighbour may then hold all of it, the
  // first night it does looks just like that, and DRAM is how far it can fall. A level the run
  // owns that merely has a bimodal history has shown both its states: below them is SLOWER.
  if (!r.unowned_level.empty() && r.dram_rate > 0 && r.current->bytes > 0)
    s.dram_floor = r.dram_rate * std::exp(current_factor) * m.baseline_value / r.current->bytes - 1;
  if (modes.gap > 0 && modes.spread >= 0) {
    m.note += fmt::format("; spread within its two clusters {:.1f} % (across them {:.1f} %)",
                          100 * modes.spread, 100 * std::max(m.spread, 0.0));
    m.spread = modes.spread;
  }
  m.shared = std::move(s);
}

void judge_against_range(MetricComparison& m) {
  if (!m.shared || m.verdict == Verdict::kFailed || m.verdict == Verdict::kMissing) return;
  SharedLevel& s = *m.shared;
  // On a log scale, as the usual rule: tonight, the range's ends and the tolerance.
  const double x = std::log1p(m.change), tolerance = -std::log1p(-m.tolerance);
  const double low = std::log1p(s.lowest), high = std::log1p(s.highest);
  const bool floor_below = s.dram_floor && *s.dram_floor > -1 && std::log1p(*s.dram_floor) < low;
  const double floor = floor_below ? std::log1p(*s.dram_floor) : low;
  // What the gate can still call SLOWER here: a fall below both, beyond the tolerance.
  if (m.min_detectable >= 0)
    m.min_detectable = std::max(m.min_detectable, -std::expm1(floor - tolerance));
  const std::string range =
      fmt::format("its history {:+.1f} % … {:+.1f} %", 100 * s.lowest, 100 * s.highest);
  // A level the run owns (a bimodal history only) has no DRAM floor: below its range is SLOWER.
  const std::string dram =
      s.dram_floor
          ? fmt::format("tonight's DRAM rate of its traffic {:+.1f} %", 100 * *s.dram_floor)
      : s.reason.rfind("its history is bimodal", 0) == 0
          ? std::string("a level the run owns, no DRAM floor")
          : std::string("no DRAM point of its traffic tonight");
  std::string what;
  if (m.verdict == Verdict::kSame) {
    s.outcome = RangeOutcome::kWithinTolerance;
    what = fmt::format("shared level, judged against {}", range);
  } else if (x >= low - tolerance && x <= high + tolerance) {
    s.outcome = RangeOutcome::kVariedWithNeighbours;
    m.verdict = Verdict::kSame;
    what = fmt::format("shared level varied with neighbours: within {}", range);
  } else if (x > high + tolerance) {
    s.outcome = RangeOutcome::kAboveHistory;
    what = fmt::format("shared level, faster than {}", range);
  } else if (x >= floor - tolerance) {
    s.outcome = RangeOutcome::kBelowHistory;
    m.verdict = Verdict::kAmbiguous;
    what = fmt::format(
        "shared level below everything its history showed ({}), not below {}: a neighbour "
        "holding the whole level leaves the set to DRAM; reported, not gated",
        range, dram);
  } else {
    s.outcome = RangeOutcome::kBelowDram;
    what = fmt::format("shared level below everything its history showed ({}){} {}", range,
                       s.dram_floor ? " and below" : ";", dram);
  }
  m.note = fmt::format("{} ({}); {}", what, s.reason, m.note);
}

}  // namespace ridgeline
