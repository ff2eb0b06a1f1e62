#pragma once
// The timed loop: every planned point once per round, through Google Benchmark. It sets each
// probe up, times its repetitions with the space's backend, verifies the output and writes the
// point's entry to the results file after every visit (an MPI job's entries on rank 0).
#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "backends/measurement.hpp"
#include "harness/mpi/job.hpp"
#include "harness/sweep/cpu_wait.hpp"
#include "harness/sweep/host_clock_samples.hpp"
#include "harness/sweep/plan.hpp"
#include "harness/sweep/progress.hpp"
#include "harness/sweep/run_options.hpp"
#include "results/results_writer.hpp"

namespace ridgeline {

// What a point gathered over its visits (one per round): written after each visit.
struct PointRecord {
  std::vector<double> samples;
  std::vector<int> sample_rounds;                        // the round of each sample
  std::vector<std::vector<TelemetryReading>> telemetry;  // per reported sample
  std::vector<CpuWait> cpu_wait;                         // per reported sample
  std::vector<double> host_clock_mhz;  // per reported sample (host spaces; NaN: not read)
  std::uint64_t hold_timeouts = 0;
  Verification verification;  // the first failed check, else ok
  std::string error;          // setup failed: the point is skipped
  nlohmann::json observed;
  int visits = 0;
  // Iterations per repetition Google Benchmark chose on the first visit: later rounds reuse it
  // instead of sizing again (which costs about min_time per visit).
  benchmark::IterationCount iterations = 0;
  bool ended = false;  // every round visited, or failed: not visited again
};

// Owns the sweep: the plan, the probe being measured, and the results file.
class Sweep {
 public:
  using Clock = std::chrono::steady_clock;

  Sweep(const RunOptions& o, const SweepProfile& profile, std::vector<PointPlan> plan,
        ResultsWriter& writer, std::uint64_t seed, Job& job, nlohmann::json context);

  const nlohmann::json& placement() const { return placement_; }

  // Google Benchmark calls this once per repetition (and while it sizes the iteration count).
  void measure(std::size_t idx, benchmark::State& state);

  // Called by GbenchCollector (Google Benchmark's reporter) with every repetition of the point
  // measured last: verify, record, release memory. Points are keyed by plan index, never by name.
  void finish_point(const std::string& name, const std::vector<double>& samples,
                    const std::string& error);

  // Google Benchmark's iteration count for the point measured last, kept for its later rounds.
  void remember_iterations(benchmark::IterationCount n);

  // Clears the in-place progress line before the summary.
  void end_progress() { progress_.clear(); }
  double elapsed_s() const;

  // Writes the points that are skipped from the start; counts the visits to come.
  void prepare(const std::set<std::string>& already_done);

  // Registers the points still to visit, in plan order for a single round, else shuffled;
  // returns how many.
  std::size_t register_round(int round);

  // Points that did not get all their rounds (a --benchmark_filter leaves some out).
  std::size_t unfinished() const;
  std::size_t setup_failures() const { return setup_failures_; }
  std::size_t registered() const { return points_; }

 private:
  // Writes a point's entry after a visit, replacing the one of the round before: in an MPI job
  // every rank's entry (with where it ran) goes to rank 0, which writes them all, and a point
  // ends on every rank when it ended on one (each rank must visit the same points in a round).
  // Returns how many ranks failed or skipped it (rank 0 only knows).
  int record(PointEntry entry, double wall_s, PointRecord& rec);

  MeasurementBackend& backend_for(const std::string& space);
  // Adds a visit's samples, telemetry and check to what the point gathered in earlier rounds.
  void record_visit(PointRecord& rec, const PointInfo& info, const std::vector<double>& samples,
                    const Verification& v, const std::string& error,
                    const nlohmann::json& observed);

  // How the point was timed, and its telemetry over the reported samples of every round so far;
  // nullopt where the space's backend never opened.
  std::optional<PointMeasurement> measurement(const PointInfo& info, const PointRecord& rec);

  void warm_up(Probe& probe) const;
  int calls_per_iteration(const std::string& probe) const;
  bool planted(const std::string& probe) const;
  bool planted_setup_failure(const std::string& probe) const;

  const RunOptions& options_;
  const SweepProfile& profile_;
  std::vector<PointPlan> plan_;
  std::vector<PointRecord> records_;  // by plan index
  ResultsWriter& writer_;
  Job& job_;
  const nlohmann::json context_;
  const nlohmann::json placement_;  // this rank's (rank_placement)
  Clock::time_point point_start_;   // after the point's barrier or turn
  std::mt19937_64 rng_;             // the point order of each round, from the recorded seed
  int round_ = 0;
  std::map<std::string, std::unique_ptr<MeasurementBackend>> backends_;
  std::vector<std::vector<TelemetryReading>> telemetry_;  // per measure() call of the active point
  std::vector<CpuWait> cpu_wait_;                         // likewise (where schedstat reads)
  std::string cpu_wait_unavailable_;                      // why it does not, if it does not
  std::vector<double> host_clock_;  // per measure() call (host spaces; NaN: the reading failed)
  std::uint64_t hold_timeouts_at_setup_ = 0;  // the backend's count when the point began
  std::size_t active_ = SIZE_MAX;             // the point whose probe is set up
  std::size_t running_ = SIZE_MAX;            // the point Google Benchmark measured last
  std::size_t done_ = 0, total_ = 0;          // visits: points × rounds
  std::size_t points_ = 0, setup_failures_ = 0;
  Clock::time_point start_;
  Progress progress_;
};

}  // namespace ridgeline
