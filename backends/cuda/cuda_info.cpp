#include "cuda/cuda_info.hpp"

#include <cuda_runtime_api.h>
#include <Kokkos_Core.hpp>

#include "cuda/cuda_check.hpp"

namespace ridgeline::cuda {

namespace {

// kHz attribute → MHz, or null when the runtime does not know it (or reports 0).
nlohmann::json clock_mhz(cudaDeviceAttr attr, int device) {
  int khz = 0;
  if (cudaDeviceGetAttribute(&khz, attr, device) != cudaSuccess) {
    (void)cudaGetLastError();  // clear the sticky-free error so later checks see their own
    return nullptr;
  }
  return khz > 0 ? nlohmann::json(khz / 1000.0) : nlohmann::json(nullptr);
}

}  // namespace

nlohmann::json describe_current_device() {
  const int device = Kokkos::Cuda().cuda_device();
  cudaDeviceProp p{};
  RIDGELINE_CUDA_CHECK(cudaGetDeviceProperties(&p, device));
  return {{"name", p.name},
          {"arch", "sm_" + std::to_string(p.major) + std::to_string(p.minor)},
          {"compute_units", p.multiProcessorCount},
          {"warp_size", p.warpSize},
          {"memory_bytes", static_cast<unsigned long long>(p.totalGlobalMem)},
          {"l2_bytes", p.l2CacheSize},
          {"sm_clock_mhz", clock_mhz(cudaDevAttrClockRate, device)},
          {"mem_clock_mhz", clock_mhz(cudaDevAttrMemoryClockRate, device)}};
}

}  // namespace ridgeline::cuda
