#include "harness/sweep/plan_estimate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "backends/fastest_candidate.hpp"
#include "core/input_error.hpp"
#include "results/probe_catalog.hpp"

namespace ridgeline {
namespace {

// Google Benchmark 1.7's sizing of a benchmark with manual time (benchmark_runner.cc,
// PredictNumItersNeeded and ShouldReportIterationResults): one iteration first, then until the
// iterations' time reaches min_time, each run multiplying the count by 1.4 · min_time / time
// (10 while the time is under a tenth of min_time; so at most 14), rounded. Repetitions after
// the first reuse the count. Returns the final count; `total` and `runs` are the sizing's.
long long sized_iterations(double call_s, double min_time_s, long long& total, int& runs) {
  long long iters = 1;
  total = 0;
  runs = 0;
  constexpr long long kMaxIterations = 1000000000;
  for (;;) {
    const double seconds = double(iters) * call_s;
    total += iters;
    ++runs;
    if (seconds >= min_time_s || iters >= kMaxIterations) return iters;
    double multiplier = min_time_s * 1.4 / std::max(seconds, 1e-9);
    if (!(seconds / min_time_s > 0.1)) multiplier = 10;
    iters = std::min(std::lround(std::max(multiplier * double(iters), double(iters) + 1.0)),
                     static_cast<long>(kMaxIterations));
  }
}

double log_distance(double a, double b) {
  if (a <= 0 || b <= 0) return a == b ? 0 : 50;  // one zero, one not: far apart
  return std::fabs(std::log(a / b));
}

double intensity(double flops, double bytes) {
  return bytes > 0 ? flops / bytes : (flops > 0 ? std::numeric_limits<double>::max() : 0);
}

double figure(const std::map<std::string, double>& m, const std::string& dtype) {
  const auto it = m.find(dtype);
  return it == m.end() ? 0 : it->second;
}

// a / b where both are stated, else 1 (the rate is taken as measured).
double ratio(double a, double b) { return a > 0 && b > 0 ? a / b : 1; }

class CallTimes {
 public:
  CallTimes(const SweepProfile& profile, const Results& timings, const DeviceSpeed& timing,
            const DeviceSpeed& target)
      : profile_(profile), timing_(timing), target_(target) {
    for (const SpaceInfo& s : timings.spaces)
      if (s.kind == "device") device_spaces_.push_back(s.name);
    for (const Point& p : timings.points)
      if (p.measured() && p.median_s > 0 && is_device(p.space)) {
        refs_.push_back(&p);
        if (dram_stream(p.family) && p.bytes > 0)
          dram_rate_ = std::max(dram_rate_, p.bytes / p.median_s);
      }
    if (refs_.empty())
      throw InputError(timings.file, "points",
                       "has no measured point of a device space to take timings from");
  }
  int references() const { return int(refs_.size()); }

  double call_s(const PointInfo& p, std::string& basis) const {
    const Point* r =
        nearest(p, [&](const Point& q) { return q.probe == p.probe && q.dtype == p.dtype; });
    if (!r && runs_at_gemm_rate(p.probe)) return other_dtype_gemm(p, basis);
    if (!r)
      r = nearest(p, [&](const Point& q) { return q.family == p.family && q.dtype == p.dtype; });
    if (r) return from_reference(p, *r, 1.0, basis);
    return from_sheet(p, basis);
  }

 private:
  bool is_device(const std::string& space) const {
    return std::find(device_spaces_.begin(), device_spaces_.end(), space) != device_spaces_.end();
  }

  template <class Match>
  const Point* nearest(const PointInfo& p, Match match) const {
    const Point* best = nullptr;
    double best_d = 0;
    const double ip = intensity(p.flops, p.bytes);
    for (const Point* q : refs_) {
      if (!match(*q)) continue;
      const double d = log_distance(ip, intensity(q->flops, q->bytes)) +
                       log_distance(double(p.working_set_bytes), q->working_set_bytes);
      if (!best || d < best_d) {
        best = q;
        best_d = d;
      }
    }
    return best;
  }

