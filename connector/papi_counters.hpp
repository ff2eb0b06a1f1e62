#pragma once
// Hardware counters on CPUs through PAPI, optional: libpapi.so.7.0 (Debian 12's PAPI 7.0.0;
// libpapi.so.7 elsewhere) is loaded with dlopen when RIDGELINE_KP_PAPI=1: the connector builds and
// runs without PAPI and needs no PAPI header (the few prototypes and constants used are
// PAPI 7.0.0's papi.h).
//
// What is counted: PAPI_DP_OPS and PAPI_SP_OPS (floating-point operations, FMA = 2 where the
// platform's preset says so) and PAPI_L3_TCM (last-level cache misses, each a 64-byte line from
// memory: reads only, write-backs are not seen), each only where the machine exposes it. A
// PAPI event set counts the thread that started it: the connector counts on the thread that
// initialised Kokkos, so only kernels of the Serial space (which run on that thread) get
// counts; an OpenMP kernel's other threads would be missed.
//
// Where PAPI cannot count (no libpapi, no PMU as in a VM without perf events, no event), the
// reason in PAPI's own words goes into the kernels file's "papi" object and nothing is counted.
// The counting path is compiled, not run: the development VM has no PMU.
#include <memory>
#include <string>
#include <vector>

namespace ridgeline::kp {

class PapiCounters {
 public:
  // nullptr with `why` (dlerror's or PAPI_strerror's message) when PAPI cannot count here.
  static std::unique_ptr<PapiCounters> open(std::string& why);
  ~PapiCounters();
  PapiCounters(const PapiCounters&) = delete;  // owns a running PAPI event set
  PapiCounters& operator=(const PapiCounters&) = delete;

  const std::vector<std::string>& events() const { return events_; }
  // The running totals of the events, in the order of events(); false when PAPI_read failed.
  bool read(std::vector<long long>& values) const;

 private:
  PapiCounters() = default;
  struct Api;
  std::unique_ptr<Api> api_;
  int event_set_ = -1;
  std::vector<std::string> events_;
};

}  // namespace ridgeline::kp
