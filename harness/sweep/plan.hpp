#pragma once
// Turns a sweep profile into the list of points to measure, per execution space and dtype, with
// sizes derived from the caches `ridgeline info` reports.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "probes/probe.hpp"
#include "sweep/sweep_profile.hpp"

namespace ridgeline {

struct PlanFilter {
  std::vector<std::string> spaces;  // empty: all
  std::vector<std::string> probes;  // empty: all
  std::vector<std::string> dtypes;  // empty: all of the profile's (tf32 rides with fp32)
};

// `context` is machine_context(): cache and memory sizes come from it.
std::vector<PointPlan> build_plan(const SweepProfile& profile, const nlohmann::json& context,
                                  const PlanFilter& filter);

// Names of the execution spaces in this build.
std::vector<std::string> enabled_space_names();

}  // namespace ridgeline
