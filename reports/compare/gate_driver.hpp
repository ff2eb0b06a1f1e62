#pragma once
// The gate, driven once for every caller (`ridgeline compare`, `ridgeline gate`): the history
// files and tonight's file in, the decided verdicts and compare.json's content out. It reads the
// files (results files, an MPI job's, or kernels files of libridgeline-kp.so), holds a baseline
// to its host, leaves out history nights that cannot be read when asked to, and composes
// compare_history, compare_devices or compare_kernel_history. Rendering stays with the caller.
#include <string>
#include <vector>

#include "core/input_error.hpp"
#include "reports/compare/compare.hpp"
#include "reports/compare/compare_json.hpp"
#include "reports/compare/kernel_compare.hpp"

namespace ridgeline {

struct GateRequest {
  std::vector<std::string> files;  // history nights, oldest first (the baseline), then tonight's
  std::vector<std::string> roofs;  // with kernels files: each night's results file, in order
  CompareOptions options;
  bool allow_different_hosts = false;
  // Leave out a history night after the first that cannot be read (listed in `unreadable`);
  // a baseline that cannot be read throws BaselineUnreadable.
  bool skip_unreadable_history = false;
  // A re-measure of tonight (a results file of the same sweep, run right after it): every
  // slowdown is held to it (compare/remeasure.hpp) and options.remeasured is set. Results files
  // only (an MPI job's: a re-measure of the same job).
  std::string confirm;
};

// The baseline (the first file) could not be read under skip_unreadable_history: the gate ends
// as bad input, and `unreadable` is what compare.json says of it.
class BaselineUnreadable : public InputError {
 public:
  BaselineUnreadable(const InputError& e, UnreadableFile u)
      : InputError(e), unreadable(std::move(u)) {}
  UnreadableFile unreadable;
};

struct GateResult {
  bool kernels = false;  // kernels files: `kernel_comparison`, else `comparison`
  std::string label;     // tonight, as the markdown and compare.json name it
  Comparison comparison;
  KernelsComparison kernel_comparison;
  CompareFile file;  // compare.json
  int exit_code() const { return file.regressions > 0 ? kExitFailed : kExitOk; }
};

// InputError for files that cannot be compared (another host's, nothing in common, …).
GateResult run_gate(const GateRequest& request);

}  // namespace ridgeline
