#pragma once
// github-action-benchmark's `customBiggerIsBetter` input: a JSON array of
// {name, unit, value, range, extra}; `range` is a free-form string, `extra` the tooltip text.
#include <string>

#include "reports/export/roof_export.hpp"

namespace ridgeline {

// One entry per roof (P, B, B_read, I*) and per memory level of each cache sweep, per space ×
// dtype; rates in GFLOP/s and GB/s, the 95 % interval as `range` "LOW .. HIGH".
std::string github_action_benchmark_json(const RoofExport& roofs);

}  // namespace ridgeline
