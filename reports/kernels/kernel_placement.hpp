#pragma once
// Each kernel of a kernels file held against the fitted roofs of its execution space × dtype:
// its intensity and achieved rates from the declared counts and its mean fenced time per call
// (the counted calls' seconds over their counts, where the counts varied per launch),
// the roof that bounds it at that intensity, and its fraction of that roof with the interval
// carried from the roof's bootstrap interval.
#include <optional>
#include <string>
#include <vector>

#include "reports/fit/analysis.hpp"
#include "results/kernels_file.hpp"

namespace ridgeline {

struct KernelPlacement {
  const Kernel* kernel = nullptr;
  double share_of_time = 0;  // of all kernels' time in its file
  // From the counts (when declared): per second at the mean time per call.
  std::optional<double> intensity;  // FLOP/byte; nullopt when no bytes are counted
  std::optional<double> flops_per_s, bytes_per_s;
  // Placed when counts were declared and the results file has fitted roofs for its group.
  bool placed = false;
  std::string not_placed;               // why not, in words
  const FileAnalysis* roofs = nullptr;  // the results file it was held against
  std::string group;                    // "OpenMP fp64"
  std::string bound_by;                 // "B (DRAM)" or "P"
  bool memory_bound = false;
  double attainable = 0;  // the roof at its intensity: FLOP/s, or byte/s for a kernel without FLOPs
  double fraction = 0;    // achieved / attainable
  Interval fraction_ci;   // from the roof's interval (P and B bootstrap bounds)
  std::string caveat;     // e.g. roofs of another host, times without fencing
  std::string headroom() const;  // "memory-bound at 43 % of B (DRAM); 2.3× to the roof"
};

// `roofs` are the analysed results files; a kernels file is held against the one of its host,
// or against the only one there is (with a caveat naming both hosts). Hottest kernel first.
std::vector<KernelPlacement> place_kernels(const KernelsFile& kernels,
                                           const std::vector<const FileAnalysis*>& roofs);

// "placed 3 of 150 kernels (62.0 % of kernel time); not placed: 140 no counts (...), 7 no OpenMP
// fp32 roofs in r.json": the count, and the reasons grouped, most frequent first.
std::string placement_tally(const std::vector<KernelPlacement>& placements);

}  // namespace ridgeline
