#pragma once
// Bencher Metric Format (BMF): {benchmark: {measure: {value, lower_value, upper_value}}}, the
// JSON `bencher run --adapter json` reads. A measure is named by its slug; Bencher creates one it
// does not know yet.
#include <string>

#include "reports/export/roof_export.hpp"

namespace ridgeline {

// Benchmark "SPACE DTYPE" with the measures p-gflops, b-gbps, b-read-gbps and
// i-star-flop-per-byte (the 95 % interval as lower/upper value); each sweep level is a benchmark
// "SPACE DTYPE LEVEL (PROBE)" with a b-gbps value and no bounds (a plateau has no interval).
std::string bencher_bmf_json(const RoofExport& roofs);

}  // namespace ridgeline
