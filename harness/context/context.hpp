#pragma once
// The provenance of a run: what `ridgeline info --json` prints and what every results file embeds
// as `context`. Needs Kokkos to be initialised (it asks each execution space about itself).
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace ridgeline {

// Build, Kokkos, host, CPU and one entry per execution space.
nlohmann::json machine_context();

// Facts of this run on top: start time, Google Benchmark version, thread binding, and the
// --benchmark_* flags passed through (a filter makes a partial run).
nlohmann::json run_context(const std::vector<std::string>& benchmark_args = {});

// "ridgeline 0.1.0 (git 39080a3b7dc1), Kokkos 3.4.1, Google Benchmark 1.7.1": for --version;
// needs no Kokkos initialisation.
std::string version_line();

// Human-readable form of machine_context() for `ridgeline info`.
std::string format_context(const nlohmann::json& context);

}  // namespace ridgeline
