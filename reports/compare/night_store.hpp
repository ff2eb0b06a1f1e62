#pragma once
// The nightly store of baselines and the night's verdict (`ridgeline gate`; scripts/nightly runs
// the harness and calls it). Per host/device key, in the store's folder:
//   <key>.json            the promoted baseline (the first verified night, or --update-baseline)
//   <key>.history/*.json  the verified nights since it that showed no regression, named
//                         <UTC stamp>_<night folder>.json so that their names sort by time
// Tonight is compared with the baseline and the newest nights of the history (`nights` in all).
// A file that cannot be read never fails the night: it is kept aside as <file>.corrupt-<date>
// (a baseline is replaced by tonight's results if they verified; a history night is left out
// and the comparison runs again without it).
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "reports/compare/compare_json.hpp"
#include "reports/compare/gate_driver.hpp"

namespace ridgeline {

class NightStore {
 public:
  NightStore(std::filesystem::path dir, std::string key);
  const std::string& key() const { return key_; }
  std::filesystem::path baseline() const;     // <dir>/<key>.json
  std::filesystem::path history_dir() const;  // <dir>/<key>.history
  // Whether there is a baseline. A directory (device, FIFO) at its path would read as "no
  // baseline" every night, forever: InputError instead.
  bool has_baseline() const;
  // The files tonight is judged against, oldest first: the baseline, then the newest history
  // nights, `nights` files in all (nights >= 1).
  std::vector<std::string> window(int nights) const;
  // The nights a run confirms its DRAM plateau from (`ridgeline run --plateau-from`, in this
  // order): the baseline, then every history night, newest first; empty without a baseline.
  std::vector<std::string> plateau_sources() const;
  // Moves `file` aside as <file>.corrupt-<date> (or .corrupt-<date>.N when that is taken);
  // returns where it went.
  std::filesystem::path quarantine(const std::filesystem::path& file,
                                   const std::string& date) const;
  // Tonight's results become the baseline (atomically); the history starts again.
  void promote(const std::filesystem::path& results) const;
  // Tonight joins the history as <name>.json; the oldest leave, so that the baseline and the
  // history hold `nights` files.
  std::filesystem::path add_night(const std::filesystem::path& results, const std::string& name,
                                  int nights) const;

 private:
  std::filesystem::path dir_;
  std::string key_;
};

struct NightRequest {
  std::string results;       // tonight's results file
  bool run_verified = true;  // `ridgeline run` exited 0 (1: a point failed verification/setup)
  int nights = 7;            // the baseline and the history nights compared against
  bool update_baseline = false;
  CompareOptions options;
  std::string date;        // today (UTC, YYYY-MM-DD): the suffix of files kept aside
  std::string night_name;  // the name tonight gets in the history (without .json)
  // The caller re-measures a night the gate found slower: where SLOWER metrics are its only
  // regressions (no FAILED or MISSING, the run verified), the night is not decided yet
  // (kExitRemeasure, the store unchanged) until the caller comes back with `confirm`, the
  // re-measures' results files in the order they were measured, to which every slowdown is then
  // held (compare/remeasure.hpp). With both, the slowdowns every given re-measure reproduced are
  // still undecided (kExitRemeasure again: the caller may re-measure once more); without
  // confirm_pending the night is decided.
  bool confirm_pending = false;
  std::vector<std::string> confirm;
};

// The exit status of a night left undecided for its re-measure (NightRequest::confirm_pending).
inline constexpr int kExitRemeasure = 4;

struct NightOutcome {
  std::string verdict;               // the headline: "no regression", "REGRESSION", ...
  std::vector<std::string> details;  // markdown lines, one per finding
  int status = 0;  // the exit status: 0, 1 (a regression, a failed run), 2, 4 (re-measure)
  std::optional<GateResult> run;    // the comparison, when one ran to a verdict
  std::optional<CompareFile> file;  // compare.json (also an unreadable baseline's)
};

// Judges tonight against the store and updates it (promotion, history, rotation, quarantine);
// `log` gets one line per step taken, for the CI log. InputError only where the store itself is
// unusable (a baseline path that is not a regular file) or a file cannot be written.
NightOutcome run_night(const NightStore& store, const NightRequest& request, std::ostream& log);

// The verdict and details compare.json gives a night that was compared (exit 0 or 1): what got
// slower, failed or went missing, how many slowdowns a busy machine explains, the shared levels.
void judge_compared_night(const CompareFile& f, NightOutcome& out);

// Text from the machine or from error messages, made safe for a markdown code span: one line,
// no backticks, no HTML brackets.
std::string night_text(const std::string& text);

}  // namespace ridgeline
