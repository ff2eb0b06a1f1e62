#include "reports/compare/compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <unordered_map>
#include <unordered_set>

#include "reports/compare/machine_factor.hpp"
#include "reports/compare/mann_whitney.hpp"
#include "reports/fit/roof_roles.hpp"
#include "core/units.hpp"

namespace ridgeline {
namespace {

// Two-sided bootstrap p-value of "the ratio is 1", from paired replicates of both fits.
double bootstrap_p(const std::vector<double>& ratios) {
  if (ratios.empty()) return 1;
  double below = 0, above = 0;
  for (double r : ratios) below += r <= 1, above += r >= 1;
  const double n = double(ratios.size());
  return std::min(1.0, 2 * (std::min(below, above) + 1) / (n + 1));
}

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  const std::size_t h = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(h), v.end());
  const double upper = v[h];
  if (v.size() % 2) return upper;
  return 0.5 * (upper + *std::max_element(v.begin(), v.begin() + std::ptrdiff_t(h)));
}

}  // namespace

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::kFaster:
      return "FASTER";
    case Verdict::kSlower:
      return "SLOWER";
    case Verdict::kAmbiguous:
      return "AMBIGUOUS";
    case Verdict::kFailed:
      return "FAILED";
    case Verdict::kMissing:
      return "MISSING";
    default:
      return "SAME";
  }
}

int Comparison::count(Verdict v) const {
  int n = 0;
  for (const auto& m : roofs) n += m.verdict == v;
  for (const auto& m : points) n += m.verdict == v;
  if (machine) n += machine->verdict == v;
  return n;
}

int Comparison::regressions() const {
  return (gates_speed ? count(Verdict::kSlower) : 0) + count(Verdict::kFailed) +
         count(Verdict::kMissing);
}

Verdict decide(double change, double tolerance, double p_value, double min_p_value, double alpha,
               std::string& note) {
  // On a log scale, so that a spread wider than 100 % still leaves a 10x slowdown beyond it.
  if (change > -1 && std::fabs(std::log1p(change)) <= -std::log1p(-tolerance))
    return Verdict::kSame;
  if (p_value < alpha) return change < 0 ? Verdict::kSlower : Verdict::kFaster;
  note = min_p_value >= alpha
             ? fmt::format("too few samples: the test cannot reach p < {:g} (best possible {:.3g})",
                           alpha, min_p_value)
             : fmt::format("not significant (p = {:.3g} >= {:g})", p_value, alpha);
  return Verdict::kAmbiguous;
}

std::vector<double> benjamini_hochberg(const std::vector<double>& p) {
  const std::size_t m = p.size();
  std::vector<std::size_t> order(m);
  std::iota(order.begin(), order.end(), std::size_t(0));
  std::sort(order.begin(), order.end(), [&p](std::size_t a, std::size_t b) { return p[a] < p[b]; });
  std::vector<double> q(m, 1);
  double running = 1;  // q is monotone: the minimum of p·m/rank over this rank and all above it
  for (std::size_t r = m; r-- > 0;) {
    running = std::min(running, p[order[r]] * double(m) / double(r + 1));
    q[order[r]] = std::min(1.0, running);
  }
  return q;
}

double robust_log_spread(const std::vector<double>& values) {
  if (values.size() < 3) return -1;
  std::vector<double> logs;
  for (double v : values) logs.push_back(std::log(v));
  const double med = median_of(logs);
  for (double& l : logs) l = std::fabs(l - med);
  // 1.4826 makes the MAD of many normal values their standard deviation; a few nights' MAD is
  // smaller on average (3 nights: by a third), so small counts get their own factor (simulated
  // with normal values; from 9 on, n / (n − 1) × 1.4826 is within 1 % of it).
  constexpr double kSmall[] = {2.207, 2.017, 1.807, 1.758, 1.688, 1.674};  // n = 3 … 8
  const std::size_t n = values.size();
  const double factor = n <= 8 ? kSmall[n - 3] : 1.4826 * double(n) / double(n - 1);
  return factor * median_of(logs);
}

double z_two_sided(double p) {
  double lo = 0, hi = 40;
  for (int i = 0; i < 100; ++i) {
    const double mid = 0.5 * (lo + hi);
    (std::erfc(mid / std::sqrt(2.0)) > p ? lo : hi) = mid;
  }
  return hi;
}

double tolerance_of(double spread, const CompareOptions& o) {
  const double log_tolerance =
      std::max(-std::log1p(-o.threshold_pct / 100), spread > 0 ? o.k * spread : 0);
  return -std::expm1(-log_tolerance);
}

void set_history(MetricComparison& m, const std::vector<double>& values, const CompareOptions& o) {
  m.nights = int(values.size());
  m.baseline_value = median_of(values);
  m.spread = robust_log_spread(values);
  m.tolerance = tolerance_of(m.spread, o);
}

