// `ridgeline info --json` describes the host space: what results files embed as context.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "tests/support/cli_test.hpp"
#include "tests/support/run_command.hpp"
#include "tests/support/test_paths.hpp"

namespace ridgeline {
namespace {

using test::kBin;
const std::string kSource = test::paths::kSourceDir;

TEST(CliInfo, JsonDescribesHostSpaceCpuAndBuild) {
  const auto r = test::run_command(kBin + " info --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_FALSE(j["ridgeline"]["version"].get<std::string>().empty());
  EXPECT_FALSE(j["ridgeline"]["git_revision"].get<std::string>().empty());
  EXPECT_EQ(j["kokkos"]["version"].get<std::string>().find('.'), 1u);
  EXPECT_FALSE(j["kokkos"]["backends"].empty());
  EXPECT_FALSE(j["build"]["compiler"].get<std::string>().empty());
  EXPECT_GE(j["cpu"]["threads"].get<int>(), 1);
  EXPECT_GE(j["cpu"]["cores"].get<int>(), 1);
  // The caches come from sysfs; a VM without /sys/.../cpu0/cache gets them from CPUID and says
  // so (caches_source). A level CPUID gives without its sharing (this dev VM's legacy leaf: a
  // 508 MiB L3 for 2 vCPUs, the host's socket) is left out, and caches_incomplete says why.
  const bool sysfs_caches = std::filesystem::exists("/sys/devices/system/cpu/cpu0/cache/index0");
  EXPECT_EQ(j["cpu"].contains("caches_source"), !sysfs_caches && !j["cpu"]["caches"].empty())
      << j["cpu"];
  if (sysfs_caches) {
    EXPECT_FALSE(j["cpu"]["caches"].empty());
  }
  if (j["cpu"].contains("caches_incomplete")) {
    EXPECT_TRUE(j["cpu"]["caches_incomplete"].is_string());
  }
  bool host_space = false;
  for (const auto& s : j["spaces"])
    if (s["kind"] == "host") {
      host_space = true;
      EXPECT_GE(s["concurrency"].get<int>(), 1);
      EXPECT_TRUE(s["device"].is_null());
    }
  EXPECT_TRUE(host_space);
}

// The key scripts/nightly files this machine's baselines under: the host and, on a host-only
// build, the CPU model (harness/context/baseline_key's test pins the rule itself).
TEST(CliInfo, JsonGivesTheNightlyBaselineKey) {
  const auto r = test::run_command(kBin + " info --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const auto& b = j["baseline"];
  ASSERT_TRUE(b.is_object()) << r.out;
  EXPECT_EQ(b["host"], j["host"]["hostname"]);
  const std::string key = b["key"];
  EXPECT_FALSE(key.empty());
  EXPECT_EQ(key.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-"), std::string::npos)
      << key;
  if (j["cpu"]["model"].is_string()) {
    EXPECT_EQ(b["machine"], "CPU " + j["cpu"]["model"].get<std::string>());
  }
}

TEST(CliInfo, TextNamesEverySpace) {
  const auto r = test::run_command(kBin + " info");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Execution spaces:"), std::string::npos);
  EXPECT_NE(r.out.find("Serial"), std::string::npos);
  EXPECT_EQ(r.err, "");
}

// A copied or installed binary finds the profiles next to it (bin/ + share/ridgeline/profiles),
// not at the source path it was built from; RIDGELINE_PROFILES overrides; with none, it says so.
TEST(CliInfo, CopiedBinaryFindsProfilesNextToItself) {
  const std::string dir = "/tmp/ridgeline-copied-" + std::to_string(getpid());
  const std::string setup = "rm -rf " + dir + " && mkdir -p " + dir + "/bin " + dir +
                            "/share/ridgeline && cp " + kBin + " " + dir + "/bin/ && cp -r " +
                            kSource + "/profiles " + dir + "/share/ridgeline/";
  ASSERT_EQ(test::run_command(setup).exit_code, 0);
  const auto r = test::run_command(dir + "/bin/ridgeline info --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["profiles"]["path"], dir + "/share/ridgeline/profiles");
  EXPECT_EQ(j["profiles"]["found_by"], "next to the binary");
  // The copied binary runs a named profile from there.
  const auto run = test::run_command(
      "cd /tmp && " + dir + "/bin/ridgeline run --profile nosuch --out " + dir + "/r.json");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("known: cache, full"), std::string::npos) << run.err;

  const auto env = test::run_command("RIDGELINE_PROFILES=" + kSource + "/profiles " + dir +
                                     "/bin/ridgeline info --json");
  ASSERT_EQ(env.exit_code, 0) << env.err;
  EXPECT_EQ(nlohmann::json::parse(env.out)["profiles"]["found_by"], "RIDGELINE_PROFILES");

  // Nowhere to be found: the binary alone in a folder, the build's source tree hidden by an
  // empty override.
  ASSERT_EQ(test::run_command("rm -rf " + dir + "/share && mkdir -p " + dir + "/empty").exit_code,
            0);
  const auto none =
      test::run_command("RIDGELINE_PROFILES=" + dir + "/empty " + dir +
                        "/bin/ridgeline run --profile quick --out " + dir + "/r.json");
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("no profiles folder found"), std::string::npos) << none.err;
  test::run_command("rm -rf " + dir);
}

}  // namespace
}  // namespace ridgeline
