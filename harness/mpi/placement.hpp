#pragma once
// Where a rank runs, recorded in the results file so a report can name a slow device by rank,
// node and PCI bus id, and `compare` can match a device with its own history (by UUID).
#include <nlohmann/json.hpp>

#include <string>

#include "harness/mpi/job.hpp"

namespace ridgeline {

// {"rank", "host", "local_rank", "cpu_set" ("0-3"), "numa_nodes" ([0]), "devices": {space:
// {"name", "uuid", "pci_bus_id"}}} from the job and this rank's run context (its spaces).
nlohmann::json rank_placement(const Job& job, const nlohmann::json& context);

// What each point of `space` records: {"rank", "host", "device", "uuid", "pci_bus_id"} for a
// device space; {"rank", "host", "device" (the CPU model), "cpu_set", "numa_nodes"} for a host
// space. "key" identifies the device across runs: the GPU's UUID, else host and CPU set.
nlohmann::json point_placement(const nlohmann::json& rank_placement, const nlohmann::json& context,
                               const std::string& space);

}  // namespace ridgeline
