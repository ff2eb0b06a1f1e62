#include "harness/sweep/runner.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>

#include "core/terminal.hpp"
#include "harness/compat/kokkos_compat.hpp"
#include "harness/context/context.hpp"
#include "reports/fit/analysis.hpp"
#include "backends/measurement.hpp"
#include "harness/mpi/placement.hpp"
#include "reports/render/console_summary.hpp"
#include "core/units.hpp"
#include "results/device_split.hpp"
#include "core/file_lock.hpp"
#include "core/input_error.hpp"
#include "harness/sweep/benchmark_compat.hpp"
#include "harness/sweep/cpu_wait.hpp"
#include "results/results_writer.hpp"

namespace ridgeline {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// "I=0.0833, 2.21 GFLOP/s, 26.4 GB/s, ±1.2 %": what the point measured, three digits each.
std::string rate_text(const nlohmann::json& p, const std::vector<double>& samples) {
  std::vector<std::string> parts;
  if (p["intensity"].is_number()) parts.push_back("I=" + format_sig(p["intensity"].get<double>()));
  if (p["flops_per_s"].is_number() && p["flops_per_s"].get<double>() > 0)
    parts.push_back(format_flops(p["flops_per_s"].get<double>()));
  // The peak probe stores one value per work item: its byte/s says nothing.
  if (p["bytes_per_s"].is_number() && p["bytes_per_s"].get<double>() > 0 && p["family"] != "peak")
    parts.push_back(format_bytes_per_s(p["bytes_per_s"].get<double>()));
  if (samples.size() > 1) {
    double mean = 0, var = 0;
    for (double x : samples) mean += x / double(samples.size());
    for (double x : samples) var += (x - mean) * (x - mean) / double(samples.size() - 1);
    if (mean > 0) parts.push_back(fmt::format("±{:.1f} %", 100 * std::sqrt(var) / mean));
  }
  std::string s;
  for (const auto& part : parts) s += (s.empty() ? "" : ", ") + part;
  return s;
}

int terminal_columns(int fd) {
  winsize w{};
  return ioctl(fd, TIOCGWINSZ, &w) == 0 && w.ws_col > 0 ? w.ws_col : 100;
}

// Progress on stderr: one line per point in logs and pipes; on a terminal one line that updates
// in place, with failed and skipped points kept above it.
class Progress {
 public:
  explicit Progress(bool in_place)
      : in_place_(in_place && isatty(STDERR_FILENO)), color_(color_enabled(STDERR_FILENO)) {}
  ~Progress() { clear(); }
  Progress(const Progress&) = delete;  // owns the terminal line
  Progress& operator=(const Progress&) = delete;

  bool color() const { return color_; }
  // `text` is "name: status". Logs get one line per point with the times at the end; the
  // terminal line starts with the time left, so a narrow terminal cuts the status, not the ETA.
  void line(std::size_t done, std::size_t total, const std::string& text, double elapsed,
            double left, bool keep) {
    if (!in_place_) {
      std::cerr << fmt::format("[{}/{}] {} ({:.0f} s elapsed, ~{:.0f} s left)\n", done, total, text,
                               elapsed, left);
      return;
    }
    const std::string full = fmt::format("[{}/{}, ~{:.0f} s left] {}", done, total, left, text);
    // A line wider than the terminal wraps, and \r would rewrite only its last row.
    const std::size_t width = std::size_t(std::max(20, terminal_columns(STDERR_FILENO) - 1));
    std::cerr << "\r\033[K" << (keep || full.size() <= width ? full : full.substr(0, width))
              << (keep ? "\n" : "") << std::flush;
    pending_ = !keep;
  }
  void clear() {
    if (pending_) std::cerr << "\r\033[K" << std::flush;
    pending_ = false;
  }

