#pragma once
// How one execution space is measured: the backend interface. Only these services differ between
// backends (BabelStream's lesson); probes and the sweep are written once.
//   - SampleTimer: times one sample. Host spaces: steady_clock between fences. CUDA/HIP: events
//     recorded on Kokkos' stream behind a held stream, so launch and fence latency on the host
//     stay out of the time.
//   - flush_cache(): evicts the device's L2 before a timed call of a DRAM probe by reading a
//     buffer twice its size (host: no-op; CPU DRAM probes use working sets >= 4x the LLC).
//   - read_telemetry(): clocks, power, temperature, throttle reasons and their counters, where
//     the vendor's management library loads at run time (NVML); otherwise nothing.
//   - read_host_clock_mhz(): host spaces: the cores' clock, measured by dependent-instruction
//     chains (backends/host/host_clock.hpp); device spaces: nothing.
// This header is Kokkos-free so the sweep's bookkeeping can be unit-tested on any build.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "backends/telemetry.hpp"

namespace ridgeline {

class SampleTimer {
 public:
  virtual ~SampleTimer() = default;
  // Marks the start of a sample. The caller has fenced the space before.
  virtual void start() = 0;
  // Marks the end of the sample, then calls `wait` (the probe's fence) and returns the seconds
  // between start and end. A device timer records its end event and releases the stream before
  // waiting, so the fence's own latency is not timed and `wait` runs while the device works.
  virtual double stop(const std::function<void()>& wait) = 0;
};

class MeasurementBackend {
 public:
  virtual ~MeasurementBackend() = default;
  virtual const char* timer_name() const = 0;  // recorded per point, e.g. "cuda_event"
  virtual SampleTimer& timer() = 0;
  // Bytes the cache flush moves; 0 when flush_cache() does nothing.
  virtual std::uint64_t flush_bytes() const { return 0; }
  virtual const char* flush_method() const { return "none"; }
  // Enqueues the flush before the next sample (asynchronous on device spaces; ordered before the
  // timer's start on the same stream, so it is not timed).
  virtual void flush_cache() {}
  // SM clock the throttle test compares against (MHz); 0 when unknown.
  virtual double reference_sm_clock_mhz() const { return 0; }
  virtual std::optional<TelemetryReading> read_telemetry() { return std::nullopt; }
  // Why read_telemetry() gives nothing (empty on host spaces, where there is nothing to read).
  virtual std::string telemetry_unavailable() const { return {}; }
  // The host cores' clock after a repetition (MHz), read on the calling thread outside the timed
  // calls; nullopt on device spaces (their SM clock is in the telemetry) and where it cannot be
  // read (host_clock_unavailable() says why). The gate tells a host that ran at a lower clock
  // from a slower kernel with it, as it does a GPU's.
  virtual std::optional<double> read_host_clock_mhz() { return std::nullopt; }
  virtual std::string host_clock_unavailable() const { return {}; }
  // Whether the timer holds the device's stream while the host enqueues a sample, and how many
  // times the hold ran out because the host waited for the device inside a sample.
  virtual bool holds_stream() const { return false; }
  virtual std::uint64_t hold_timeouts() const { return 0; }
};

// The telemetry half of a device backend, written once for CUDA and HIP: the vendor's management
// library (a TelemetrySource, or none with the reason) serves the reference clock, the readings
// and why there are none.
class DeviceBackend : public MeasurementBackend {
 public:
  double reference_sm_clock_mhz() const override {
    return telemetry_ ? telemetry_->max_sm_clock_mhz() : 0;
  }
  std::optional<TelemetryReading> read_telemetry() override {
    if (telemetry_) return telemetry_->read();
    return std::nullopt;
  }
  std::string telemetry_unavailable() const override { return telemetry_why_not_; }

 protected:
  std::unique_ptr<TelemetrySource> telemetry_;
  std::string telemetry_why_not_;
};

// The backend for an execution space by its Kokkos name ("Cuda", "HIP", "OpenMP", "Serial").
// Device backends allocate their flush buffer here, once per run.
std::unique_ptr<MeasurementBackend> open_measurement_backend(const std::string& space_name);

// Host spaces: steady_clock between fences, no flush, no telemetry, the cores' clock measured.
std::unique_ptr<MeasurementBackend> make_host_backend();

}  // namespace ridgeline
