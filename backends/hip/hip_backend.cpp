#include "hip/hip_backend.hpp"

#include <hip/hip_runtime_api.h>
#include <Kokkos_Core.hpp>

#include <string>

#include "hip/hip_check.hpp"
#include "hip/hip_info.hpp"

namespace ridgeline::hip {
namespace {

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
  HipBackend() : timer_(Kokkos::HIP().hip_stream()) {
    const int device = Kokkos::HIP().hip_device();
    hipDeviceProp_t p{};
    RIDGELINE_HIP_CHECK(hipGetDeviceProperties(&p, device));
    std::string arch = p.gcnArchName;
    arch = arch.substr(0, arch.find(':'));
    // On MI300 the flush has to go through the Infinity Cache, not only the L2.
    flush_bytes_ =
        l2_flush_bytes(last_level_cache_bytes(arch, static_cast<std::uint64_t>(p.l2CacheSize)),
                       static_cast<std::uint64_t>(p.totalGlobalMem));
    if (flush_bytes_) RIDGELINE_HIP_CHECK(hipMalloc(&flush_buffer_, flush_bytes_));
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
  void flush_cache() override {
    if (!flush_buffer_) return;
    flip_ ^= 1;
    RIDGELINE_HIP_CHECK(
        hipMemsetAsync(flush_buffer_, flip_, flush_bytes_, Kokkos::HIP().hip_stream()));
  }

 private:
  EventTimer timer_;
  void* flush_buffer_ = nullptr;
  std::uint64_t flush_bytes_ = 0;
  int flip_ = 0;
};

}  // namespace

std::unique_ptr<MeasurementBackend> open_backend() { return std::make_unique<HipBackend>(); }

}  // namespace ridgeline::hip
