#pragma once
#include <CLI/CLI.hpp>

namespace ridgeline {

// `ridgeline report`: report.md and one roofline SVG per host from one or more results files.
void add_report_command(CLI::App& app, int& exit_code);

}  // namespace ridgeline
