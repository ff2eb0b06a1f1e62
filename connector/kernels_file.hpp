#pragma once
// The kernels file the connector writes (schema in connector/schema.md): what ran, where, how
// often and how long, with the counts the application declared.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "connector/annotations.hpp"
#include "connector/kernel_table.hpp"
#include "connector/thread_count.hpp"

namespace ridgeline::kp {

inline constexpr const char* kKernelsSchemaVersion = "1.2.0";

struct SessionFacts {
  std::string hostname, command, started_utc;
  long long pid = 0;
  std::uint64_t interface_version = 0;
  bool global_fencing = false;  // requested and granted through the tool settings
  // RIDGELINE_KP_PAPI=1: whether PAPI counts, its events, or why not (PAPI's own words).
  bool papi_requested = false, papi_available = false;
  std::string papi_error;
  std::vector<std::string> papi_events;
  ThreadCount threads;  // host threads of the OpenMP/Threads spaces, as far as can be told
};

// "2026-12-01T21:00:07Z"
std::string utc_timestamp();

std::string kernels_json(const SessionFacts& facts, const std::vector<KernelRecord>& kernels,
                         const Annotations& annotations, bool complete);

}  // namespace ridgeline::kp
