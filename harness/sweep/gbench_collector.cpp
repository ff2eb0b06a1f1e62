#include "harness/sweep/gbench_collector.hpp"

#include <unistd.h>

#include <map>
#include <sstream>
#include <string>

#include "harness/sweep/benchmark_compat.hpp"

namespace ridgeline {

GbenchCollector::GbenchCollector(Sweep& sweep, bool show_table, bool aggregates_only)
    : benchmark::ConsoleReporter(isatty(STDOUT_FILENO) ? OO_Defaults : OO_None),
      sweep_(sweep),
      show_table_(show_table),
      aggregates_only_(aggregates_only) {}

bool GbenchCollector::ReportContext(const Context& context) {
  if (!show_table_) return true;
  // Debian's libbenchmark is built without NDEBUG, so its context warns "Library was built as
  // DEBUG". The warning is about the library's own loop, which manual time leaves untimed.
  std::ostringstream err;
  std::ostream& real_err = GetErrorStream();
  SetErrorStream(&err);
  const bool ok = benchmark::ConsoleReporter::ReportContext(context);
  SetErrorStream(&real_err);
  real_err << err.str();
  if (err.str().find("DEBUG") != std::string::npos)
    real_err << "(ridgeline: this concerns libbenchmark itself, built without NDEBUG; ridgeline "
                "times each iteration with its own fenced timer (manual time), so the "
                "library's checks are outside the timed region)\n";
  return ok;
}

void GbenchCollector::ReportRuns(const std::vector<Run>& runs) {
  if (show_table_) {
    std::vector<Run> shown;
    for (const Run& r : runs)
      if (!aggregates_only_ || r.run_type == Run::RT_Aggregate) shown.push_back(r);
    benchmark::ConsoleReporter::ReportRuns(shown);
  }
  std::map<std::string, std::vector<double>> samples;
  std::map<std::string, std::string> errors;
  std::map<std::string, benchmark::IterationCount> iterations;
  std::vector<std::string> order;
  for (const Run& r : runs) {
    if (r.run_type != Run::RT_Iteration) continue;
    const std::string name = r.run_name.function_name;
    if (!samples.count(name)) order.push_back(name);
    auto& s = samples[name];
    const std::string error = compat::run_error(r);
    if (!error.empty())
      errors[name] = error;
    else if (r.iterations > 0) {
      s.push_back(r.real_accumulated_time / double(r.iterations));
      iterations[name] = r.iterations;
    }
  }
  for (const auto& name : order) {
    sweep_.remember_iterations(iterations[name]);
    sweep_.finish_point(name, samples[name], errors[name]);
  }
}

}  // namespace ridgeline
