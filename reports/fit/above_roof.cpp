#include "fit/above_roof.hpp"

#include <algorithm>

#include "fit/roof_roles.hpp"
#include "levels/memory_levels.hpp"

namespace ridgeline {

std::vector<AboveRoof> points_above_roof(const FileAnalysis& a, double margin) {
  std::vector<AboveRoof> out;
  for (const auto& p : a.results.points) {
    if (!p.measured() || !p.verified) continue;
    // Tensor/matrix units are not what P measures (vector FMAs): their own roof is in the
    // report's tensor table, against the sheet.
    if (is_tensor_point(p)) continue;
    const GroupAnalysis* g = a.find(p.space, p.dtype);
    if (!g || !g->fit.fit) continue;
    // The memory roof is the higher of B and B_read: every point, whatever its mix of reads and
    // writes, must lie below the highest roof the machine was measured to have.
    const RoofFit& fit = *g->fit.fit;
    const auto& read = g->fit.read_bandwidth;
    const Roof roof{fit.estimate.roof.peak_flops,
                    std::max(fit.estimate.roof.bandwidth, read ? read->value : 0.0)};
    // The roof at the top of its 95 % intervals: a point below it is above the estimate only.
    const Roof high{fit.peak_ci.high, std::max(fit.bandwidth_ci.high, read ? read->ci.high : 0.0)};
    AboveRoof above;
    above.point = &p;
    if (p.flops_per_s && p.intensity) {
      above.measured = *p.flops_per_s;
      above.roof = roof.attainable(*p.intensity);
    } else if (p.flops_per_s && p.family == "peak") {
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
    const double roof_high = !above.flops         ? high.bandwidth
                             : p.family == "peak" ? high.peak_flops
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
