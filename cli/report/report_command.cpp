#include "cli/report/report_command.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include "cli/report/counts_option.hpp"
#include "cli/report/workload_options.hpp"
#include "core/input_error.hpp"
#include "reports/fit/analysis.hpp"
#include "reports/kernels/kernel_placement.hpp"
#include "reports/render/devices_markdown.hpp"
#include "reports/render/engine_markdown.hpp"
#include "reports/render/host_labels.hpp"
#include "reports/render/kernels_markdown.hpp"
#include "reports/render/report_charts.hpp"
#include "reports/render/report_markdown.hpp"
#include "reports/render/workload_markdown.hpp"
#include "reports/workloads/phase_roofs.hpp"
#include "results/device_split.hpp"
#include "results/results_file.hpp"

namespace ridgeline {
namespace {

struct ReportOptions {
  std::vector<std::string> files;
  std::vector<std::string> kernels;  // kernels files of libridgeline-kp.so
  std::vector<std::string> counts;   // profilers' counter files, joined with the kernels files
  std::string out = ".";
  WorkloadOptions workload;
};

int run_report(const ReportOptions& o) {
  // The workload's options are checked before any file is fitted.
  check_workload_options(o.workload);
  std::optional<WorkloadRequest> workload;
  if (!o.workload.workload.empty()) workload = make_workload_request(o.workload);
  std::vector<FileAnalysis> files;
  struct Job {
    std::string file, mode;
    int ranks = 0;
    std::size_t first = 0, count = 0;  // its devices in `files`
  };
  std::vector<Job> jobs;
  for (const auto& path : o.files) {
    Results results = load_results(path);
    // An MPI job's file: each device is analysed as a file of its own.
    if (results.mpi_size > 0)
      jobs.push_back({path, results.mpi_mode, results.mpi_size, files.size(), 0});
    for (Results& device : split_by_device(std::move(results))) {
      files.push_back(analyze(std::move(device)));
      if (!jobs.empty() && jobs.back().file == path) ++jobs.back().count;
    }
    if (!jobs.empty() && jobs.back().file == path && jobs.back().count == 0)
      throw InputError(path, "points", "an MPI job's file without a measured point");
    require_some_measured(files.back());
  }
  label_by_machine(files);
  // Kernels files are read before anything is written, like the results files.
  std::vector<std::string> not_utf8;  // said once per counter file, after the report is written
  std::vector<KernelsFile> kernels_files = load_kernels_with_counts(o.kernels, o.counts, &not_utf8);
  std::vector<const FileAnalysis*> roofs;
  for (const auto& f : files) roofs.push_back(&f);
  if (workload) check_workload_names(workload->space, workload->compute_dtype, roofs);
  std::vector<PlacedKernelsFile> kernels;
  for (const auto& k : kernels_files) kernels.push_back({&k, place_kernels(k, roofs)});
  std::string jobs_md;
  for (const Job& job : jobs) {
    std::vector<const FileAnalysis*> devices;
    for (std::size_t i = job.first; i < job.first + job.count; ++i) devices.push_back(&files[i]);
    jobs_md += render_devices_markdown(job.file, job.ranks, job.mode, devices);
  }
  std::vector<MachineProfile> profiles;
  try {
    profiles = load_machine_profiles(machine_profiles_dir());
  } catch (const InputError& e) {
    std::cerr << "ridgeline: warning: no spec-sheet comparison: " << e.what() << "\n";
  }
  // Everything is rendered before anything is written: bad input leaves no files behind.
  std::string workload_md;
  std::vector<MarkedPoint> workload_points;
  std::vector<std::string> bound_errors;  // measured phases faster than their bound
  if (workload) {
    std::vector<const FileAnalysis*> hosts;
    for (const auto& f : files) hosts.push_back(&f);
    workload_md = render_workload_markdown(*workload, hosts, "##");
    workload_points = workload_chart_points(*workload, hosts);
    bound_errors = engine_bound_errors(*workload, hosts, build_workload_table(*workload, hosts));
  }
  const ReportCharts charts = plan_report_charts(files, kernels, workload_points);
  const std::vector<ChartLink>& links = charts.links;
  const std::vector<std::string>& svgs = charts.svgs;
  const std::string md = render_report_markdown(
      files, links, profiles, jobs_md + render_kernels_markdown(kernels), workload_md);

  std::error_code ec;
  std::filesystem::create_directories(o.out, ec);
  if (ec) throw InputError(o.out, "--out", "cannot create directory: " + ec.message());
  for (std::size_t i = 0; i < links.size(); ++i)
    write_text_atomically(o.out + "/" + links[i].file, svgs[i]);
  write_text_atomically(o.out + "/report.md", md);
  std::cout << "wrote " << o.out << "/report.md and " << links.size() << " chart"
            << (links.size() == 1 ? "" : "s") << "\n";
  for (const auto& f : files)
    for (const auto& g : f.groups)
      if (g.fit.measured && !g.fit.fit)
        std::cerr << "ridgeline: note: " << f.results.file << ": " << g.fit.space << "/"
                  << g.fit.dtype << " has no roofs (" << g.fit.not_fitted
                  << "); the report shows its points\n";
  for (const std::string& line : not_utf8)
    std::cerr << "ridgeline: note: " << single_line(line) << "\n";
  for (const std::string& e : bound_errors)
    std::cerr << "ridgeline: error: " << single_line(e) << "\n";
  return bound_errors.empty() ? kExitOk : kExitFailed;
}

}  // namespace

void add_report_command(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<ReportOptions>();
  CLI::App* report = app.add_subcommand(
      "report", "Write report.md and roofline SVG charts from one or more results files");
  report->add_option("results", opts->files, "Results JSON files (several: a comparison)")
      ->required();
  report->add_option("--out", opts->out, "Output directory")->capture_default_str();
  add_workload_options(report, opts->workload);
  report->add_option("--kernels", opts->kernels,
                     "Kernels files of libridgeline-kp.so: a \"Your kernels\" table, markers");
  add_counts_option(report, opts->counts);
  report->callback([opts, &exit_code] { exit_code = run_report(*opts); });
}

}  // namespace ridgeline
