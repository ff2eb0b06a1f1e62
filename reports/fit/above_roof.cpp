#include "reports/fit/above_roof.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "core/stats.hpp"
#include "core/units.hpp"
#include "reports/fit/roof_roles.hpp"
#include "reports/levels/memory_levels.hpp"
#include "reports/roofline/roofline_fit.hpp"
#include "results/probe_catalog.hpp"

namespace ridgeline {
namespace {

// The roof that bounds a point, and that roof at the top of its 95 % intervals (a point below it
// is above the estimate only).
struct PointRoof {
  Roof roof{0, 0}, high{0, 0};
  std::string memory_name;  // the memory roof's name
  bool matrix = false;
  // The points each side is the envelope of (indices into the file's points, as the fits give
  // them; a memory roof's of any dtype of the space); empty where the fit names none (a GEMM's
  // memory side, which is the highest memory roof measured).
  std::vector<std::size_t> peak_points, memory_points;
};

struct MemoryRoof {
  double value = 0, high = 0;
  std::string name;
  std::vector<std::size_t> points;
};

// The highest memory roof of the group: B and every mix's envelope.
MemoryRoof highest_memory_roof(const GroupFit& g) {
  MemoryRoof m;
  if (g.fit)
    m = {g.fit->estimate.roof.bandwidth, g.fit->bandwidth_ci.high, "B", g.bandwidth_points};
  for (const auto& r : g.mixes)
    if (!reads_and_writes(r.mix) && r.roof.value > m.value)
      m = {r.roof.value, r.roof.ci.high, mix_roof_name(r.mix), r.points};
  return m;
}

// The memory roof of the point's traffic mix: B (the envelope of the mixes that read and write)
// for those, B_read or B_write for one direction, the group's highest memory roof otherwise.
MemoryRoof memory_roof_of(const Point& p, const GroupFit& g) {
  const std::optional<TrafficMix> mix = traffic_mix(p);
  if (mix && reads_and_writes(*mix) && g.fit)
    return {g.fit->estimate.roof.bandwidth, g.fit->bandwidth_ci.high, "B", g.bandwidth_points};
  if (mix && !reads_and_writes(*mix))
    if (const MixRoof* r = g.mix_roof(*mix))
      return {r->roof.value, r->roof.ci.high, mix_roof_name(*mix), r->points};
  return highest_memory_roof(g);
}

std::optional<PointRoof> roof_for(const FileAnalysis& a, const GroupAnalysis& g, const Point& p) {
  PointRoof r;
  // A point on matrix units is held against P_matrix (the envelope of such points, so only a
  // roof made from other repetitions than the point's own can lie below it), the others
  // against P.
  r.matrix = is_tensor_point(p);
  if (r.matrix ? !g.fit.matrix : !g.fit.fit) return std::nullopt;
  if (r.matrix) {
    const MatrixRoofFit& m = *g.fit.matrix;
    // Without a B (a tf32 group) the matrix roof bounds by its peak only. A GEMM has no mix of
    // its own: the highest memory roof measured, B_read included (weight-streaming GEMMs read).
    const std::optional<Roof> mr = g.fit.matrix_roof();
    const double b = mr ? mr->bandwidth : 1e300;
    const GroupAnalysis* bg = a.find(p.space, m.read_bandwidth_dtype);
    const double b_read = bg && bg->fit.read_bandwidth ? bg->fit.read_bandwidth->value : 0.0;
    r.roof = {m.peak.value, std::max(b, b_read)};
    r.high = {m.peak.ci.high, r.roof.bandwidth};
    r.memory_name = b_read > b ? "B_read" : "B";
    r.peak_points = m.points;
  } else {
    const RoofFit& fit = *g.fit.fit;
    const MemoryRoof mem = memory_roof_of(p, g.fit);
    r.roof = {fit.estimate.roof.peak_flops, mem.value};
    r.high = {fit.peak_ci.high, std::max(mem.high, mem.value)};
    r.memory_name = mem.name;
    r.peak_points = g.fit.peak_points;
    r.memory_points = mem.points;
  }
  return r;
}

// A point's rate in each round it ran in (count / the median of that round's samples).
std::map<int, double> round_rates(const Point& p, double count) {
  std::map<int, std::vector<double>> samples;
  if (p.sample_rounds.size() != p.samples.size()) return {};
  for (std::size_t i = 0; i < p.samples.size(); ++i)
    samples[p.sample_rounds[i]].push_back(p.samples[i]);
  std::map<int, double> rates;
  for (const auto& [round, s] : samples) rates[round] = count / median(s);
  return rates;
}

// The point against its roof round by round: in each round both ran in, its rate over the
// fastest of the roof's points in that round (the roof's envelope then); the median of those
// ratios over the rounds. A machine that swings between rounds (these VMs, 2x within minutes)
// moves a point's median and the roof's points' medians apart when their samples fell in
// different phases; within a round they ran minutes apart at most. Nullopt with fewer than two
// rounds shared: then the plain ratio is all there is.
std::optional<RoundRatio> per_round_ratio(const FileAnalysis& a, const Point& p,
                                          const PointRoof& roof, bool peak_side) {
  // The fits index the file's points (a memory roof's may be of other dtypes of the space).
  const std::vector<Point>& file = a.results.points;
  const double Point::*count = peak_side ? &Point::flops : &Point::bytes;
  const std::vector<std::size_t>& points = peak_side ? roof.peak_points : roof.memory_points;
  if (p.*count <= 0 || points.empty()) return std::nullopt;
  std::map<int, double> envelope;
  for (std::size_t i : points) {
    if (i >= file.size()) continue;
    const Point& c = file[i];
    for (const auto& [round, rate] : round_rates(c, c.*count))
      envelope[round] = std::max(envelope[round], rate);
  }
  std::vector<double> ratios;
  for (const auto& [round, rate] : round_rates(p, p.*count))
    if (const auto e = envelope.find(round); e != envelope.end() && e->second > 0)
      ratios.push_back(rate / e->second);
  if (ratios.size() < 2) return std::nullopt;
  return RoundRatio{median(ratios), static_cast<int>(ratios.size())};
}

bool is_peak_side(const AboveRoof& above) {
  return above.roof_name == "P" || above.roof_name == "P_matrix";
}

// The point against its roof (no reason yet); nullopt when it has no rate to hold.
std::optional<AboveRoof> held_against(const Point& p, const PointRoof& r) {
  AboveRoof above;
  above.point = &p;
  const Roof& roof = r.roof;
  if (p.flops_per_s && p.intensity) {
    above.measured = *p.flops_per_s;
    above.roof = roof.attainable(*p.intensity);
    above.roof_high = r.high.attainable(*p.intensity);
    above.roof_name = roof.memory_bound(*p.intensity) ? r.memory_name : r.matrix ? "P_matrix" : "P";
  } else if (p.flops_per_s && (defines_peak(p.family) || r.matrix)) {
    above.measured = *p.flops_per_s;
    above.roof = roof.peak_flops;
    above.roof_high = r.high.peak_flops;
    above.roof_name = r.matrix ? "P_matrix" : "P";
  } else if (p.bytes_per_s) {
    above.flops = false;
    above.measured = *p.bytes_per_s;
    above.roof = roof.bandwidth;
    above.roof_high = r.high.bandwidth;
    above.roof_name = r.memory_name;
  } else {
    return std::nullopt;
  }
  above.ratio = above.measured / above.roof;
  return above;
}

// Below the ridge the DRAM roof bounds only working sets that DRAM holds: the level that holds a
// smaller one, else empty.
std::string cache_reason(const FileAnalysis& a, const GroupAnalysis& g, const Point& p,
                         const PointRoof& r, const AboveRoof& above) {
  const bool memory_side = !above.flops || (p.intensity && r.roof.memory_bound(*p.intensity));
  const double dram = g.fit.dram_working_set;
  if (!memory_side || defines_peak(p.family) || p.working_set_bytes <= 0 ||
      (dram > 0 && dram_sized(p, dram)))
    return "";
  const auto caps = cache_capacities(a.results, p.space);
  const auto holds = std::find_if(caps.begin(), caps.end(), [&p](const CacheCapacity& c) {
    return p.working_set_bytes <= c.bytes;
  });
  if (holds == caps.end()) return "working set below 4x the last-level cache: partly cached";
  // "the 32 MiB L3 (LLC)", "the 256 KiB L1 of each unit" (a GPU's: every SM reads the whole set).
  const std::string level = "the " + format_size_bytes(holds->bytes) + " " + holds->name +
                            (holds->per_unit ? " of each unit" : "");
  // A GPU file from before the context recorded the SMs' L1 names its L2 first: a set that small
  // may be the L1's (the H200's 4–128 KiB sets ran at 3.6 × its L2 plateau).
  if (holds == caps.begin() && !holds->per_unit && is_device_space(a.results, p.space))
    return "working set fits in " + level +
           ", or in an L1 the file records no size for: cache-resident";
  return "working set fits in " + level + ": cache-resident";
}

}  // namespace

std::vector<AboveRoof> points_above_roof(const FileAnalysis& a, double margin) {
  std::vector<AboveRoof> out;
  for (const auto& p : a.results.points) {
    if (!p.measured() || !p.verified) continue;
    // On-chip scratch is faster than DRAM by design: the DRAM roofs do not bound it.
    if (on_chip(p.family)) continue;
    const GroupAnalysis* g = a.find(p.space, p.dtype);
    if (!g) continue;
    const std::optional<PointRoof> r = roof_for(a, *g, p);
    if (!r) continue;
    std::optional<AboveRoof> above = held_against(p, *r);
    if (!above || above->ratio <= 1 + margin) continue;
    above->reason = cache_reason(a, *g, p, *r, *above);
    // Round by round first: where the file has rounds, it says why the point is above the
    // estimate (and the roof's interval is then wide for the same reason).
    above->per_round = per_round_ratio(a, p, *r, is_peak_side(*above));
    if (above->reason.empty() && above->per_round && above->per_round->ratio <= 1 + margin)
      above->reason = fmt::format(
          "{:.2f} × the roof in the same rounds (median over {} rounds): the machine's speed "
          "changed between rounds, and this point's median and the roof's came from different "
          "phases",
          above->per_round->ratio, above->per_round->rounds);
    if (above->reason.empty() && above->measured <= above->roof_high)
      above->reason = "within the roof's " + confidence_label() +
                      " interval (the repetitions that define it vary)";
    out.push_back(*above);
  }
  return out;
}

std::vector<AboveRoof> points_above_roof_beyond_noise(const FileAnalysis& a, int replicates,
                                                      std::uint64_t seed) {
  std::vector<AboveRoof> out;
  for (const auto& p : a.results.points) {
    if (!p.measured() || !p.verified || p.samples.empty()) continue;
    const GroupAnalysis* g = a.find(p.space, p.dtype);
    if (!g) continue;
    const std::optional<PointRoof> r = roof_for(a, *g, p);
    if (!r) continue;
    std::optional<AboveRoof> above = held_against(p, *r);
    // Only a point above the top of the roof's interval can be above it beyond noise.
    if (!above || above->measured <= above->roof_high) continue;
    if (!cache_reason(a, *g, p, *r, *above).empty()) continue;
    // Not above the roof's points in the rounds it shared with them: the excess of its median
    // is the machine's swing between rounds, not more than the roof.
    above->per_round = per_round_ratio(a, p, *r, is_peak_side(*above));
    if (above->per_round && above->per_round->ratio <= 1) continue;
    Observation o;
    o.count = above->flops ? p.flops : p.bytes;
    o.samples = p.samples;
    above->measured_ci = fit_envelope({o}, replicates, seed).ci;
    if (above->measured_ci.low <= above->roof_high) continue;
    out.push_back(*above);
  }
  return out;
}

}  // namespace ridgeline
