#pragma once
// The subcommands that need Kokkos: `info` and `run` (and `list`, which names what `run` takes).
// Kokkos is initialised inside them only, so the reporter's subcommands start instantly and work
// without a device.
#include <CLI/CLI.hpp>

namespace ridgeline {

void add_info_command(CLI::App& app, int& exit_code);
void add_run_command(CLI::App& app, int& exit_code);
void add_list_command(CLI::App& app, int& exit_code);
// `plan` initialises no Kokkos: it plans a GPU space this build may lack (plan_outline.hpp).
void add_plan_command(CLI::App& app, int& exit_code);

}  // namespace ridgeline