 private:
  bool in_place_, color_;
  bool pending_ = false;
};

// What a point gathered over its visits (one per round): written after each visit.
struct PointRecord {
  std::vector<double> samples;
  std::vector<int> sample_rounds;                        // the round of each sample
  std::vector<std::vector<TelemetryReading>> telemetry;  // per reported sample
  std::vector<CpuWait> cpu_wait;                         // per reported sample
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

// Fisher–Yates with the engine's raw output (std::shuffle's result differs between standard
// libraries): a recorded seed gives the same order everywhere.
void shuffle_in_place(std::vector<std::size_t>& v, std::mt19937_64& rng) {
  for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[rng() % i]);
}

// Owns the sweep: the plan, the probe being measured, and the results file.
class Sweep {
 public:
  Sweep(const RunOptions& o, const SweepProfile& profile, std::vector<PointPlan> plan,
        ResultsWriter& writer, std::uint64_t seed, Job& job, nlohmann::json context)
      : options_(o),
        profile_(profile),
        plan_(std::move(plan)),
        records_(plan_.size()),
        writer_(writer),
        job_(job),
        context_(std::move(context)),
        placement_(rank_placement(job, context_)),
        rng_(seed),
        progress_(!o.verbose) {}

  const nlohmann::json& placement() const { return placement_; }

  // Google Benchmark calls this once per repetition (and while it sizes the iteration count).
  void measure(std::size_t idx, benchmark::State& state) {
    PointPlan& point = plan_[idx];
    running_ = idx;
    // A failed setup released the probe; Google Benchmark still runs the other repetitions.
    if (!point.probe) {
      state.SkipWithError(point.skipped_reason.c_str());
      return;
    }
    if (active_ != idx) {
      // The first call for a point, on every rank: isolated ranks take turns, concurrent ones
      // start the point's repetitions together.
      if (options_.mpi_mode == MpiMode::isolated) job_.wait_turn();
      std::string failure;
      try {
        hold_timeouts_at_setup_ = backend_for(point.info.space).hold_timeouts();
        point.probe->setup();
        if (planted_setup_failure(point.info.probe))
          throw std::runtime_error("planted by --test-fail-setup");
        telemetry_.clear();
        cpu_wait_.clear();
        warm_up(*point.probe);
      } catch (const std::exception& e) {
        failure = fmt::format("setup failed: {}", e.what());
      }
      if (options_.mpi_mode == MpiMode::concurrent) job_.barrier();
      point_start_ = Clock::now();
      if (!failure.empty()) {
        point.skipped_reason = failure;
        state.SkipWithError(point.skipped_reason.c_str());
        point.probe.reset();
        return;
      }
      active_ = idx;
    }
    Probe& probe = *point.probe;
    const int calls = calls_per_iteration(point.info.probe);
    // Timer, cache flush and telemetry come from the space's backend (backends/measurement.hpp).
    MeasurementBackend& backend = backend_for(point.info.space);
    const bool cold = wants_cold_cache(point.info.family);
    std::vector<TelemetryReading> readings;
    Clock::time_point last_reading{};
    Kokkos::Profiling::pushRegion("ridgeline::" + point.info.name);
    // Read outside the timed calls (tens of µs per read): the repetition's wait for a CPU.
    const std::optional<ThreadTimes> times_before = read_thread_times(&cpu_wait_unavailable_);
    const Clock::time_point wall_before = Clock::now();
    for (auto _ : state) {
      probe.fence();                    // nothing earlier may leak into the timed region
      if (cold) backend.flush_cache();  // ordered before the timer's start, not timed
      backend.timer().start();
      for (int c = 0; c < calls; ++c) probe.run();
      // The device may still be working while `stop` waits: telemetry read then (at most every
      // 10 ms; an NVML query takes tens of µs) sees the clocks and limits under load.
      state.SetIterationTime(backend.timer().stop([&] {
        if (Clock::now() - last_reading > std::chrono::milliseconds(10)) {
          if (auto r = backend.read_telemetry()) readings.push_back(*r);
          last_reading = Clock::now();
        }
        probe.fence();
      }));
    }
    Kokkos::Profiling::popRegion();
    // One entry per call of measure(); the last ones belong to the reported repetitions.
    telemetry_.push_back(std::move(readings));
    if (times_before)
      if (const auto times_after = read_thread_times(&cpu_wait_unavailable_))
        cpu_wait_.push_back(
            cpu_wait_between(*times_before, *times_after, seconds_since(wall_before)));
    state.counters["FLOP/s"] =
        benchmark::Counter(point.info.flops, benchmark::Counter::kIsIterationInvariantRate);
    state.counters["B/s"] =
        benchmark::Counter(point.info.bytes, benchmark::Counter::kIsIterationInvariantRate);
  }

