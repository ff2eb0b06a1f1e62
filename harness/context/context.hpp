#pragma once
// The provenance of a run: what `ridgeline info --json` prints and what every results file embeds
// as `context`. Needs Kokkos to be initialised (it asks each execution space about itself).
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "harness/context/machine_facts.hpp"

namespace ridgeline {

// One gathering, two forms: the record, and the facts of it the planner sizes points by.
struct MachineContext {
  nlohmann::json recorded;
  MachineFacts facts;
};

// Build, Kokkos, host, CPU and one entry per execution space.
MachineContext machine_context();

// Facts of this run on top of the record: start time, Google Benchmark version, thread binding,
// and the --benchmark_* flags passed through (a filter makes a partial run).
MachineContext run_context(const std::vector<std::string>& benchmark_args = {});

// "ridgeline 0.1.0 (git 39080a3b7dc1), Kokkos 3.4.1, Google Benchmark 1.7.1": for --version;
// needs no Kokkos initialisation.
std::string version_line();

// Human-readable form of machine_context()'s record for `ridgeline info`.
std::string format_context(const nlohmann::json& context);

}  // namespace ridgeline
