// libFuzzer target: the readers of an application's kernels — the connector's kernels file and
// the profilers' counter CSVs (Nsight Compute, rocprofv3) — must turn any input into their data or
// an InputError, and what they accept must render without a crash, with no control character on
// the terminal (`place`) and valid UTF-8 in the markdown (`report`). A JSON input is read as a
// kernels file, anything else as a counter file joined to a fixed kernels file.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/input_error.hpp"
#include "core/utf8.hpp"
#include "reports/kernels/counter_import.hpp"
#include "reports/kernels/kernel_placement.hpp"
#include "reports/render/kernels_markdown.hpp"
#include "results/kernels_file.hpp"

namespace {

// A kernels file whose labels the fixtures' counter files name (tests/data/counters/).
const char* const kKernels = R"({"schema": "ridgeline-kernels", "schema_version": "1.2.0",
  "complete": true, "host": {"hostname": "h"}, "kokkos": {"global_fencing": true},
  "kernels": [
    {"label": "example::triad", "region": "", "kind": "for", "space": "Cuda", "calls": 2,
     "seconds_total": 0.002, "seconds_per_call": {"median": 0.001, "p25": 0.001, "p75": 0.001}},
    {"label": "example::triad", "region": "", "kind": "for", "space": "HIP", "calls": 2,
     "seconds_total": 0.002, "seconds_per_call": {"median": 0.001, "p25": 0.001, "p75": 0.001}}]})";

void check_rendered(const ridgeline::KernelsFile& k) {
  const ridgeline::PlacedKernelsFile placed{&k, ridgeline::place_kernels(k, {})};
  for (const char c : ridgeline::format_kernels_text(placed)) {
    const auto u = static_cast<unsigned char>(c);
    if ((u < 0x20 && c != '\n') || u == 0x7f) std::abort();  // a raw control on the terminal
  }
  const std::string md = ridgeline::render_kernels_markdown({placed});
  if (ridgeline::valid_utf8(md) != md) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    if (!text.empty() && text.front() == '{') {
      check_rendered(ridgeline::parse_kernels(text, "k.json"));
    } else {
      ridgeline::KernelsFile k = ridgeline::parse_kernels(kKernels, "k.json");
      ridgeline::join_counts(k, {ridgeline::parse_counter_import(text, "c.csv")});
      check_rendered(k);
    }
  } catch (const ridgeline::InputError&) {
  }
  return 0;
}
