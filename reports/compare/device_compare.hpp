#pragma once
// The gate over an MPI job: each device is compared with its own history, matched by its key
// (the GPU's UUID, else host and CPU set), so a node whose devices trade ranks between nights
// still compares each device with itself.
#include <vector>

#include "reports/compare/compare.hpp"
#include "results/results_model.hpp"

namespace ridgeline {

// Every file must be an MPI job's (InputError otherwise). Metrics are prefixed with the
// device's label; a device of the newest history night that is gone now is MISSING; a new one
// is listed as not compared. Benjamini–Hochberg runs per device.
Comparison compare_devices(std::vector<Results> history, Results current, const CompareOptions& o);

}  // namespace ridgeline