  // The vendor GEMM in a type the file did not run (fp8 before it was planned): the same shape
  // family's rate of the nearest other type, scaled by the timing device's sheet where it states
  // both types.
  double other_dtype_gemm(const PointInfo& p, std::string& basis) const {
    const Point* best = nullptr;
    double best_rate = 0;
    for (const Point* q : refs_)
      if (runs_at_gemm_rate(q->probe) && q->flops > 0) {
        const double rate =
            q->flops / q->median_s *
            ratio(figure(timing_.gemm_flops, p.dtype), figure(timing_.gemm_flops, q->dtype));
        if (!best || log_distance(double(p.working_set_bytes), q->working_set_bytes) <
                         log_distance(double(p.working_set_bytes), best->working_set_bytes)) {
          best = q;
          best_rate = rate;
        }
      }
    if (!best) return from_sheet(p, basis);
    return from_reference(p, *best, best_rate / (best->flops / best->median_s), basis);
  }

  // Memory-bound references (a byte rate of at least half the file's best stream) keep their
  // byte rate, the rest their FLOP rate; `flop_factor` adjusts the latter (another dtype's).
  double from_reference(const PointInfo& p, const Point& r, double flop_factor,
                        std::string& basis) const {
    const double t = r.median_s;
    const bool memory = r.bytes > 0 && (dram_rate_ <= 0 || r.bytes / t >= 0.5 * dram_rate_);
    const double bw_scale = ratio(timing_.bandwidth, target_.bandwidth);
    const auto& flops_of =
        runs_at_gemm_rate(p.probe) ? &DeviceSpeed::gemm_flops : &DeviceSpeed::vector_flops;
    // The point's dtype on both devices (flop_factor already took a reference of another dtype
    // to this one on the timing device).
    const double flop_scale =
        ratio(figure(timing_.*flops_of, p.dtype), figure(target_.*flops_of, p.dtype));
    double call = 0;
    if (memory || r.flops <= 0) {
      call = p.bytes / (r.bytes / t) * bw_scale;
      basis = fmt::format("{} at its byte rate", r.name);
      if (bw_scale != 1) basis += fmt::format(" × {:.3g} (memory bandwidth)", bw_scale);
    } else {
      call = p.flops / (r.flops / t * flop_factor) * flop_scale;
      basis = fmt::format("{} at its FLOP rate", r.name);
      if (flop_factor != 1)
        basis += fmt::format(" × {:.3g} (sheet: {} / {})", flop_factor, p.dtype, r.dtype);
      if (flop_scale != 1) basis += fmt::format(" × {:.3g} (peak)", flop_scale);
      // A GEMM of few rows is bound by reading its weights: never faster than the file's best
      // stream moves its bytes.
      if (runs_at_gemm_rate(p.probe) && dram_rate_ > 0)
        call = std::max(call, p.bytes / dram_rate_ * bw_scale);
    }
    return call;
  }

  double from_sheet(const PointInfo& p, std::string& basis) const {
    const double bw = on_chip(p.family) ? target_.sram_bandwidth : target_.bandwidth;
    const double peak =
        figure(runs_at_gemm_rate(p.probe) ? target_.gemm_flops : target_.vector_flops, p.dtype);
    double call = 0;
    if (bw > 0 && p.bytes > 0) call = p.bytes / (kUnmeasuredEfficiency * bw);
    if (peak > 0 && p.flops > 0) call = std::max(call, p.flops / (kUnmeasuredEfficiency * peak));
    if (call > 0) {
      basis = fmt::format("no measured neighbour: {:g} of the sheet's {}", kUnmeasuredEfficiency,
                          on_chip(p.family) ? "SRAM bandwidth and peak" : "bandwidth and peak");
      return call;
    }
    basis = "no measured neighbour and no sheet figure: one min_time per call";
    return profile_.min_time_s;
  }

