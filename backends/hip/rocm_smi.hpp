#pragma once
// ROCm SMI (librocm_smi64, ROCm's management library) loaded at run time: clocks, power,
// temperature and the energy counter of the HIP device, on the telemetry record NVML fills
// (backends/telemetry.hpp), so the reporter reads both alike. A build needs no ROCm SMI headers;
// a machine without the library just has no telemetry. Compiled, not run (no AMD GPU here).
#include <memory>
#include <string>

#include "backends/telemetry.hpp"

namespace ridgeline::hip {

// ROCm SMI's index of the device with PCI bus id `pci_bus_id` (hipDeviceGetPCIBusId's text), or
// null with `why_not` set.
// Its max_sm_clock_mhz() is the top of the SCLK table.
std::unique_ptr<TelemetrySource> open_rocm_smi(const std::string& pci_bus_id, std::string& why_not);

}  // namespace ridgeline::hip
