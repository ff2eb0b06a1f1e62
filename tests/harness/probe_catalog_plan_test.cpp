// The harness speaks the probe catalog's vocabulary: the profile parser accepts exactly the
// names the catalog gives each family's section, and a profile asking for all of them plans
// exactly the catalog's probes, in their families.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "backends/spaces.hpp"
#include "core/input_error.hpp"
#include "harness/context/context.hpp"
#include "harness/sweep/plan.hpp"
#include "harness/sweep/sweep_profile.hpp"
#include "results/probe_catalog.hpp"

namespace ridgeline {
namespace {

using nlohmann::json;

// The families whose profile section lists its probes (peak's section is the probe).
std::vector<std::string> listed_families() {
  std::vector<std::string> out;
  for (const ProbeFamily& f : kProbeFamilies)
    if (!profile_names_in(f.name).empty()) out.emplace_back(f.name);
  return out;
}

std::vector<std::string> parsed_probes(const SweepProfile& p, const std::string& family) {
  if (family == "bandwidth") return p.bandwidth_probes;
  if (family == "fma") return p.fma_probes;
  if (family == "cache") return p.cache_probes;
  if (family == "sram") return p.sram_probes;
  if (family == "library") return p.library_probes;
  ADD_FAILURE() << "a family the profile has no list for: " << family;
  return {};
}

TEST(ProbeCatalogPlan, ProfileSectionsAcceptExactlyTheCatalogsNames) {
  const auto families = listed_families();
  ASSERT_EQ(families, (std::vector<std::string>{"bandwidth", "fma", "cache", "sram", "library"}));
  for (const auto& family : families) {
    const auto names = profile_names_in(family);
    const SweepProfile p =
        parse_sweep_profile({{"name", "x"}, {family, {{"probes", names}}}}, "test.json");
    EXPECT_EQ(parsed_probes(p, family), names) << family;
    // A name from another family's vocabulary, or none's, is refused with the known names.
    for (const std::string wrong : {"nope", "cache_read", "sram_update"}) {
      try {
        parse_sweep_profile({{"name", "x"}, {family, {{"probes", {wrong}}}}}, "test.json");
        ADD_FAILURE() << family << " accepted '" << wrong << "'";
      } catch (const InputError& e) {
        std::string known;
        for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
        EXPECT_EQ(std::string(e.what()), "test.json: " + family + ".probes[0]: unknown " + family +
                                             " probe '" + wrong + "' (known: " + known + ")");
      }
    }
  }
}

bool build_has_device_space() {
  bool any = false;
  for_each_space([&](auto* s) { any = any || kIsDeviceSpace<std::decay_t<decltype(*s)>>; });
  return any;
}

// Every probe planned is the catalog's, in the catalog's family; every probe of the catalog is
// planned (device-only ones where the build has a device space), skipped or not.
TEST(ProbeCatalogPlan, EveryFamilyAskedPlansExactlyTheCatalogsProbes) {
  json profile = {
      {"name", "all"},
      {"working_set_bytes", 65536},
      {"dtypes", {"fp64"}},
      {"fma", {{"probes", profile_names_in("fma")}, {"k_max", 1}}},
      {"peak", {{"k", 1}, {"flops_per_call", 1e4}}},
      {"cache",
       {{"probes", profile_names_in("cache")}, {"min_bytes", 16384}, {"bytes_per_call", 1e5}}},
      {"sram", {{"probes", profile_names_in("sram")}, {"bytes", {1024}}}},
      {"library", {{"probes", profile_names_in("library")}, {"gemm_n", 16}}}};
  profile["bandwidth"] = {{"probes", profile_names_in("bandwidth")}};
  const auto plan =
      build_plan(parse_sweep_profile(profile, "test.json"), machine_context().facts, {});
  std::set<std::string> planned;
  for (const auto& p : plan) {
    const ProbeSpec* spec = find_probe(p.info.probe);
    ASSERT_NE(spec, nullptr) << p.info.name << ": a probe the catalog lacks";
    EXPECT_EQ(p.info.family, spec->family) << p.info.name;
    planned.insert(p.info.probe);
  }
  std::set<std::string> expected;
  const bool device = build_has_device_space();
  for (const ProbeSpec& p : kProbes)
    if (device || !p.device_only) expected.emplace(p.name);
  EXPECT_EQ(planned, expected);
}

}  // namespace
}  // namespace ridgeline