  // Called by the reporter with every repetition of the point measured last: verify, record,
  // release memory. Points are keyed by plan index, never by name.
  void finish_point(const std::string& name, const std::vector<double>& samples,
                    const std::string& error) {
    if (running_ == SIZE_MAX || plan_[running_].info.name != name)
      throw std::logic_error("results for '" + name + "' arrived, but '" +
                             (running_ == SIZE_MAX ? "no point" : plan_[running_].info.name) +
                             "' was measured");
    PointPlan& point = plan_[running_];
    PointRecord& rec = records_[running_];
    running_ = SIZE_MAX;
    if (!error.empty()) ++setup_failures_;  // our SkipWithError: the probe could not be set up
    Verification v;
    nlohmann::json observed;
    if (error.empty() && point.probe) {
      if (planted(point.info.probe)) point.probe->corrupt_output_for_test();
      point.probe->fence();
      v = point.probe->verify();
      observed = point.probe->observed();
      if (const nlohmann::json chosen = point.probe->setup_params(); chosen.is_object())
        point.info.params.update(chosen);
    }
    record_visit(rec, point.info, samples, v, error, observed);
    auto entry = point_json(point.info, rec.error.empty() ? rec.samples : std::vector<double>{},
                            rec.verification, rec.error, measurement_json(point.info, rec));
    entry["observed"] = rec.observed;
    entry["sample_rounds"] = rec.error.empty() ? rec.sample_rounds : std::vector<int>{};
    // A planted slowdown is part of what the file measured: it says so.
    if (const int calls = calls_per_iteration(point.info.probe); calls != 1)
      entry["params"]["test_slowdown"] = calls;
    telemetry_.clear();
    cpu_wait_.clear();
    if (options_.mpi_mode == MpiMode::isolated) job_.pass_turn();
    const std::string rates = rate_text(entry, samples);
    // Replaces the point's entry of the round before; in a job, every rank's.
    const int ranks_failed = record(std::move(entry), seconds_since(point_start_), rec);
    // Memory is held by one point at a time; an ended point is not visited again.
    if (rec.ended)
      point.probe.reset();
    else if (point.probe)
      point.probe->release();
    active_ = SIZE_MAX;
    ++done_;
    if (!options_.quiet) {
      const double elapsed = seconds_since(start_);
      const double left = elapsed / double(done_) * double(total_ - done_);
      const bool c = progress_.color();
      std::string status = !error.empty() ? paint_warn("SKIPPED", c) + ": " + error
                           : v.ok         ? rates + ", verified"
                                          : paint_bad("VERIFICATION FAILED", c) + ": " + v.error;
      if (job_.size() > 1)
        status += ranks_failed ? ", " + paint_bad(fmt::format("{} of {} ranks failed or skipped",
                                                              ranks_failed, job_.size()),
                                                  c)
                               : fmt::format(" (rank 0 of {}; every rank verified)", job_.size());
      const std::string round =
          profile_.rounds > 1 ? fmt::format("round {}/{}: ", round_ + 1, profile_.rounds) : "";
      progress_.line(done_, total_, round + name + ": " + status, elapsed, left,
                     !error.empty() || !v.ok || ranks_failed);
    }
  }

