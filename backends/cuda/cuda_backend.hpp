#pragma once
// The CUDA measurement backend: cudaEvent timer on Kokkos' stream, L2 flush, NVML telemetry.
#include <memory>

#include "backends/measurement.hpp"

namespace ridgeline::cuda {

std::unique_ptr<MeasurementBackend> open_backend();

}  // namespace ridgeline::cuda