namespace {

MetricComparison missing(const std::string& metric, bool roof, const std::string& baseline,
                         double baseline_value, const std::string& why) {
  MetricComparison m;
  m.metric = metric;
  m.roof = roof;
  m.baseline = baseline;
  m.baseline_value = baseline_value;
  m.current = "–";
  m.change = -1;  // nothing measured is no throughput
  m.verdict = Verdict::kMissing;
  m.note = why;
  return m;
}

// A spread from 3 to 7 nights is itself uncertain: now and then far below the metric's true
// night-to-night noise, and the gate would cry wolf there. Each metric's spread is therefore at
// least kSpreadFloor × the median spread of its kind (roofs, points) on this host.
constexpr double kSpreadFloor = 0.5;

// Floors the spreads of `list` (the tested ones: `which`), sets the tolerances and decides;
// `tests`: how many p-values the Benjamini–Hochberg adjustment spread alpha over.
void decide_all(std::vector<MetricComparison>& list, const std::vector<std::size_t>& which,
                std::size_t tests, const CompareOptions& o) {
  std::vector<double> spreads;
  for (std::size_t i : which)
    if (list[i].spread >= 0) spreads.push_back(list[i].spread);
  const double floor = kSpreadFloor * median_of(spreads);
  for (std::size_t i : which) {
    MetricComparison& m = list[i];
    if (m.spread >= 0 && m.spread < floor) {
      m.note +=
          fmt::format("; spread {:.1f} % raised to half the median of its kind", 100 * m.spread);
      m.spread = floor;
    }
    // Tonight's own median is uncertain too: a night noisier than the history's widens it.
    // Not std::hypot: glibc 2.35 gave hypot a new symbol version, and a binary that binds
    // hypot@GLIBC_2.35 does not start on the glibc 2.34 machines a bundle must run on. Both
    // terms are relative spreads (well inside 1e±150), so the plain root cannot overflow.
    if (m.spread > 0) m.spread = std::sqrt(m.spread * m.spread + m.current_se * m.current_se);
    m.tolerance = tolerance_of(m.spread, o);
    std::string why;
    m.verdict = decide(m.change, m.tolerance, m.q_value, m.min_p_value, o.alpha, why);
    m.note = (why.empty() ? m.note : why + "; " + m.note);
    // Beyond the tolerance, the test must also reach alpha: with noisy repetitions (or bootstrap
    // replicates) that takes a larger change, z(alpha / tests) noise units.
    const double z = z_two_sided(o.alpha / double(std::max<std::size_t>(tests, 1)));
    m.min_detectable =
        m.min_p_value < o.alpha ? std::max(m.tolerance, -std::expm1(-z * m.test_noise)) : -1;
  }
}

// Standard error of the log of a median of n samples: 1.2533 σ / √n, σ from the samples' MAD.
double median_log_se(const std::vector<double>& samples) {
  if (samples.size() < 3) return 0;
  std::vector<double> logs;
  for (double t : samples) logs.push_back(std::log(t));
  const double med = median_of(logs);
  for (double& l : logs) l = std::fabs(l - med);
  return 1.2533 * 1.4826 * median_of(logs) / std::sqrt(double(samples.size()));
}

std::string spread_note(const MetricComparison& m) {
  if (m.spread < 0)
    return fmt::format("spread unknown ({} night{})", m.nights, m.nights == 1 ? "" : "s");
  return fmt::format("spread {:.1f} % over {} nights", 100 * m.spread, m.nights);
}

enum class RoofKind { kPeak, kBandwidth, kRead, kMatrix };

struct RoofMetric {
  RoofKind kind;
  const char* prefix;
};
constexpr RoofMetric kRoofMetrics[] = {{RoofKind::kPeak, "P "},
                                       {RoofKind::kBandwidth, "B "},
                                       {RoofKind::kRead, "B_read "},
                                       {RoofKind::kMatrix, "P_matrix "}};

// Roofs fitted as one level (B_read, P_matrix) carry an interval but no joint replicates with P
// and B: their test is a normal approximation from the intervals.
bool level_roof(RoofKind kind) { return kind == RoofKind::kRead || kind == RoofKind::kMatrix; }

// The metric's value in one file's group; 0 when that file has none.
double roof_value(const GroupAnalysis* g, RoofKind kind) {
  if (g && kind == RoofKind::kMatrix) return g->fit.matrix ? g->fit.matrix->peak.value : 0;
  if (!g || !g->fit.fit) return 0;
  switch (kind) {
    case RoofKind::kPeak:
      return g->fit.fit->estimate.roof.peak_flops;
    case RoofKind::kBandwidth:
      return g->fit.fit->estimate.roof.bandwidth;
    default:
      return g->fit.read_bandwidth ? g->fit.read_bandwidth->value : 0;
  }
}

std::string format_roof(RoofKind kind, double v) {
  return kind == RoofKind::kPeak || kind == RoofKind::kMatrix ? format_flops(v)
                                                              : format_bytes_per_s(v);
}

// Relative standard error of a level roof (B_read, P_matrix) from its 95 % interval.
double level_log_se(const GroupAnalysis* g, RoofKind kind) {
  if (!g) return 0;
  const LevelFit* level = kind == RoofKind::kMatrix
                              ? (g->fit.matrix ? &g->fit.matrix->peak : nullptr)
                              : (g->fit.read_bandwidth ? &*g->fit.read_bandwidth : nullptr);
  if (!level) return 0;
  const Interval& ci = level->ci;
  return ci.low > 0 && ci.high > ci.low ? std::log(ci.high / ci.low) / 3.92 : 0;
}

// Machine-wide factors (log of time over the baseline's; 0 when not normalised): one per
// history night, and tonight's. `night_se`: each history night's standard error of its factor;
// `*_noise`: a night's median repetition noise (standard error of a point's log median), 0
// where unknown.
struct Factors {
  std::vector<double> night, night_se, night_noise;
  double current = 0, current_noise = 0;
};

void compare_roofs(const std::vector<const FileAnalysis*>& history, const GroupAnalysis& gb,
                   const GroupAnalysis* gc, const Factors& f, const CompareOptions& o,
                   Comparison& c) {
  const std::string group = gb.fit.space + "/" + gb.fit.dtype;
  // Without a fit in the newest night only P_matrix (a GEMM alone, tf32) can be held to.
  if (!gb.fit.fit && !gb.fit.matrix) return;
  std::vector<const GroupAnalysis*> past;
  for (const FileAnalysis* h : history) past.push_back(h->find(gb.fit.space, gb.fit.dtype));
  for (const RoofMetric& rm : kRoofMetrics) {
    const double newest = roof_value(&gb, rm.kind);
    if (newest <= 0) continue;  // e.g. no B_read in the newest night
    // A night slower as a whole had lower roofs: throughputs × exp(factor) take that out.
    std::vector<double> values;
    for (std::size_t j = 0; j < past.size(); ++j)
      if (roof_value(past[j], rm.kind) > 0)
        values.push_back(roof_value(past[j], rm.kind) * std::exp(f.night[j]));
    std::vector<double> raw;  // as measured, for the absolute change
    for (const GroupAnalysis* g : past)
      if (roof_value(g, rm.kind) > 0) raw.push_back(roof_value(g, rm.kind));
    const std::string metric = rm.prefix + group;
    const double vc_raw = roof_value(gc, rm.kind), vc = vc_raw * std::exp(f.current);
    if (vc_raw <= 0) {
      const std::string why = !gc ? "no point of " + group + " in the current file"
                              : rm.kind == RoofKind::kMatrix
                                  ? "no verified GEMM on matrix units in the current file"
                              : !gc->fit.fit ? "no fit in the current file: " + gc->fit.not_fitted
                                             : "no DRAM-sized read point in the current file";
      c.roofs.push_back(
          missing(metric, true, format_roof(rm.kind, median_of(values)), median_of(values), why));
      c.roofs.back().absolute_baseline_value = median_of(raw);
      c.roofs.back().unfitted = gc && rm.kind != RoofKind::kMatrix && !gc->fit.fit;
      continue;
    }
    MetricComparison m;
    m.metric = metric;
    m.roof = true;
    set_history(m, values, o);
    m.absolute_baseline_value = median_of(raw);
    m.absolute_baseline = format_roof(rm.kind, m.absolute_baseline_value);
    m.absolute_change = vc_raw / m.absolute_baseline_value - 1;
    const double raw_spread = robust_log_spread(raw);
    if (raw_spread >= 0) m.absolute_tolerance = machine_tolerance(raw_spread, o);
    m.current_value = vc_raw;
    m.baseline = format_roof(rm.kind, m.baseline_value);
    m.current = format_roof(rm.kind, vc_raw);
    m.change = vc / m.baseline_value - 1;
    if (level_roof(rm.kind)) {
      // Normal approximation: both intervals and the night-to-night spread.
      const double se2 = std::pow(level_log_se(gc, rm.kind), 2) +
                         std::pow(level_log_se(&gb, rm.kind), 2) +
                         std::pow(std::max(m.spread, 0.0), 2);
      const double z = se2 > 0 ? std::fabs(std::log(vc / m.baseline_value)) / std::sqrt(se2) : 0;
      m.p_value = se2 > 0 ? std::erfc(z / std::sqrt(2.0)) : 1;
      m.min_p_value = se2 > 0 ? 0 : 1;
      m.test_noise = std::sqrt(se2);
      m.note = "normal approximation from the intervals";
    } else {
      // Replicates of the current fit against those of the history nights in turn, so the
      // ratios carry the night-to-night variation the history shows.
      const auto value = [&rm](const Roof& r) {
        return rm.kind == RoofKind::kPeak ? r.peak_flops : r.bandwidth;
      };
      std::vector<std::pair<const RoofFit*, double>> fits;  // with the night's factor
      for (std::size_t j = 0; j < past.size(); ++j)
        if (past[j] && past[j]->fit.fit && !past[j]->fit.fit->replicates.empty())
          fits.emplace_back(&*past[j]->fit.fit, f.night[j]);
      std::vector<double> ratios;
      const auto& rc = gc->fit.fit->replicates;
      for (std::size_t i = 0; i < rc.size() && !fits.empty(); ++i) {
        const auto& [fb, factor] = fits[i % fits.size()];
        const auto& rb = fb->replicates;
        ratios.push_back(value(rc[i]) * std::exp(f.current - factor) / value(rb[i % rb.size()]));
      }
      m.p_value = bootstrap_p(ratios);
      m.test_noise = std::max(0.0, robust_log_spread(ratios));
      m.min_p_value = ratios.empty() ? 1 : 2 / (double(ratios.size()) + 1);
      m.note = fmt::format("bootstrap of the fits, {} replicates", ratios.size());
    }
    m.q_value = m.p_value;
    c.roofs.push_back(std::move(m));  // decided with the others' spreads (decide_all)
  }
}

// With 3 history nights or more and enough points, each night's machine-wide factor:
// the median over the points of log(time / the history's median time). A shared machine has slow
// phases that stretch every point of a night alike (a neighbour's build: 15–30 % on the
// development VM); taken out, the gate sees what moved against the rest of the night.
constexpr std::size_t kMinCommonPoints = 5;

struct PointRow {
  const Point* baseline;             // in the newest history night
  const Point* current;              // measured tonight
  std::vector<const Point*> nights;  // per history night; null where not measured or verified
};

Factors machine_factors(const std::vector<PointRow>& rows, std::size_t nights, bool normalise) {
  Factors f;
  f.night.assign(nights, 0);
  f.night_se.assign(nights, 0);
  f.night_noise.assign(nights, 0);
  if (!normalise || rows.size() < kMinCommonPoints) return f;
  std::vector<double> typical;  // per row: the history's median time
  for (const auto& r : rows) {
    std::vector<double> t;
    for (const Point* p : r.nights)
      if (p) t.push_back(p->median_s);
    typical.push_back(median_of(t));
  }
  // A factor is a median over the points' ratios: its standard error is a median's, from the
  // ratios' scatter (median_log_se takes the ratios as its samples).
  for (std::size_t j = 0; j < nights; ++j) {
    std::vector<double> logs, ratios, noise;
    for (std::size_t i = 0; i < rows.size(); ++i)
      if (rows[i].nights[j]) {
        ratios.push_back(rows[i].nights[j]->median_s / typical[i]);
        logs.push_back(std::log(ratios.back()));
        noise.push_back(median_log_se(rows[i].nights[j]->samples));
      }
    if (logs.size() < kMinCommonPoints) continue;
    f.night[j] = median_of(logs);
    f.night_se[j] = median_log_se(ratios);
    f.night_noise[j] = median_of(noise);
  }
  std::vector<double> logs, noise;  // tonight, against the history's medians with the factors out
  for (std::size_t i = 0; i < rows.size(); ++i) {
    std::vector<double> t;
    for (std::size_t j = 0; j < nights; ++j)
      if (rows[i].nights[j]) t.push_back(rows[i].nights[j]->median_s * std::exp(-f.night[j]));
    if (rows[i].current->verified) {
      logs.push_back(std::log(rows[i].current->median_s / median_of(t)));
      noise.push_back(median_log_se(rows[i].current->samples));
    }
  }
  if (logs.size() >= kMinCommonPoints) {
    f.current = median_of(logs);
    f.current_noise = median_of(noise);
  }
  return f;
}

// The factor itself, judged against its spread across the history nights (machine_factor.hpp).
MetricComparison machine_metric(const Factors& f, const CompareOptions& o) {
  MetricComparison m;
  MachineFactorEvidence e;
  e.history = f.night;
  e.history_se = median_of(f.night_se);
  e.tonight = f.current;
  e.tonight_noise = f.current_noise;
  e.history_noise = median_of(f.night_noise);
  judge_machine_factor(m, e, o);
  return m;
}

// A median SM clock below the history's by more than this is a lower clock: H100/H200 clocks
// step by 15 MHz (under 1 % at their ~2 GHz), and a one-step wobble of a median is not throttling.
constexpr double kClockDrop = 0.02;

// Tonight's and the history's clocks and throttle reasons of a set of points (one metric).
struct ClockEvidence {
  std::vector<double> tonight, history;      // median SM clocks, MHz
  std::vector<std::string> tonight_reasons;  // reasons seen tonight
  std::unordered_set<std::string> history_reasons;
  int throttled = 0, samples = 0;
};

void add_tonight(ClockEvidence& e, const Point& p) {
  if (!p.telemetry) return;
  if (p.telemetry->sm_clock_mhz > 0) e.tonight.push_back(p.telemetry->sm_clock_mhz);
  for (const auto& r : p.telemetry->throttle_reasons)
    if (std::find(e.tonight_reasons.begin(), e.tonight_reasons.end(), r) == e.tonight_reasons.end())
      e.tonight_reasons.push_back(r);
  e.throttled += p.telemetry->throttled_count();
  e.samples += int(p.samples.size());
}

void add_history(ClockEvidence& e, const Point& p) {
  if (!p.telemetry) return;
  if (p.telemetry->sm_clock_mhz > 0) e.history.push_back(p.telemetry->sm_clock_mhz);
  e.history_reasons.insert(p.telemetry->throttle_reasons.begin(),
                           p.telemetry->throttle_reasons.end());
}

// Fills the clock fields; a slowdown that is not SAME becomes clock-limited when tonight's clock
// was lower or a throttle reason appeared. The verdict itself (and the gate) stays.
void annotate_clocks(MetricComparison& m, const ClockEvidence& e, bool per_cycle) {
  m.sm_clock_mhz = e.tonight.empty() ? 0 : median_of(e.tonight);
  m.history_sm_clock_mhz = e.history.empty() ? 0 : median_of(e.history);
  m.throttled_samples = e.throttled;
  m.samples = e.samples;
  for (const auto& r : e.tonight_reasons)
    if (!e.history_reasons.count(r)) m.new_throttle_reasons.push_back(r);
  const bool both = m.sm_clock_mhz > 0 && m.history_sm_clock_mhz > 0;
  // Throughput per cycle: the change with the clock ratio taken out.
  if (per_cycle && both && m.verdict != Verdict::kMissing)
    m.change_per_cycle = (1 + m.change) * m.history_sm_clock_mhz / m.sm_clock_mhz - 1;
  const bool lower = both && m.sm_clock_mhz < (1 - kClockDrop) * m.history_sm_clock_mhz;
  const bool slowdown =
      (m.verdict == Verdict::kSlower || m.verdict == Verdict::kAmbiguous) && m.change < 0;
  if (!slowdown || (!lower && m.new_throttle_reasons.empty())) return;
  m.clock_limited = true;
  std::string why = "clock-limited: ";
  if (both)
    why += fmt::format("SM clock {:.0f} MHz, history {:.0f} MHz ({:+.1f} %)", m.sm_clock_mhz,
                       m.history_sm_clock_mhz, 100 * (m.sm_clock_mhz / m.history_sm_clock_mhz - 1));
  if (!m.new_throttle_reasons.empty()) {
    std::string reasons;
    for (const auto& r : m.new_throttle_reasons) reasons += (reasons.empty() ? "" : ", ") + r;
    why += (both ? "; " : "") + std::string("throttled (") + reasons + ")";
  }
  if (m.change_per_cycle)
    why += fmt::format("; at equal clock (FLOP/cycle) {:+.1f} %", 100 * *m.change_per_cycle);
  m.note = why + "; " + m.note;
}

// Tonight's and the history's CPU waits of a set of points: the medians over them.
struct WaitSamples {
  std::vector<double> tonight, history;
  int threads = 1, history_threads = 1;
  void add_tonight(const Point& p) {
    if (!p.cpu_wait_share) return;
    tonight.push_back(*p.cpu_wait_share);
    threads = std::max(threads, p.cpu_wait_threads);
  }
  void add_history(const Point& p) {
    if (!p.cpu_wait_share) return;
    history.push_back(*p.cpu_wait_share);
    history_threads = std::max(history_threads, p.cpu_wait_threads);
  }
  CpuWaitEvidence evidence() const {
    CpuWaitEvidence e;
    e.tonight = tonight.empty() ? -1 : median_of(tonight);
    e.history = history.empty() ? -1 : median_of(history);
    e.threads = threads;
    e.history_threads = history_threads;
    return e;
  }
};

}  // namespace

