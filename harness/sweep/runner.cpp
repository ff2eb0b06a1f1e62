#include "sweep/runner.hpp"

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

#include "cli/terminal.hpp"
#include "compat/kokkos_compat.hpp"
#include "context/context.hpp"
#include "fit/analysis.hpp"
#include "measurement.hpp"
#include "render/console_summary.hpp"
#include "render/units.hpp"
#include "results/file_lock.hpp"
#include "results/input_error.hpp"
#include "sweep/benchmark_compat.hpp"
#include "sweep/results_writer.hpp"

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
        ResultsWriter& writer, std::uint64_t seed)
      : options_(o),
        profile_(profile),
        plan_(std::move(plan)),
        records_(plan_.size()),
        writer_(writer),
        rng_(seed),
        progress_(!o.verbose) {}

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
      try {
        hold_timeouts_at_setup_ = backend_for(point.info.space).hold_timeouts();
        point.probe->setup();
        if (planted_setup_failure(point.info.probe))
          throw std::runtime_error("planted by --test-fail-setup");
        telemetry_.clear();
        warm_up(*point.probe);
      } catch (const std::exception& e) {
        point.skipped_reason = fmt::format("setup failed: {}", e.what());
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
    }
    record_visit(rec, point.info, samples, v, error, observed);
    auto entry = point_json(point.info, rec.error.empty() ? rec.samples : std::vector<double>{},
                            rec.verification, rec.error, measurement_json(point.info, rec));
    entry["observed"] = rec.observed;
    entry["sample_rounds"] = rec.error.empty() ? rec.sample_rounds : std::vector<int>{};
    telemetry_.clear();
    writer_.put(entry);  // replaces the point's entry of the round before
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
      const std::string status = !error.empty() ? paint_warn("SKIPPED", c) + ": " + error
                                 : v.ok         ? rate_text(entry, samples) + ", verified"
                                        : paint_bad("VERIFICATION FAILED", c) + ": " + v.error;
      const std::string round =
          profile_.rounds > 1 ? fmt::format("round {}/{}: ", round_ + 1, profile_.rounds) : "";
      progress_.line(done_, total_, round + name + ": " + status, elapsed, left,
                     !error.empty() || !v.ok);
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
        writer_.add(point_json(p.info, {}, {}, p.skipped_reason));
        records_[i].ended = true;
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
  std::mt19937_64 rng_;  // the point order of each round, from the recorded seed
  int round_ = 0;
  std::map<std::string, std::unique_ptr<MeasurementBackend>> backends_;
  std::vector<std::vector<TelemetryReading>> telemetry_;  // per measure() call of the active point
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
  std::cout << console_summary(analyze(std::move(results))) << std::flush;
}

void print_summary_or_why_not(const RunOptions& o, double seconds) {
  try {
    print_summary(o, seconds);
  } catch (const std::exception& e) {  // the run's own outcome stands; only the summary is lost
    std::cerr << "ridgeline: note: no summary: " << e.what() << "\n";
  }
}

}  // namespace

int run_sweep(const RunOptions& o) {
  SweepProfile profile = load_sweep_profile(o.profile);
  if (o.rounds) {
    if (profile.repetitions % o.rounds)
      throw InputError("", "--rounds",
                       fmt::format("{} does not divide the profile's repetitions ({})", o.rounds,
                                   profile.repetitions));
    profile.rounds = o.rounds;  // recorded in the file's profile, so --resume must match it
  }
  // A seed for the rounds' point orders, recorded so an order can be replayed; null with one
  // round (plan order).
  const std::uint64_t seed =
      o.seed ? *o.seed : (std::uint64_t(std::random_device{}()) << 32) ^ std::random_device{}();
  nlohmann::json context = run_context(o.benchmark_args);
  context["run"]["seed"] = profile.rounds > 1 ? nlohmann::json(seed) : nlohmann::json(nullptr);
  std::vector<PointPlan> plan = build_plan(profile, context, o.filter);
  if (plan.empty()) throw InputError("", "--probe", "no point of the profile matches the filters");

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
  std::optional<FileLock> lock;
  if (!o.list_only) lock.emplace(o.out);
  ResultsWriter writer(o.list_only ? "" : o.out, profile.to_json(), context);
  std::set<std::string> done;
  if (o.resume && !o.list_only && access(o.out.c_str(), F_OK) == 0)
    done = writer.resume_from(o.out);

  Sweep sweep(o, profile, std::move(plan), writer, seed);
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
