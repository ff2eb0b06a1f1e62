#pragma once
// What the connector knows at a write, as the kernels file's types (results/kernels_file.hpp,
// whose writer turns them into JSON: the keys live there alone).
#include <cstdint>
#include <string>
#include <vector>

#include "connector/annotations.hpp"
#include "connector/kernel_table.hpp"
#include "connector/thread_count.hpp"
#include "results/kernels_file.hpp"

namespace ridgeline::kp {

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

// The file as of now: the kernels that ended at least one call, their quantiles, where they ran
// and their counts (declared, else PAPI's), written now (written_utc).
KernelsFile kernels_file(const SessionFacts& facts, const std::vector<KernelRecord>& kernels,
                         const Annotations& annotations, bool complete);

}  // namespace ridgeline::kp
