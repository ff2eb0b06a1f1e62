// The nightly baseline key from a machine context, as scripts/nightly used to derive it in
// Python: <host>-<device names or the CPU model>, slugged; the host and a readable machine name.
#include <gtest/gtest.h>

#include "harness/context/baseline_key.hpp"

namespace ridgeline {
namespace {

using nlohmann::json;

TEST(BaselineKey, GpusByNameOnceEachInSpaceOrder) {
  const json c = {{"host", {{"hostname", "Node-07.cluster"}}},
                  {"cpu", {{"model", "AMD EPYC 9654"}}},
                  {"spaces",
                   {{{"name", "Cuda"}, {"device", {{"name", "NVIDIA H200"}}}},
                    {{"name", "OpenMP"}, {"device", nullptr}},
                    {{"name", "Cuda"}, {"device", {{"name", "NVIDIA H200"}}}},
                    {{"name", "HIP"}, {"device", {{"name", "AMD MI300X"}}}}}}};
  const BaselineKey k = baseline_key(c);
  EXPECT_EQ(k.key, "node-07-cluster-nvidia-h200-amd-mi300x");
  EXPECT_EQ(k.host, "Node-07.cluster");
  EXPECT_EQ(k.machine, "NVIDIA H200 + AMD MI300X");
}

TEST(BaselineKey, TheCpuModelWithoutDevices) {
  const json c = {{"host", {{"hostname", "dev-vm"}}},
                  {"cpu", {{"model", "Intel(R) Xeon(R) Gold 6338 @ 2.00GHz"}}},
                  {"spaces", {{{"name", "OpenMP"}}, {{"name", "Serial"}}}}};
  const BaselineKey k = baseline_key(c);
  EXPECT_EQ(k.key, "dev-vm-intel-r-xeon-r-gold-6338-2-00ghz");
  EXPECT_EQ(k.machine, "CPU Intel(R) Xeon(R) Gold 6338 @ 2.00GHz");
}

TEST(BaselineKey, MissingFieldsFallBack) {
  const BaselineKey k = baseline_key(json::object());
  EXPECT_EQ(k.key, "unknown-host-cpu");
  EXPECT_EQ(k.host, "unknown-host");
  EXPECT_EQ(k.machine, "CPU cpu");
  EXPECT_EQ(baseline_key({{"host", {{"hostname", nullptr}}}, {"cpu", {{"model", nullptr}}}}).key,
            "unknown-host-cpu");
}

TEST(BaselineKey, SlugKeepsLowerCaseLettersAndDigitsOnly) {
  EXPECT_EQ(slug("--A  b__C9--"), "a-b-c9");
  EXPECT_EQ(slug("\xc3\x89t\xc3\xa9"), "t");  // non-ASCII bytes are separators
  EXPECT_EQ(slug("!!!"), "");
}

}  // namespace
}  // namespace ridgeline
