#pragma once
// One measurable point: a kernel with its exact FLOP and byte counts and a check of its output.
// The runner times run() between fences; everything else happens outside the timed region.
#include <nlohmann/json.hpp>

#include <memory>
#include <string>

#include "results/point_info.hpp"

namespace ridgeline {

class Probe {
 public:
  virtual ~Probe() = default;
  virtual const PointInfo& info() const = 0;
  virtual void setup() = 0;  // allocate and initialise; may throw on allocation failure
  // Frees what setup() allocated; setup() may be called again (a sweep in rounds visits a point
  // once per round and holds one point's memory at a time).
  virtual void release() = 0;
  virtual void run() = 0;             // one kernel call; may return before the device finishes
  virtual void fence() = 0;           // waits for this probe's execution space
  virtual Verification verify() = 0;  // checks the output of the last run()
  // What the last run() observed of the machine besides its time (e.g. the SM clock measured
  // inside the kernel), written into the point's results; null when nothing.
  virtual nlohmann::json observed() { return nullptr; }
  // What setup() decided about how to run the point (the vendor gemm's chosen algorithm), added
  // to the point's params; null when nothing. The plan's params are fixed before setup() runs.
  virtual nlohmann::json setup_params() { return nullptr; }
  // Test hook: corrupts one output value so tests can see verify() catch it.
  virtual void corrupt_output_for_test() = 0;
};

using ProbePtr = std::unique_ptr<Probe>;

// A point of a sweep: a probe (constructed, but holding no memory until setup()), or a point
// that will not run and why.
struct PointPlan {
  PointInfo info;
  std::string skipped_reason;  // non-empty: recorded, never run
  ProbePtr probe;
};

}  // namespace ridgeline
