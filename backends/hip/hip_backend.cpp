#include "backends/hip/hip_backend.hpp"

#include <hip/hip_runtime.h>
#include <Kokkos_Core.hpp>

#include <string>

#include "backends/hip/hip_check.hpp"
#include "backends/hip/hip_info.hpp"
#include "backends/hip/rocm_smi.hpp"
#include "backends/spaces.hpp"

namespace ridgeline::hip {
namespace {

// Reads the flush buffer (zeros) so the caches end up holding clean lines the timed kernel can
// drop without a write-back (a memset would leave dirty lines to be written back inside the
// timed kernel). The store never happens; it keeps the loads alive. Compiled, not run.
__global__ void read_flush(const uint4* buffer, std::size_t n, int* sink) {
  uint4 acc = {0, 0, 0, 0};
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const uint4 v = buffer[i];
    acc.x |= v.x;
    acc.y |= v.y;
    acc.z |= v.z;
    acc.w |= v.w;
  }
  if ((acc.x | acc.y | acc.z | acc.w) == 0xdeadbeefu) *sink = 1;
}

class EventTimer final : public SampleTimer {
 public:
  explicit EventTimer(hipStream_t stream) : stream_(stream) {
    RIDGELINE_HIP_CHECK(hipEventCreate(&start_));
    RIDGELINE_HIP_CHECK(hipEventCreate(&stop_));
  }
  ~EventTimer() override {
    (void)hipEventDestroy(start_);
    (void)hipEventDestroy(stop_);
  }
  // Owns the events: copying would destroy them twice.
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;

  void start() override { RIDGELINE_HIP_CHECK(hipEventRecord(start_, stream_)); }
  double stop(const std::function<void()>& wait) override {
    RIDGELINE_HIP_CHECK(hipEventRecord(stop_, stream_));
    wait();
    RIDGELINE_HIP_CHECK(hipEventSynchronize(stop_));
    float ms = 0;
    RIDGELINE_HIP_CHECK(hipEventElapsedTime(&ms, start_, stop_));
    return ms * 1e-3;
  }

 private:
  hipStream_t stream_;
  hipEvent_t start_ = nullptr, stop_ = nullptr;
};

class HipBackend final : public MeasurementBackend {
 public:
  HipBackend() : timer_(HipSpace().hip_stream()) {
    const int device = HipSpace().hip_device();
    hipDeviceProp_t p{};
    RIDGELINE_HIP_CHECK(hipGetDeviceProperties(&p, device));
    std::string arch = p.gcnArchName;
    arch = arch.substr(0, arch.find(':'));
    // On MI300 the flush has to go through the Infinity Cache, not only the L2.
    flush_bytes_ =
        l2_flush_bytes(last_level_cache_bytes(arch, static_cast<std::uint64_t>(p.l2CacheSize)),
                       static_cast<std::uint64_t>(p.totalGlobalMem));
    compute_units_ = p.multiProcessorCount;
    if (flush_bytes_) {
      RIDGELINE_HIP_CHECK(hipMalloc(&flush_buffer_, flush_bytes_ + sizeof(int)));
      RIDGELINE_HIP_CHECK(hipMemset(flush_buffer_, 0, flush_bytes_ + sizeof(int)));
    }
    // ROCm SMI numbers devices its own way: the PCI bus id says which one is Kokkos'.
    char bus_id[64] = {};
    if (hipDeviceGetPCIBusId(bus_id, sizeof bus_id, device) != hipSuccess) {
      (void)hipGetLastError();
      bus_id[0] = '\0';
    }
    rocm_smi_ = open_rocm_smi(bus_id, telemetry_why_not_);
  }
  ~HipBackend() override {
    if (flush_buffer_) (void)hipFree(flush_buffer_);
  }
  // Owns the flush buffer: copying would free it twice.
  HipBackend(const HipBackend&) = delete;
  HipBackend& operator=(const HipBackend&) = delete;

  const char* timer_name() const override { return "hip_event"; }
  SampleTimer& timer() override { return timer_; }
  std::uint64_t flush_bytes() const override { return flush_bytes_; }
  const char* flush_method() const override { return "read"; }
  void flush_cache() override {
    if (!flush_buffer_) return;
    auto* words = static_cast<const uint4*>(flush_buffer_);
    int* sink = reinterpret_cast<int*>(static_cast<char*>(flush_buffer_) + flush_bytes_);
    read_flush<<<4 * compute_units_, 256, 0, HipSpace().hip_stream()>>>(words, flush_bytes_ / 16,
                                                                        sink);
    RIDGELINE_HIP_CHECK(hipGetLastError());
  }
  double reference_sm_clock_mhz() const override {
    return rocm_smi_ ? rocm_smi_->max_sm_clock_mhz() : 0;
  }
  std::optional<TelemetryReading> read_telemetry() override {
    if (rocm_smi_) return rocm_smi_->read();
    return std::nullopt;
  }
  std::string telemetry_unavailable() const override { return telemetry_why_not_; }

 private:
  EventTimer timer_;
  int compute_units_ = 1;
  void* flush_buffer_ = nullptr;
  std::uint64_t flush_bytes_ = 0;
  std::unique_ptr<RocmSmi> rocm_smi_;
  std::string telemetry_why_not_;
};

}  // namespace

std::unique_ptr<MeasurementBackend> open_backend() { return std::make_unique<HipBackend>(); }

}  // namespace ridgeline::hip
