#pragma once
#include <CLI/CLI.hpp>

namespace ridgeline {

// `ridgeline gate`: the nightly store (baseline, history, rotation, quarantine, promotion) and
// the night's verdict, for scripts/nightly (reports/compare/night_store.hpp).
void add_gate_command(CLI::App& app, int& exit_code);

}  // namespace ridgeline
