#include "backends/cuda/nvml.hpp"

#include <cuda_runtime_api.h>

#include <array>
#include <chrono>
#include <optional>
#include <vector>

#include "backends/loaded_library.hpp"

namespace ridgeline::cuda {
namespace {

// The few NVML declarations used, as nvml.h gives them (stable ABI since NVML 5).
using nvmlReturn_t = int;
using nvmlDevice_t = struct nvmlDevice_st*;
constexpr nvmlReturn_t kSuccess = 0;
constexpr int kClockSm = 1, kClockMem = 2;           // nvmlClockType_t
constexpr int kTemperatureGpu = 0;                   // nvmlTemperatureSensors_t
constexpr int kPolicyPower = 0, kPolicyThermal = 1;  // nvmlPerfPolicyType_t
struct nvmlViolationTime_t {
  unsigned long long referenceTime;  // µs since epoch
  unsigned long long violationTime;  // ns held below the requested clock
};

class NvmlLib final : public TelemetrySource {
 public:
  NvmlLib(const LoadedLibrary& lib, int cuda_device, std::string& why_not) {
    auto init = lib.optional_symbol<nvmlReturn_t (*)()>("nvmlInit_v2");
    auto by_bus = lib.optional_symbol<nvmlReturn_t (*)(const char*, nvmlDevice_t*)>(
        "nvmlDeviceGetHandleByPciBusId_v2");
    clock_ = lib.optional_symbol<nvmlReturn_t (*)(nvmlDevice_t, int, unsigned*)>(
        "nvmlDeviceGetClockInfo");
    max_clock_ = lib.optional_symbol<nvmlReturn_t (*)(nvmlDevice_t, int, unsigned*)>(
        "nvmlDeviceGetMaxClockInfo");
    power_ =
        lib.optional_symbol<nvmlReturn_t (*)(nvmlDevice_t, unsigned*)>("nvmlDeviceGetPowerUsage");
    temp_ = lib.optional_symbol<nvmlReturn_t (*)(nvmlDevice_t, int, unsigned*)>(
        "nvmlDeviceGetTemperature");
    energy_ = lib.optional_symbol<nvmlReturn_t (*)(nvmlDevice_t, unsigned long long*)>(
        "nvmlDeviceGetTotalEnergyConsumption");
    violation_ = lib.optional_symbol<nvmlReturn_t (*)(nvmlDevice_t, int, nvmlViolationTime_t*)>(
        "nvmlDeviceGetViolationStatus");
    // The newer name first (NVML 12+), the deprecated one on older drivers: same bits.
    reasons_ = lib.optional_symbol<nvmlReturn_t (*)(nvmlDevice_t, unsigned long long*)>(
        "nvmlDeviceGetCurrentClocksEventReasons");
    if (!reasons_)
      reasons_ = lib.optional_symbol<nvmlReturn_t (*)(nvmlDevice_t, unsigned long long*)>(
          "nvmlDeviceGetCurrentClocksThrottleReasons");
    shutdown_ = lib.optional_symbol<nvmlReturn_t (*)()>("nvmlShutdown");
    if (!init || !by_bus || !clock_ || !shutdown_) {
      why_not = "libnvidia-ml.so.1 lacks the basic NVML functions";
      return;
    }
    if (init() != kSuccess) {
      why_not = "nvmlInit failed";
      return;
    }
    initialised_ = true;
    char bus_id[32] = {};
    if (cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, cuda_device) != cudaSuccess) {
      (void)cudaGetLastError();
      why_not = "cudaDeviceGetPCIBusId failed";
      return;
    }
    if (by_bus(bus_id, &device_) != kSuccess) {
      why_not = std::string("NVML does not know PCI device ") + bus_id;
      return;
    }
    unsigned mhz = 0;
    if (max_clock_ && max_clock_(device_, kClockSm, &mhz) == kSuccess) max_sm_clock_mhz_ = mhz;
    ok_ = true;
  }
  ~NvmlLib() override {
    if (initialised_) shutdown_();
  }
  // Owns the NVML session: a copy would shut it down twice.
  NvmlLib(const NvmlLib&) = delete;
  NvmlLib& operator=(const NvmlLib&) = delete;

  bool ok() const { return ok_; }
  double max_sm_clock_mhz() const override { return max_sm_clock_mhz_; }

  TelemetryReading read() const override {
    TelemetryReading r;
    r.wall_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    unsigned v = 0;
    if (clock_(device_, kClockSm, &v) == kSuccess) r.sm_clock_mhz = v;
    if (clock_(device_, kClockMem, &v) == kSuccess) r.mem_clock_mhz = v;
    if (power_ && power_(device_, &v) == kSuccess) r.power_w = v / 1000.0;
    if (temp_ && temp_(device_, kTemperatureGpu, &v) == kSuccess) r.temp_c = v;
    unsigned long long u = 0;
    if (reasons_ && reasons_(device_, &u) == kSuccess) r.throttle_reasons = u;
    if (energy_ && energy_(device_, &u) == kSuccess) r.energy_j = u / 1000.0;  // mJ
    nvmlViolationTime_t t{};
    if (violation_ && violation_(device_, kPolicyPower, &t) == kSuccess)
      r.power_violation_s = t.violationTime * 1e-9;
    if (violation_ && violation_(device_, kPolicyThermal, &t) == kSuccess)
      r.thermal_violation_s = t.violationTime * 1e-9;
    return r;
  }

 private:
  bool initialised_ = false, ok_ = false;
  nvmlDevice_t device_ = nullptr;
  double max_sm_clock_mhz_ = 0;
  nvmlReturn_t (*clock_)(nvmlDevice_t, int, unsigned*) = nullptr;
  nvmlReturn_t (*max_clock_)(nvmlDevice_t, int, unsigned*) = nullptr;
  nvmlReturn_t (*power_)(nvmlDevice_t, unsigned*) = nullptr;
  nvmlReturn_t (*temp_)(nvmlDevice_t, int, unsigned*) = nullptr;
  nvmlReturn_t (*energy_)(nvmlDevice_t, unsigned long long*) = nullptr;
  nvmlReturn_t (*violation_)(nvmlDevice_t, int, nvmlViolationTime_t*) = nullptr;
  nvmlReturn_t (*reasons_)(nvmlDevice_t, unsigned long long*) = nullptr;
  nvmlReturn_t (*shutdown_)() = nullptr;
};

}  // namespace

std::unique_ptr<TelemetrySource> open_nvml(int cuda_device, std::string& why_not) {
  static constexpr std::array<const char*, 1> kSonames = {"libnvidia-ml.so.1"};
  std::vector<std::string> errors;
  const std::optional<LoadedLibrary> lib = open_first(kSonames, errors);
  if (!lib) {
    why_not = "libnvidia-ml.so.1 not loadable: " + errors.front();
    return nullptr;
  }
  auto nvml = std::make_unique<NvmlLib>(*lib, cuda_device, why_not);
  if (!nvml->ok()) return nullptr;
  return nvml;
}

}  // namespace ridgeline::cuda
