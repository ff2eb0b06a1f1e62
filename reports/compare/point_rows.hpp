#pragma once
// Which probe points are compared: each point of the newest history night matched with
// tonight's and each history night's, the ones lost tonight (MISSING), and the ones not compared.
//
// A night may size a point differently from the baseline: the DRAM-sized points (bandwidth
// kernels, the ladder's rungs below 1 FLOP/byte, library calls) run at the night's DRAM plateau
// (harness/sweep/plan_sizes.hpp), and where the host's memory plateau moved (a shared L3 that
// comes and goes: issue 49, a 2-vCPU VM whose plateau search found 256 MiB on five nights, 512 MiB
// and 1 GiB on two others) their names or their work change with it. So:
// - a point whose work (bytes, or FLOPs where it counts no bytes) differs from the baseline's is
//   compared per unit of work: its times are scaled to the baseline's work (a copy the match
//   owns), and the note says so. Same name, other size: the ladder's `fma k:1`.
// - a baseline point on its file's DRAM plateau that another night lacks by name is matched with
//   that night's one point of the same probe, space and dtype on that night's own DRAM plateau
//   (`triad/OpenMP/fp64/n:11184768` with `…/n:44739200`), where each file has exactly one.
// - a baseline point on the DRAM plateau that tonight lacks even so, on a night whose DRAM plateau
//   differs from the baseline's (a cache sweep's largest sets follow the plateau), is not
//   compared rather than MISSING: the DRAM roofs (B, B_read, B_write) are still compared. Only
//   where its name says its size (`ws:268435456`): a point named without it (`fma k:1`) would
//   be found tonight at any size, and missing it is lost (gate-aa's lost `fma k:1` passed on a
//   night whose plateau moved from 256 MiB to 1 GiB before this). And only where tonight ran a
//   point of its probe, space and dtype on tonight's own plateau: the sweep ends there whatever
//   the plateau, so a night with none of them lost them.
// What this can no longer catch: a point named by its size lost on a night the plateau moved,
// where the plateau sizes it and tonight ran another of its kind on its plateau (a cache sweep's
// set between the two plateaus); and per-point speed across sizes assumes the rate does not
// depend on the size on the plateau (the plateau's definition).
#include <cstddef>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "reports/compare/comparison.hpp"
#include "reports/fit/analysis.hpp"
#include "results/results_model.hpp"

namespace ridgeline {

struct PointRow {
  const Point* baseline = nullptr;   // in the newest history night
  const Point* current = nullptr;    // measured tonight
  std::vector<const Point*> nights;  // per history night; null where not measured or verified
  // Where the point's working set lives (mark_levels, compare/shared_level.hpp): why the run does
  // not own its cache level (empty: it does); whether a bimodal history may make it a shared-level
  // point (a memory kernel in a cache level: never the DRAM plateau, a peak point or a library
  // call); tonight's DRAM rate of its traffic mix in byte/s (0: none measured).
  std::string unowned_level;
  bool range_judgeable = false;
  double dram_rate = 0;
  // How nights that sized the point differently were matched and scaled (empty: none did).
  std::string resized;
  // Where tonight's working set lives, for compare.json (point_level, compare/cache_ownership.hpp).
  std::optional<std::string> level;
  // The level, where the cache list gives it to the run alone (private_level): its points are
  // judged together too (compare/level_factors.hpp).
  std::optional<std::string> private_level;
  // The point moves with the host's clock rather than with its memory (mark_clock_driven,
  // compare/level_factors.hpp): a peak point, a private cache level's, or a kernel above its
  // group's ridge in the newest history night. Its relative verdict takes out the factor of such
  // points.
  bool clock_driven = false;
};

struct PointMatch {
  std::vector<PointRow> rows;          // measured and verified in the baseline, measured tonight
  std::vector<MetricComparison> lost;  // MISSING points, in file order with the others below
  std::vector<std::size_t> order;      // per point of `newest` compared: row index or ~lost index
  std::deque<Point> scaled;  // copies of points run at another size, times at the baseline's work
};

// Matches the points of the newest history night (`history.back()`); the ones the baseline
// skipped or did not verify go to c.not_compared.
PointMatch match_points(const std::vector<const FileAnalysis*>& history,
                        const FileAnalysis& current, Comparison& c);

// Tonight's points the newest history night does not have go to c.not_compared.
void note_new_points(const FileAnalysis& newest, const FileAnalysis& current, Comparison& c);

}  // namespace ridgeline