  // Google Benchmark's iteration count for the point measured last, kept for its later rounds.
  void remember_iterations(benchmark::IterationCount n) {
    if (running_ != SIZE_MAX && records_[running_].iterations == 0)
      records_[running_].iterations = n;
  }

  // Clears the in-place progress line before the summary.
  void end_progress() { progress_.clear(); }
  double elapsed_s() const { return seconds_since(start_); }

  // Writes the points that are skipped from the start; counts the visits to come.
  void prepare(const std::set<std::string>& already_done) {
    for (std::size_t i = 0; i < plan_.size(); ++i) {
      PointPlan& p = plan_[i];
      if (already_done.count(p.info.name)) {
        records_[i].ended = true;
        continue;
      }
      if (!p.probe) {
        records_[i].ended = true;
        record(point_json(p.info, {}, {}, p.skipped_reason), 0, records_[i]);
        continue;
      }
      ++points_;
    }
    total_ = points_ * std::size_t(profile_.rounds);
    start_ = Clock::now();
  }

  // Registers the points still to visit, in plan order for a single round, else shuffled;
  // returns how many.
  std::size_t register_round(int round) {
    round_ = round;
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < plan_.size(); ++i)
      if (!records_[i].ended) order.push_back(i);
    if (profile_.rounds > 1) shuffle_in_place(order, rng_);
    for (std::size_t i : order) {
      PointPlan& p = plan_[i];
      auto* b = benchmark::RegisterBenchmark(p.info.name.c_str(),
                                             [this, i](benchmark::State& st) { measure(i, st); });
      if (records_[i].iterations > 0) b->Iterations(records_[i].iterations);
      b->UseManualTime()
          ->Unit(benchmark::kMillisecond)
          ->ComputeStatistics(
              "min",
              [](const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); })
          ->ComputeStatistics("max", [](const std::vector<double>& v) {
            return *std::max_element(v.begin(), v.end());
          });
    }
    return order.size();
  }

  // Points that did not get all their rounds (a --benchmark_filter leaves some out).
  std::size_t unfinished() const {
    return std::size_t(std::count_if(records_.begin(), records_.end(),
                                     [](const PointRecord& r) { return !r.ended; }));
  }
  std::size_t setup_failures() const { return setup_failures_; }
  std::size_t registered() const { return points_; }

 private:
  // Writes a point's entry after a visit, replacing the one of the round before: in an MPI job
  // every rank's entry (with where it ran) goes to rank 0, which writes them all, and a point
  // ends on every rank when it ended on one (each rank must visit the same points in a round).
  // Returns how many ranks failed or skipped it (rank 0 only knows).
  int record(nlohmann::json entry, double wall_s, PointRecord& rec) {
    if (job_.uses_mpi()) {
      entry["rank"] = job_.rank();
      entry["placement"] = point_placement(placement_, context_, entry["space"].get<std::string>());
      entry["mpi_wall_s"] = wall_s;  // from the point's barrier (or turn) to its last repetition
    }
    if (job_.size() == 1) {
      writer_.put(std::move(entry));
      return 0;
    }
    const std::vector<std::string> all = job_.gather((rec.ended ? "E" : "-") + entry.dump());
    int failed = 0;
    bool ended = rec.ended;
    if (job_.rank() == 0) {
      std::vector<nlohmann::json> entries;
      for (const std::string& text : all) {
        ended = ended || text[0] == 'E';
        entries.push_back(nlohmann::json::parse(text.substr(1)));
        const auto& e = entries.back();
        if (!e["skipped_reason"].is_null() || !e["verified"].get<bool>()) ++failed;
      }
      writer_.put_all(std::move(entries));
    } else {
      writer_.put(std::move(entry));  // kept here for this rank's exit status only
    }
    if (job_.broadcast(ended ? "E" : "-") == "E" && !rec.ended) {
      rec.ended = true;
      total_ -= std::size_t(profile_.rounds - rec.visits);  // rounds it will skip
    }
    return failed;
  }

  MeasurementBackend& backend_for(const std::string& space) {
    auto& b = backends_[space];
    if (!b) b = open_measurement_backend(space);
    return *b;
  }
  // Adds a visit's samples, telemetry and check to what the point gathered in earlier rounds.
  void record_visit(PointRecord& rec, const PointInfo& info, const std::vector<double>& samples,
                    const Verification& v, const std::string& error,
                    const nlohmann::json& observed) {
    ++rec.visits;
    if (!error.empty()) rec.error = error;
    if (rec.verification.ok && !v.ok) rec.verification = v;
    if (!observed.is_null()) rec.observed = observed;
    if (error.empty()) {
      rec.samples.insert(rec.samples.end(), samples.begin(), samples.end());
      rec.sample_rounds.insert(rec.sample_rounds.end(), samples.size(), round_);
      // The last entries of telemetry_ belong to the reported repetitions.
      const std::size_t n = std::min(samples.size(), telemetry_.size());
      rec.telemetry.insert(rec.telemetry.end(), telemetry_.end() - static_cast<std::ptrdiff_t>(n),
                           telemetry_.end());
      // Reads that failed leave fewer entries: then the point has none (all or nothing).
      if (cpu_wait_.size() >= samples.size() &&
          rec.cpu_wait.size() + samples.size() == rec.samples.size())
        rec.cpu_wait.insert(rec.cpu_wait.end(),
                            cpu_wait_.end() - static_cast<std::ptrdiff_t>(samples.size()),
                            cpu_wait_.end());
      else
        rec.cpu_wait.clear();
      const auto it = backends_.find(info.space);
      if (it != backends_.end())
        rec.hold_timeouts += it->second->hold_timeouts() - hold_timeouts_at_setup_;
    }
    rec.ended = !rec.error.empty() || !rec.verification.ok || rec.visits >= profile_.rounds;
    if (rec.ended) total_ -= std::size_t(profile_.rounds - rec.visits);  // rounds it will skip
  }

  // How the point was timed, and its telemetry over the reported samples of every round so far
  // (null where none).
  nlohmann::json measurement_json(const PointInfo& info, const PointRecord& rec) {
    const auto it = backends_.find(info.space);
    if (it == backends_.end()) return nullptr;
    const MeasurementBackend& b = *it->second;
    const bool cold = wants_cold_cache(info.family);
    nlohmann::json m = {
        {"timer", b.timer_name()},
        {"stream_hold", b.holds_stream()},
        {"hold_timeouts", rec.hold_timeouts},
        {"l2_flush_bytes", cold ? b.flush_bytes() : 0},
        {"l2_flush", cold ? b.flush_method() : "none"},
        {"telemetry", summarize_telemetry(rec.telemetry, b.reference_sm_clock_mhz())}};
    if (m["telemetry"].is_null() && !b.telemetry_unavailable().empty())
      m["telemetry_unavailable"] = b.telemetry_unavailable();
    m["cpu_wait"] = rec.cpu_wait.size() == rec.samples.size() ? summarize_cpu_wait(rec.cpu_wait)
                                                              : nlohmann::json(nullptr);
    if (m["cpu_wait"].is_null() && !cpu_wait_unavailable_.empty())
      m["cpu_wait_unavailable"] = cpu_wait_unavailable_;
    return m;
  }

  void warm_up(Probe& probe) const {
    const auto t0 = Clock::now();
    do {
      probe.run();
      probe.fence();
    } while (seconds_since(t0) < profile_.warmup_s);
  }
  int calls_per_iteration(const std::string& probe) const {
    if (options_.slow_rank >= 0 && options_.slow_rank != job_.rank()) return 1;
    const auto it = options_.slowdown.find(probe);
    return it == options_.slowdown.end() ? 1 : it->second;
  }
  bool planted(const std::string& probe) const {
    return std::find(options_.plant_error.begin(), options_.plant_error.end(), probe) !=
           options_.plant_error.end();
  }
  bool planted_setup_failure(const std::string& probe) const {
    return std::find(options_.fail_setup.begin(), options_.fail_setup.end(), probe) !=
           options_.fail_setup.end();
  }

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
  std::uint64_t hold_timeouts_at_setup_ = 0;  // the backend's count when the point began
  std::size_t active_ = SIZE_MAX;             // the point whose probe is set up
  std::size_t running_ = SIZE_MAX;            // the point Google Benchmark measured last
  std::size_t done_ = 0, total_ = 0;          // visits: points × rounds
  std::size_t points_ = 0, setup_failures_ = 0;
  Clock::time_point start_;
  Progress progress_;
};

