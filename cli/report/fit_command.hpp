#pragma once
#include <CLI/CLI.hpp>

namespace ridgeline {

// `ridgeline fit`: P, B and the ridge with bootstrap intervals, from a CSV or a results file.
void add_fit_command(CLI::App& app, int& exit_code);

}  // namespace ridgeline
