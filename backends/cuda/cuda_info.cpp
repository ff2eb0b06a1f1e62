#include "backends/cuda/cuda_info.hpp"

#include <cuda_runtime_api.h>
#include <Kokkos_Core.hpp>

#include <string>

#include "backends/cuda/cuda_check.hpp"
#include "backends/device_caches.hpp"

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

// nvidia-smi's form, "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx": how a device is matched with
// its own history when a node's devices trade places.
std::string uuid_text(const cudaUUID_t& uuid) {
  static const char* hex = "0123456789abcdef";
  std::string s = "GPU-";
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) s += '-';
    const auto byte = static_cast<unsigned char>(uuid.bytes[i]);
    s += hex[byte >> 4];
    s += hex[byte & 15];
  }
  return s;
}

nlohmann::json pci_bus_id(int device) {
  char id[64] = {};
  if (cudaDeviceGetPCIBusId(id, sizeof id, device) != cudaSuccess) {
    (void)cudaGetLastError();
    return nullptr;
  }
  return id;
}

nlohmann::json bytes_or_null(std::uint64_t bytes) {
  return bytes ? nlohmann::json(bytes) : nlohmann::json(nullptr);
}

// CUDA's version numbers (1000 × major + 10 × minor) as "13.0".
std::string cuda_version_text(int v) {
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

// What the binary was built for (the toolkit's runtime headers) and what it runs on: a binary
// for a newer CUDA than the driver fails at its first call, and the file should say why.
nlohmann::json runtime_versions() {
  int runtime = 0, driver = 0;
  const bool has_runtime = cudaRuntimeGetVersion(&runtime) == cudaSuccess;
  const bool has_driver = cudaDriverGetVersion(&driver) == cudaSuccess && driver > 0;
  (void)cudaGetLastError();
  return {{"built_for", "CUDA " + cuda_version_text(CUDART_VERSION)},
          {"runtime", has_runtime ? nlohmann::json("CUDA " + cuda_version_text(runtime))
                                  : nlohmann::json(nullptr)},
          {"driver", has_driver ? nlohmann::json("CUDA " + cuda_version_text(driver))
                                : nlohmann::json(nullptr)}};
}

}  // namespace

int visible_device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return n;
}

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
          {"l1_per_unit_bytes", bytes_or_null(cuda_l1_bytes_per_sm(p.major, p.minor))},
          {"shared_per_unit_bytes", static_cast<unsigned long long>(p.sharedMemPerMultiprocessor)},
          {"shared_per_block_bytes", static_cast<unsigned long long>(p.sharedMemPerBlockOptin)},
          {"reserved_shared_per_block_bytes",
           static_cast<unsigned long long>(p.reservedSharedMemPerBlock)},
          {"max_threads_per_unit", p.maxThreadsPerMultiProcessor},
          {"max_blocks_per_unit", p.maxBlocksPerMultiProcessor},
          {"sm_clock_mhz", clock_mhz(cudaDevAttrClockRate, device)},
          {"mem_clock_mhz", clock_mhz(cudaDevAttrMemoryClockRate, device)},
          {"uuid", uuid_text(p.uuid)},
          {"pci_bus_id", pci_bus_id(device)},
          {"toolkit", runtime_versions()}};
}

}  // namespace ridgeline::cuda
