#include "reports/fit/above_roof.hpp"

#include <algorithm>

#include "reports/fit/roof_roles.hpp"
#include "reports/fit/roofline_fit.hpp"
#include "reports/levels/memory_levels.hpp"

namespace ridgeline {
namespace {

// The roof that bounds a point, and that roof at the top of its 95 % intervals (a point below it
// is above the estimate only).
struct PointRoof {
  Roof roof{0, 0}, high{0, 0};
  std::string memory_name;  // the memory roof's name
  bool matrix = false;
};

struct MemoryRoof {
  double value = 0, high = 0;
  std::string name;
};

// The highest memory roof of the group: B and every mix's envelope.
MemoryRoof highest_memory_roof(const GroupFit& g) {
  MemoryRoof m;
  if (g.fit) m = {g.fit->estimate.roof.bandwidth, g.fit->bandwidth_ci.high, "B"};
  for (const auto& r : g.mixes)
    if (!reads_and_writes(r.mix) && r.roof.value > m.value)
      m = {r.roof.value, r.roof.ci.high, mix_roof_name(r.mix)};
  return m;
}

// The memory roof of the point's traffic mix: B (the envelope of the mixes that read and write)
// for those, B_read or B_write for one direction, the group's highest memory roof otherwise.
MemoryRoof memory_roof_of(const Point& p, const GroupFit& g) {
  const std::optional<TrafficMix> mix = traffic_mix(p);
  if (mix && reads_and_writes(*mix) && g.fit)
    return {g.fit->estimate.roof.bandwidth, g.fit->bandwidth_ci.high, "B"};
  if (mix && !reads_and_writes(*mix))
    if (const MixRoof* r = g.mix_roof(*mix))
      return {r->roof.value, r->roof.ci.high, mix_roof_name(*mix)};
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
  } else {
    const RoofFit& fit = *g.fit.fit;
    const MemoryRoof mem = memory_roof_of(p, g.fit);
    r.roof = {fit.estimate.roof.peak_flops, mem.value};
    r.high = {fit.peak_ci.high, std::max(mem.high, mem.value)};
    r.memory_name = mem.name;
  }
  return r;
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
  } else if (p.flops_per_s && (p.family == "peak" || r.matrix)) {
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
  if (!memory_side || p.family == "peak" || p.working_set_bytes <= 0 ||
      (dram > 0 && dram_sized(p, dram)))
    return "";
  const std::string level = cache_level_holding(a.results, p.space, p.working_set_bytes);
  return level.empty() ? "working set below 4x the last-level cache: partly cached"
                       : "working set fits in " + level + ": cache-resident";
}

}  // namespace

std::vector<AboveRoof> points_above_roof(const FileAnalysis& a, double margin) {
  std::vector<AboveRoof> out;
  for (const auto& p : a.results.points) {
    if (!p.measured() || !p.verified) continue;
    // On-chip scratch is faster than DRAM by design: the DRAM roofs do not bound it.
    if (p.family == "sram") continue;
    const GroupAnalysis* g = a.find(p.space, p.dtype);
    if (!g) continue;
    const std::optional<PointRoof> r = roof_for(a, *g, p);
    if (!r) continue;
    std::optional<AboveRoof> above = held_against(p, *r);
    if (!above || above->ratio <= 1 + margin) continue;
    above->reason = cache_reason(a, *g, p, *r, *above);
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
