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

// The threads a host space's roofs were measured with, against the kernels' (as the connector
// could tell them): a 1-thread run held against 2-thread roofs is at half its roof by design.
std::string thread_caveat(const KernelsFile& kernels, const std::string& space,
                          const FileAnalysis& f) {
  if (kernels.host_threads <= 0 || (space != "OpenMP" && space != "Threads" && space != "HPX"))
    return "";
  for (const SpaceInfo& s : f.results.spaces)
    if (s.name == space && s.concurrency != kernels.host_threads)
      return "kernels ran on " + std::to_string(kernels.host_threads) + " thread" +
             (kernels.host_threads == 1 ? "" : "s") + " (" + kernels.host_threads_from +
             "), the roofs on " + std::to_string(s.concurrency);
  return "";
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
    // The mean time per call (totals over calls), the statistic the share of time uses; with
    // per-launch counts, the counted calls' seconds over their counts.
    const double per_call_s = c.seconds_per_call(k.mean_s());
    if (per_call_s > 0) {
      p.flops_per_s = c.flop_per_call / per_call_s;
      p.bytes_per_s = c.bytes_per_call / per_call_s;
    }
    if (c.bytes_per_call > 0) p.intensity = c.flop_per_call / c.bytes_per_call;
    p.group = k.space + " " + c.dtype;
    std::vector<std::string> caveats;
    if (!host_caveat.empty()) caveats.push_back(host_caveat);
    if (!kernels.global_fencing && !host_space(k.space))
      caveats.push_back("times not fenced: an asynchronous space's launch time only");
    if (f) {
      const std::string threads = thread_caveat(kernels, k.space, *f);
      if (!threads.empty()) caveats.push_back(threads);
    }
    const GroupAnalysis* g = f ? f->find(k.space, c.dtype) : nullptr;
    // A roof from a fallback (e.g. B without a DRAM-sized point) is weaker: its own words here,
    // where the kernel is read, not a pointer to another section.
    if (g && g->fit.fit)
      for (const std::string& roof_caveat : g->fit.caveats)
        caveats.push_back("roof: " + roof_caveat);
    for (std::size_t i = 0; i < caveats.size(); ++i) p.caveat += (i ? "; " : "") + caveats[i];
    if (!f) {
      p.not_placed = "no results file of host " + kernels.hostname;
    } else if (!g) {
      p.not_placed = "no " + p.group + " roofs in " + f->label;
    } else if (!g->fit.fit) {
      p.not_placed = "the " + p.group + " roofs were not fitted (" + g->fit.not_fitted + ")";
    } else if (c.flop_per_call == 0 && c.bytes_per_call == 0) {
      p.not_placed = "its declared counts are zero";
    } else if (per_call_s <= 0) {
      p.not_placed = "its time per call is zero";
    } else {
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
  // Hottest first, as a profiler lists them; ties keep the file's order.
  std::stable_sort(out.begin(), out.end(), [](const KernelPlacement& a, const KernelPlacement& b) {
    return a.kernel->seconds_total > b.kernel->seconds_total;
  });
  return out;
}

std::string placement_tally(const std::vector<KernelPlacement>& placements) {
  std::size_t placed = 0;
  double placed_share = 0;
  std::vector<std::pair<std::string, std::size_t>> reasons;  // in first-seen order
  for (const KernelPlacement& p : placements) {
    if (p.placed) {
      ++placed;
      placed_share += p.share_of_time;
      continue;
    }
    auto it = std::find_if(reasons.begin(), reasons.end(),
                           [&](const auto& r) { return r.first == p.not_placed; });
    if (it == reasons.end())
      reasons.emplace_back(p.not_placed, 1);
    else
      ++it->second;
  }
  std::stable_sort(reasons.begin(), reasons.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string out = "placed " + std::to_string(placed) + " of " +
                    std::to_string(placements.size()) + " kernels (" +
                    format_sig(100 * placed_share, 3) + " % of kernel time)";
  for (std::size_t i = 0; i < reasons.size(); ++i)
    out +=
        (i ? ", " : "; not placed: ") + std::to_string(reasons[i].second) + " " + reasons[i].first;
  return out;
}

}  // namespace ridgeline
