#pragma once
// Turns a sweep profile into the list of points to measure, per execution space and dtype, with
// sizes derived from the caches `ridgeline info` reports.
#include <cstdint>
#include <string>
#include <vector>

#include "harness/context/machine_facts.hpp"
#include "harness/probes/probe.hpp"
#include "harness/sweep/sweep_profile.hpp"

namespace ridgeline {

struct PlanFilter {
  std::vector<std::string> spaces;  // empty: all
  std::vector<std::string> probes;  // empty: all
  std::vector<std::string> dtypes;  // empty: all of the profile's (tf32 rides with fp32)
};

// Why a plan came out empty, as the input error that names the field to blame: the profile's
// `spaces` when this build has none of them, else the filter (--space, --dtype, --probe) that
// excluded everything.
class InputError;
InputError empty_plan_error(const SweepProfile& profile, const PlanFilter& filter);

// Cache and memory sizes come from `machine` (machine_context().facts).
std::vector<PointPlan> build_plan(const SweepProfile& profile, const MachineFacts& machine,
                                  const PlanFilter& filter);

// The cache sweep's working sets, ascending: geometric from min_bytes to max_bytes with
// steps_per_octave per doubling, plus 4 per octave within a factor 2 of each capacity (a GPU's
// L1 per SM, L2, last-level cache: where a level ends, its bandwidth halves within an octave or
// two, and a sparse sweep had no point between 32 and 64 MiB on a 60 MiB-L2 H200). Capacities
// of 0 are unknown and ignored.
std::vector<double> cache_working_sets(double min_bytes, double max_bytes, int steps_per_octave,
                                       const std::vector<std::uint64_t>& capacities);

// Names of the execution spaces in this build.
std::vector<std::string> enabled_space_names();

}  // namespace ridgeline
