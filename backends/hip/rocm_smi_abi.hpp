#pragma once
// The few ROCm SMI declarations ridgeline calls, written out so that a build needs no
// librocm-smi-dev: the library is loaded at run time (like NVML). From ROCm/rocm_smi_lib's
// include/rocm_smi/rocm_smi.h at tags rocm-5.2.3 (library 1.0, Debian 12's librocm-smi-dev 5.2.3,
// checked against it), rocm-5.7.0 (5.0) and rocm-6.0.0 … 6.2.0 (7.x, commit a129571). One ABI
// break among them: rsmi_frequencies_t gained a leading `bool has_deep_sleep` and a 33rd entry
// (RSMI_MAX_NUM_FREQUENCIES 32 -> 33) in library 7.0 (ROCm 6.0, commit 3d40c4b), so both
// layouts are declared and the library's own version (rsmi_version_get) picks one. Pure
// decoding, Kokkos- and HIP-free: unit-tested in the CPU build.
#include <cstdint>
#include <cstdio>
#include <string>

namespace ridgeline::hip::rsmi {

using Status = int;                                // rsmi_status_t
inline constexpr Status kSuccess = 0;              // RSMI_STATUS_SUCCESS
inline constexpr int kClockSys = 0;                // RSMI_CLK_TYPE_SYS: the shader clock (SCLK)
inline constexpr int kClockMem = 4;                // RSMI_CLK_TYPE_MEM: the memory clock (MCLK)
inline constexpr std::uint32_t kTempEdge = 0;      // RSMI_TEMP_TYPE_EDGE
inline constexpr std::uint32_t kTempJunction = 1;  // RSMI_TEMP_TYPE_JUNCTION (hotspot)
inline constexpr int kTempCurrent = 0;             // RSMI_TEMP_CURRENT

struct Version {  // rsmi_version_t
  std::uint32_t major, minor, patch;
  const char* build;
};
struct FrequenciesV1 {                       // rsmi_frequencies_t, library < 7 (ROCm 5)
  static constexpr std::uint32_t kMax = 32;  // RSMI_MAX_NUM_FREQUENCIES
  std::uint32_t num_supported;
  std::uint32_t current;          // index into frequency
  std::uint64_t frequency[kMax];  // Hz
};
struct FrequenciesV7 {  // rsmi_frequencies_t, library ≥ 7 (ROCm 6)
  static constexpr std::uint32_t kMax = 33;
  bool has_deep_sleep;
  std::uint32_t num_supported;
  std::uint32_t current;
  std::uint64_t frequency[kMax];
};
inline constexpr std::uint32_t kDeepSleepLayoutMajor = 7;

using Init = Status (*)(std::uint64_t flags);
using ShutDown = Status (*)();
using VersionGet = Status (*)(Version*);
using NumMonitorDevices = Status (*)(std::uint32_t*);
using PciIdGet = Status (*)(std::uint32_t, std::uint64_t*);
using ClockFreqGet = Status (*)(std::uint32_t, int, void*);  // rsmi_frequencies_t* of the layout
using PowerAveGet = Status (*)(std::uint32_t, std::uint32_t, std::uint64_t*);  // µW
using PowerGet = Status (*)(std::uint32_t, std::uint64_t*, int*);  // µW, RSMI_POWER_TYPE (≥ 5.5)
using TempMetricGet = Status (*)(std::uint32_t, std::uint32_t, int, std::int64_t*);  // m°C
// counter, µJ per count, ns timestamp
using EnergyCountGet = Status (*)(std::uint32_t, std::uint64_t*, float*, std::uint64_t*);

// The sonames tried: ROCm 6 (library 7), a ROCm 5.7 (library 5), older ROCm 5 and Debian 12
// (library 1), then the development name.
inline constexpr const char* kSonames[] = {"librocm_smi64.so.7", "librocm_smi64.so.6",
                                           "librocm_smi64.so.5", "librocm_smi64.so.1",
                                           "librocm_smi64.so"};

// A clock table read in either layout: the current and the highest entry, in MHz (0 when the
// table is empty or the index is out of range).
struct Clock {
  double current_mhz = 0, max_mhz = 0;
};
template <class Frequencies>
Clock decode(const Frequencies& f) {
  Clock c;
  const std::uint32_t n = f.num_supported < f.kMax ? f.num_supported : f.kMax;
  for (std::uint32_t i = 0; i < n; ++i)
    if (f.frequency[i] * 1e-6 > c.max_mhz) c.max_mhz = f.frequency[i] * 1e-6;
  if (f.current < n) c.current_mhz = f.frequency[f.current] * 1e-6;
  return c;
}

// ROCm SMI's 64-bit BDF id (rsmi_dev_pci_id_get: domain << 32 | bus << 8 | device << 3 |
// function) of a bus id as hipDeviceGetPCIBusId writes it ("0000:c1:00.0"); false when the text
// is not one.
inline bool parse_bdf(const std::string& bus_id, std::uint64_t& bdf) {
  unsigned domain = 0, bus = 0, device = 0, function = 0;
  int used = 0;  // the whole text, and no more, must be the id
  if (std::sscanf(bus_id.c_str(), "%8x:%2x:%2x.%1x%n", &domain, &bus, &device, &function, &used) !=
          4 ||
      used != static_cast<int>(bus_id.size()) || device > 0x1f || function > 0x7)
    return false;
  bdf = (std::uint64_t(domain) << 32) | (bus << 8) | (device << 3) | function;
  return true;
}

}  // namespace ridgeline::hip::rsmi
