#pragma once
// The HIP measurement backend: hipEvent timer on Kokkos' stream and a last-level-cache flush.
// No telemetry (ROCm SMI is not wired in). UNVERIFIED: never compiled here (no ROCm).
#include <memory>

#include "backends/measurement.hpp"

namespace ridgeline::hip {

std::unique_ptr<MeasurementBackend> open_backend();

}  // namespace ridgeline::hip
