#pragma once
// The reporter's subcommands (calc, fit, report, place, compare, export) and the shared CLI runner.
// They need no Kokkos, so the same code serves `ridgeline` and the Kokkos-free `ridgeline-report`.
#include <CLI/CLI.hpp>

namespace ridgeline {

// Registers the reporter's subcommands; each callback stores its exit status in `exit_code`.
void add_report_commands(CLI::App& app, int& exit_code);

// Parses and runs; bad input (CLI errors, InputError) prints one line and returns kExitBadInput,
// any other exception one line and kExitInternal.
int run_app(CLI::App& app, int argc, char** argv, const int& exit_code);

}  // namespace ridgeline
