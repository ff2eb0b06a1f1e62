#pragma once
// NVML (the driver's management library, libnvidia-ml.so.1) loaded at run time: every NVIDIA
// driver installs it, while its header ships only with some toolkits. A build needs neither; a
// machine without it just has no telemetry.
#include <memory>
#include <string>

#include "backends/telemetry.hpp"

namespace ridgeline::cuda {

// NVML's handle of the CUDA device (matched by PCI bus id), or null with `why_not` set.
std::unique_ptr<TelemetrySource> open_nvml(int cuda_device, std::string& why_not);

}  // namespace ridgeline::cuda
