#pragma once
// Which charts a report draws, and their SVG: one per machine (a GPU run's GPU, else its host:
// machine_name) with every file of it (several files: their DRAM roofs only; one file: its memory
// levels too), one small chart per space × dtype of a machine, and one of all machines when there
// are several. File names are unique and safe for any machine name.
#include <string>
#include <vector>

#include "reports/fit/analysis.hpp"
#include "reports/render/kernels_markdown.hpp"
#include "reports/render/report_markdown.hpp"
#include "reports/render/workload_chart_points.hpp"

namespace ridgeline {

struct ReportCharts {
  std::vector<ChartLink> links;   // what the report links, in order
  std::vector<std::string> svgs;  // the chart of each link
};

// `marks`: further labelled points (a workload's phases) on the series of their file, space and
// dtype.
ReportCharts plan_report_charts(const std::vector<FileAnalysis>& files,
                                const std::vector<PlacedKernelsFile>& kernels,
                                const std::vector<MarkedPoint>& marks = {});

}  // namespace ridgeline
