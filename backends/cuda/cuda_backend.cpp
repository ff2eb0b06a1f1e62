#include "cuda/cuda_backend.hpp"

#include <cuda_runtime_api.h>
#include <Kokkos_Core.hpp>

#if defined(RIDGELINE_HAVE_NVML)
#include <nvml.h>
#endif

#include "cuda/cuda_check.hpp"

namespace ridgeline::cuda {
namespace {

// A pair of events recorded on Kokkos' stream around one sample. cudaEventElapsedTime resolves
// about 0.5 µs; samples are milliseconds.
class EventTimer final : public SampleTimer {
 public:
  explicit EventTimer(cudaStream_t stream) : stream_(stream) {
    RIDGELINE_CUDA_CHECK(cudaEventCreate(&start_));
    RIDGELINE_CUDA_CHECK(cudaEventCreate(&stop_));
  }
  ~EventTimer() override {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  // Owns the events: copying would destroy them twice.
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;

  void start() override { RIDGELINE_CUDA_CHECK(cudaEventRecord(start_, stream_)); }
  double stop(const std::function<void()>& wait) override {
    RIDGELINE_CUDA_CHECK(cudaEventRecord(stop_, stream_));
    wait();
    RIDGELINE_CUDA_CHECK(cudaEventSynchronize(stop_));
    float ms = 0;
    RIDGELINE_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return ms * 1e-3;
  }

 private:
  cudaStream_t stream_;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

#if defined(RIDGELINE_HAVE_NVML)
// NVML handle of the CUDA device, matched by PCI bus id (CUDA and NVML may number devices
// differently, e.g. under CUDA_VISIBLE_DEVICES).
class Nvml {
 public:
  explicit Nvml(int cuda_device) {
    if (nvmlInit_v2() != NVML_SUCCESS) return;
    initialised_ = true;
    char bus_id[32] = {};
    if (cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, cuda_device) != cudaSuccess) {
      (void)cudaGetLastError();
      return;
    }
    if (nvmlDeviceGetHandleByPciBusId_v2(bus_id, &device_) != NVML_SUCCESS) return;
    unsigned int mhz = 0;
    if (nvmlDeviceGetMaxClockInfo(device_, NVML_CLOCK_SM, &mhz) == NVML_SUCCESS)
      max_sm_clock_mhz_ = mhz;
    ok_ = true;
  }
  ~Nvml() {
    if (initialised_) nvmlShutdown();
  }
  // Owns the NVML session: a copy would shut it down twice.
  Nvml(const Nvml&) = delete;
  Nvml& operator=(const Nvml&) = delete;

  bool ok() const { return ok_; }
  double max_sm_clock_mhz() const { return max_sm_clock_mhz_; }

  TelemetryReading read() const {
    TelemetryReading r;
    unsigned int v = 0;
    if (nvmlDeviceGetClockInfo(device_, NVML_CLOCK_SM, &v) == NVML_SUCCESS) r.sm_clock_mhz = v;
    if (nvmlDeviceGetClockInfo(device_, NVML_CLOCK_MEM, &v) == NVML_SUCCESS) r.mem_clock_mhz = v;
    if (nvmlDeviceGetPowerUsage(device_, &v) == NVML_SUCCESS) r.power_w = v / 1000.0;
    if (nvmlDeviceGetTemperature(device_, NVML_TEMPERATURE_GPU, &v) == NVML_SUCCESS) r.temp_c = v;
    unsigned long long reasons = 0;
    // Deprecated in favour of nvmlDeviceGetCurrentClocksEventReasons in NVML 12.x, same bits;
    // the old name is the one every NVML since 7.5 has.
    if (nvmlDeviceGetCurrentClocksThrottleReasons(device_, &reasons) == NVML_SUCCESS)
      r.throttle_reasons = reasons;
    return r;
  }

 private:
  bool initialised_ = false, ok_ = false;
  nvmlDevice_t device_{};
  double max_sm_clock_mhz_ = 0;
};
#endif

class CudaBackend final : public MeasurementBackend {
 public:
  CudaBackend() : timer_(Kokkos::Cuda().cuda_stream()) {
    const int device = Kokkos::Cuda().cuda_device();
    int l2 = 0;
    RIDGELINE_CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
    std::size_t free_bytes = 0, total_bytes = 0;
    RIDGELINE_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    flush_bytes_ = l2_flush_bytes(static_cast<std::uint64_t>(l2), total_bytes);
    if (flush_bytes_) RIDGELINE_CUDA_CHECK(cudaMalloc(&flush_buffer_, flush_bytes_));
#if defined(RIDGELINE_HAVE_NVML)
    nvml_ = std::make_unique<Nvml>(device);
#endif
  }
  ~CudaBackend() override {
    if (flush_buffer_) cudaFree(flush_buffer_);
  }
  // Owns the flush buffer: copying would free it twice.
  CudaBackend(const CudaBackend&) = delete;
  CudaBackend& operator=(const CudaBackend&) = delete;

  const char* timer_name() const override { return "cuda_event"; }
  SampleTimer& timer() override { return timer_; }
  std::uint64_t flush_bytes() const override { return flush_bytes_; }
  void flush_cache() override {
    if (!flush_buffer_) return;
    // Alternate the byte so no write can be skipped as a no-op.
    flip_ ^= 1;
    RIDGELINE_CUDA_CHECK(
        cudaMemsetAsync(flush_buffer_, flip_, flush_bytes_, Kokkos::Cuda().cuda_stream()));
  }
  double reference_sm_clock_mhz() const override {
#if defined(RIDGELINE_HAVE_NVML)
    if (nvml_->ok() && nvml_->max_sm_clock_mhz() > 0) return nvml_->max_sm_clock_mhz();
#endif
    return 0;
  }
  std::optional<TelemetryReading> read_telemetry() override {
#if defined(RIDGELINE_HAVE_NVML)
    if (nvml_->ok()) return nvml_->read();
#endif
    return std::nullopt;
  }

 private:
  EventTimer timer_;
  void* flush_buffer_ = nullptr;
  std::uint64_t flush_bytes_ = 0;
  int flip_ = 0;
#if defined(RIDGELINE_HAVE_NVML)
  std::unique_ptr<Nvml> nvml_;
#endif
};

}  // namespace

std::unique_ptr<MeasurementBackend> open_backend() { return std::make_unique<CudaBackend>(); }

}  // namespace ridgeline::cuda
