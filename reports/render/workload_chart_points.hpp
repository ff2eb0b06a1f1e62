#pragma once
// A workload's phases as points on the roofline charts of `report --workload`: each phase at
// its intensity and the attainable FLOP/s of its bound (on the chart of the space × dtype whose
// roofs it was placed on), and with --measured the engine's phases beside them at the FLOP/s
// their measured times give (the phase's FLOP over the median TPOT or TTFT).
#include <string>
#include <vector>

#include "reports/fit/analysis.hpp"
#include "reports/render/svg_chart.hpp"
#include "reports/workloads/workload_request.hpp"

namespace ridgeline {

struct MarkedPoint {
  const FileAnalysis* file = nullptr;  // the host whose chart it goes on
  std::string space, dtype;            // the series there
  ChartPoint point;
};

std::vector<MarkedPoint> workload_chart_points(const WorkloadRequest& request,
                                               const std::vector<const FileAnalysis*>& hosts);

}  // namespace ridgeline
