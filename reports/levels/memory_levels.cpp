#include "reports/levels/memory_levels.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/stats.hpp"
#include "core/units.hpp"

namespace ridgeline {

std::vector<CacheCapacity> cache_capacities(const Results& r, const std::string& space_name) {
  std::vector<CacheCapacity> out;
  const SpaceInfo* space = r.find_space(space_name);
  if (space && space->device) {
    const DeviceInfo& d = *space->device;
    if (d.l1_per_unit_bytes > 0) out.push_back({"L1", d.l1_per_unit_bytes, true});
    if (d.l2_bytes > 0) out.push_back({"L2", d.l2_bytes});
    if (d.llc_bytes > d.l2_bytes) out.push_back({"MALL", d.llc_bytes});
    return out;
  }
  int top = 0;
  for (const auto& c : r.caches) top = std::max(top, c.level);
  const int threads = space ? space->concurrency : 1;
  for (const auto& c : r.caches) {
    const double copies = std::max(1.0, std::floor(double(threads) / c.shared_by_threads));
    std::string name = "L" + std::to_string(c.level);
    if (c.level == top && top > 1 && r.caches_incomplete.empty()) name += " (LLC)";
    out.push_back({name, c.size_bytes * copies});
  }
  std::sort(out.begin(), out.end(),
            [](const CacheCapacity& a, const CacheCapacity& b) { return a.bytes < b.bytes; });
  return out;
}

std::vector<Segment> plateaus_of_long_sweep(const std::vector<double>& y) {
  // The optimal partition is quadratic in the points. A profile's sweep has a few hundred; a
  // longer one (a hand-made file) is searched on medians of consecutive runs of points.
  constexpr std::size_t kMaxSearched = 2048;
  if (y.size() <= kMaxSearched) return find_plateaus(y);
  const std::size_t run = (y.size() + kMaxSearched - 1) / kMaxSearched;
  std::vector<double> medians;
  for (std::size_t i = 0; i < y.size(); i += run)
    medians.push_back(median({y.begin() + long(i), y.begin() + long(std::min(i + run, y.size()))}));
  std::vector<Segment> out;
  for (const Segment& s : find_plateaus(medians))
    out.push_back({s.begin * run, std::min(s.end * run, y.size())});
  return out;
}

std::vector<Segment> find_plateaus(const std::vector<double>& y) {
  const std::size_t n = y.size();
  const std::size_t min_points = kMinPlateauPoints;
  if (n < 2 * min_points) return {{0, n}};  // too few points for two plateaus
  // Noise from neighbour differences (robust to the few big steps), floored at 2 %.
  std::vector<double> diffs;
  for (std::size_t i = 1; i < n; ++i) diffs.push_back(std::fabs(y[i] - y[i - 1]));
  const double sigma = std::max(kMadToSigma * median(diffs) / std::sqrt(2.0), 0.02);
  const double penalty = kPlateauPenaltyFactor * sigma * sigma * std::log(double(n));
  // Prefix sums give each piece's squared error in O(1).
  std::vector<double> s(n + 1, 0), s2(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) s[i + 1] = s[i] + y[i], s2[i + 1] = s2[i] + y[i] * y[i];
  auto cost = [&](std::size_t a, std::size_t b) {
    const double m = double(b - a), sum = s[b] - s[a];
    return s2[b] - s2[a] - sum * sum / m;
  };
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> best(n + 1, inf);
  std::vector<std::size_t> from(n + 1, 0);
  best[0] = 0;
  for (std::size_t b = min_points; b <= n; ++b)
    for (std::size_t a = 0; a + min_points <= b; ++a) {
      if (best[a] == inf) continue;
      const double c = best[a] + cost(a, b) + penalty;
      if (c < best[b]) best[b] = c, from[b] = a;
    }
  std::vector<Segment> out;
  for (std::size_t b = n; b > 0; b = from[b]) out.push_back({from[b], b});
  std::reverse(out.begin(), out.end());
  return out;
}

std::vector<LevelSweep> detect_memory_levels(const Results& r, const std::string& space,
                                             const std::string& dtype, int replicates,
                                             std::uint64_t seed) {
  std::vector<LevelSweep> out;
  const auto caps = cache_capacities(r, space);
  const bool device = r.find_space(space) && r.find_space(space)->device;
  // cache_update first: its plateaus are the roofs per level (counted bytes are moved bytes).
  for (const char* probe : {"cache_update", "cache_read", "cache_triad"}) {
    std::vector<SweepPoint> pts;
    for (const auto& p : r.points)
      if (p.probe == probe && p.space == space && p.dtype == dtype && p.fittable() &&
          p.bytes_per_s && p.working_set_bytes > 0)
        pts.push_back({p.working_set_bytes, *p.bytes_per_s, &p});
    if (pts.size() < 2) continue;
    std::sort(pts.begin(), pts.end(), [](const SweepPoint& a, const SweepPoint& b) {
      return a.working_set_bytes < b.working_set_bytes;
    });
    std::vector<double> y;
    for (const auto& p : pts) y.push_back(std::log(p.bytes_per_s));
    LevelSweep sweep{probe, {}};
    // Each plateau falls in the range of the smallest capacity that holds all its working sets
    // (the memory beyond the largest). Past a capacity the level below still serves part of the
    // set, so the bandwidth steps down in stages: the range's last plateau, the one that
    // reaches its capacity, is the level; the ones before it are transitions.
    const auto segments = plateaus_of_long_sweep(y);
    std::vector<std::size_t> range;
    for (const Segment& seg : segments) {
      const double largest = pts[seg.end - 1].working_set_bytes;
      range.push_back(std::size_t(
          std::find_if(caps.begin(), caps.end(),
                       [largest](const CacheCapacity& c) { return largest <= c.bytes; }) -
          caps.begin()));
    }
    // Past the last capacity of a list that lacks a level, the set may be in that level or in
    // memory: the name says no more than that.
    const bool unknown_beyond = !device && !r.caches_incomplete.empty() && !caps.empty();
    // Where the run measured the memory plateau, it tells memory from a level without a size.
    const SpaceInfo* info = r.find_space(space);
    const MemoryPlateau* plateau =
        info && info->plateau && info->plateau->reached ? &*info->plateau : nullptr;
    std::string memory = device ? "device memory"
                         : unknown_beyond
                             ? "above " + caps.back().name + " (a level without a size, or DRAM)"
                             : "DRAM";
    const auto level_name = [&](std::size_t k) { return k < caps.size() ? caps[k].name : memory; };
    for (std::size_t i = 0; i < segments.size(); ++i) {
      const Segment& seg = segments[i];
      MemoryLevel lvl;
      lvl.min_working_set = pts[seg.begin].working_set_bytes;
      lvl.max_working_set = pts[seg.end - 1].working_set_bytes;
      if (plateau)
        memory = lvl.min_working_set >= 0.99 * plateau->start_bytes
                     ? std::string(device ? "device memory" : "DRAM")
                     : "a cache level below the " + std::string(device ? "memory" : "DRAM") +
                           " plateau (from " + format_size_bytes(plateau->start_bytes) + ")";
      lvl.points = int(seg.end - seg.begin);
      lvl.bandwidth = std::exp(
          tukey_biweight_location({y.begin() + long(seg.begin), y.begin() + long(seg.end)}));
      // The interval redraws each point's repetitions (fit_level); it is moved onto the plateau's
      // own location, which uses the recorded median_s, not the samples' median fit_level takes
      // (the same value unless a file was written by other tools).
      std::vector<Observation> obs;
      for (std::size_t k = seg.begin; k < seg.end; ++k) {
        Observation o;
        o.count = pts[k].point->bytes;
        o.samples = pts[k].point->samples;
        if (o.count > 0 && !o.samples.empty()) obs.push_back(std::move(o));
      }
      lvl.bandwidth_ci = {lvl.bandwidth, lvl.bandwidth};
      if (obs.size() == std::size_t(lvl.points)) {
        const LevelFit f = fit_level(obs, replicates, seed);
        const double shift = lvl.bandwidth / f.value;
        lvl.bandwidth_ci = {f.ci.low * shift, f.ci.high * shift};
      }
      if (caps.empty()) {
        lvl.name = "level " + std::to_string(i + 1);
      } else if (i + 1 < segments.size() && range[i + 1] == range[i] &&
                 !(unknown_beyond && range[i] == caps.size())) {
        // (Beyond the last size of an incomplete list the steps may be levels of their own.)
        lvl.transition = true;
        lvl.name = range[i] == 0 ? "below " + level_name(0)
                                 : level_name(range[i] - 1) + " → " + level_name(range[i]);
        lvl.note = "between two capacities: part of the set is served from the level below";
        // Faster than the first level's own plateau (else the pass below says it is slower):
        // a cache below it that the context gives no size for, e.g. a GPU's L1 in a file written
        // before the context recorded it.
        if (range[i] == 0)
          lvl.note = "faster than the " + level_name(0) +
                     " plateau after it: a smaller cache the context records no size for";
      } else {
        // A plateau whose sets span several capacities: the data cannot tell those levels apart.
        // (A set the size of a cache does not stay in it: the cache also holds other lines.)
        const double smallest = lvl.min_working_set;
        const auto first = std::size_t(
            std::find_if(caps.begin(), caps.end(),
                         [smallest](const CacheCapacity& c) { return smallest < c.bytes; }) -
            caps.begin());
        lvl.name = first < range[i] ? level_name(first) + "–" + level_name(range[i])
                                    : level_name(range[i]);
      }
      sweep.levels.push_back(lvl);
    }
    // A plateau slower than the level after it is no level: its working sets could not be
    // slower than where the next, larger level serves them (on a GPU above the last-level cache
    // each pass is its own launch, and the fixed launch time weighs on the smaller sets there).
    for (std::size_t i = 0; i + 1 < sweep.levels.size(); ++i) {
      MemoryLevel& lvl = sweep.levels[i];
      const auto next = std::find_if(sweep.levels.begin() + long(i) + 1, sweep.levels.end(),
                                     [](const MemoryLevel& l) { return !l.transition; });
      if (next == sweep.levels.end() || lvl.bandwidth >= next->bandwidth) continue;
      if (!lvl.transition) lvl.name = lvl.name + " → " + next->name;
      lvl.transition = true;
      lvl.note = "slower than " + next->name + " after it: an artifact of the sweep, not a level";
    }
    out.push_back(std::move(sweep));
  }
  return out;
}

}  // namespace ridgeline
