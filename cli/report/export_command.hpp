#pragma once
#include <CLI/CLI.hpp>

namespace ridgeline {

// `ridgeline export`: the fitted roofs in the formats dashboards and roofline tools read.
void add_export_command(CLI::App& app, int& exit_code);

}  // namespace ridgeline
