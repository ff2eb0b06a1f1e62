// Picks the measurement backend of an execution space; the host one lives here too.
#include "backends/measurement.hpp"

#include <Kokkos_Macros.hpp>

#include <chrono>

#include "backends/host/host_clock.hpp"

#if defined(KOKKOS_ENABLE_CUDA)
#include "backends/cuda/cuda_backend.hpp"
#endif
#if defined(KOKKOS_ENABLE_HIP)
#include "backends/hip/hip_backend.hpp"
#endif

namespace ridgeline {
namespace {

class SteadyClockTimer final : public SampleTimer {
 public:
  void start() override { t0_ = std::chrono::steady_clock::now(); }
  double stop(const std::function<void()>& wait) override {
    wait();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  }

 private:
  std::chrono::steady_clock::time_point t0_;
};

class HostBackend final : public MeasurementBackend {
 public:
  const char* timer_name() const override { return "steady_clock"; }
  SampleTimer& timer() override { return timer_; }
  std::optional<double> read_host_clock_mhz() override {
    std::string why;
    const std::optional<double> mhz = host::read_clock_mhz(why);
    if (!mhz) why_ = why;
    return mhz;
  }
  std::string host_clock_unavailable() const override { return why_; }

 private:
  SteadyClockTimer timer_;
  std::string why_;  // the last failed reading's reason
};

}  // namespace

std::unique_ptr<MeasurementBackend> make_host_backend() { return std::make_unique<HostBackend>(); }

std::unique_ptr<MeasurementBackend> open_measurement_backend(const std::string& space_name) {
#if defined(KOKKOS_ENABLE_CUDA)
  if (space_name == "Cuda") return cuda::open_backend();
#endif
#if defined(KOKKOS_ENABLE_HIP)
  if (space_name == "HIP") return hip::open_backend();
#endif
  (void)space_name;
  return make_host_backend();
}

}  // namespace ridgeline
