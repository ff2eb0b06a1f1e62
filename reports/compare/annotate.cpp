#include "reports/compare/annotate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace ridgeline {
namespace {

// The clocks a metric is judged by: the SM clock where both sides know it, else the host cores'.
struct JudgedClocks {
  bool sm = false, known = false;
  double tonight = 0, before = 0;
};
JudgedClocks judged_clocks(const MetricComparison& m) {
  JudgedClocks c;
  c.sm = m.sm_clock_mhz > 0 && m.history_sm_clock_mhz > 0;
  c.tonight = c.sm ? m.sm_clock_mhz : m.host_clock_mhz;
  c.before = c.sm ? m.history_sm_clock_mhz : m.history_host_clock_mhz;
  c.known = c.tonight > 0 && c.before > 0;
  return c;
}

}  // namespace

void add_tonight(ClockEvidence& e, const Point& p) {
  if (p.host_clock_mhz) e.host_tonight.push_back(*p.host_clock_mhz);
  if (!p.telemetry) return;
  if (p.telemetry->sm_clock_mhz > 0) e.tonight.push_back(p.telemetry->sm_clock_mhz);
  for (const auto& r : p.telemetry->throttle_reasons)
    if (std::find(e.tonight_reasons.begin(), e.tonight_reasons.end(), r) == e.tonight_reasons.end())
      e.tonight_reasons.push_back(r);
  e.throttled += p.telemetry->throttled_count();
  e.samples += int(p.samples.size());
}

void add_history(ClockEvidence& e, const Point& p) {
  if (p.host_clock_mhz) e.host_history.push_back(*p.host_clock_mhz);
  if (!p.telemetry) return;
  if (p.telemetry->sm_clock_mhz > 0) e.history.push_back(p.telemetry->sm_clock_mhz);
  e.history_reasons.insert(p.telemetry->throttle_reasons.begin(),
                           p.telemetry->throttle_reasons.end());
}

void annotate_clocks(MetricComparison& m, const ClockEvidence& e, bool per_cycle) {
  m.sm_clock_mhz = e.tonight.empty() ? 0 : median(e.tonight);
  m.history_sm_clock_mhz = e.history.empty() ? 0 : median(e.history);
  m.throttled_samples = e.throttled;
  m.samples = e.samples;
  for (const auto& r : e.tonight_reasons)
    if (!e.history_reasons.count(r)) m.new_throttle_reasons.push_back(r);
  m.host_clock_mhz = e.host_tonight.empty() ? 0 : median(e.host_tonight);
  m.history_host_clock_mhz = e.host_history.empty() ? 0 : median(e.host_history);
  const auto [sm, both, tonight, before] = judged_clocks(m);
  // Throughput per cycle: the change with the clock ratio taken out.
  if (per_cycle && both && m.verdict != Verdict::kMissing)
    m.change_per_cycle = (1 + m.change) * before / tonight - 1;
  const bool lower = both && tonight < (1 - (sm ? kClockDrop : kHostClockDrop)) * before;
  const bool slowdown =
      (m.verdict == Verdict::kSlower || m.verdict == Verdict::kAmbiguous) && m.change < 0;
  if (!slowdown || (!lower && m.new_throttle_reasons.empty())) return;
  m.clock_limited = true;
  std::string why = "clock-limited: ";
  if (both)
    why +=
        fmt::format("{} {:.0f} MHz, history {:.0f} MHz ({:+.1f} %)", sm ? "SM clock" : "host clock",
                    tonight, before, 100 * (tonight / before - 1));
  if (!m.new_throttle_reasons.empty()) {
    std::string reasons;
    for (const auto& r : m.new_throttle_reasons) reasons += (reasons.empty() ? "" : ", ") + r;
    why += (both ? "; " : "") + std::string("throttled (") + reasons + ")";
  }
  if (m.change_per_cycle)
    why += fmt::format("; at equal clock (FLOP/cycle) {:+.1f} %", 100 * *m.change_per_cycle);
  m.note = why + "; " + m.note;
}

void clock_limited_not_gated(MetricComparison& m) {
  if (!m.clock_limited || m.verdict != Verdict::kSlower) return;
  const JudgedClocks c = judged_clocks(m);
  const double at_equal_clock = c.known ? (1 + m.change) * c.before / c.tonight - 1 : m.change;
  if (std::log1p(at_equal_clock) < std::log1p(-m.tolerance)) {
    m.note = fmt::format("gated despite --clock-limited-ambiguous: {:+.1f} % at equal clock; ",
                         100 * at_equal_clock) +
             m.note;
    return;
  }
  m.verdict = Verdict::kAmbiguous;
  m.note = "not gated (--clock-limited-ambiguous); " + m.note;
}

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
  // Each thread's wait may have stalled the whole region (a barrier waits for the last thread).
  const auto stalled = [](double share, int threads) {
    return std::min(1.0, share * double(std::max(threads, 1)));
  };
  const double tonight = stalled(e.tonight, e.threads),
               history = stalled(before, e.history_threads);
  // On a busy night the waiting explains a slowdown up to the one that, waiting taken out, is
  // still past what the gate could call: that is the least it can catch tonight, and nothing
  // where the waiting stalled every call (the rule below). Replayed A/A nights beside a parallel
  // build printed 43 % for a dot that a planted 2 x 43 % then left AMBIGUOUS (2026-12-06).
  if (busy && m.min_detectable >= 0 && history < 0.99)
    m.min_detectable = tonight >= 0.99
                           ? -1
                           : std::max(m.min_detectable,
                                      1 - (1 - m.min_detectable) * (1 - tonight) / (1 - history));
  if (!slowdown || !busy) return;
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

void add_row(const PointRow& r, ClockEvidence& clocks, WaitSamples& waits) {
  add_tonight(clocks, *r.current);
  waits.add_tonight(*r.current);
  for (const Point* p : r.nights)
    if (p) {
      add_history(clocks, *p);
      waits.add_history(*p);
    }
}

}  // namespace ridgeline
