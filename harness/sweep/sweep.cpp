#include "harness/sweep/sweep.hpp"

#include <fmt/format.h>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "core/terminal.hpp"
#include "harness/mpi/placement.hpp"

namespace ridgeline {
namespace {

using Clock = Sweep::Clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Fisher–Yates with the engine's raw output (std::shuffle's result differs between standard
// libraries): a recorded seed gives the same order everywhere.
void shuffle_in_place(std::vector<std::size_t>& v, std::mt19937_64& rng) {
  for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[rng() % i]);
}

}  // namespace

Sweep::Sweep(const RunOptions& o, const SweepProfile& profile, std::vector<PointPlan> plan,
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

void Sweep::measure(std::size_t idx, benchmark::State& state) {
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
      host_clock_.clear();
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
  // After the wait was read (the reading is not the repetition's): on a host space the clock the
  // repetition left the cores at (~1 ms of dependent chains on this thread); NaN on a device.
  host_clock_.push_back(
      backend.read_host_clock_mhz().value_or(std::numeric_limits<double>::quiet_NaN()));
  state.counters["FLOP/s"] =
      benchmark::Counter(point.info.flops, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["B/s"] =
      benchmark::Counter(point.info.bytes, benchmark::Counter::kIsIterationInvariantRate);
}

void Sweep::finish_point(const std::string& name, const std::vector<double>& samples,
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
  PointEntry entry;
  entry.info = point.info;
  // A planted slowdown is part of what the file measured: it says so.
  if (const int calls = calls_per_iteration(point.info.probe); calls != 1)
    entry.info.params["test_slowdown"] = calls;
  if (rec.error.empty()) {
    entry.samples = rec.samples;
    entry.sample_rounds = rec.sample_rounds;
  }
  entry.verification = rec.verification;
  entry.skipped_reason = rec.error;
  entry.measurement = measurement(point.info, rec);
  entry.observed = rec.observed;
  telemetry_.clear();
  cpu_wait_.clear();
  host_clock_.clear();
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

void Sweep::remember_iterations(benchmark::IterationCount n) {
  if (running_ != SIZE_MAX && records_[running_].iterations == 0) records_[running_].iterations = n;
}

double Sweep::elapsed_s() const { return seconds_since(start_); }

void Sweep::prepare(const std::set<std::string>& already_done) {
  for (std::size_t i = 0; i < plan_.size(); ++i) {
    PointPlan& p = plan_[i];
    if (already_done.count(p.info.name)) {
      records_[i].ended = true;
      continue;
    }
    if (!p.probe) {
      records_[i].ended = true;
      PointEntry entry;
      entry.info = p.info;
      entry.skipped_reason = p.skipped_reason;
      record(std::move(entry), 0, records_[i]);
      continue;
    }
    ++points_;
  }
  total_ = points_ * std::size_t(profile_.rounds);
  start_ = Clock::now();
}

std::size_t Sweep::register_round(int round) {
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

std::size_t Sweep::unfinished() const {
  return std::size_t(std::count_if(records_.begin(), records_.end(),
                                   [](const PointRecord& r) { return !r.ended; }));
}

int Sweep::record(PointEntry entry, double wall_s, PointRecord& rec) {
  if (job_.uses_mpi())
    entry.mpi =
        PointRank{job_.rank(), point_placement(placement_, context_, entry.info.space), wall_s};
  if (job_.size() == 1) {
    writer_.put(entry);
    return 0;
  }
  std::vector<RankEntry> all = job_.gather_entries({entry, rec.ended});
  int failed = 0;
  bool ended = rec.ended;
  if (job_.rank() == 0) {
    std::vector<PointEntry> entries;
    for (RankEntry& r : all) {
      ended = ended || r.ended;
      if (!r.entry.measured() || !r.entry.verification.ok) ++failed;
      entries.push_back(std::move(r.entry));
    }
    writer_.put_all(entries);
  } else {
    writer_.put(entry);  // kept here for this rank's exit status only
  }
  if (job_.broadcast_flag(ended) && !rec.ended) {
    rec.ended = true;
    total_ -= std::size_t(profile_.rounds - rec.visits);  // rounds it will skip
  }
  return failed;
}

MeasurementBackend& Sweep::backend_for(const std::string& space) {
  auto& b = backends_[space];
  if (!b) b = open_measurement_backend(space);
  return *b;
}

void Sweep::record_visit(PointRecord& rec, const PointInfo& info,
                         const std::vector<double>& samples, const Verification& v,
                         const std::string& error, const nlohmann::json& observed) {
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
    if (host_clock_.size() >= samples.size())
      rec.host_clock_mhz.insert(rec.host_clock_mhz.end(),
                                host_clock_.end() - static_cast<std::ptrdiff_t>(samples.size()),
                                host_clock_.end());
    const auto it = backends_.find(info.space);
    if (it != backends_.end())
      rec.hold_timeouts += it->second->hold_timeouts() - hold_timeouts_at_setup_;
  }
  rec.ended = !rec.error.empty() || !rec.verification.ok || rec.visits >= profile_.rounds;
  if (rec.ended) total_ -= std::size_t(profile_.rounds - rec.visits);  // rounds it will skip
}

std::optional<PointMeasurement> Sweep::measurement(const PointInfo& info, const PointRecord& rec) {
  const auto it = backends_.find(info.space);
  if (it == backends_.end()) return std::nullopt;
  const MeasurementBackend& b = *it->second;
  const bool cold = wants_cold_cache(info.family);
  PointMeasurement m;
  m.timer = b.timer_name();
  m.stream_hold = b.holds_stream();
  m.hold_timeouts = rec.hold_timeouts;
  m.l2_flush_bytes = cold ? b.flush_bytes() : 0;
  m.l2_flush = cold ? b.flush_method() : "none";
  m.telemetry = summarize_telemetry(rec.telemetry, b.reference_sm_clock_mhz());
  m.telemetry_unavailable = b.telemetry_unavailable();
  m.cpu_wait = rec.cpu_wait.size() == rec.samples.size() ? summarize_cpu_wait(rec.cpu_wait)
                                                         : nlohmann::json(nullptr);
  m.cpu_wait_unavailable = cpu_wait_unavailable_;
  m.host_clock = rec.host_clock_mhz.size() == rec.samples.size()
                     ? summarize_host_clock(rec.host_clock_mhz)
                     : nlohmann::json(nullptr);
  m.host_clock_unavailable = b.host_clock_unavailable();
  return m;
}

void Sweep::warm_up(Probe& probe) const {
  const auto t0 = Clock::now();
  do {
    probe.run();
    probe.fence();
  } while (seconds_since(t0) < profile_.warmup_s);
}

int Sweep::calls_per_iteration(const std::string& probe) const {
  if (options_.slow_rank >= 0 && options_.slow_rank != job_.rank()) return 1;
  const auto it = options_.slowdown.find(probe);
  return it == options_.slowdown.end() ? 1 : it->second;
}

bool Sweep::planted(const std::string& probe) const {
  return std::find(options_.plant_error.begin(), options_.plant_error.end(), probe) !=
         options_.plant_error.end();
}

bool Sweep::planted_setup_failure(const std::string& probe) const {
  return std::find(options_.fail_setup.begin(), options_.fail_setup.end(), probe) !=
         options_.fail_setup.end();
}

}  // namespace ridgeline
