#pragma once
// The results file's `host_clock` of a host point (results/schema.md, "Host clock"): the cores'
// clock read after each reported repetition (backends/host/host_clock.hpp), so that the gate can
// tell a night the host ran at a lower clock (a cloud host's turbo shared with its neighbours)
// from a slower kernel, as it does a GPU's from its SM clock.
#include <vector>

#include <nlohmann/json.hpp>

namespace ridgeline {

// One reading per reported sample, NaN where the reading failed: {"readings_mhz": [...] (null
// for a failed one), "median_mhz": the median of the good ones}; null when none is good.
nlohmann::json summarize_host_clock(const std::vector<double>& readings);

}  // namespace ridgeline
