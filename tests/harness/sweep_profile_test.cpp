// Sweep profiles are validated on load: every error names the file and the field.
#include "sweep/sweep_profile.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "results/input_error.hpp"

namespace ridgeline {
namespace {

std::string error_of(const std::string& body) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("ridgeline-profile-" + std::to_string(::getpid()) + ".json");
  std::ofstream(path) << body;
  try {
    load_sweep_profile(path.string());
  } catch (const InputError& e) {
    std::filesystem::remove(path);
    return std::string(e.what()).substr(path.string().size());
  }
  std::filesystem::remove(path);
  return "no error";
}

TEST(SweepProfile, ShippedProfilesLoad) {
  for (const char* name : {"quick", "nightly", "full", "cache"}) {
    const SweepProfile p = load_sweep_profile(name);
    EXPECT_EQ(p.name, name);
    EXPECT_GE(p.repetitions, 3) << name;
  }
}

TEST(SweepProfile, UnknownProbeNamesFieldAndProbe) {
  EXPECT_EQ(error_of(R"({"name":"x","bandwidth":{"probes":["triad","triadd"]}})"),
            ": bandwidth.probes[1]: unknown bandwidth probe 'triadd' (known: copy, scale, add, "
            "triad, dot, read, fill)");
}

// The ladder forms a profile asks for: the in-place reference by default, fma_xy on request.
TEST(SweepProfile, LadderFormsDefaultToTheInPlaceLadder) {
  EXPECT_EQ(parse_sweep_profile(nlohmann::json::parse(R"({"name":"x","fma":{}})"), "p").fma_probes,
            std::vector<std::string>{"fma"});
  const auto both = parse_sweep_profile(
      nlohmann::json::parse(R"({"name":"x","fma":{"probes":["fma","fma_xy"]}})"), "p");
  EXPECT_EQ(both.fma_probes, (std::vector<std::string>{"fma", "fma_xy"}));
  EXPECT_EQ(both.to_json()["fma"]["probes"], nlohmann::json({"fma", "fma_xy"}));
  EXPECT_EQ(error_of(R"({"name":"x","fma":{"probes":["fma_nt"]}})"),
            ": fma.probes[0]: unknown fma probe 'fma_nt' (known: fma, fma_xy)");
}

TEST(SweepProfile, NegativeSizeIsRejected) {
  EXPECT_EQ(error_of(R"({"name":"x","working_set_bytes":-4096})"),
            ": working_set_bytes: must be a positive integer (bytes or count)");
  EXPECT_EQ(error_of(R"({"name":"x","cache":{"min_bytes":0}})"),
            ": cache.min_bytes: must be a positive integer (bytes or count)");
}

TEST(SweepProfile, MalformedJsonAndTyposAreRejected) {
  EXPECT_EQ(error_of(R"({"name":"x", )").rfind(": malformed JSON", 0), 0u);
  EXPECT_EQ(error_of(R"({"name":"x","repetitons":5})").rfind(": repetitons: unknown field", 0), 0u);
  EXPECT_EQ(error_of(R"({"bandwidth":{}})"), ": name: missing required field");
  EXPECT_EQ(error_of(R"({"name":"x","fma":{"k_max":100000}})"),
            ": fma.k_max: the compiled ladder ends at 8192");
}

TEST(SweepProfile, UnknownProfileNameListsTheKnownOnes) {
  try {
    load_sweep_profile("nosuch");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "--profile: unknown profile 'nosuch' (known: cache, full, nightly, quick"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace ridgeline
