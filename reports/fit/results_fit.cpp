#include "reports/fit/results_fit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <set>

#include "core/stats.hpp"
#include "core/units.hpp"
#include "reports/fit/roof_roles.hpp"
#include "results/probe_catalog.hpp"

namespace ridgeline {
namespace {

enum class Counted { kGraded, kBytes, kFlops };

Observation observation_of(const Point& p, Counted what, bool observes_peak) {
  Observation o;
  o.intensity = what == Counted::kGraded ? p.flops / p.bytes : 0;
  o.count = what == Counted::kBytes ? p.bytes : p.flops;
  o.samples = p.samples;
  o.observes_peak = observes_peak;
  return o;
}

// "fma k:1, k:2; dot n:…": each probe once, followed by the grades of its points. With
// `dtypes` (memory roofs pooled over a device's dtypes) each probe × dtype once: "triad fp64 n:…".
std::string describe(const std::vector<const Point*>& points, bool dtypes = false) {
  std::vector<std::pair<std::string, std::string>> probes;  // probe (and dtype), grades
  for (const Point* p : points) {
    const auto slash = p->name.find_last_of('/');
    const std::string grade = slash == std::string::npos ? p->name : p->name.substr(slash + 1);
    const std::string probe = dtypes ? p->probe + " " + p->dtype : p->probe;
    auto it = std::find_if(probes.begin(), probes.end(),
                           [&probe](const auto& e) { return e.first == probe; });
    if (it == probes.end())
      probes.emplace_back(probe, grade);
    else
      it->second += ", " + grade;
  }
  std::string out;
  for (const auto& [probe, grades] : probes)
    out += (out.empty() ? "" : "; ") + probe + " " + grades;
  return out;
}

// Memory-side points become graded observations (or direct ones when they have no FLOPs). A
// ladder rung observes P too where it is compute-bound (the fit splits at the ridge).
void add_bandwidth_points(GroupObservations& g, const std::vector<const Point*>& points) {
  for (const Point* p : points) {
    if (p->flops > 0 && p->bytes > 0) {
      g.roof.graded.push_back(observation_of(*p, Counted::kGraded, graded_ladder(p->family)));
      g.graded_points.push_back(p);
    } else if (p->bytes > 0) {
      g.roof.bandwidth.push_back(observation_of(*p, Counted::kBytes, false));
      g.direct_points.push_back(p);
    }
  }
}

// The points that fed B in the fit: graded ones left of the knee band, and direct ones.
std::vector<const Point*> bandwidth_points_used(const GroupObservations& g, const RoofEstimate& e) {
  std::vector<const Point*> used;
  for (std::size_t i = 0; i < g.graded_points.size(); ++i)
    if (g.roof.graded[i].observes_bandwidth && g.roof.graded[i].intensity * e.band <= e.split_ridge)
      used.push_back(g.graded_points[i]);
  used.insert(used.end(), g.direct_points.begin(), g.direct_points.end());
  return used;
}

// The points that fed P: graded ones right of the knee band, and the register-only peaks.
std::vector<const Point*> peak_points_used(const GroupObservations& g, const RoofEstimate& e) {
  std::vector<const Point*> used = g.peak_points;
  for (std::size_t i = 0; i < g.graded_points.size(); ++i)
    if (g.roof.graded[i].observes_peak && g.roof.graded[i].intensity >= e.split_ridge * e.band)
      used.push_back(g.graded_points[i]);
  return used;
}

// The fastest of `points` by `rate` (FLOP/s or byte/s at their median), nullptr when none.
const Point* fastest(const std::vector<const Point*>& points, double Point::*count) {
  const Point* best = nullptr;
  for (const Point* p : points)
    if (!best || p->*count / median(p->samples) > best->*count / median(best->samples)) best = p;
  return best;
}

// Where `points` (pointers into r.points) stand in r.points.
std::vector<std::size_t> indices_in(const Results& r, const std::vector<const Point*>& points) {
  std::vector<std::size_t> out;
  for (const Point* p : points) out.push_back(static_cast<std::size_t>(p - r.points.data()));
  return out;
}

bool allocates(const Point& p, bool device) { return moved_per_counted(p, device) > 1; }

// The caveats that say where B's points came from, written by set_bandwidth_best and
// observations_for; pool_memory_roofs replaces them when B becomes the device's.
const std::string kAllocatingBest = "B is set by ";
const std::string kSmallSets =
    "B comes from working sets below 4x the last-level cache: it may be a cache's bandwidth, "
    "not DRAM's";

// The point that sets B: its mix, its name, and whether its bytes are a lower bound.
void set_bandwidth_best(GroupFit& g, const Point& best, bool device, bool dtypes) {
  g.bandwidth_mix = traffic_mix(best);
  g.bandwidth_best = describe({&best}, dtypes);
  g.bandwidth_lower_bound = allocates(best, device);
  if (g.bandwidth_lower_bound)
    g.caveats.push_back(
        kAllocatingBest + g.bandwidth_best +
        ", whose stores allocate lines on this CPU (write-allocate): its counted bytes, and so B, "
        "are a lower bound of what the memory moved");
}

// The envelope of one mix's points (their byte rates), with the point that sets it; `dtypes`
// names each point's dtype (a roof pooled over the device's dtypes).
MixRoof mix_roof_of(const Results& r, TrafficMix mix, const std::vector<const Point*>& points,
                    bool device, int replicates, std::uint64_t seed, bool dtypes = false) {
  MixRoof m;
  m.mix = mix;
  m.points = indices_in(r, points);
  std::vector<Observation> obs;
  for (const Point* p : points) obs.push_back(observation_of(*p, Counted::kBytes, false));
  m.roof = fit_envelope(obs, replicates, seed);
  const auto best = std::max_element(
      obs.begin(), obs.end(),
      [](const Observation& x, const Observation& y) { return x.rate() < y.rate(); });
  const Point* best_point = points[static_cast<std::size_t>(best - obs.begin())];
  m.best = describe({best_point}, dtypes);
  m.lower_bound = allocates(*best_point, device);
  m.from = describe(points, dtypes);
  return m;
}

// The envelope of every traffic mix measured: those that read and write from the points B used,
// the one-direction ones from B_read's and B_write's.
void set_mixes(const Results& r, GroupFit& g, const GroupObservations& obs,
               const std::vector<const Point*>& used, bool device, int replicates,
               std::uint64_t seed) {
  for (TrafficMix mix : kTrafficMixes) {
    std::vector<const Point*> points;
    if (reads_and_writes(mix)) {
      for (const Point* p : used)
        if (traffic_mix(*p) == mix) points.push_back(p);
    } else {
      points = mix == TrafficMix::kReadOnly ? obs.read_points : obs.write_points;
    }
    if (!points.empty()) g.mixes.push_back(mix_roof_of(r, mix, points, device, replicates, seed));
  }
  // The point that sets B: the fastest of those B used (B is their envelope).
  const Point* best = fastest(used, &Point::bytes);
  if (!best) return;
  set_bandwidth_best(g, *best, device, false);
}

}  // namespace

const MixRoof* GroupFit::mix_roof(TrafficMix m) const {
  for (const auto& r : mixes)
    if (r.mix == m) return &r;
  return nullptr;
}

std::optional<Roof> GroupFit::matrix_roof() const {
  if (!matrix || !matrix->ridge) return std::nullopt;
  return Roof{matrix->peak.value, matrix->peak.value / *matrix->ridge};
}

void set_matrix_ridges(MatrixRoofFit& matrix, const GroupFit& bandwidth) {
  if (!bandwidth.fit) return;
  const RoofFit& f = *bandwidth.fit;
  matrix.bandwidth_dtype = bandwidth.dtype;
  std::vector<double> b;
  for (const Roof& r : f.replicates) b.push_back(r.bandwidth);
  matrix.ridge = matrix.peak.value / f.estimate.roof.bandwidth;
  matrix.ridge_ci = ratio_interval(matrix.peak.replicates, b, *matrix.ridge);
  if (!bandwidth.read_bandwidth) return;
  const LevelFit& read = *bandwidth.read_bandwidth;
  matrix.read_bandwidth_dtype = bandwidth.dtype;
  matrix.read_ridge = matrix.peak.value / read.value;
  matrix.read_ridge_ci =
      ratio_interval(matrix.peak.replicates, read.replicates, *matrix.read_ridge);
}

std::vector<std::pair<std::string, std::string>> space_dtype_groups(const Results& r) {
  std::vector<std::pair<std::string, std::string>> groups;
  for (const auto& p : r.points) {
    const std::pair<std::string, std::string> g{p.space, p.dtype};
    if (std::find(groups.begin(), groups.end(), g) == groups.end()) groups.push_back(g);
  }
  return groups;
}

namespace {

// What the plateau search found, for the group's notes: where DRAM begins and on what evidence,
// and what the smaller sets were (a cache level of this host, with its bandwidths), or that no
// plateau was reached and B may be a cache level's.
std::string plateau_caveat(const MemoryPlateau& p, bool device) {
  const std::string memory = device ? "device memory" : "DRAM";
  std::string below;
  for (const char* mix : kPlateauMixes) {
    double lo = 0, hi = 0, smallest = 0, largest = 0;
    for (const PlateauSet& set : sets_of_mix(p.sets, mix)) {
      if (p.reached && set.bytes >= 0.99 * p.start_bytes) continue;
      lo = lo > 0 ? std::min(lo, set.bytes_per_s) : set.bytes_per_s;
      hi = std::max(hi, set.bytes_per_s);
      smallest = smallest > 0 ? std::min(smallest, set.bytes) : set.bytes;
      largest = std::max(largest, set.bytes);
    }
    if (hi <= 0) continue;
    const std::string sizes = smallest == largest
                                  ? format_size_bytes(smallest)
                                  : format_size_bytes(smallest) + "–" + format_size_bytes(largest);
    const std::string rates =
        lo == hi ? format_bytes_per_s(lo) : format_bytes_per_s(lo) + "–" + format_bytes_per_s(hi);
    below += fmt::format("{}{} at {}: {}", below.empty() ? "" : "; ", mix, sizes, rates);
  }
  if (p.reached)
    return fmt::format("{} plateau from {} (searched in {}; {}){}", memory,
                       format_size_bytes(p.start_bytes), p.measured_in, p.basis,
                       below.empty() ? ""
                                     : "; the smaller sets are a cache level of this host, not " +
                                           memory + ": " + below);
  return fmt::format(
      "{} not reached: no plateau within the search's limits ({}); B, B_read and B_write come "
      "from the largest sets, {}, which may still be a cache level ({}): read them as at least "
      "a cache level's, never as {}",
      memory, p.stopped.empty() ? "stopped early" : p.stopped, format_size_bytes(p.planned_bytes),
      below.empty() ? "no smaller set measured" : below, memory);
}

}  // namespace

GroupObservations observations_for(const Results& r, const std::string& space,
                                   const std::string& dtype) {
  GroupObservations g;
  g.dram_working_set = dram_working_set_bytes(r, space);
  const SpaceInfo* info = r.find_space(space);
  if (info && info->plateau)
    g.caveats.push_back(plateau_caveat(*info->plateau, info->device.has_value()));
  else if (!r.caches_incomplete.empty() && !(info && info->device))
    g.caveats.push_back(
        g.dram_working_set > 0
            ? "the last-level cache is not known (" + r.caches_incomplete +
                  "): DRAM-sized means at least the profile's dram_min_bytes, " +
                  format_size_bytes(g.dram_working_set) + ", which may still be cached"
            : "the last-level cache is not known (" + r.caches_incomplete +
                  ") and the profile gives no DRAM size: B comes from the streams alone");
  g.roof.envelopes = true;
  std::vector<const Point*> peak, b_dram, b_small, read, write, ladder, matrix;
  for (const auto& p : r.points) {
    // Library points are never fitted, but a verified one on matrix units is what P_matrix is.
    if (p.space == space && p.dtype == dtype && p.measured() && p.verified && is_tensor_point(p) &&
        p.flops > 0 && !p.samples.empty())
      matrix.push_back(&p);
    if (p.space != space || p.dtype != dtype || !p.fittable()) continue;
    const bool dram = dram_sized(p, g.dram_working_set);
    if (graded_ladder(p.family) && p.flops > 0 && p.bytes > 0) ladder.push_back(&p);
    switch (roof_role(p)) {
      case RoofRole::kPeak:
        if (p.flops > 0) peak.push_back(&p);
        break;
      case RoofRole::kBandwidth:
        (dram ? b_dram : b_small).push_back(&p);
        break;
      case RoofRole::kReadBandwidth:
        if (dram && p.bytes > 0) read.push_back(&p);
        break;
      case RoofRole::kWriteBandwidth:
        if (dram && p.bytes > 0) write.push_back(&p);
        break;
      case RoofRole::kLevel:
        // The cache sweep's DRAM-sized sets are streams of our own that count moved bytes, in
        // the mix of their probe: B (and B_read) must bound them, so they are part of its
        // envelope. (cache_update at 128 MiB = 4 × the L3 ran 1.08 × a B fitted without it on
        // a Zen 3 VM.) The scratch probe never is, and with no size known to be DRAM's no set
        // is: a sweep from inside L1 set B at 6 × the streams on a VM whose L3 went unnamed.
        if (sweeps_working_set(p.family) && dram && g.dram_working_set > 0 && p.bytes > 0) {
          const std::optional<TrafficMix> mix = traffic_mix(p);
          if (mix == TrafficMix::kReadOnly)
            read.push_back(&p);
          else if (mix && reads_and_writes(*mix))
            b_dram.push_back(&p);
        }
        break;
      case RoofRole::kCeiling:
        break;
    }
  }
  if (!b_dram.empty()) {
    add_bandwidth_points(g, b_dram);
    g.bandwidth_from = describe(b_dram);
  } else if (!b_small.empty()) {
    add_bandwidth_points(g, b_small);
    g.bandwidth_from = describe(b_small);
    g.caveats.push_back(kSmallSets);
  }
  // P is the envelope of the register-only peak and the ladder's compute-bound rungs: a rung
  // that runs faster than the peak probe shows the peak short of what the FMA units do. Rungs
  // not already on B's side (smaller working sets) observe P only.
  for (const Point* p : ladder) {
    if (std::find(g.graded_points.begin(), g.graded_points.end(), p) != g.graded_points.end())
      continue;
    Observation o = observation_of(*p, Counted::kGraded, true);
    o.observes_bandwidth = false;  // B keeps its own points
    g.roof.graded.push_back(o);
    g.graded_points.push_back(p);
  }
  for (const Point* p : peak) g.roof.peak.push_back(observation_of(*p, Counted::kFlops, true));
  g.peak_points = peak;
  g.peak_from = describe(peak.empty() ? ladder : peak);
  if (peak.empty())
    g.caveats.push_back("no register-only peak point: P comes from compute-bound ladder rungs");
  for (const Point* p : read) g.read.push_back(observation_of(*p, Counted::kBytes, false));
  g.read_points = read;
  g.read_from = describe(read);
  for (const Point* p : write) g.write.push_back(observation_of(*p, Counted::kBytes, false));
  g.write_points = write;
  g.write_from = describe(write);
  for (const Point* p : matrix) g.matrix.push_back(observation_of(*p, Counted::kFlops, true));
  g.matrix_points = matrix;
  g.matrix_from = describe(matrix);
  return g;
}

std::vector<GroupFit> fit_results(const Results& r, int replicates, std::uint64_t seed) {
  std::vector<GroupFit> out;
  for (const auto& [space, dtype] : space_dtype_groups(r)) {
    GroupFit g;
    g.space = space;
    g.dtype = dtype;
    std::string skipped;
    for (const auto& p : r.points) {
      if (p.space != space || p.dtype != dtype) continue;
      if (p.measured()) g.measured = true;
      if (!p.measured() && skipped.empty()) skipped = p.skipped_reason;
    }
    if (!g.measured) {
      g.not_fitted = "not measured: " + skipped;
      out.push_back(std::move(g));
      continue;
    }
    GroupObservations obs = observations_for(r, space, dtype);
    g.bandwidth_from = obs.bandwidth_from;
    g.peak_from = obs.peak_from;
    g.caveats = obs.caveats;
    g.dram_working_set = obs.dram_working_set;
    const bool device = is_device_space(r, space);
    std::vector<const Point*> used;
    try {
      g.fit = fit_roofline_with_bootstrap(obs.roof, replicates, seed);
      used = bandwidth_points_used(obs, g.fit->estimate);
      g.bandwidth_from = describe(used);
      const auto peak_used = peak_points_used(obs, g.fit->estimate);
      g.peak_from = describe(peak_used);
      g.peak_points = indices_in(r, peak_used);
      g.bandwidth_points = indices_in(r, used);
      if (const Point* best = fastest(peak_used, &Point::flops)) g.peak_best = describe({best});
    } catch (const FitError& e) {
      g.not_fitted = std::string("not fitted: ") + e.what();
    }
    set_mixes(r, g, obs, used, device, replicates, seed);
    if (const MixRoof* read = g.mix_roof(TrafficMix::kReadOnly)) {
      g.read_bandwidth = read->roof;
      g.read_bandwidth_from = obs.read_from;
    }
    if (!obs.matrix.empty()) {
      g.matrix = MatrixRoofFit{};
      g.matrix->peak = fit_envelope(obs.matrix, replicates, seed);
      g.matrix->from = obs.matrix_from;
      g.matrix->points = indices_in(r, obs.matrix_points);
      const auto best = std::max_element(
          obs.matrix.begin(), obs.matrix.end(),
          [](const Observation& x, const Observation& y) { return x.rate() < y.rate(); });
      g.matrix->accumulate = point_accumulate(*obs.matrix_points[best - obs.matrix.begin()]);
      set_matrix_ridges(*g.matrix, g);
    }
    out.push_back(std::move(g));
  }
  std::vector<GroupFit*> groups;
  for (auto& g : out) groups.push_back(&g);
  pool_memory_roofs(r, groups, replicates, seed);
  return out;
}

void pool_memory_roofs(const Results& r, const std::vector<GroupFit*>& groups, int replicates,
                       std::uint64_t seed) {
  std::vector<std::string> spaces;
  for (const GroupFit* g : groups)
    if (std::find(spaces.begin(), spaces.end(), g->space) == spaces.end())
      spaces.push_back(g->space);
  const auto point = [&r](std::size_t i) { return &r.points.at(i); };
  for (const std::string& space : spaces) {
    std::vector<GroupFit*> members;
    for (GroupFit* g : groups)
      if (g->space == space) members.push_back(g);
    const bool device = is_device_space(r, space);
    const double dram = dram_working_set_bytes(r, space);
    // Each mix's points and B's, over the members in order (each group's own order kept, so a
    // roof of one dtype's points is exactly the one that dtype's fit made).
    std::vector<std::vector<const Point*>> mix_points(std::size(kTrafficMixes));
    std::vector<const Point*> b_points;
    std::set<std::string> dtypes;  // dtypes with a point in some memory roof
    for (const GroupFit* g : members) {
      for (std::size_t k = 0; k < std::size(kTrafficMixes); ++k)
        if (const MixRoof* m = g->mix_roof(kTrafficMixes[k]))
          for (std::size_t i : m->points) {
            mix_points[k].push_back(point(i));
            dtypes.insert(g->dtype);
          }
      if (!g->fit) continue;
      for (std::size_t i : g->bandwidth_points) b_points.push_back(point(i));
    }
    if (dtypes.size() < 2) continue;  // one dtype's roofs: nothing to pool
    // A group without DRAM-sized B points falls back to smaller sets (observations_for); the
    // device's B is DRAM's wherever some dtype measured DRAM.
    const auto in_dram = [dram](const Point* p) { return dram > 0 && dram_sized(*p, dram); };
    const bool some_dram = std::any_of(b_points.begin(), b_points.end(), in_dram);
    if (some_dram) {
      const auto small = [&in_dram](const Point* p) { return !in_dram(p); };
      b_points.erase(std::remove_if(b_points.begin(), b_points.end(), small), b_points.end());
      for (auto& points : mix_points)
        points.erase(std::remove_if(points.begin(), points.end(), small), points.end());
    }
    std::vector<MixRoof> mixes;
    for (std::size_t k = 0; k < std::size(kTrafficMixes); ++k)
      if (!mix_points[k].empty())
        mixes.push_back(
            mix_roof_of(r, kTrafficMixes[k], mix_points[k], device, replicates, seed, true));
    // B: the envelope of every dtype's B points (the envelope of each dtype's is its own B), with
    // the same repetition bootstrap as each dtype's (fit_envelope redraws every point's
    // repetitions and takes the largest median). With one dtype fitted, its B is its own fit.
    const auto fitted = std::count_if(members.begin(), members.end(),
                                      [](const GroupFit* g) { return g->fit.has_value(); });
    std::optional<LevelFit> b;
    const Point* b_best = fastest(b_points, &Point::bytes);
    if (fitted > 1 && !b_points.empty()) {
      std::vector<Observation> obs;
      for (const Point* p : b_points) obs.push_back(observation_of(*p, Counted::kBytes, false));
      b = fit_envelope(obs, replicates, seed);
    }
    for (GroupFit* g : members) {
      if (!g->fit) continue;  // no vector roofs to hold (a GEMM alone): analyze places its ridge
      g->device_memory_roofs = true;
      g->mixes = mixes;
      g->read_bandwidth.reset();
      g->read_bandwidth_from.clear();
      if (const MixRoof* read = g->mix_roof(TrafficMix::kReadOnly)) {
        g->read_bandwidth = read->roof;
        g->read_bandwidth_from = read->from;
      }
      auto& caveats = g->caveats;
      caveats.erase(std::remove_if(caveats.begin(), caveats.end(),
                                   [some_dram](const std::string& c) {
                                     return c.rfind(kAllocatingBest, 0) == 0 ||
                                            (some_dram && c == kSmallSets);
                                   }),
                    caveats.end());
      if (!b_best) continue;
      g->bandwidth_from = describe(b_points, true);
      set_bandwidth_best(*g, *b_best, device, true);
      if (!b) continue;
      RoofFit& f = *g->fit;
      f.estimate.roof.bandwidth = b->value;
      f.bandwidth_ci = b->ci;
      f.estimate.bandwidth_spread = b->spread;
      f.estimate.memory_points = b->points;
      // P stays the group's; its replicates are paired with the device B's by index (independent
      // draws, as ratio_interval pairs them).
      std::vector<double> ps, bs;
      for (std::size_t i = 0; i < f.replicates.size() && i < b->replicates.size(); ++i) {
        f.replicates[i].bandwidth = b->replicates[i];
        ps.push_back(f.replicates[i].peak_flops);
        bs.push_back(f.replicates[i].bandwidth);
      }
      f.ridge_ci = ratio_interval(ps, bs, f.estimate.roof.ridge_point());
      g->bandwidth_points = indices_in(r, b_points);
      if (g->matrix) set_matrix_ridges(*g->matrix, *g);
    }
  }
}

}  // namespace ridgeline
