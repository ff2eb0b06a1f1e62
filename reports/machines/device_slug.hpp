#pragma once
// The name a run's output goes by, a folder per machine (scripts/gpu-run's $OUT/<slug>): decided
// by the card, since every borrowed GPU machine may be called "vm". `ridgeline slug` prints it.
#include <string>
#include <vector>

#include "reports/machines/machine_profile.hpp"
#include "results/results_model.hpp"

namespace ridgeline {

// Lower-case letters, digits and single dashes, with trademark marks dropped: "NVIDIA H100 PCIe"
// is "nvidia-h100-pcie", "Intel(R) Xeon(R) Gold 6430" "intel-xeon-gold-6430". Empty when no
// letter or digit is left.
std::string name_slug(const std::string& name);

// What a results file or machine context measured, as a slug: the id of the sheet that names its
// GPU (Results::measured_device), else a slug of the GPU's name; for a run on the host alone the
// id of the CPU sheet that describes the host (machines/host_match.hpp), else a slug of the CPU
// model, else of the hostname, else "unknown-host".
std::string device_slug(const Results& r, const std::vector<MachineProfile>& profiles);

}  // namespace ridgeline
