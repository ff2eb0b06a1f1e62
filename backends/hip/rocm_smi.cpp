// ROCm SMI through dlopen, on the declarations of rocm_smi_abi.hpp. What NVML gives and ROCm SMI
// does not: throttle reasons (gpu_metrics' throttle_status holds firmware bits that differ per
// ASIC, undocumented in rocm_smi.h) and the power/thermal violation counters; they stay unknown,
// and a throttled sample is then one whose SCLK sat below 75 % of the table's top.
#include "backends/hip/rocm_smi.hpp"

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backends/hip/rocm_smi_abi.hpp"
#include "backends/loaded_library.hpp"

namespace ridgeline::hip {
namespace {

class RocmSmiLib final : public TelemetrySource {
 public:
  RocmSmiLib(const LoadedLibrary& lib, const std::string& pci_bus_id, std::string& why_not) {
    const std::string& soname = lib.soname();
    const auto init = lib.optional_symbol<rsmi::Init>("rsmi_init");
    const auto count = lib.optional_symbol<rsmi::NumMonitorDevices>("rsmi_num_monitor_devices");
    const auto pci_id = lib.optional_symbol<rsmi::PciIdGet>("rsmi_dev_pci_id_get");
    const auto version = lib.optional_symbol<rsmi::VersionGet>("rsmi_version_get");
    shutdown_ = lib.optional_symbol<rsmi::ShutDown>("rsmi_shut_down");
    clock_ = lib.optional_symbol<rsmi::ClockFreqGet>("rsmi_dev_gpu_clk_freq_get");
    power_ = lib.optional_symbol<rsmi::PowerGet>("rsmi_dev_power_get");
    power_ave_ = lib.optional_symbol<rsmi::PowerAveGet>("rsmi_dev_power_ave_get");
    temp_ = lib.optional_symbol<rsmi::TempMetricGet>("rsmi_dev_temp_metric_get");
    energy_ = lib.optional_symbol<rsmi::EnergyCountGet>("rsmi_dev_energy_count_get");
    if (!init || !count || !pci_id || !version || !shutdown_ || !clock_) {
      why_not = soname + " lacks the basic ROCm SMI functions";
      return;
    }
    rsmi::Version v{};
    if (version(&v) != rsmi::kSuccess) {
      why_not = "rsmi_version_get failed";
      return;
    }
    deep_sleep_layout_ = v.major >= rsmi::kDeepSleepLayoutMajor;
    if (const rsmi::Status st = init(0); st != rsmi::kSuccess) {
      why_not = "rsmi_init failed with status " + std::to_string(st) + " (" + soname + ")";
      return;
    }
    initialised_ = true;
    std::uint64_t wanted = 0;
    if (!rsmi::parse_bdf(pci_bus_id, wanted)) {
      why_not = "no PCI bus id for the HIP device ('" + pci_bus_id + "')";
      return;
    }
    std::uint32_t n = 0;
    if (count(&n) != rsmi::kSuccess) n = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
      std::uint64_t bdf = 0;
      if (pci_id(i, &bdf) == rsmi::kSuccess && bdf == wanted) {
        device_ = i;
        ok_ = true;
        break;
      }
    }
    if (!ok_) {
      why_not = "ROCm SMI does not know PCI device " + pci_bus_id + " (" + std::to_string(n) +
                " devices)";
      return;
    }
    max_sm_clock_mhz_ = clock(rsmi::kClockSys).max_mhz;
  }
  ~RocmSmiLib() override {
    if (initialised_) shutdown_();
  }
  // Owns the ROCm SMI session: a copy would shut it down twice.
  RocmSmiLib(const RocmSmiLib&) = delete;
  RocmSmiLib& operator=(const RocmSmiLib&) = delete;

  bool ok() const { return ok_; }
  double max_sm_clock_mhz() const override { return max_sm_clock_mhz_; }

  TelemetryReading read() const override {
    TelemetryReading r;
    r.wall_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    if (const double sclk = clock(rsmi::kClockSys).current_mhz; sclk > 0) r.sm_clock_mhz = sclk;
    if (const double mclk = clock(rsmi::kClockMem).current_mhz; mclk > 0) r.mem_clock_mhz = mclk;
    // rsmi_dev_power_get (library ≥ 5.5) answers current power on MI300, where the average is
    // not supported; older libraries only have the average.
    std::uint64_t uw = 0;
    int type = 0;
    if ((power_ && power_(device_, &uw, &type) == rsmi::kSuccess) ||
        (power_ave_ && power_ave_(device_, 0, &uw) == rsmi::kSuccess))
      r.power_w = uw * 1e-6;
    // The junction (hotspot) sensor: MI300 has no edge sensor, MI200 has both.
    std::int64_t milli_c = 0;
    if (temp_ &&
        (temp_(device_, rsmi::kTempJunction, rsmi::kTempCurrent, &milli_c) == rsmi::kSuccess ||
         temp_(device_, rsmi::kTempEdge, rsmi::kTempCurrent, &milli_c) == rsmi::kSuccess))
      r.temp_c = milli_c * 1e-3;
    std::uint64_t counts = 0, ns = 0;
    float uj_per_count = 0;
    if (energy_ && energy_(device_, &counts, &uj_per_count, &ns) == rsmi::kSuccess &&
        uj_per_count > 0)
      r.energy_j = double(counts) * uj_per_count * 1e-6;
    return r;
  }

 private:
  rsmi::Clock clock(int type) const {
    if (deep_sleep_layout_) {
      rsmi::FrequenciesV7 f{};
      if (clock_(device_, type, &f) == rsmi::kSuccess) return rsmi::decode(f);
    } else {
      rsmi::FrequenciesV1 f{};
      if (clock_(device_, type, &f) == rsmi::kSuccess) return rsmi::decode(f);
    }
    return {};
  }

  bool initialised_ = false, ok_ = false, deep_sleep_layout_ = false;
  std::uint32_t device_ = 0;
  double max_sm_clock_mhz_ = 0;
  rsmi::ShutDown shutdown_ = nullptr;
  rsmi::ClockFreqGet clock_ = nullptr;
  rsmi::PowerGet power_ = nullptr;
  rsmi::PowerAveGet power_ave_ = nullptr;
  rsmi::TempMetricGet temp_ = nullptr;
  rsmi::EnergyCountGet energy_ = nullptr;
};

}  // namespace

std::unique_ptr<TelemetrySource> open_rocm_smi(const std::string& pci_bus_id,
                                               std::string& why_not) {
  std::vector<std::string> errors;
  const std::optional<LoadedLibrary> lib = open_first(rsmi::kSonames, errors);
  if (!lib) {
    std::string joined;
    for (const std::string& e : errors) joined += (joined.empty() ? "" : "; ") + e;
    why_not = "ROCm SMI not loadable (" + joined + ")";
    return nullptr;
  }
  auto smi = std::make_unique<RocmSmiLib>(*lib, pci_bus_id, why_not);
  if (!smi->ok()) return nullptr;
  return smi;
}

}  // namespace ridgeline::hip
