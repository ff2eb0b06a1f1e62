// Dispatches device description to the backend compiled into this build.
#include <Kokkos_Core.hpp>

#include "backends/spaces.hpp"
#if defined(KOKKOS_ENABLE_CUDA)
#include "backends/cuda/cuda_info.hpp"
#endif
#if defined(KOKKOS_ENABLE_HIP)
#include "backends/hip/hip_info.hpp"
#endif

namespace ridgeline {

nlohmann::json describe_device([[maybe_unused]] const std::string& space_name) {
#if defined(KOKKOS_ENABLE_CUDA)
  if (space_name == "Cuda") return cuda::describe_current_device();
#endif
#if defined(KOKKOS_ENABLE_HIP)
  if (space_name == "HIP") return hip::describe_current_device();
#endif
  return nullptr;
}

double wall_clock_tick_ns([[maybe_unused]] const std::string& space_name) {
#if defined(KOKKOS_ENABLE_CUDA)
  if (space_name == "Cuda") return 1.0;
#endif
#if defined(KOKKOS_ENABLE_HIP)
  if (space_name == "HIP") return hip::wall_clock_tick_ns(HipSpace().hip_device());
#endif
  return 0;
}

int visible_device_count() {
#if defined(KOKKOS_ENABLE_CUDA)
  return cuda::visible_device_count();
#elif defined(KOKKOS_ENABLE_HIP)
  return hip::visible_device_count();
#else
  return 0;
#endif
}

}  // namespace ridgeline