void annotate_cpu_wait(MetricComparison& m, const CpuWaitEvidence& e) {
  m.cpu_wait_share = e.tonight;
  m.history_cpu_wait_share = e.history;
  // Files without the field (before schema 1.3) count as having waited nothing: the rule then
  // asks more of tonight, never less.
  const double before = std::max(e.history, 0.0);
  const bool busy = e.tonight >= kBusyShare && e.tonight >= before + kBusyShare;
  const std::string waited = fmt::format(
      "threads waited for a CPU {:.0f} % of the time (history {})", 100 * e.tonight,
      e.history < 0 ? std::string("unknown") : fmt::format("{:.0f} %", 100 * e.history));
  if (m.verdict == Verdict::kMissing) {
    // Under load a night's medians shift unevenly, and its ridge can fall where one side of the
    // fit has no point left: that says nothing of the roof, even where the history waited as
    // much and fitted. Its points are gated one by one.
    if (!m.unfitted || e.tonight < kBusyShare) return;
    m.machine_busy = true;
    m.verdict = Verdict::kAmbiguous;
    m.note = fmt::format("machine busy: {}, and tonight's points did not fit; ", waited) + m.note;
    return;
  }
  const bool slowdown =
      m.verdict == Verdict::kSlower || (m.verdict == Verdict::kAmbiguous && m.change < 0);
  if (!slowdown || !busy) return;
  // Each thread's wait may have stalled the whole region (a barrier waits for the last thread).
  const auto stalled = [](double share, int threads) {
    return std::min(1.0, share * double(std::max(threads, 1)));
  };
  const double tonight = stalled(e.tonight, e.threads),
               history = stalled(before, e.history_threads);
  const double floor = std::log1p(-m.tolerance);  // the slowest change that is still SAME
  const bool explained =
      tonight >= 0.99 ||
      std::log1p(m.change) + std::log1p(-history) - std::log1p(-tonight) >= floor;
  if (!explained) {
    const double left = (1 + m.change) * (1 - history) / (1 - tonight) - 1;
    m.note = fmt::format("machine busy ({}), yet {:+.1f} % with the waiting taken out; ", waited,
                         100 * left) +
             m.note;
    return;
  }
  m.machine_busy = true;
  if (m.verdict == Verdict::kSlower) m.note = "SLOWER on a busy machine, not gated; " + m.note;
  m.verdict = Verdict::kAmbiguous;
  m.note = fmt::format("machine busy: {}, which explains the change; ", waited) + m.note;
}

