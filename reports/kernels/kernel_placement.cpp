#include "reports/kernels/kernel_placement.hpp"

#include <algorithm>

#include "core/units.hpp"

namespace ridgeline {
namespace {

const FileAnalysis* roofs_for(const KernelsFile& k, const std::vector<const FileAnalysis*>& roofs,
                              std::string& caveat) {
  for (const FileAnalysis* f : roofs)
    if (f->results.hostname == k.hostname) return f;
  if (roofs.size() == 1) {
    caveat = "kernels ran on " + k.hostname + ", roofs measured on " + roofs[0]->results.hostname;
    return roofs[0];
  }
  return nullptr;
}

// achieved / bound, with a bound of 0 (an interval that reached zero) read as "no upper limit".
double ratio(double achieved, double bound) { return bound > 0 ? achieved / bound : 1e300; }

bool host_space(const std::string& space) {
  return space == "Serial" || space == "OpenMP" || space == "Threads" || space == "HPX";
}

}  // namespace

std::string KernelPlacement::headroom() const {
  if (!placed) return "";
  const std::string pct = format_sig(100 * fraction, 3) + " % of " + bound_by;
  if (fraction > 1)
    return "above the roof at " + pct +
           ": the counts are too low, or the data came from a cache level above DRAM";
  const std::string regime = memory_bound ? "memory-bound" : "compute-bound";
  return regime + " at " + pct + "; " + format_sig(1 / fraction, 2) + "× to the roof";
}

std::vector<KernelPlacement> place_kernels(const KernelsFile& kernels,
                                           const std::vector<const FileAnalysis*>& roofs) {
  std::vector<KernelPlacement> out;
  const double total = kernels.seconds_total();
  std::string host_caveat;
  const FileAnalysis* f = roofs_for(kernels, roofs, host_caveat);
  for (const Kernel& k : kernels.kernels) {
    KernelPlacement p;
    p.kernel = &k;
    p.share_of_time = total > 0 ? k.seconds_total / total : 0;
    if (!k.counts) {
      p.not_placed = k.counter_error.empty()
                         ? "no counts (declare them with ridgeline/annotate.hpp, or import a "
                           "profiler's with --counts)"
                         : "no counts: " + k.counter_error;
      out.push_back(std::move(p));
      continue;
    }
    const KernelCounts& c = *k.counts;
    if (k.median_s > 0) {
      p.flops_per_s = c.flop_per_call / k.median_s;
      p.bytes_per_s = c.bytes_per_call / k.median_s;
    }
    if (c.bytes_per_call > 0) p.intensity = c.flop_per_call / c.bytes_per_call;
    p.group = k.space + " " + c.dtype;
    std::vector<std::string> caveats;
    if (!host_caveat.empty()) caveats.push_back(host_caveat);
    if (!kernels.global_fencing && !host_space(k.space))
      caveats.push_back("times not fenced: an asynchronous space's launch time only");
    for (std::size_t i = 0; i < caveats.size(); ++i) p.caveat += (i ? "; " : "") + caveats[i];
    const GroupAnalysis* g = f ? f->find(k.space, c.dtype) : nullptr;
    if (!f) {
      p.not_placed = "no results file of host " + kernels.hostname;
    } else if (!g) {
      p.not_placed = "no " + p.group + " roofs in " + f->label;
    } else if (!g->fit.fit) {
      p.not_placed = "the " + p.group + " roofs were not fitted (" + g->fit.not_fitted + ")";
    } else if (c.flop_per_call == 0 && c.bytes_per_call == 0) {
      p.not_placed = "its declared counts are zero";
    } else if (k.median_s <= 0) {
      p.not_placed = "its median time per call is zero";
    } else {
      // A roof from a fallback (e.g. B without a DRAM-sized point) is weaker: say so here too.
      if (!g->fit.caveats.empty())
        p.caveat +=
            std::string(p.caveat.empty() ? "" : "; ") + "the roofs carry caveats (see the summary)";
      const RoofFit& fit = *g->fit.fit;
      const Roof& roof = fit.estimate.roof;
      p.placed = true;
      p.roofs = f;
      if (c.flop_per_call == 0) {  // moves data only: held against B itself
        p.memory_bound = true;
        p.attainable = roof.bandwidth;
        p.fraction = *p.bytes_per_s / roof.bandwidth;
        p.fraction_ci = {ratio(*p.bytes_per_s, fit.bandwidth_ci.high),
                         ratio(*p.bytes_per_s, fit.bandwidth_ci.low)};
      } else if (!p.intensity) {  // computes only: held against P
        p.attainable = roof.peak_flops;
        p.fraction = *p.flops_per_s / roof.peak_flops;
        p.fraction_ci = {ratio(*p.flops_per_s, fit.peak_ci.high),
                         ratio(*p.flops_per_s, fit.peak_ci.low)};
      } else {
        const double i = *p.intensity;
        p.memory_bound = roof.memory_bound(i);
        p.attainable = roof.attainable(i);
        p.fraction = *p.flops_per_s / p.attainable;
        // The roof's interval at this intensity: min(P, I·B) at the low and at the high ends.
        const double low = std::min(fit.peak_ci.low, i * fit.bandwidth_ci.low);
        const double high = std::min(fit.peak_ci.high, i * fit.bandwidth_ci.high);
        p.fraction_ci = {ratio(*p.flops_per_s, high), ratio(*p.flops_per_s, low)};
      }
      p.bound_by = p.memory_bound ? "B (DRAM)" : "P";
    }
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace ridgeline
