#pragma once
// An engine's measured times held against the speed of light of the same shapes: the share of
// the bound it reaches. A measured time below the bound's fastest end (the roofs' interval) is
// an error in the model, the roofs or the file, never a share above 100 %.
#include <optional>
#include <vector>

#include "reports/workloads/engine_benchmark.hpp"
#include "reports/workloads/workload_table.hpp"

namespace ridgeline {

struct HostShare {
  RoofValue bound_s;         // the phase's time at the speed of light, its interval from the roofs'
  double share = 0;          // bound_s.value / the measured median (< 1 unless above_bound)
  bool above_bound = false;  // measured faster than bound_s.ci.low: something is wrong
};

struct EngineShareRow {
  MeasuredPhase measured;
  std::vector<std::optional<HostShare>> hosts;  // as the table's; nullopt: not measured there
};

// One row per mapped phase of the request's engine run (none without --measured).
std::vector<EngineShareRow> engine_shares(const WorkloadRequest& request,
                                          const WorkloadTable& table);

}  // namespace ridgeline