// Collects every repetition for the results file; shows Google Benchmark's table with --verbose.
class SweepReporter final : public benchmark::ConsoleReporter {
 public:
  SweepReporter(Sweep& sweep, bool show_table, bool aggregates_only)
      : benchmark::ConsoleReporter(isatty(STDOUT_FILENO) ? OO_Defaults : OO_None),
        sweep_(sweep),
        show_table_(show_table),
        aggregates_only_(aggregates_only) {}

  bool ReportContext(const Context& context) override {
    if (!show_table_) return true;
    // Debian's libbenchmark is built without NDEBUG, so its context warns "Library was built as
    // DEBUG". The warning is about the library's own loop, which manual time leaves untimed.
    std::ostringstream err;
    std::ostream& real_err = GetErrorStream();
    SetErrorStream(&err);
    const bool ok = benchmark::ConsoleReporter::ReportContext(context);
    SetErrorStream(&real_err);
    real_err << err.str();
    if (err.str().find("DEBUG") != std::string::npos)
      real_err << "(ridgeline: this concerns libbenchmark itself, built without NDEBUG; ridgeline "
                  "times each iteration with its own fenced timer (manual time), so the "
                  "library's checks are outside the timed region)\n";
    return ok;
  }

  void ReportRuns(const std::vector<Run>& runs) override {
    if (show_table_) {
      std::vector<Run> shown;
      for (const Run& r : runs)
        if (!aggregates_only_ || r.run_type == Run::RT_Aggregate) shown.push_back(r);
      benchmark::ConsoleReporter::ReportRuns(shown);
    }
    std::map<std::string, std::vector<double>> samples;
    std::map<std::string, std::string> errors;
    std::map<std::string, benchmark::IterationCount> iterations;
    std::vector<std::string> order;
    for (const Run& r : runs) {
      if (r.run_type != Run::RT_Iteration) continue;
      const std::string name = r.run_name.function_name;
      if (!samples.count(name)) order.push_back(name);
      auto& s = samples[name];
      const std::string error = compat::run_error(r);
      if (!error.empty())
        errors[name] = error;
      else if (r.iterations > 0) {
        s.push_back(r.real_accumulated_time / double(r.iterations));
        iterations[name] = r.iterations;
      }
    }
    for (const auto& name : order) {
      sweep_.remember_iterations(iterations[name]);
      sweep_.finish_point(name, samples[name], errors[name]);
    }
  }

