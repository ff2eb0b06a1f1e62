#pragma once
// Notes attached to a decided metric: a lower clock (a GPU's SM clock, a host's cores') or a new
// throttle reason (clock-limited), and waiting for a CPU that explains a slowdown (machine busy).
#include <algorithm>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/stats.hpp"
#include "reports/compare/comparison.hpp"
#include "reports/compare/point_rows.hpp"
#include "results/results_model.hpp"

namespace ridgeline {

// A slowdown is the machine's being busy when tonight's threads waited for a CPU at least
// kBusyShare of the time, kBusyShare more than in the history, and the change with every
// night's waiting taken out (as if each thread's wait had stalled the whole region: time ×
// (1 − min(1, share × threads))) is within the tolerance. One 8 ms time slice of another process
// in a 1.7 ms two-thread region is a share of about 0.4.
struct CpuWaitEvidence {
  double tonight = -1, history = -1;  // median shares; < 0 unknown
  int threads = 1;                    // the most threads of one sample, tonight
  int history_threads = 1;
};
// Applies the rule to a decided metric (SLOWER → AMBIGUOUS when explained) and fills its fields;
// a roof MISSING only because tonight's points did not fit (`unfitted`) is AMBIGUOUS on a busy
// night: the points themselves are still gated.
void annotate_cpu_wait(MetricComparison& m, const CpuWaitEvidence& e);

// A median SM clock below the history's by more than this is a lower clock: H100/H200 clocks
// step by 15 MHz (under 1 % at their ~2 GHz), and a one-step wobble of a median is not throttling.
inline constexpr double kClockDrop = 0.02;
// The same for a host's cores (results' host_clock): the chains read after a repetition scatter
// by a few per cent, and the 2-vCPU Xeon VM's clock steps by 100 MHz (2.5 % at its 4 GHz).
inline constexpr double kHostClockDrop = 0.03;

// Tonight's and the history's clocks and throttle reasons of a set of points (one metric).
struct ClockEvidence {
  std::vector<double> tonight, history;            // median SM clocks, MHz
  std::vector<double> host_tonight, host_history;  // host points' median core clocks, MHz
  std::vector<std::string> tonight_reasons;        // reasons seen tonight
  std::unordered_set<std::string> history_reasons;
  int throttled = 0, samples = 0;
};

// Adds a point's telemetry (none: nothing) to tonight's side or the history's.
void add_tonight(ClockEvidence& e, const Point& p);
void add_history(ClockEvidence& e, const Point& p);

// Fills the clock fields; a slowdown that is not SAME becomes clock-limited when tonight's clock
// (the SM clock where known, else the host cores') was lower or a throttle reason appeared. The
// verdict itself (and the gate) stays.
void annotate_clocks(MetricComparison& m, const ClockEvidence& e, bool per_cycle);

// --clock-limited-ambiguous, for the machine-wide factor and the levels: a clock-limited SLOWER
// becomes AMBIGUOUS (reported, not gated) where the lower clock explains it, the change with the
// clocks' ratio taken out being within the tolerance. A slowdown beyond what the clock explains
// (or with a new throttle reason and no lower clock) still fails.
void clock_limited_not_gated(MetricComparison& m);

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
    e.tonight = tonight.empty() ? -1 : median(tonight);
    e.history = history.empty() ? -1 : median(history);
    e.threads = threads;
    e.history_threads = history_threads;
    return e;
  }
};

// A point row's evidence: tonight's point and its history nights, clocks and CPU waits alike.
void add_row(const PointRow& r, ClockEvidence& clocks, WaitSamples& waits);

}  // namespace ridgeline
