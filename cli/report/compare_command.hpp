#pragma once
#include <CLI/CLI.hpp>

namespace ridgeline {

// `ridgeline compare`: the CI gate; exit 1 only on a confirmed (large and significant) slowdown.
void add_compare_command(CLI::App& app, int& exit_code);

}  // namespace ridgeline
