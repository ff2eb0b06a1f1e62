#pragma once
#include <CLI/CLI.hpp>

namespace ridgeline {

// `ridgeline calc`: the roofline calculator on given (or spec-sheet) P and B.
void add_calc_command(CLI::App& app, int& exit_code);

}  // namespace ridgeline