 private:
  Sweep& sweep_;
  bool show_table_, aggregates_only_;
};

// The end of a run: counts and time on stderr, then P, B, B_read and I* per space × dtype on
// stdout, from the file just written (the same fit `report` makes).
void print_summary(const RunOptions& o, double seconds) {
  Results results = load_results(o.out);
  int verified = 0, failed = 0, skipped = 0;
  for (const Point& p : results.points)
    (p.measured() ? (p.verified ? verified : failed) : skipped) += 1;
  const bool c = color_enabled(STDERR_FILENO);
  std::cerr << fmt::format("ridgeline: {} points in {:.0f} s: {} verified, {}{} skipped -> {}\n",
                           results.points.size(), seconds, verified,
                           failed ? paint_bad(fmt::format("{} FAILED", failed), c) + ", " : "",
                           skipped, o.out);
  // An MPI job's file holds every rank's points: one summary per device, each headed by it.
  std::vector<Results> devices = split_by_device(std::move(results));
  for (Results& d : devices) {
    if (!d.device_label.empty()) std::cout << d.device_label << ":\n";
    std::cout << console_summary(analyze(std::move(d))) << std::flush;
  }
}

void print_summary_or_why_not(const RunOptions& o, double seconds) {
  try {
    print_summary(o, seconds);
  } catch (const std::exception& e) {  // the run's own outcome stands; only the summary is lost
    std::cerr << "ridgeline: note: no summary: " << e.what() << "\n";
  }
}

}  // namespace

