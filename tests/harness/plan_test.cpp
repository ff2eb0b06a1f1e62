// The planner: every shipped profile plans each point once on this machine, neighbouring cache
// sizes that round together are left out, and sizes from the profile cannot overflow.
#include "harness/sweep/plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/input_error.hpp"
#include "harness/context/context.hpp"

namespace ridgeline {
namespace {

using nlohmann::json;

std::vector<PointPlan> plan_of(const json& profile) {
  return build_plan(parse_sweep_profile(profile, "test.json"), machine_context().facts, {});
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
    ASSERT_NO_THROW(plan = build_plan(load_sweep_profile(name), machine_context().facts, {}))
        << name;
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

// Host sizes come from the facts the planner is given: DRAM working sets from every copy of the
// last-level cache, from the profile's minimum alone when the cache list is incomplete, and the
// memory the process may take.
TEST(Plan, HostSizesComeFromTheMachineFacts) {
  const json profile = {{"name", "facts"},           {"spaces", {"Serial", "OpenMP"}},
                        {"dtypes", {"fp64"}},        {"dram_llc_multiple", 4},
                        {"dram_min_bytes", 1 << 20}, {"bandwidth", {{"probes", {"triad"}}}}};
  MachineFacts machine;
  machine.cpu_caches = {{1, "data", 48 << 10, 2, 8}, {3, "unified", 8 << 20, 16, 2}};
  machine.available_memory_bytes = 1ull << 40;
  const auto plan_for = [&profile](const MachineFacts& m) {
    return build_plan(parse_sweep_profile(profile, "test.json"), m, {});
  };
  constexpr double kMiB = 1 << 20;
  const auto sized = plan_for(machine);
  ASSERT_FALSE(sized.empty());
  for (const auto& p : sized) {
    EXPECT_NEAR(double(p.info.working_set_bytes), 4 * 16 * kMiB, 0.02 * 64 * kMiB) << p.info.name;
    EXPECT_TRUE(p.skipped_reason.empty()) << p.info.name << ": " << p.skipped_reason;
  }
  MachineFacts incomplete = machine;
  incomplete.cpu_caches_incomplete = true;
  for (const auto& p : plan_for(incomplete))
    EXPECT_NEAR(double(p.info.working_set_bytes), kMiB, 0.02 * kMiB) << p.info.name;
  MachineFacts small = machine;
  small.available_memory_bytes = 10 << 20;  // 80 % of it usable
  for (const auto& p : plan_for(small))
    EXPECT_NE(p.skipped_reason.find(" bytes, 8388608 usable"), std::string::npos)
        << p.skipped_reason;
}

// A GPU's cache sweep: 4 points per octave within a factor 2 of each capacity, so the octave
// where a 60 MiB L2 ends (32-64 MiB) has points; without capacities (hosts) the geometric sweep
// is what it was.
TEST(Plan, CacheSweepIsDenseAroundEachCapacity) {
  constexpr double kMiB = 1 << 20;
  const std::vector<std::uint64_t> h200 = {256 << 10, 60 << 20, 60 << 20, 0};
  const auto sizes = cache_working_sets(4096, 4.0 * (1 << 30), 1, h200);
  ASSERT_TRUE(std::is_sorted(sizes.begin(), sizes.end()));
  for (std::size_t i = 1; i < sizes.size(); ++i) EXPECT_GT(sizes[i], sizes[i - 1] * 1.001);
  const auto between = [&](double lo, double hi) {
    return std::count_if(sizes.begin(), sizes.end(), [&](double s) { return lo <= s && s <= hi; });
  };
  EXPECT_GE(between(32 * kMiB * 1.0001, 64 * kMiB * 0.9999), 3);  // 35.7, 42.4, 50.5 MiB, 60
  EXPECT_GE(between(30 * kMiB * 0.999, 120 * kMiB * 1.001), 9);   // 60 MiB × 2^(j/4), |j| <= 4
  EXPECT_GE(between(128 << 10, 512 << 10), 9);                    // around the L1
  const auto host = cache_working_sets(4096, 1 << 20, 2, {});
  ASSERT_EQ(host.size(), 17u);  // 2^12 … 2^20, two per octave
  EXPECT_DOUBLE_EQ(host.front(), 4096);
  EXPECT_NEAR(host.back(), double(1 << 20), 1e-6 * (1 << 20));
}

}  // namespace
}  // namespace ridgeline
