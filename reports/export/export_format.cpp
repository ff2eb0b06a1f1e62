#include "reports/export/export_format.hpp"

#include <stdexcept>

#include "reports/export/bencher_bmf.hpp"
#include "reports/export/ert_roofline_json.hpp"
#include "reports/export/github_action_benchmark.hpp"
#include "reports/export/rocprof_roofline_csv.hpp"

namespace ridgeline {
namespace {

struct Format {
  std::string name;
  std::string (*render)(const RoofExport&);
};

const std::vector<Format>& formats() {
  static const std::vector<Format> all = {{"github-action-benchmark", github_action_benchmark_json},
                                          {"bencher", bencher_bmf_json},
                                          {"rocprof-roofline", rocprof_roofline_csv},
                                          {"ert", ert_roofline_json}};
  return all;
}

}  // namespace

const std::vector<std::string>& export_format_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const auto& f : formats()) n.push_back(f.name);
    return n;
  }();
  return names;
}

std::string render_export(const std::string& format, const RoofExport& roofs) {
  for (const auto& f : formats())
    if (f.name == format) return f.render(roofs);
  // The CLI checks the name against export_format_names() first.
  throw std::logic_error("unknown export format " + format);
}

}  // namespace ridgeline
