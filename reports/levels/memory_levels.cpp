#include "levels/memory_levels.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "fit/robust_location.hpp"

namespace ridgeline {

std::vector<CacheCapacity> cache_capacities(const Results& r, const std::string& space_name) {
  std::vector<CacheCapacity> out;
  const SpaceInfo* space = r.find_space(space_name);
  if (space && space->device) {
    if (space->device->l2_bytes > 0) out.push_back({"L2", space->device->l2_bytes});
    return out;
  }
  int top = 0;
  for (const auto& c : r.caches) top = std::max(top, c.level);
  const int threads = space ? space->concurrency : 1;
  for (const auto& c : r.caches) {
    const double copies = std::max(1.0, std::floor(double(threads) / c.shared_by_threads));
    std::string name = "L" + std::to_string(c.level);
    if (c.level == top && top > 1) name += " (LLC)";
    out.push_back({name, c.size_bytes * copies});
  }
  std::sort(out.begin(), out.end(),
            [](const CacheCapacity& a, const CacheCapacity& b) { return a.bytes < b.bytes; });
  return out;
}

std::string cache_level_holding(const Results& r, const std::string& space, double working_set) {
  for (const auto& c : cache_capacities(r, space))
    if (working_set <= c.bytes) return c.name;
  return {};
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
  if (n < 4) return {{0, n}};
  // Noise from neighbour differences (robust to the few big steps), floored at 2 %.
  std::vector<double> diffs;
  for (std::size_t i = 1; i < n; ++i) diffs.push_back(std::fabs(y[i] - y[i - 1]));
  const double sigma = std::max(1.4826 * median(diffs) / std::sqrt(2.0), 0.02);
  const double penalty = 3 * sigma * sigma * std::log(double(n));
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
  for (std::size_t b = 2; b <= n; ++b)
    for (std::size_t a = 0; a + 2 <= b; ++a) {
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
                                             const std::string& dtype) {
  std::vector<LevelSweep> out;
  const auto caps = cache_capacities(r, space);
  const bool device = r.find_space(space) && r.find_space(space)->device;
  // cache_update first: its plateaus are the roofs per level (counted bytes are moved bytes).
  for (const char* probe : {"cache_update", "cache_read", "cache_triad"}) {
    std::vector<SweepPoint> pts;
    for (const auto& p : r.points)
      if (p.probe == probe && p.space == space && p.dtype == dtype && p.fittable() &&
          p.bytes_per_s && p.working_set_bytes > 0)
        pts.push_back({p.working_set_bytes, *p.bytes_per_s});
    if (pts.size() < 2) continue;
    std::sort(pts.begin(), pts.end(), [](const SweepPoint& a, const SweepPoint& b) {
      return a.working_set_bytes < b.working_set_bytes;
    });
    std::vector<double> y;
    for (const auto& p : pts) y.push_back(std::log(p.bytes_per_s));
    LevelSweep sweep{probe, {}};
    int unnamed = 0;
    for (const Segment& seg : plateaus_of_long_sweep(y)) {
      MemoryLevel lvl;
      lvl.min_working_set = pts[seg.begin].working_set_bytes;
      lvl.max_working_set = pts[seg.end - 1].working_set_bytes;
      lvl.points = int(seg.end - seg.begin);
      lvl.bandwidth = std::exp(
          tukey_biweight_location({y.begin() + long(seg.begin), y.begin() + long(seg.end)}));
      // Named by where the plateau's typical working set fits.
      const double typical = pts[(seg.begin + seg.end - 1) / 2].working_set_bytes;
      const auto fit = std::find_if(caps.begin(), caps.end(), [typical](const CacheCapacity& c) {
        return typical <= c.bytes;
      });
      if (fit != caps.end())
        lvl.name = fit->name;
      else if (!caps.empty())
        lvl.name = device ? "HBM" : "DRAM";
      else
        lvl.name = "level " + std::to_string(++unnamed);
      // Two plateaus in one level (a transition, or a cache the context does not list).
      for (const auto& prev : sweep.levels)
        if (prev.name == lvl.name) lvl.name += "'";
      sweep.levels.push_back(lvl);
    }
    out.push_back(std::move(sweep));
  }
  return out;
}

}  // namespace ridgeline
