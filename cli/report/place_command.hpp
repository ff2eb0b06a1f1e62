#pragma once
#include <CLI/CLI.hpp>

namespace ridgeline {

// `ridgeline place`: attainable throughput and regime at given intensities on the fitted roofs.
void add_place_command(CLI::App& app, int& exit_code);

}  // namespace ridgeline
