#include "fit/above_roof.hpp"

#include <algorithm>

#include "fit/roof_roles.hpp"
#include "levels/memory_levels.hpp"

namespace ridgeline {

std::vector<AboveRoof> points_above_roof(const FileAnalysis& a, double margin) {
  std::vector<AboveRoof> out;
  for (const auto& p : a.results.points) {
    if (!p.measured() || !p.verified) continue;
    // On-chip scratch is faster than DRAM by design: the DRAM roofs do not bound it.
    if (p.family == "sram") continue;
    const GroupAnalysis* g = a.find(p.space, p.dtype);
    if (!g) continue;
    // A point on matrix units is held against P_matrix (the envelope of such points, so only a
    // roof made from other repetitions than the point's own can lie below it), the others
    // against P. The memory roof is the higher of B and B_read: every point, whatever its mix of
    // reads and writes, must lie below the highest roof the machine was measured to have.
    const bool matrix = is_tensor_point(p);
    if (matrix ? !g->fit.matrix : !g->fit.fit) continue;
    const auto& read = g->fit.read_bandwidth;
    Roof roof{0, 0}, high{0, 0};  // the roof at the top of its 95 % intervals: a point below it
                                  // is above the estimate only
    if (matrix) {
      const MatrixRoofFit& m = *g->fit.matrix;
      // Without a B (a tf32 group) the matrix roof bounds by its peak only.
      const std::optional<Roof> mr = g->fit.matrix_roof();
      const double b = mr ? mr->bandwidth : 1e300;
      const GroupAnalysis* bg = a.find(p.space, m.read_bandwidth_dtype);
      const double b_read = bg && bg->fit.read_bandwidth ? bg->fit.read_bandwidth->value : 0.0;
      roof = {m.peak.value, std::max(b, b_read)};
      high = {m.peak.ci.high, roof.bandwidth};
    } else {
      const RoofFit& fit = *g->fit.fit;
      roof = {fit.estimate.roof.peak_flops,
              std::max(fit.estimate.roof.bandwidth, read ? read->value : 0.0)};
      high = {fit.peak_ci.high, std::max(fit.bandwidth_ci.high, read ? read->ci.high : 0.0)};
    }
    AboveRoof above;
    above.point = &p;
    if (p.flops_per_s && p.intensity) {
      above.measured = *p.flops_per_s;
      above.roof = roof.attainable(*p.intensity);
    } else if (p.flops_per_s && (p.family == "peak" || matrix)) {
      above.measured = *p.flops_per_s;
      above.roof = roof.peak_flops;
    } else if (p.bytes_per_s) {
      above.flops = false;
      above.measured = *p.bytes_per_s;
      above.roof = roof.bandwidth;
    } else {
      continue;
    }
    above.ratio = above.measured / above.roof;
    if (above.ratio <= 1 + margin) continue;
    const double roof_high = !above.flops                         ? high.bandwidth
                             : p.family == "peak" || !p.intensity ? high.peak_flops
                                                                  : high.attainable(*p.intensity);
    // Below the ridge the DRAM roof bounds only working sets that DRAM holds.
    const bool memory_side = !above.flops || (p.intensity && roof.memory_bound(*p.intensity));
    const double dram = g->fit.dram_working_set;
    if (memory_side && p.family != "peak" && p.working_set_bytes > 0 &&
        !(dram > 0 && dram_sized(p, dram))) {
      const std::string level = cache_level_holding(a.results, p.space, p.working_set_bytes);
      above.reason = level.empty() ? "working set below 4x the last-level cache: partly cached"
                                   : "working set fits in " + level + ": cache-resident";
    } else if (above.measured <= roof_high) {
      above.reason = "within the roof's 95 % interval (the repetitions that define it vary)";
    }
    out.push_back(above);
  }
  return out;
}

}  // namespace ridgeline
