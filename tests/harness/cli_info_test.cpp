// `ridgeline info --json` describes the host space: what results files embed as context.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/run_command.hpp"

namespace ridgeline {
namespace {

TEST(CliInfo, JsonDescribesHostSpaceCpuAndBuild) {
  const auto r = test::run_command(std::string(RIDGELINE_BIN) + " info --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_FALSE(j["ridgeline"]["version"].get<std::string>().empty());
  EXPECT_FALSE(j["ridgeline"]["git_revision"].get<std::string>().empty());
  EXPECT_EQ(j["kokkos"]["version"].get<std::string>().find('.'), 1u);
  EXPECT_FALSE(j["kokkos"]["backends"].empty());
  EXPECT_FALSE(j["build"]["compiler"].get<std::string>().empty());
  EXPECT_GE(j["cpu"]["threads"].get<int>(), 1);
  EXPECT_GE(j["cpu"]["cores"].get<int>(), 1);
  EXPECT_FALSE(j["cpu"]["caches"].empty());
  bool host_space = false;
  for (const auto& s : j["spaces"])
    if (s["kind"] == "host") {
      host_space = true;
      EXPECT_GE(s["concurrency"].get<int>(), 1);
      EXPECT_TRUE(s["device"].is_null());
    }
  EXPECT_TRUE(host_space);
}

TEST(CliInfo, TextNamesEverySpace) {
  const auto r = test::run_command(std::string(RIDGELINE_BIN) + " info");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Execution spaces:"), std::string::npos);
  EXPECT_NE(r.out.find("Serial"), std::string::npos);
  EXPECT_EQ(r.err, "");
}

}  // namespace
}  // namespace ridgeline
