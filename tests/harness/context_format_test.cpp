// What `ridgeline info` prints of a record: here the GPU lines, which a host build can only reach
// through a record with a device in it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>

#include "harness/context/context.hpp"

namespace ridgeline {
namespace {

// A ROCm 5 binary on a ROCm 6 machine (or a CUDA 13 binary on an older driver) fails at its
// first call: info says which toolkit the binary was built for beside what it found.
TEST(ContextFormat, ADeviceSaysWhichToolkitItWasBuiltFor) {
  nlohmann::json c = machine_context().recorded;
  c["spaces"].push_back(
      {{"name", "HIP"},
       {"kind", "device"},
       {"concurrency", 1},
       {"device",
        {{"name", "AMD Instinct MI250X"},
         {"arch", "gfx90a"},
         {"toolkit",
          {{"built_for", "HIP 5.2.21153"}, {"runtime", "HIP 6.2.41133"}, {"driver", nullptr}}}}}});
  const std::string text = format_context(c);
  EXPECT_NE(
      text.find("AMD Instinct MI250X: gfx90a\n"
                "           built for HIP 5.2.21153; runtime HIP 6.2.41133, driver unknown\n"),
      std::string::npos)
      << text;
  // A record from before the field has no such line.
  c["spaces"].back()["device"].erase("toolkit");
  EXPECT_EQ(format_context(c).find("built for"), std::string::npos);
}

}  // namespace
}  // namespace ridgeline
