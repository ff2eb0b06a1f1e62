#include "backends/hip/hip_backend.hpp"

#include <hip/hip_runtime.h>
#include <Kokkos_Core.hpp>

#include <cstdlib>
#include <string>

#include "backends/hip/hip_check.hpp"
#include "backends/hip/hip_info.hpp"
#include "backends/hip/rocm_smi.hpp"
#include "backends/hold_flags.hpp"
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

// The REALTIME counter and a short sleep, in device code; the host pass sees stubs.
__device__ inline long long realtime_ticks() {
#if defined(__HIP_DEVICE_COMPILE__)
  return static_cast<long long>(__builtin_amdgcn_s_memrealtime());
#else
  return 0;
#endif
}
__device__ inline void short_sleep() {
#if defined(__HIP_DEVICE_COMPILE__)
  __builtin_amdgcn_s_sleep(1);  // fewer polls of host memory over the bus
#endif
}

// Holds the stream until the host has enqueued a whole sample (start event, the probe's calls,
// stop event), so the host's launch latency never falls between the events, as on CUDA
// (cuda_backend.cpp; nvbench's blocking kernel). Gives up after `timeout_ticks` of the constant
// REALTIME counter (s_memrealtime) and says so. Compiled, not run.
__global__ void hold_stream(const volatile int* release, long long timeout_ticks,
                            volatile int* timed_out) {
  const long long t0 = realtime_ticks();
  while (!*release) {
    if (realtime_ticks() - t0 > timeout_ticks) {
      *timed_out = 1;
      return;
    }
    short_sleep();
  }
}

// A pair of events recorded on Kokkos' stream around one sample, behind a held stream.
class EventTimer final : public SampleTimer {
 public:
  EventTimer(hipStream_t stream, bool hold, double tick_ns)
      : stream_(stream), hold_(hold), hold_timeout_ticks_(static_cast<long long>(1e8 / tick_ns)) {
    RIDGELINE_HIP_CHECK(hipEventCreate(&start_));
    RIDGELINE_HIP_CHECK(hipEventCreate(&stop_));
    // Coherent: the spinning kernel must see the host's store without a flush of any cache.
    RIDGELINE_HIP_CHECK(hipHostMalloc(reinterpret_cast<void**>(&flags_), sizeof(HoldFlags),
                                      hipHostMallocMapped | hipHostMallocCoherent));
    RIDGELINE_HIP_CHECK(
        hipHostGetDevicePointer(reinterpret_cast<void**>(&device_flags_), flags_, 0));
    flags_->release = 1;
    flags_->timed_out = 0;
  }
  ~EventTimer() override {
    (void)hipEventDestroy(start_);
    (void)hipEventDestroy(stop_);
    (void)hipHostFree(flags_);
  }
  // Owns events and pinned memory: copying would free them twice.
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;

  void start() override {
    if (hold_) {
      store_hold_flag(flags_->release, 0);
      hold_stream<<<1, 1, 0, stream_>>>(&device_flags_->release, hold_timeout_ticks_,
                                        &device_flags_->timed_out);
      RIDGELINE_HIP_CHECK(hipGetLastError());
    }
    RIDGELINE_HIP_CHECK(hipEventRecord(start_, stream_));
  }
  double stop(const std::function<void()>& wait) override {
    RIDGELINE_HIP_CHECK(hipEventRecord(stop_, stream_));
    store_hold_flag(flags_->release, 1);
    wait();
    RIDGELINE_HIP_CHECK(hipEventSynchronize(stop_));
    if (load_hold_flag(flags_->timed_out)) {
      ++timeouts_;
      store_hold_flag(flags_->timed_out, 0);
    }
    float ms = 0;
    RIDGELINE_HIP_CHECK(hipEventElapsedTime(&ms, start_, stop_));
    return ms * 1e-3;
  }
  std::uint64_t timeouts() const { return timeouts_; }
  bool holds() const { return hold_; }

 private:
  hipStream_t stream_;
  bool hold_;
  // 0.1 s of the REALTIME counter at its rate (hip_info.hpp: queried, or the gfx9 parts' 100 MHz
  // where the runtime cannot say). A wrong rate only moves the safety timeout.
  long long hold_timeout_ticks_;
  hipEvent_t start_ = nullptr, stop_ = nullptr;
  HoldFlags* flags_ = nullptr;
  HoldFlags* device_flags_ = nullptr;
  std::uint64_t timeouts_ = 0;
};

class HipBackend final : public DeviceBackend {
 public:
  // RIDGELINE_NO_STREAM_HOLD=1 times without the hold, as on CUDA.
  HipBackend()
      : timer_(HipSpace().hip_stream(), std::getenv("RIDGELINE_NO_STREAM_HOLD") == nullptr,
               wall_clock_tick_ns(HipSpace().hip_device())) {
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
    telemetry_ = open_rocm_smi(bus_id, telemetry_why_not_);
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
  bool holds_stream() const override { return timer_.holds(); }
  std::uint64_t hold_timeouts() const override { return timer_.timeouts(); }

 private:
  EventTimer timer_;
  int compute_units_ = 1;
  void* flush_buffer_ = nullptr;
  std::uint64_t flush_bytes_ = 0;
};

}  // namespace

std::unique_ptr<MeasurementBackend> open_backend() { return std::make_unique<HipBackend>(); }

}  // namespace ridgeline::hip