  const SweepProfile& profile_;
  const DeviceSpeed& timing_;
  const DeviceSpeed& target_;
  std::vector<std::string> device_spaces_;
  std::vector<const Point*> refs_;
  double dram_rate_ = 0;  // the file's fastest bandwidth point, byte/s
};

void sum_families(PlanEstimate& e) {
  for (const ProbeFamily& f : kProbeFamilies) {
    FamilyEstimate fe;
    fe.family = std::string(f.name);
    for (const PointEstimate& p : e.points) {
      if (p.point.info.family != fe.family) continue;
      ++fe.points;
      if (p.point.measured()) ++fe.measured;
      fe.seconds += p.seconds;
    }
    if (fe.points) e.families.push_back(fe);
  }
  for (const PointEstimate& p : e.points) {
    const std::string unit = plan_unit(p.point.info);
    auto it = std::find_if(e.units.begin(), e.units.end(),
                           [&](const FamilyEstimate& u) { return u.family == unit; });
    if (it == e.units.end()) it = e.units.insert(e.units.end(), FamilyEstimate{unit, 0, 0, 0});
    ++it->points;
    if (p.point.measured()) ++it->measured;
    it->seconds += p.seconds;
  }
  e.total_s = e.startup_s;
  for (const PointEstimate& p : e.points) e.total_s += p.seconds;
}

double point_seconds(const SweepProfile& profile, const OutlinePoint& p, double call_s,
                     const TimeModel& model) {
  if (!p.measured()) return 0;
  const int visits = std::max(profile.rounds, 1);
  return visits * (model.per_point_s + model.per_host_byte_s * p.host_bytes) +
         p.setup_calls * call_s + measurement_seconds(profile, call_s, model);
}

}  // namespace

std::string plan_unit(const PointInfo& p) {
  return library_ceiling(p.family) ? "library:" + p.dtype : p.family;
}

double measurement_seconds(const SweepProfile& profile, double call_s, const TimeModel& model) {
  const int rounds = std::max(profile.rounds, 1);
  const int per_visit = std::max(profile.repetitions / rounds, 1);
  long long sizing = 0;
  int sizing_runs = 0;
  const long long iters = sized_iterations(call_s, profile.min_time_s, sizing, sizing_runs);
  // Warm-up per visit: calls until warmup_s has passed, the last one finished.
  const double warmup = std::max(profile.warmup_s, call_s) + call_s;
  // The first visit sizes (its last sizing run is its first repetition); later visits reuse
  // the count.
  const long long timed = sizing + (per_visit - 1) * iters + (rounds - 1) * per_visit * iters;
  const int runs = sizing_runs + (per_visit - 1) + (rounds - 1) * per_visit;
  return rounds * warmup + double(timed) * call_s + runs * model.per_repetition_s;
}

std::size_t PlanEstimate::points_within(double seconds) const {
  double t = startup_s;
  for (std::size_t i = 0; i < points.size(); ++i) {
    t += points[i].seconds;
    if (t > seconds) return i;
  }
  return points.size();
}

PlanEstimate estimate_plan(const SweepProfile& profile, const std::vector<OutlinePoint>& plan,
                           const DeviceSpeed& target, const Results& timings,
                           const DeviceSpeed& timing_speed, const TimeModel& model) {
  const CallTimes calls(profile, timings, timing_speed, target);
  PlanEstimate e;
  e.model = model;
  e.startup_s = model.startup_s;
  e.timing_points = calls.references();
  for (const OutlinePoint& p : plan) {
    PointEstimate pe;
    pe.point = p;
    if (p.measured()) {
      pe.call_s = calls.call_s(p.info, pe.basis);
      pe.seconds = point_seconds(profile, p, pe.call_s, model);
    }
    e.points.push_back(std::move(pe));
  }
  sum_families(e);
  return e;
}

PlanEstimate replay_run(const SweepProfile& profile, const Results& run, const TimeModel& model) {
  PlanEstimate e;
  e.model = model;
  e.startup_s = model.startup_s;
  for (const Point& q : run.points) {
    const SpaceInfo* space = run.find_space(q.space);
    if (!q.measured() || q.median_s <= 0 || !space || space->kind != "device") continue;
    PointEstimate pe;
    pe.point.info.name = q.name;
    pe.point.info.probe = q.probe;
    pe.point.info.family = q.family;
    pe.point.info.space = q.space;
    pe.point.info.dtype = q.dtype;
    pe.point.info.working_set_bytes = static_cast<std::uint64_t>(q.working_set_bytes);
    pe.point.info.flops = q.flops;
    pe.point.info.bytes = q.bytes;
    pe.point.info.elements = static_cast<std::uint64_t>(q.elements);
    pe.point.host_bytes = host_bytes_of(pe.point.info);
    if (q.params.contains("algorithms_tried") && q.params["algorithms_tried"].is_number())
      pe.point.setup_calls = q.params["algorithms_tried"].get<int>() * (1 + kLtTimedRuns);
    pe.call_s = q.median_s;
    pe.seconds = point_seconds(profile, pe.point, pe.call_s, model);
    pe.basis = "as measured";
    e.points.push_back(std::move(pe));
  }
  sum_families(e);
  return e;
}

}  // namespace ridgeline
