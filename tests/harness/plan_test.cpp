// The planner: every shipped profile plans each point once on this machine, neighbouring cache
// sizes that round together are left out, and sizes from the profile cannot overflow.
#include "sweep/plan.hpp"

#include <gtest/gtest.h>

#include <set>

#include "context/context.hpp"
#include "results/input_error.hpp"

namespace ridgeline {
namespace {

using nlohmann::json;

std::vector<PointPlan> plan_of(const json& profile) {
  return build_plan(parse_sweep_profile(profile, "test.json"), machine_context(), {});
}

void expect_unique_names(const std::vector<PointPlan>& plan, const std::string& what) {
  std::set<std::string> names;
  for (const auto& p : plan)
    EXPECT_TRUE(names.insert(p.info.name).second) << what << ": " << p.info.name;
}

// `run --profile cache` and `full` crashed on CPU hosts: sizes rounded to one name, and the
// runner verified a probe that was never set up.
TEST(Plan, ShippedProfilesPlanEveryPointOnce) {
  for (const char* name : {"quick", "nightly", "full", "cache"}) {
    std::vector<PointPlan> plan;
    ASSERT_NO_THROW(plan = build_plan(load_sweep_profile(name), machine_context(), {})) << name;
    EXPECT_GT(plan.size(), 10u) << name;
    expect_unique_names(plan, name);
  }
}

TEST(Plan, CacheSizesThatRoundTogetherArePlannedOnce) {
  const json profile = {{"name", "fine"},
                        {"working_set_bytes", 65536},
                        {"cache",
                         {{"probes", {"read", "triad"}},
                          {"dtypes", {"fp64"}},
                          {"min_bytes", 64},
                          {"steps_per_octave", 64},
                          {"bytes_per_call", 1e5}}}};
  const auto plan = plan_of(profile);
  expect_unique_names(plan, "fine");
  // 10 octaves x 64 steps x 2 probes x spaces would be planned without the rounding check.
  std::size_t spaces = enabled_space_names().size();
  EXPECT_LT(plan.size(), 2 * 640 * spaces);
  EXPECT_GT(plan.size(), 2 * spaces);
}

TEST(Plan, PassesThatWouldOverflowAreBadInput) {
  const json profile = {
      {"name", "many-passes"},
      {"working_set_bytes", 65536},
      {"cache", {{"probes", {"read"}}, {"min_bytes", 1}, {"bytes_per_call", 1e12}}}};
  try {
    plan_of(profile);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("test.json: cache.bytes_per_call: asks for 1e+12 passes"),
              std::string::npos)
        << e.what();
  }
}

// 3·n²·8 bytes wrapped to 0 at gemm_n = 2^31 and passed the memory check; the largest n now is
// computed exactly and refused when it does not fit.
TEST(Plan, LargestGemmIsSizedExactly) {
  const auto plan =
      plan_of({{"name", "gemm"}, {"library", {{"probes", {"gemm"}}, {"gemm_n", 65536}}}});
  ASSERT_FALSE(plan.empty());
  for (const auto& p : plan) {
    EXPECT_EQ(p.info.working_set_bytes, 3ull * 65536 * 65536 * (p.info.dtype == "fp64" ? 8 : 4));
    EXPECT_EQ(p.skipped_reason.rfind("out of memory: needs ", 0), 0u) << p.skipped_reason;
  }
}

}  // namespace
}  // namespace ridgeline