namespace {

// Every rank must register the same points in the same order (each point is one collective);
// ranks whose devices differ (memory sizes, dtypes) would plan differently. Throws on every rank.
void require_same_plan(Job& job, const std::vector<PointPlan>& plan) {
  if (job.size() == 1) return;
  std::string mine;
  for (const PointPlan& p : plan) mine += p.info.name + (p.probe ? "\n" : " (skipped)\n");
  std::string verdict;
  if (job.rank() == 0) {
    const std::vector<std::string> all = job.gather(mine);
    for (std::size_t r = 1; r < all.size() && verdict.empty(); ++r)
      if (all[r] != mine)
        verdict = fmt::format(
            "rank {} planned other points than rank 0 ({} vs {} lines): every rank must have "
            "the same kind of device and memory; run such devices in separate jobs",
            r, std::count(all[r].begin(), all[r].end(), '\n'),
            std::count(mine.begin(), mine.end(), '\n'));
  } else {
    job.gather(mine);
  }
  verdict = job.broadcast(verdict);
  if (!verdict.empty()) throw InputError("", "mpirun", verdict);
}

std::set<std::string> split_lines(const std::string& text) {
  std::set<std::string> out;
  std::size_t start = 0;
  while (start < text.size()) {
    const auto end = text.find('\n', start);
    out.insert(text.substr(start, end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

}  // namespace

int run_sweep(const RunOptions& options, Job& job) {
  // Rank 0 speaks for the job: the other ranks show neither progress nor tables.
  RunOptions o = options;
  if (job.rank() != 0) {
    o.quiet = true;
    o.verbose = false;
  }
  SweepProfile profile = load_sweep_profile(o.profile);
  if (o.rounds) {
    if (profile.repetitions % o.rounds)
      throw InputError("", "--rounds",
                       fmt::format("{} does not divide the profile's repetitions ({})", o.rounds,
                                   profile.repetitions));
    profile.rounds = o.rounds;  // recorded in the file's profile, so --resume must match it
  }
  // A seed for the rounds' point orders, recorded so an order can be replayed; null with one
  // round (plan order). Every rank of a job shuffles with rank 0's.
  std::uint64_t seed =
      o.seed ? *o.seed : (std::uint64_t(std::random_device{}()) << 32) ^ std::random_device{}();
  seed = std::stoull(job.broadcast(std::to_string(seed)));
  nlohmann::json context = run_context(o.benchmark_args);
  context["run"]["seed"] = profile.rounds > 1 ? nlohmann::json(seed) : nlohmann::json(nullptr);
  std::vector<PointPlan> plan = build_plan(profile, context, o.filter);
  if (plan.empty()) throw empty_plan_error(profile, o.filter);
  require_same_plan(job, plan);

  // Our settings first, so a user's --benchmark_* flags override them.
  std::vector<std::string> args = {
      "ridgeline", fmt::format("--benchmark_repetitions={}", profile.repetitions / profile.rounds),
      compat::min_time_flag(profile.min_time_s)};
  args.insert(args.end(), o.benchmark_args.begin(), o.benchmark_args.end());
  args.push_back("--benchmark_display_aggregates_only=false");
  args.push_back("--benchmark_report_aggregates_only=false");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  int argc = static_cast<int>(argv.size());
  benchmark::Initialize(&argc, argv.data());
  if (argc > 1) throw InputError("", argv[1], "not a Google Benchmark flag this version knows");
  benchmark::AddCustomContext("ridgeline",
                              context["ridgeline"]["version"].get<std::string>() + " (" +
                                  context["ridgeline"]["git_revision"].get<std::string>() + ")");
  benchmark::AddCustomContext("kokkos", context["kokkos"]["version"].get<std::string>());
  benchmark::AddCustomContext("profile", profile.name);

  // Listing the points measures nothing, so it neither takes nor touches the results file.
  // In an MPI job rank 0 alone holds and writes the file.
  const bool writes = !o.list_only && job.rank() == 0;
  std::optional<FileLock> lock;
  if (writes) lock.emplace(o.out);
  ResultsWriter writer(writes ? o.out : "", profile.to_json(), context);
  Sweep sweep(o, profile, std::move(plan), writer, seed, job, context);
  if (job.uses_mpi()) {
    nlohmann::json ranks = nlohmann::json::array();
    for (const std::string& text : job.gather(sweep.placement().dump()))
      ranks.push_back(nlohmann::json::parse(text));
    writer.set_mpi({{"size", job.size()},
                    {"mode", mpi_mode_name(o.mpi_mode)},
                    {"library", Job::library_version()},
                    {"launcher", job.launcher()},
                    {"ranks", ranks}});
  }
  // A point is done when every rank has it verified; rank 0 reads the file and tells the rest.
  std::set<std::string> done;
  if (o.resume && writes && access(o.out.c_str(), F_OK) == 0)
    done = writer.resume_from(o.out, job.size());
  if (job.size() > 1) {
    std::string names;
    for (const auto& n : done) names += n + "\n";
    done = split_lines(job.broadcast(names));
  }
  sweep.prepare(done);
  SweepReporter reporter(sweep, o.verbose && !o.quiet, o.display_aggregates_only);
  // Nothing left (a resume of a finished file): Google Benchmark would only say its filter
  // matched nothing.
  if (sweep.registered() == 0 && !o.list_only) {
    if (!o.quiet) std::cerr << "ridgeline: " << o.out << ": every planned point is already there\n";
  } else {
    // One pass of Google Benchmark per round; listing the points needs one.
    const int rounds = o.list_only ? 1 : profile.rounds;
    for (int r = 0; r < rounds; ++r) {
      if (sweep.register_round(r) == 0) break;
      benchmark::RunSpecifiedBenchmarks(&reporter);
      benchmark::ClearRegisteredBenchmarks();
    }
  }
  benchmark::ClearRegisteredBenchmarks();
  benchmark::Shutdown();
  sweep.end_progress();
  if (o.list_only) return kExitOk;
  // Complete only when every planned point is in the file (a --benchmark_filter ran fewer).
  const std::size_t unfinished = sweep.unfinished();
  writer.finish(unfinished == 0);
  if (unfinished)
    std::cerr << fmt::format(
        "ridgeline: warning: {}: {} point(s) were not run (--benchmark_filter?); the file is "
        "marked incomplete, --resume runs them\n",
        o.out, unfinished);

  if (!o.quiet) print_summary_or_why_not(o, sweep.elapsed_s());

  const int failed = writer.failed_points();
  const std::size_t setup_failed = sweep.setup_failures();
  if (failed || setup_failed) {
    std::cerr << fmt::format("ridgeline: error: {}: {}\n", o.out,
                             failed && setup_failed
                                 ? fmt::format("{} point(s) failed verification, {} could not be "
                                               "set up",
                                               failed, setup_failed)
                             : failed ? fmt::format("{} point(s) failed verification", failed)
                                      : fmt::format("{} point(s) could not be set up (see "
                                                    "skipped_reason)",
                                                    setup_failed));
    return kExitFailed;
  }
  return kExitOk;
}

}  // namespace ridgeline
