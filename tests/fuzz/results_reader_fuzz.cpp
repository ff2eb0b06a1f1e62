// libFuzzer target: the results JSON reader must turn any input into a Results or an InputError,
// and whatever it accepts must go through the fit, the report and compare without a crash.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/input_error.hpp"
#include "reports/compare/compare.hpp"
#include "reports/fit/analysis.hpp"
#include "reports/render/compare_markdown.hpp"
#include "reports/render/report_markdown.hpp"
#include "results/results_model.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    // Few replicates keep each input fast; two analyses because compare needs two files.
    std::vector<ridgeline::FileAnalysis> files;
    files.push_back(ridgeline::analyze(ridgeline::parse_results(text, "a.json"), 5));
    files.push_back(ridgeline::analyze(ridgeline::parse_results(text, "b.json"), 5, 7));
    ridgeline::render_report_markdown(files, {}, {});
    const ridgeline::CompareOptions options;
    const auto c = ridgeline::compare_files(files[0], files[1], options);
    ridgeline::render_compare_markdown("b.json", c, options);
  } catch (const ridgeline::InputError&) {
  }
  return 0;
}
