#include "backends/hip/hip_info.hpp"

#include <hip/hip_runtime_api.h>
#include <hip/hip_version.h>
#include <Kokkos_Core.hpp>

#include <cctype>
#include <string>

#include "backends/device_caches.hpp"
#include "backends/hip/hip_check.hpp"
#include "backends/spaces.hpp"

namespace ridgeline::hip {

namespace {

nlohmann::json clock_mhz(hipDeviceAttribute_t attr, int device) {
  int khz = 0;
  if (hipDeviceGetAttribute(&khz, attr, device) != hipSuccess) {
    (void)hipGetLastError();
    return nullptr;
  }
  return khz > 0 ? nlohmann::json(khz / 1000.0) : nlohmann::json(nullptr);
}

nlohmann::json pci_bus_id(int device) {
  char id[64] = {};
  if (hipDeviceGetPCIBusId(id, sizeof id, device) != hipSuccess) {
    (void)hipGetLastError();
    return nullptr;
  }
  return id;
}

// rocminfo's form, "GPU-" and the agent's 16 hex digits: HIP on AMD fills hipUUID with those
// digits as characters. Anything else is printed byte by byte, as CUDA's UUIDs are.
nlohmann::json uuid_text([[maybe_unused]] int device) {
#if HIP_VERSION >= 50200000  // hipDeviceGetUuid: HIP 5.2 and later
  hipUUID uuid{};
  if (hipDeviceGetUuid(&uuid, device) != hipSuccess) {
    (void)hipGetLastError();
    return nullptr;
  }
  static const char* hex = "0123456789abcdef";
  std::string chars = "GPU-", bytes = "GPU-";
  bool digits = true;
  for (int i = 0; i < 16; ++i) {
    const auto byte = static_cast<unsigned char>(uuid.bytes[i]);
    digits = digits && std::isxdigit(byte);
    chars += static_cast<char>(byte);
    bytes += hex[byte >> 4];
    bytes += hex[byte & 15];
  }
  return digits ? chars : bytes;
#else
  return nullptr;
#endif
}

nlohmann::json bytes_or_null(std::uint64_t bytes) {
  return bytes ? nlohmann::json(bytes) : nlohmann::json(nullptr);
}

// HIP's version numbers (10^7 × major + 10^5 × minor + patch, HIP_VERSION's form) as
// "5.2.21153".
std::string hip_version_text(int v) {
  return std::to_string(v / 10000000) + "." + std::to_string(v / 100000 % 100) + "." +
         std::to_string(v % 100000);
}

// What the binary was built for (the ROCm release's HIP headers) and what it runs on: a
// binary built against ROCm 5 needs libamdhip64.so.5, which a ROCm 6 machine lacks, and the
// file says which ROCm the numbers came from.
nlohmann::json runtime_versions() {
  int runtime = 0, driver = 0;
  const bool has_runtime = hipRuntimeGetVersion(&runtime) == hipSuccess;
  const bool has_driver = hipDriverGetVersion(&driver) == hipSuccess && driver > 0;
  (void)hipGetLastError();
  return {{"built_for", "HIP " + std::to_string(HIP_VERSION_MAJOR) + "." +
                            std::to_string(HIP_VERSION_MINOR) + "." +
                            std::to_string(HIP_VERSION_PATCH)},
          {"runtime", has_runtime ? nlohmann::json("HIP " + hip_version_text(runtime))
                                  : nlohmann::json(nullptr)},
          // The driver's number has no documented encoding on AMD: recorded as it is.
          {"driver", has_driver ? nlohmann::json(driver) : nlohmann::json(nullptr)}};
}

}  // namespace

int visible_device_count() {
  int n = 0;
  if (hipGetDeviceCount(&n) != hipSuccess) {
    (void)hipGetLastError();
    return 0;
  }
  return n;
}

std::uint64_t last_level_cache_bytes(const std::string& gfx_arch, std::uint64_t l2_bytes) {
  if (gfx_arch.rfind("gfx942", 0) == 0) return std::uint64_t(256) << 20;
  return l2_bytes;
}

double wall_clock_rate_mhz([[maybe_unused]] int device) {
#if HIP_VERSION >= 50300000
  int khz = 0;
  if (hipDeviceGetAttribute(&khz, hipDeviceAttributeWallClockRate, device) == hipSuccess && khz > 0)
    return khz / 1000.0;
  (void)hipGetLastError();
#endif
  return 0;
}

double wall_clock_tick_ns(int device) {
  const double mhz = wall_clock_rate_mhz(device);
  return mhz > 0 ? 1e3 / mhz : 10.0;
}

nlohmann::json describe_current_device() {
  const int device = HipSpace().hip_device();
  hipDeviceProp_t p{};
  RIDGELINE_HIP_CHECK(hipGetDeviceProperties(&p, device));
  // gcnArchName is e.g. "gfx90a:sramecc+:xnack-": the part before the first ':' is the arch.
  std::string arch = p.gcnArchName;
  arch = arch.substr(0, arch.find(':'));
  const auto l2 = static_cast<std::uint64_t>(p.l2CacheSize);
  const double wall_mhz = wall_clock_rate_mhz(device);
  return {
      {"name", p.name},
      {"arch", arch},
      {"compute_units", p.multiProcessorCount},
      {"warp_size", p.warpSize},
      {"memory_bytes", static_cast<unsigned long long>(p.totalGlobalMem)},
      {"l2_bytes", l2},
      {"llc_bytes", last_level_cache_bytes(arch, l2)},
      {"l1_per_unit_bytes", bytes_or_null(hip_l1_bytes_per_cu(arch))},
      {"shared_per_unit_bytes",
       static_cast<unsigned long long>(p.maxSharedMemoryPerMultiProcessor)},
      {"shared_per_block_bytes", static_cast<unsigned long long>(p.sharedMemPerBlock)},
      {"max_threads_per_unit", p.maxThreadsPerMultiProcessor},
      // HIP 5.2's properties give no resident-workgroup limit per CU: threads and LDS bound it.
      {"max_blocks_per_unit", nullptr},
      {"sm_clock_mhz", clock_mhz(hipDeviceAttributeClockRate, device)},
      {"mem_clock_mhz", clock_mhz(hipDeviceAttributeMemoryClockRate, device)},
      {"uuid", uuid_text(device)},
      {"pci_bus_id", pci_bus_id(device)},
      {"clock_instruction_rate_mhz", clock_mhz(hipDeviceAttributeClockInstructionRate, device)},
      {"wall_clock_rate_mhz", wall_mhz > 0 ? nlohmann::json(wall_mhz) : nlohmann::json(nullptr)},
      {"toolkit", runtime_versions()}};
}

}  // namespace ridgeline::hip
