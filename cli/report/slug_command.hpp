#pragma once
#include <CLI/CLI.hpp>

namespace ridgeline {

// `ridgeline slug FILE`: the folder name of the machine a results file or `ridgeline info
// --json` describes (machines/device_slug.hpp), one line on stdout, for scripts.
void add_slug_command(CLI::App& app, int& exit_code);

}  // namespace ridgeline
