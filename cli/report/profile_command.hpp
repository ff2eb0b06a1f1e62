#pragma once
#include <CLI/CLI.hpp>

namespace ridgeline {

// `ridgeline profile --out k.json -- ./app args`: runs a Kokkos application under the connector
// (libridgeline-kp.so), loaded the way its Kokkos loads tools: KOKKOS_PROFILE_LIBRARY for 3.x,
// KOKKOS_TOOLS_LIBS for 4.x, both set. The output's folder is checked before the application
// starts; the exit code is the application's.
void add_profile_command(CLI::App& app, int& exit_code);

}  // namespace ridgeline
