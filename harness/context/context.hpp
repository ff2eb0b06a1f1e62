#pragma once
// The provenance of a run: what `ridgeline info --json` prints and what every results file embeds
// as `context`. Needs Kokkos to be initialised (it asks each execution space about itself).
#include <nlohmann/json.hpp>

#include <string>

namespace ridgeline {

// Build, Kokkos, host, CPU and one entry per execution space.
nlohmann::json machine_context();

// Facts of this run on top: start time, Google Benchmark version, thread binding.
nlohmann::json run_context();

// Human-readable form of machine_context() for `ridgeline info`.
std::string format_context(const nlohmann::json& context);

}  // namespace ridgeline
