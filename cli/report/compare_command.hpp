#pragma once
#include <CLI/CLI.hpp>

#include "reports/compare/comparison.hpp"

namespace ridgeline {

// `ridgeline compare`: the CI gate; exit 1 only on a confirmed (large and significant) slowdown.
void add_compare_command(CLI::App& app, int& exit_code);

// The gate's rule options (--threshold, --alpha, --k, --min-history, --machine-k,
// --machine-threshold, --clock-limited-ambiguous), the same for `compare` and `gate`.
void add_compare_options(CLI::App& cmd, CompareOptions& options);

}  // namespace ridgeline
