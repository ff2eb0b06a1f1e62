#include "backends/cuda/cuda_backend.hpp"

#include <cuda_runtime.h>
#include <Kokkos_Core.hpp>

#include <cstdlib>
#include <string>

#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/nvml.hpp"
#include "backends/hold_flags.hpp"

namespace ridgeline::cuda {
namespace {

__device__ inline unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
  return t;
}

// Holds the stream until the host has enqueued a whole sample (start event, the probe's calls,
// stop event), so the host's launch latency never falls between the events: the timed region is
// only the device's work (nvbench's blocking kernel). Gives up after `timeout_ns` and says so:
// then the host waited for the device inside the sample, which no probe may do.
__global__ void hold_stream(const volatile int* release, unsigned long long timeout_ns,
                            volatile int* timed_out) {
  const unsigned long long t0 = global_ns();
  while (!*release) {
    if (global_ns() - t0 > timeout_ns) {
      *timed_out = 1;
      return;
    }
  }
}

// Reads the flush buffer (zeros) so the L2 ends up holding clean lines the timed kernel can drop
// without a write-back; a memset would leave an L2 of dirty lines for the timed kernel to write
// back. The store never happens: it only keeps the loads alive.
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

// A pair of events recorded on Kokkos' stream around one sample, behind a held stream.
class EventTimer final : public SampleTimer {
 public:
  EventTimer(cudaStream_t stream, bool hold) : stream_(stream), hold_(hold) {
    RIDGELINE_CUDA_CHECK(cudaEventCreate(&start_));
    RIDGELINE_CUDA_CHECK(cudaEventCreate(&stop_));
    RIDGELINE_CUDA_CHECK(
        cudaHostAlloc(reinterpret_cast<void**>(&flags_), sizeof(HoldFlags), cudaHostAllocMapped));
    RIDGELINE_CUDA_CHECK(
        cudaHostGetDevicePointer(reinterpret_cast<void**>(&device_flags_), flags_, 0));
    flags_->release = 1;
    flags_->timed_out = 0;
  }
  ~EventTimer() override {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
    cudaFreeHost(flags_);
  }
  // Owns events and pinned memory: copying would free them twice.
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;

  void start() override {
    if (hold_) {
      store_hold_flag(flags_->release, 0);
      hold_stream<<<1, 1, 0, stream_>>>(&device_flags_->release, kHoldTimeoutNs,
                                        &device_flags_->timed_out);
      RIDGELINE_CUDA_CHECK(cudaGetLastError());
    }
    RIDGELINE_CUDA_CHECK(cudaEventRecord(start_, stream_));
  }
  double stop(const std::function<void()>& wait) override {
    RIDGELINE_CUDA_CHECK(cudaEventRecord(stop_, stream_));
    store_hold_flag(flags_->release, 1);
    wait();
    RIDGELINE_CUDA_CHECK(cudaEventSynchronize(stop_));
    if (load_hold_flag(flags_->timed_out)) {
      ++timeouts_;
      store_hold_flag(flags_->timed_out, 0);
    }
    float ms = 0;
    RIDGELINE_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return ms * 1e-3;
  }
  std::uint64_t timeouts() const { return timeouts_; }
  bool holds() const { return hold_; }

 private:
  static constexpr unsigned long long kHoldTimeoutNs = 100'000'000;  // 0.1 s

  cudaStream_t stream_;
  bool hold_;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
  HoldFlags* flags_ = nullptr;
  HoldFlags* device_flags_ = nullptr;
  std::uint64_t timeouts_ = 0;
};

class CudaBackend final : public DeviceBackend {
 public:
  // RIDGELINE_NO_STREAM_HOLD=1 times without the hold (launch latency then falls inside
  // samples that have no flush in front), for machines where the spin on host memory misbehaves.
  CudaBackend()
      : timer_(Kokkos::Cuda().cuda_stream(), std::getenv("RIDGELINE_NO_STREAM_HOLD") == nullptr) {
    const int device = Kokkos::Cuda().cuda_device();
    int l2 = 0;
    RIDGELINE_CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
    RIDGELINE_CUDA_CHECK(cudaDeviceGetAttribute(&sms_, cudaDevAttrMultiProcessorCount, device));
    std::size_t free_bytes = 0, total_bytes = 0;
    RIDGELINE_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    flush_bytes_ = l2_flush_bytes(static_cast<std::uint64_t>(l2), total_bytes);
    if (flush_bytes_) {
      RIDGELINE_CUDA_CHECK(cudaMalloc(&flush_buffer_, flush_bytes_ + sizeof(int)));
      RIDGELINE_CUDA_CHECK(cudaMemset(flush_buffer_, 0, flush_bytes_ + sizeof(int)));
    }
    telemetry_ = open_nvml(device, telemetry_why_not_);
    // RIDGELINE_L2_FLUSH=memset|none: other flushes, for A/B measurements of the flush itself.
    if (const char* f = std::getenv("RIDGELINE_L2_FLUSH")) {
      const std::string method = f;
      if (method == "memset") flush_method_ = "memset";
      if (method == "none") flush_method_ = "none";
    }
  }
  ~CudaBackend() override {
    if (flush_buffer_) cudaFree(flush_buffer_);
  }
  // Owns the flush buffer: copying would free it twice.
  CudaBackend(const CudaBackend&) = delete;
  CudaBackend& operator=(const CudaBackend&) = delete;

  const char* timer_name() const override { return "cuda_event"; }
  SampleTimer& timer() override { return timer_; }
  std::uint64_t flush_bytes() const override { return flush_method_[0] == 'n' ? 0 : flush_bytes_; }
  const char* flush_method() const override { return flush_method_; }
  void flush_cache() override {
    if (!flush_buffer_ || flush_method_[0] == 'n') return;
    if (flush_method_[0] == 'm') {  // the old way, kept to measure what it costs
      RIDGELINE_CUDA_CHECK(
          cudaMemsetAsync(flush_buffer_, 0, flush_bytes_, Kokkos::Cuda().cuda_stream()));
      return;
    }
    auto* words = static_cast<const uint4*>(flush_buffer_);
    int* sink = reinterpret_cast<int*>(static_cast<char*>(flush_buffer_) + flush_bytes_);
    read_flush<<<4 * sms_, 256, 0, Kokkos::Cuda().cuda_stream()>>>(words, flush_bytes_ / 16, sink);
    RIDGELINE_CUDA_CHECK(cudaGetLastError());
  }
  bool holds_stream() const override { return timer_.holds(); }
  std::uint64_t hold_timeouts() const override { return timer_.timeouts(); }

 private:
  EventTimer timer_;
  int sms_ = 1;
  void* flush_buffer_ = nullptr;
  std::uint64_t flush_bytes_ = 0;
  const char* flush_method_ = "read";
};

}  // namespace

std::unique_ptr<MeasurementBackend> open_backend() { return std::make_unique<CudaBackend>(); }

}  // namespace ridgeline::cuda