double night_cpu_wait(const Results& r) {
  std::vector<double> shares;
  for (const auto& p : r.points)
    if (p.cpu_wait_share) shares.push_back(*p.cpu_wait_share);
  return shares.empty() ? -1 : median_of(shares);
}

HistoryDecision history_decision(const Comparison& c, int min_history) {
  if (c.regressions() > 0) return HistoryDecision::kRegressed;
  if (c.busy_night() && c.quiet_history_nights >= min_history) return HistoryDecision::kBusyKeptOut;
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

namespace {

// What explains a machine-wide slowdown, and what it cost the roofs. Over all the night's points:
// a lower GPU clock or a new throttle reason (clock-limited, stays SLOWER unless
// --clock-limited-ambiguous: a runner that throttles is a finding), else waiting for a CPU that
// explains it (machine busy, AMBIGUOUS, as for any metric). Then the roofs whose absolute
// change is a slowdown beyond the factor's tolerance and their own: what the night lost.
void explain_machine(Comparison& c, const std::vector<PointRow>& rows, const CompareOptions& o) {
  MetricComparison& m = *c.machine;
  ClockEvidence clocks;
  WaitSamples waits;
  for (const PointRow& r : rows) {
    if (!r.current->verified) continue;
    add_tonight(clocks, *r.current);
    waits.add_tonight(*r.current);
    for (const Point* p : r.nights)
      if (p) {
        add_history(clocks, *p);
        waits.add_history(*p);
      }
  }
  annotate_clocks(m, clocks, false);
  if (m.clock_limited && o.clock_limited_ambiguous && m.verdict == Verdict::kSlower) {
    m.verdict = Verdict::kAmbiguous;
    m.note = "not gated (--clock-limited-ambiguous); " + m.note;
  }
  if (!m.clock_limited) annotate_cpu_wait(m, waits.evidence());
  if (m.verdict == Verdict::kSame || m.change >= 0) return;
  // A roof lost what the night lost when its absolute slowdown is beyond the factor's tolerance
  // and beyond what its own spread across the nights tolerates (a roof fitted from few points
  // moves more between nights than the median over all of them).
  std::string lost;
  for (const auto& r : c.roofs)
    if (r.absolute_change && *r.absolute_change > -1 &&
        std::log1p(*r.absolute_change) < std::log1p(-std::max(m.tolerance, r.absolute_tolerance))) {
      c.machine_roofs.push_back(r.metric);
      lost += fmt::format("{}{} {:+.1f} %", lost.empty() ? "" : ", ", r.metric,
                          100 * *r.absolute_change);
    }
  m.note = fmt::format("every point moved {:+.1f} % together; {}; ", 100 * m.change,
                       lost.empty() ? "no roof lost as much in absolute terms"
                                    : "roofs lost in absolute terms: " + lost) +
           m.note;
}

}  // namespace

Comparison compare_history(const std::vector<const FileAnalysis*>& all_history,
                           const FileAnalysis& current, const CompareOptions& o) {
  Comparison c;
  c.night_cpu_wait = night_cpu_wait(current.results);
  const std::vector<const FileAnalysis*> history =
      quiet_history(all_history, o.min_history, c.busy_history);
  for (const FileAnalysis* h : all_history)
    c.quiet_history_nights += night_cpu_wait(h->results) < kBusyShare;
  for (const FileAnalysis* h : history) c.history.push_back(h->label);
  c.history_nights = int(history.size());
  c.gates_speed = c.history_nights >= o.min_history;
  if (history.empty()) return c;
  const FileAnalysis& newest = *history.back();

  std::vector<std::unordered_map<std::string, const Point*>> past(history.size());
  for (std::size_t i = 0; i < history.size(); ++i)
    for (const auto& p : history[i]->results.points) past[i].emplace(p.name, &p);
  std::unordered_map<std::string, const Point*> current_points;
  for (const auto& p : current.results.points) current_points.emplace(p.name, &p);
  std::unordered_set<std::string> baseline_names;
  std::vector<PointRow> rows;
  std::vector<MetricComparison> lost;  // MISSING points, in file order with the others below
  std::vector<std::size_t> order;      // per point of `newest` compared: row index or ~lost index
  for (const auto& pb : newest.results.points) {
    baseline_names.insert(pb.name);
    if (!pb.measured() || !pb.verified) {
      c.not_compared.push_back(pb.name + ": skipped or unverified in the baseline");
      continue;
    }
    PointRow row{&pb, nullptr, std::vector<const Point*>(history.size(), nullptr)};
    std::vector<double> medians;
    for (std::size_t j = 0; j < past.size(); ++j) {
      const auto it = past[j].find(pb.name);
      if (it == past[j].end() || !it->second->measured() || !it->second->verified) continue;
      row.nights[j] = it->second;
      medians.push_back(it->second->median_s);
    }
    const auto it = current_points.find(pb.name);
    const double before = median_of(medians);
    const std::string before_text = fmt::format("{:.4g} s", before);
    if (it == current_points.end() || !it->second->measured()) {
      lost.push_back(missing(pb.name, false, before_text, before,
                             it == current_points.end()
                                 ? "not in the current file"
                                 : "skipped in the current file: " + it->second->skipped_reason));
      order.push_back(~(lost.size() - 1));
      continue;
    }
    row.current = it->second;
    order.push_back(rows.size());
    rows.push_back(std::move(row));
  }

  // The factors need a history whose spread is known (3 nights), whatever --min-history says.
  const bool normalise = history.size() >= 3 && rows.size() >= kMinCommonPoints;
  const Factors f = machine_factors(rows, history.size(), normalise);
  if (normalise) c.machine = machine_metric(f, o);
  for (const auto& gb : newest.groups)
    compare_roofs(history, gb, current.find(gb.fit.space, gb.fit.dtype), f, o, c);

  std::vector<std::size_t> tested;  // points with a test's p-value, for Benjamini–Hochberg
  for (std::size_t k : order) {
    if (k >= rows.size()) {
      c.points.push_back(std::move(lost[~k]));
      continue;
    }
    const PointRow& r = rows[k];
    const Point& pc = *r.current;
    MetricComparison m;
    std::vector<double> medians, pooled;
    for (std::size_t j = 0; j < r.nights.size(); ++j) {
      if (!r.nights[j]) continue;
      const double scale = std::exp(-f.night[j]);
      medians.push_back(r.nights[j]->median_s * scale);
      for (double t : r.nights[j]->samples) pooled.push_back(t * scale);
    }
    std::vector<double> tonight;
    for (double t : pc.samples) tonight.push_back(t * std::exp(-f.current));
    m.current_se = median_log_se(pc.samples);
    // Mann–Whitney's noise for a shift of the logs: σ √(1/m + 1/n), × √(π/3) for its efficiency
    // against a t-test.
    m.test_noise = m.current_se * std::sqrt(double(pc.samples.size())) / 1.2533 *
                   std::sqrt((1 / double(std::max<std::size_t>(pooled.size(), 1)) +
                              1 / double(std::max<std::size_t>(tonight.size(), 1))) *
                             3.14159265 / 3);
    m.metric = r.baseline->name;
    // Times: the spread of 1 / t is that of t, so the history's medians serve as they are.
    set_history(m, medians, o);
    m.baseline = fmt::format("{:.4g} s", m.baseline_value);
    m.current = fmt::format("{:.4g} s", pc.median_s);
    m.current_value = pc.median_s;
    m.change = m.baseline_value / (pc.median_s * std::exp(-f.current)) - 1;  // throughput ∝ 1/t
    const MannWhitney mw = mann_whitney(pooled, tonight);
    m.p_value = mw.p_value;
    m.min_p_value = mw.min_p_value;
    m.note = fmt::format("Mann–Whitney U ({}), {} + {} samples", mw.exact ? "exact" : "normal",
                         pooled.size(), tonight.size());
    if (!pc.verified) {
      // Timed but wrong: whatever its speed, the gate fails on it.
      m.verdict = Verdict::kFailed;
      m.note =
          "verification failed: " + (pc.verify_error.empty() ? "no reason given" : pc.verify_error);
    } else {
      tested.push_back(c.points.size());
    }
    c.points.push_back(std::move(m));
  }
  // Hundreds of points, each at alpha, would give some false discoveries every night.
  std::vector<double> p;
  for (std::size_t i : tested) p.push_back(c.points[i].p_value);
  const std::vector<double> q = benjamini_hochberg(p);
  for (std::size_t j = 0; j < tested.size(); ++j) {
    MetricComparison& m = c.points[tested[j]];
    m.q_value = q[j];
    // The best a lone change can reach after the adjustment.
    m.min_p_value = std::min(1.0, m.min_p_value * double(tested.size()));
    m.note += "; " + spread_note(m);
  }
  decide_all(c.points, tested, tested.size(), o);
  std::vector<std::size_t> roofs;
  for (std::size_t i = 0; i < c.roofs.size(); ++i)
    if (c.roofs[i].verdict != Verdict::kMissing) {
      c.roofs[i].note += "; " + spread_note(c.roofs[i]);
      roofs.push_back(i);
    }
  decide_all(c.roofs, roofs, 1, o);

  // Clocks: each point from its own telemetry, P from the group's peak points.
  for (std::size_t k = 0; k < order.size(); ++k) {  // c.points follows `order`
    if (order[k] >= rows.size()) continue;
    const PointRow& r = rows[order[k]];
    ClockEvidence e;
    add_tonight(e, *r.current);
    for (const Point* p : r.nights)
      if (p) add_history(e, *p);
    annotate_clocks(c.points[k], e, r.current->family == "peak");
  }
  for (auto& m : c.roofs) {
    // P from the group's peak points, P_matrix from its GEMMs on matrix units.
    const bool matrix = m.metric.rfind("P_matrix ", 0) == 0;
    if (!matrix && m.metric.rfind("P ", 0) != 0) continue;
    const std::string group = m.metric.substr(m.metric.find(' ') + 1);
    const auto in_group = [&group, matrix](const Point& p) {
      return (matrix ? is_tensor_point(p) : p.family == "peak") && p.measured() && p.verified &&
             p.space + "/" + p.dtype == group;
    };
    ClockEvidence e;
    for (const auto& p : current.results.points)
      if (in_group(p)) add_tonight(e, p);
    for (const FileAnalysis* h : history)
      for (const auto& p : h->results.points)
        if (in_group(p)) add_history(e, p);
    annotate_clocks(m, e, true);
  }
  // A busy machine: each point from its own waits, roofs from their group's points.
  for (std::size_t k = 0; k < order.size(); ++k) {
    if (order[k] >= rows.size()) continue;
    const PointRow& r = rows[order[k]];
    WaitSamples w;
    w.add_tonight(*r.current);
    for (const Point* p : r.nights)
      if (p) w.add_history(*p);
    annotate_cpu_wait(c.points[k], w.evidence());
  }
  for (auto& m : c.roofs) {
    if (m.verdict == Verdict::kMissing && !m.unfitted) continue;
    const std::string group = m.metric.substr(m.metric.find(' ') + 1);
    const bool matrix = m.metric.rfind("P_matrix ", 0) == 0;
    const auto in_group = [&group, matrix](const Point& p) {
      return (matrix ? is_tensor_point(p) && p.measured() && p.verified : p.fittable()) &&
             p.space + "/" + p.dtype == group;
    };
    WaitSamples w;
    for (const auto& p : current.results.points)
      if (in_group(p)) w.add_tonight(p);
    for (const FileAnalysis* h : history)
      for (const auto& p : h->results.points)
        if (in_group(p)) w.add_history(p);
    annotate_cpu_wait(m, w.evidence());
  }
  if (c.machine) explain_machine(c, rows, o);
  for (const auto& pc : current.results.points)
    if (!baseline_names.count(pc.name)) c.not_compared.push_back(pc.name + ": not in the baseline");
  return c;
}

}  // namespace ridgeline
