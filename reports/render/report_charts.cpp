#include "reports/render/report_charts.hpp"

#include <algorithm>
#include <cctype>
#include <utility>

#include "reports/render/host_labels.hpp"
#include "reports/render/svg_chart.hpp"
#include "results/probe_catalog.hpp"

namespace ridgeline {
namespace {

std::string file_safe(const std::string& s) {
  std::string out;
  for (char c : s)
    out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.') ? c : '_';
  return out;
}

// roofline-<name>.svg, numbered when taken: host names that differ only in characters a file
// name cannot hold (or a host called "all") must not overwrite each other's chart.
std::string unique_chart_file(const std::vector<ChartLink>& taken, const std::string& name) {
  std::string file = "roofline-" + name + ".svg";
  for (int n = 2; std::any_of(taken.begin(), taken.end(),
                              [&file](const ChartLink& l) { return l.file == file; });
       ++n)
    file = "roofline-" + name + "-" + std::to_string(n) + ".svg";
  return file;
}

// The series of one file, or of its one space × dtype when `only` is given (small charts).
std::vector<ChartSeries> chart_series(const FileAnalysis& f, int marker, bool with_file,
                                      bool with_levels, const GroupAnalysis* only = nullptr,
                                      const std::vector<PlacedKernelsFile>& kernels = {},
                                      const std::vector<MarkedPoint>& marks = {}) {
  std::vector<ChartSeries> out;
  for (const auto& g : f.groups) {
    if (!g.fit.fit || (only && (g.fit.space != only->fit.space || g.fit.dtype != only->fit.dtype)))
      continue;
    ChartSeries s;
    s.label = (with_file ? f.label + " " : std::string()) + g.fit.space + " " + g.fit.dtype;
    s.roof = g.fit.fit->estimate.roof;
    if (g.fit.matrix_roof()) s.matrix_peak = g.fit.matrix->peak.value;
    s.marker = marker;
    if (with_levels) {
      // The top of the pyramid: the on-chip scratch's fastest verified point (a hierarchical
      // roofline draws every level, SRAM included).
      double sram = 0;
      for (const Point* p : f.points_of(g.fit.space, g.fit.dtype))
        if (on_chip(p->family) && p->measured() && p->verified && p->bytes_per_s)
          sram = std::max(sram, *p->bytes_per_s);
      if (sram > 0) s.levels.push_back({"SRAM", sram});
    }
    if (with_levels && !g.levels.empty())
      for (const auto& l : g.levels.front().levels)
        if (!l.transition) s.levels.push_back({l.name, l.bandwidth});  // a transition is no roof
    if (g.fit.read_bandwidth) s.levels.push_back({"B_read", g.fit.read_bandwidth->value});
    for (const Point* p : f.points_of(g.fit.space, g.fit.dtype))
      if (p->measured() && p->verified && p->intensity && p->flops_per_s &&
          !level_probe(p->family) && !defines_peak(p->family))
        // Register-only peak points sit at intensities of millions (one store per work item);
        // they are shown by the fitted P roof instead of stretching the axis. Cache and SRAM
        // points are memory levels above the DRAM roof, listed in their own tables.
        s.points.push_back({*p->intensity, *p->flops_per_s, library_ceiling(p->family),
                            library_ceiling(p->family) ? p->probe : std::string()});
    // An application's kernels held against this group's roofs (with an intensity to draw).
    for (const PlacedKernelsFile& k : kernels)
      for (const KernelPlacement& p : k.placements)
        if (p.placed && p.roofs == &f && p.intensity && *p.intensity > 0 &&
            p.group == g.fit.space + " " + g.fit.dtype)
          s.points.push_back({*p.intensity, *p.flops_per_s, false, p.kernel->label, true});
    for (const MarkedPoint& m : marks)
      if (m.file == &f && m.space == g.fit.space && m.dtype == g.fit.dtype)
        s.points.push_back(m.point);
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace

ReportCharts plan_report_charts(const std::vector<FileAnalysis>& files,
                                const std::vector<PlacedKernelsFile>& kernels,
                                const std::vector<MarkedPoint>& marks) {
  // One chart per machine: a GPU run is its GPU's, whatever its host is called (machine_name).
  std::vector<std::string> hosts;
  for (const auto& f : files)
    if (std::find(hosts.begin(), hosts.end(), machine_name(f.results)) == hosts.end())
      hosts.push_back(machine_name(f.results));
  ReportCharts charts;
  std::vector<ChartLink>& links = charts.links;
  std::vector<std::string>& svgs = charts.svgs;
  const bool several = files.size() > 1;
  for (const auto& host : hosts) {
    std::vector<std::size_t> of_host;
    for (std::size_t i = 0; i < files.size(); ++i)
      if (machine_name(files[i].results) == host) of_host.push_back(i);
    // Memory-level roofs of several files on one chart hide the roofs; the small charts keep them.
    std::vector<ChartSeries> series;
    for (std::size_t i : of_host)
      for (auto& s : chart_series(files[i], int(i), several, !several, nullptr, kernels, marks))
        series.push_back(std::move(s));
    if (series.empty()) continue;  // nothing fitted: the report's tables say what was measured
    links.push_back({host, unique_chart_file(links, file_safe(host)), false});
    svgs.push_back(render_roofline_svg("ridgeline roofline: " + host, series));
    // One small chart per space × dtype of this host, its files side by side.
    std::vector<std::pair<std::string, std::string>> done;
    for (std::size_t i : of_host)
      for (const auto& g : files[i].groups) {
        const std::pair<std::string, std::string> key{g.fit.space, g.fit.dtype};
        if (!g.fit.fit || std::find(done.begin(), done.end(), key) != done.end()) continue;
        done.push_back(key);
        std::vector<ChartSeries> small;
        for (std::size_t j : of_host)
          for (auto& s : chart_series(files[j], int(j), of_host.size() > 1, of_host.size() == 1, &g,
                                      kernels, marks))
            small.push_back(std::move(s));
        const std::string what = host + " " + g.fit.space + " " + g.fit.dtype;
        links.push_back(
            {what,
             unique_chart_file(links, file_safe(host + "-" + g.fit.space + "-" + g.fit.dtype)),
             true});
        svgs.push_back(render_roofline_svg(what, small, ChartSize::small));
      }
  }
  if (std::count_if(links.begin(), links.end(), [](const ChartLink& l) { return !l.small; }) > 1) {
    std::vector<ChartSeries> series;
    for (std::size_t i = 0; i < files.size(); ++i)
      for (auto& s : chart_series(files[i], int(i), true, false)) series.push_back(std::move(s));
    links.push_back({"all hosts", unique_chart_file(links, "all"), false});
    svgs.push_back(render_roofline_svg("ridgeline roofline: all hosts", series));
  }
  return charts;
}

}  // namespace ridgeline
