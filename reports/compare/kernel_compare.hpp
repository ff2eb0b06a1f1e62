#pragma once
// The nightly gate for an application's kernels (kernels files of libridgeline-kp.so): per
// kernel, its median time per call and its fraction of the same night's roof (the roof that
// bounds it at its intensity, from that night's results file) against the history nights, with
// the gate's own rule (compare.hpp: tolerance = max(threshold, k × the spread across the nights),
// then significance). Together they tell why a kernel got slower:
//   the fraction held while the time rose  -> the machine got slower (the roof moved with it)
//   the fraction fell, the roof held       -> the code got slower (the roof held)
//   both fell                              -> both: the roof moved and the kernel lost more
// A kernel is matched across nights by label, region, space, kind and device; one that the
// newest history night ran and tonight did not is MISSING.
#include <optional>
#include <string>
#include <vector>

#include "reports/compare/compare.hpp"
#include "reports/fit/analysis.hpp"
#include "reports/kernels/kernels_file.hpp"

namespace ridgeline {

struct KernelNight {
  const KernelsFile* kernels = nullptr;
  const FileAnalysis* roofs = nullptr;  // the same night's results; nullptr: no roofs given
};

enum class SlowdownCause { kNone, kMachine, kCode, kBoth, kUnknown };
const char* slowdown_cause_name(SlowdownCause c);  // "", "machine", "code", "both", "unknown"

struct KernelComparison {
  std::string kernel;                        // "label in /region (space kind, device N)"
  MetricComparison time;                     // throughput per call: 1 / median time per call
  std::optional<MetricComparison> fraction;  // of the roof; unset where no night could place it
  std::optional<double> roof_change;         // tonight's roof at its intensity / history's − 1
  SlowdownCause cause = SlowdownCause::kNone;
  std::string explanation;  // the verdict in words
};

struct KernelsComparison {
  std::vector<KernelComparison> kernels;
  std::vector<std::string> not_compared;  // kernels new tonight
  std::vector<std::string> history;       // files of the history nights, oldest first
  bool gates_speed = false;               // history nights >= min_history
  int count(Verdict v) const;             // of the kernels' time verdicts
  int regressions() const;                // MISSING, and SLOWER when gates_speed
};

// `history`: earlier nights, oldest first (at least one).
KernelsComparison compare_kernel_history(const std::vector<KernelNight>& history,
                                         const KernelNight& tonight, const CompareOptions& o);

}  // namespace ridgeline
