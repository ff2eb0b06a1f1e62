#pragma once
// What the results file records of a point besides its timings: its identity, its exact counts
// and the check of its output. The harness's probes fill it; results_writer writes it.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace ridgeline {

struct PointInfo {
  std::string name;    // stable id: probe/space/dtype/grade, see results/schema.md
  std::string probe;   // triad, fma, peak, cache_read, gemm, …
  std::string family;  // bandwidth | fma | peak | cache | library
  std::string space;
  std::string dtype;
  std::uint64_t working_set_bytes = 0;
  std::uint64_t elements = 0;
  double flops = 0;  // per run() call, counted from the source (FMA = 2)
  double bytes = 0;  // algorithmic bytes per run() call
  nlohmann::json params = nlohmann::json::object();
  std::string unfit_reason;  // set by a probe that cannot measure this point; the plan skips it
};

struct Verification {
  bool ok = true;
  std::string error;  // what was wrong, for the results file
};

}  // namespace ridgeline
