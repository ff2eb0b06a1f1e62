#include "reports/compare/kernel_compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "core/stats.hpp"
#include "core/units.hpp"
#include "reports/compare/few_nights.hpp"
#include "reports/kernels/kernel_placement.hpp"

namespace ridgeline {
namespace {

// The connector keeps at most this many calls' times for a kernel's quantiles (schema.md).
constexpr double kCallsKept = 4096;

std::string key_of(const Kernel& k) {
  std::string key =
      k.label + (k.region.empty() ? "" : " in " + k.region) + " (" + k.space + " " + k.kind;
  if (k.device_id != 0) key += ", device " + std::to_string(k.device_id);
  return key + ")";
}

// Standard error of the log of a kernel's median time per call, from its quartiles: σ of the
// log times ≈ log(p75 / p25) / 1.349 (a normal's interquartile range), and a median of n calls
// is known to 1.2533 σ / √n.
double median_log_se(const Kernel& k) {
  if (k.p25_s <= 0 || k.calls < 2) return 0;
  const double n = std::min(double(k.calls), kCallsKept);
  return kMedianEfficiency * std::log(k.p75_s / k.p25_s) / 1.349 / std::sqrt(n);
}

// The fraction's interval from the roof's bootstrap, as a standard error of its log.
double roof_log_se(const KernelPlacement& p) {
  if (!(p.fraction_ci.low > 0 && p.fraction_ci.high > p.fraction_ci.low)) return 0;
  return std::log(p.fraction_ci.high / p.fraction_ci.low) / (2 * 1.96);
}

// Not std::hypot: glibc 2.35 gave it a new symbol version, and the bundle must start on glibc
// 2.34 (compare.cpp says the same). Both terms are small relative spreads.
double root_sum_square(double a, double b) { return std::sqrt(a * a + b * b); }

struct NightKernels {
  std::map<std::string, const Kernel*> kernels;
  std::map<std::string, KernelPlacement> placed;  // the kernels its roofs could place
  std::map<std::string, std::string> not_placed;  // the others, and why
  bool roofs = false;                             // the night's results were given
};

NightKernels index_night(const KernelNight& n) {
  NightKernels out;
  for (const Kernel& k : n.kernels->kernels) out.kernels[key_of(k)] = &k;
  out.roofs = n.roofs != nullptr;
  if (n.roofs)
    for (KernelPlacement& p : place_kernels(*n.kernels, {n.roofs})) {
      if (p.placed)
        out.placed[key_of(*p.kernel)] = std::move(p);
      else
        out.not_placed[key_of(*p.kernel)] = p.not_placed;
    }
  return out;
}

// Judges a metric whose larger values are better (throughput, fraction of the roof) with the
// gate's rule: the history's median and spread (compare.hpp: set_history), the tolerance from
// the spread widened by tonight's own uncertainty, then a normal test in the combined noise.
void judge(MetricComparison& m, const std::vector<double>& history, double tonight,
           double tonight_se, double history_se, const CompareOptions& o) {
  set_history(m, history, o);
  m.current_value = tonight;
  m.change = tonight / m.baseline_value - 1;
  m.current_se = tonight_se;
  const double spread = std::max(m.spread, 0.0);
  if (m.spread >= 0) m.spread = std::sqrt(spread * spread + tonight_se * tonight_se);
  m.tolerance = tolerance_of(std::max(m.spread, 0.0), o);
  m.test_noise = std::sqrt(spread * spread + tonight_se * tonight_se + history_se * history_se);
  const double z = std::fabs(std::log1p(m.change));
  m.p_value = m.q_value = m.test_noise > 0 ? std::erfc(z / m.test_noise / std::sqrt(2.0))
                          : z > 0          ? 0
                                           : 1;
  m.min_p_value = 0;
  std::string why;
  m.verdict = decide(m.change, m.tolerance, m.p_value, m.min_p_value, o.alpha, why);
  // Caught in 95 % of nights, as every printed figure of the gate (compare/few_nights.hpp).
  const double threshold_log =
      std::max(-std::log1p(-m.tolerance), z_two_sided(o.alpha) * m.test_noise);
  m.min_detectable =
      detectable_change(threshold_log, m.spread, std::size_t(std::max(m.nights, 0)), o.remeasured);
  m.note = why.empty() ? "" : why + "; ";
  m.note += m.spread < 0
                ? fmt::format("spread unknown ({} night{})", m.nights, m.nights == 1 ? "" : "s")
                : fmt::format("spread {:.1f} % over {} nights", 100 * m.spread, m.nights);
}

std::string signed_pct(double change) {
  return fmt::format("{}{} %", change >= 0 ? "+" : "", format_sig(100 * change, 2));
}

// `unplaced`: why tonight's roofs did not place it (empty: no roofs given, or placed).
void explain(KernelComparison& c, const std::string& unplaced, bool roofs) {
  if (c.time.verdict != Verdict::kSlower) return;
  const std::string slower = "time per call " + signed_pct(1 / (1 + c.time.change) - 1);
  if (!c.fraction) {
    c.cause = SlowdownCause::kUnknown;
    c.explanation = "slower (" + slower + "); " +
                    (!roofs ? std::string("no roofs given (--roofs: each night's results)")
                     : unplaced.empty() ? std::string("no history night's roofs placed it")
                                        : "not placed on tonight's roofs (" + unplaced + ")") +
                    ", so the machine cannot be told from the code";
    return;
  }
  const MetricComparison& f = *c.fraction;
  const std::string roof = c.roof_change ? ", the roof " + signed_pct(*c.roof_change) : "";
  if (f.verdict == Verdict::kSame || f.verdict == Verdict::kFaster) {
    c.cause = SlowdownCause::kMachine;
    c.explanation = "the machine got slower (the roof moved with it): " + slower + roof +
                    ", its fraction of the roof held (" + signed_pct(f.change) + ")";
    return;
  }
  if (f.verdict != Verdict::kSlower) {
    c.cause = SlowdownCause::kUnknown;
    c.explanation = "slower (" + slower + roof + "); whether its fraction of the roof fell is " +
                    "not clear (" + verdict_name(f.verdict) + ")";
    return;
  }
  const bool roof_held = !c.roof_change || std::log1p(*c.roof_change) >= std::log1p(-f.tolerance);
  c.cause = roof_held ? SlowdownCause::kCode : SlowdownCause::kBoth;
  c.explanation = (roof_held ? "the code got slower (the roof held): "
                             : "both: the roof moved and the kernel lost more than it: ") +
                  slower + roof + ", its fraction of the roof " + signed_pct(f.change);
}

}  // namespace

const char* slowdown_cause_name(SlowdownCause c) {
  switch (c) {
    case SlowdownCause::kMachine:
      return "machine";
    case SlowdownCause::kCode:
      return "code";
    case SlowdownCause::kBoth:
      return "both";
    case SlowdownCause::kUnknown:
      return "unknown";
    default:
      return "";
  }
}

int KernelsComparison::count(Verdict v) const {
  return int(std::count_if(kernels.begin(), kernels.end(),
                           [v](const KernelComparison& k) { return k.time.verdict == v; }));
}

int KernelsComparison::regressions() const {
  return (gates_speed ? count(Verdict::kSlower) : 0) + count(Verdict::kMissing);
}

KernelsComparison compare_kernel_history(const std::vector<KernelNight>& history,
                                         const KernelNight& tonight, const CompareOptions& o) {
  KernelsComparison out;
  out.gates_speed = int(history.size()) >= o.min_history;
  std::vector<NightKernels> past;
  for (const KernelNight& n : history) {
    past.push_back(index_night(n));
    out.history.push_back(n.kernels->file);
  }
  const NightKernels now = index_night(tonight);
  for (const auto& [key, k] : now.kernels) {
    std::vector<double> throughput, fraction, attainable, time_se, fraction_se;
    for (const NightKernels& n : past) {
      const auto h = n.kernels.find(key);
      if (h == n.kernels.end() || h->second->median_s <= 0) continue;
      throughput.push_back(1 / h->second->median_s);
      time_se.push_back(median_log_se(*h->second));
      const auto p = n.placed.find(key);
      if (p == n.placed.end()) continue;
      fraction.push_back(p->second.fraction);
      attainable.push_back(p->second.attainable);
      fraction_se.push_back(root_sum_square(time_se.back(), roof_log_se(p->second)));
    }
    if (throughput.empty() || k->median_s <= 0) {
      out.not_compared.push_back(key + (throughput.empty() ? ": new tonight" : ": no time"));
      continue;
    }
    KernelComparison c;
    c.kernel = key;
    c.time.metric = key;
    judge(c.time, throughput, 1 / k->median_s, median_log_se(*k), median(time_se), o);
    // Shown and written as seconds per call, the way a point's median is.
    c.time.baseline_value = 1 / c.time.baseline_value;
    c.time.current_value = k->median_s;
    c.time.baseline = format_seconds(c.time.baseline_value);
    c.time.current = format_seconds(c.time.current_value);
    const auto p = now.placed.find(key);
    if (!fraction.empty() && p != now.placed.end()) {
      MetricComparison f;
      f.metric = key + " % of " + p->second.bound_by;
      judge(f, fraction, p->second.fraction,
            root_sum_square(median_log_se(*k), roof_log_se(p->second)), median(fraction_se), o);
      f.baseline = fmt::format("{:.1f} %", 100 * f.baseline_value);
      f.current = fmt::format("{:.1f} %", 100 * f.current_value);
      c.fraction = f;
      c.roof_change = p->second.attainable / median(attainable) - 1;
    }
    const auto why = now.not_placed.find(key);
    explain(c, why == now.not_placed.end() ? "" : why->second, now.roofs);
    out.kernels.push_back(std::move(c));
  }
  // What the newest history night ran must still run: a lost kernel is a regression.
  for (const auto& [key, k] : past.back().kernels) {
    if (now.kernels.count(key)) continue;
    KernelComparison c;
    c.kernel = key;
    c.time.metric = key;
    c.time.baseline_value = k->median_s;
    c.time.baseline = format_seconds(k->median_s);
    c.time.current = "–";
    c.time.change = -1;
    c.time.verdict = Verdict::kMissing;
    c.time.note = "ran in the newest history night, not tonight";
    out.kernels.push_back(std::move(c));
  }
  return out;
}

}  // namespace ridgeline
