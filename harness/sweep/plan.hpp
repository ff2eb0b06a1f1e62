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

// Why a plan came out empty, as the input error that names the field to blame: the profile's
// `spaces` when this build has none of them, else the filter (--space, --dtype, --probe) that
// excluded everything.
class InputError;
InputError empty_plan_error(const SweepProfile& profile, const PlanFilter& filter);

// `context` is machine_context(): cache and memory sizes come from it.
std::vector<PointPlan> build_plan(const SweepProfile& profile, const nlohmann::json& context,
                                  const PlanFilter& filter);

// Names of the execution spaces in this build.
std::vector<std::string> enabled_space_names();

}  // namespace ridgeline
