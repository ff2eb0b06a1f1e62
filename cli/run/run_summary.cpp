#include "cli/run/run_summary.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <exception>
#include <iostream>
#include <vector>

#include "core/terminal.hpp"
#include "reports/fit/analysis.hpp"
#include "reports/render/console_summary.hpp"
#include "results/device_split.hpp"
#include "results/results_model.hpp"

namespace ridgeline {
namespace {

// The end of a run: counts and time on stderr, then P, B, B_read and I* per space × dtype on
// stdout, from the file just written (the same fit `report` makes).
void print_summary(const SweepOutcome& outcome) {
  Results results = load_results(outcome.results_path);
  int verified = 0, failed = 0, skipped = 0;
  for (const Point& p : results.points)
    (p.measured() ? (p.verified ? verified : failed) : skipped) += 1;
  const bool c = color_enabled(STDERR_FILENO);
  std::cerr << fmt::format("ridgeline: {} points in {:.0f} s: {} verified, {}{} skipped -> {}\n",
                           results.points.size(), outcome.seconds, verified,
                           failed ? paint_bad(fmt::format("{} FAILED", failed), c) + ", " : "",
                           skipped, outcome.results_path);
  // An MPI job's file holds every rank's points: one summary per device, each headed by it.
  std::vector<Results> devices = split_by_device(std::move(results));
  for (Results& d : devices) {
    if (!d.device_label.empty()) std::cout << d.device_label << ":\n";
    std::cout << console_summary(analyze(std::move(d))) << std::flush;
  }
}

void print_summary_or_why_not(const SweepOutcome& outcome) {
  try {
    print_summary(outcome);
  } catch (const std::exception& e) {  // the run's own outcome stands; only the summary is lost
    std::cerr << "ridgeline: note: no summary: " << e.what() << "\n";
  }
}

}  // namespace

void print_run_outcome(const SweepOutcome& outcome) {
  if (outcome.listed_only) return;
  const std::string& out = outcome.results_path;
  if (outcome.unfinished_points)
    std::cerr << fmt::format(
        "ridgeline: warning: {}: {} point(s) were not run (--benchmark_filter?); the file is "
        "marked incomplete, --resume runs them\n",
        out, outcome.unfinished_points);

  if (outcome.show_summary) print_summary_or_why_not(outcome);

  const int failed = outcome.failed_points;
  const std::size_t setup_failed = outcome.setup_failed_points;
  if (failed || setup_failed)
    std::cerr << fmt::format("ridgeline: error: {}: {}\n", out,
                             failed && setup_failed
                                 ? fmt::format("{} point(s) failed verification, {} could not be "
                                               "set up",
                                               failed, setup_failed)
                             : failed ? fmt::format("{} point(s) failed verification", failed)
                                      : fmt::format("{} point(s) could not be set up (see "
                                                    "skipped_reason)",
                                                    setup_failed));
}

}  // namespace ridgeline
