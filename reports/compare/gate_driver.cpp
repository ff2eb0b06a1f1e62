#include "reports/compare/gate_driver.hpp"

#include <utility>

#include "reports/compare/device_compare.hpp"
#include "reports/compare/remeasure.hpp"
#include "reports/fit/analysis.hpp"
#include "reports/kernels/kernels_file.hpp"
#include "results/results_file.hpp"

namespace ridgeline {
namespace gate_driver_detail {

// The history files, oldest first, each passed to `use` (which may throw InputError for that
// file); with skip_unreadable_history, one after the baseline that throws is left out and listed
// instead, and a baseline that throws ends the gate (BaselineUnreadable).
template <typename Use>
std::vector<UnreadableFile> for_each_history_file(const GateRequest& r, Use use) {
  std::vector<UnreadableFile> unreadable;
  for (std::size_t i = 0; i + 1 < r.files.size(); ++i) {
    try {
      use(r.files[i]);
    } catch (const InputError& e) {
      if (!r.skip_unreadable_history) throw;
      if (i == 0) throw BaselineUnreadable(e, {r.files.front(), "baseline", e.what()});
      unreadable.push_back({r.files[i], "history", e.what()});
    }
  }
  return unreadable;
}

// What a baseline is tied to: the host and every device (or CPU) its spaces ran on.
std::string machine_identity(const Results& r) {
  std::string id = r.hostname;
  for (const auto& s : r.spaces) id += " | " + s.name + ": " + r.device_name(s.name);
  if (r.spaces.empty()) id += " | " + r.cpu_model;
  return id;
}

// An MPI job's nights: each device against its own history (compare/device_compare.hpp).
GateResult device_gate(const GateRequest& r, Results cur) {
  const std::string& current_path = r.files.back();
  std::vector<Results> history;
  const std::vector<UnreadableFile> unreadable = for_each_history_file(
      r, [&history](const std::string& file) { history.push_back(load_results(file)); });
  GateResult run;
  run.label = cur.hostname + " (MPI job, " + std::to_string(cur.mpi_size) + " ranks)";
  if (!r.confirm.empty()) {
    Results again = load_results(r.confirm);
    if (again.mpi_size != cur.mpi_size || again.hostname != cur.hostname)
      throw InputError(r.confirm, "mpi",
                       "is not a re-measure of " + current_path +
                           " (a re-measure of an MPI job is the same job on the same host)");
    const Comparison remeasured = compare_devices(history, std::move(again), r.options);
    run.comparison = compare_devices(std::move(history), std::move(cur), r.options);
    hold_to_remeasure(run.comparison, remeasured, r.confirm);
  } else {
    run.comparison = compare_devices(std::move(history), std::move(cur), r.options);
  }
  if (run.comparison.roofs.empty() && run.comparison.points.empty())
    throw InputError(current_path, "points", "no device in common with the baseline to compare");
  run.file = compare_file(run.label, run.comparison, r.options, unreadable);
  return run;
}

// Application kernels (kernels files of libridgeline-kp.so): each kernel against its history,
// its fraction of the night's roof from `roofs` (compare/kernel_compare.hpp).
GateResult kernel_gate(const GateRequest& r) {
  const std::string& current_path = r.files.back();
  if (!r.roofs.empty() && r.roofs.size() != r.files.size())
    throw InputError("", "--roofs",
                     "give one results file per kernels file, in their order (" +
                         std::to_string(r.files.size()) + " kernels files, " +
                         std::to_string(r.roofs.size()) + " results files)");
  const KernelsFile cur = load_kernels(current_path);
  std::vector<KernelsFile> history;
  std::vector<std::size_t> night_of;  // each history file's position in r.files (for roofs)
  std::size_t position = 0;
  const std::vector<UnreadableFile> unreadable =
      for_each_history_file(r, [&](const std::string& f) {
        const std::size_t at = position++;
        KernelsFile k = load_kernels(f);
        if (!r.allow_different_hosts && k.hostname != cur.hostname)
          throw InputError(current_path, "host.hostname",
                           "ran on '" + cur.hostname + "', the baseline " + f + " on '" +
                               k.hostname +
                               "'; baselines are per host (--allow-different-hosts to compare "
                               "anyway)");
        history.push_back(std::move(k));
        night_of.push_back(at);
      });
  std::vector<FileAnalysis> roofs;  // history nights' in order, then tonight's
  if (!r.roofs.empty()) {
    for (std::size_t i : night_of)
      roofs.push_back(
          analyze(load_results(r.roofs[i]), kBootstrapReplicates, kBootstrapSeed + 2 + i));
    roofs.push_back(
        analyze(load_results(r.roofs.back()), kBootstrapReplicates, kBootstrapSeed + 1));
  }
  std::vector<KernelNight> nights;
  for (std::size_t i = 0; i < history.size(); ++i)
    nights.push_back({&history[i], roofs.empty() ? nullptr : &roofs[i]});
  const KernelNight tonight{&cur, roofs.empty() ? nullptr : &roofs.back()};
  GateResult run;
  run.kernels = true;
  run.kernel_comparison = compare_kernel_history(nights, tonight, r.options);
  if (run.kernel_comparison.kernels.empty())
    throw InputError(current_path, "kernels", "no kernel in common with the baseline to compare");
  run.label = cur.file + " (" + cur.hostname + ")";
  run.file = kernels_compare_file(run.label, run.kernel_comparison, r.options, unreadable);
  return run;
}

GateResult results_gate(const GateRequest& r, Results cur) {
  const std::string& current_path = r.files.back();
  const std::string identity = machine_identity(cur);
  std::vector<FileAnalysis> history;
  // A host mismatch names the current file: not the history file's fault, never skipped.
  struct DifferentHost {
    InputError error;
  };
  std::vector<UnreadableFile> unreadable;
  try {
    unreadable = for_each_history_file(r, [&](const std::string& file) {
      Results base = load_results(file);
      if (base.mpi_size > 0)
        throw InputError(file, "mpi",
                         "is an MPI job's file and " + current_path +
                             " is not: a job is compared with runs of the same job");
      if (!r.allow_different_hosts && machine_identity(base) != machine_identity(cur))
        throw DifferentHost{InputError(
            current_path, "context",
            "measured on '" + machine_identity(cur) + "', the baseline " + file + " on '" +
                machine_identity(base) +
                "'; baselines are per host (--allow-different-hosts to compare anyway)")};
      // Every file its own seed: the bootstraps must be independent for their ratios to mean
      // anything.
      history.push_back(
          analyze(std::move(base), kBootstrapReplicates, kBootstrapSeed + 2 + history.size()));
    });
  } catch (const DifferentHost& d) {
    throw d.error;
  }
  const FileAnalysis fc = analyze(std::move(cur), kBootstrapReplicates, kBootstrapSeed + 1);
  // Points are gated even where no roof could be fitted (a tiny or filtered sweep); a current
  // file without a fit the baseline had fails the gate instead (MISSING).
  require_some_measured(history.back());
  std::vector<const FileAnalysis*> past;
  for (const auto& h : history) past.push_back(&h);
  GateResult run;
  run.comparison = compare_history(past, fc, r.options);
  if (run.comparison.roofs.empty() && run.comparison.points.empty())
    throw InputError(current_path, "points", "nothing in common with the baseline to compare");
  if (!r.confirm.empty()) {
    Results again = load_results(r.confirm);
    if (again.mpi_size > 0 || machine_identity(again) != identity)
      throw InputError(r.confirm, "context",
                       "is not a re-measure of " + current_path + ": measured on '" +
                           machine_identity(again) + "', tonight on '" + identity + "'");
    const FileAnalysis fa =
        analyze(std::move(again), kBootstrapReplicates, kBootstrapSeed + 2 + history.size());
    hold_to_remeasure(run.comparison, compare_history(past, fa, r.options), r.confirm);
  }
  run.label = fc.label;
  run.file = compare_file(run.label, run.comparison, r.options, unreadable);
  return run;
}

}  // namespace gate_driver_detail

GateResult run_gate(const GateRequest& request) {
  const std::string& current_path = request.files.back();
  GateRequest r = request;
  if (!r.confirm.empty()) r.options.remeasured = true;
  if (is_kernels_file(current_path)) {
    if (!r.confirm.empty())
      throw InputError("", "--confirm",
                       "goes with results files only (re-run the application to compare its "
                       "kernels again)");
    return gate_driver_detail::kernel_gate(r);
  }
  if (!r.roofs.empty())
    throw InputError("", "--roofs", "goes with kernels files (libridgeline-kp.so's) only");
  Results cur = load_results(current_path);
  if (cur.mpi_size > 0) return gate_driver_detail::device_gate(r, std::move(cur));
  return gate_driver_detail::results_gate(r, std::move(cur));
}

}  // namespace ridgeline
