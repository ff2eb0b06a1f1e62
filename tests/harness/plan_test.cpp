// The planner: every shipped profile plans each point once on this machine, neighbouring cache
// sizes that round together are left out, and sizes from the profile cannot overflow.
#include "sweep/plan.hpp"

#include <gtest/gtest.h>

#include <map>
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

// The SRAM probe is planned when the profile asks, one point per probe, dtype, space and size;
// a size above what the space allows becomes the largest it allows, recorded as requested.
TEST(Plan, SramPointsComeFromTheProfileClippedToTheSpace) {
  const json profile = {{"name", "sram"},
                        {"working_set_bytes", 65536},
                        {"sram",
                         {{"probes", {"read", "update"}},
                          {"dtypes", {"fp64", "fp32"}},
                          {"bytes", {8192, 1 << 20}},
                          {"passes", 3}}}};
  const auto plan = plan_of(profile);
  expect_unique_names(plan, "sram");
  std::map<std::string, int> per_space;
  for (const auto& p : plan) {
    ASSERT_EQ(p.info.family, "sram") << p.info.name;
    EXPECT_TRUE(p.skipped_reason.empty()) << p.info.name << ": " << p.skipped_reason;
    EXPECT_EQ(p.info.params["passes"], 3);
    const auto requested = p.info.params["requested_bytes"].get<std::uint64_t>();
    EXPECT_LE(p.info.working_set_bytes, p.info.params["scratch_limit_bytes"].get<std::uint64_t>());
    if (requested == 8192) {
      EXPECT_EQ(p.info.working_set_bytes, 8192u) << p.info.name;
    }
    ++per_space[p.info.space];
  }
  for (const auto& space : enabled_space_names())
    EXPECT_EQ(per_space[space], 2 * 2 * 2) << space;  // probes x dtypes x sizes
  // Without the key, no SRAM point.
  for (const auto& p :
       plan_of({{"name", "none"}, {"working_set_bytes", 65536}, {"peak", json::object()}}))
    EXPECT_NE(p.info.family, "sram");
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
