#pragma once
// The HIP measurement backend: hipEvent timer on Kokkos' stream, a last-level-cache flush and
// ROCm SMI telemetry (loaded at run time). No stream hold yet. Compiled with hipcc 5.2.3 for
// gfx90a, not run (no AMD GPU).
#include <memory>

#include "backends/measurement.hpp"

namespace ridgeline::hip {

std::unique_ptr<MeasurementBackend> open_backend();

}  // namespace ridgeline::hip
