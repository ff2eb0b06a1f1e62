#pragma once
// report.md: summary per space × dtype first, then comparison, memory levels, library roofs,
// per-probe tables, what was not fitted, methods and provenance.
#include <string>
#include <vector>

#include "reports/fit/analysis.hpp"
#include "reports/machines/machine_profile.hpp"

namespace ridgeline {

struct ChartLink {
  std::string host;
  std::string file;    // relative to report.md
  bool small = false;  // one space × dtype (host then names it too), shown after the overviews
};

// `jobs_section`: markdown on MPI jobs (render/devices_markdown.hpp), placed after the summary;
// `workload_section` (render/workload_markdown.hpp) follows it.
std::string render_report_markdown(const std::vector<FileAnalysis>& files,
                                   const std::vector<ChartLink>& charts,
                                   const std::vector<MachineProfile>& profiles,
                                   const std::string& jobs_section = "",
                                   const std::string& workload_section = "");

}  // namespace ridgeline
