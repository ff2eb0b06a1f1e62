#pragma once
// The results context of a one-GPU test file: a Cuda space whose device states only its L2
// (60 MiB), and the DRAM-sized working set the reporter's tests size their points by (8 × the
// L2). Shared so that tests of the GPU roofs build their files alike; inline, so two test files
// may land in one unity batch.
#include <nlohmann/json.hpp>

namespace ridgeline::test {

inline constexpr double kMiBytes = 1 << 20, kL2 = 60 * kMiBytes, kWs = 8 * kL2, kN = kWs / 8;

inline nlohmann::json gpu_context() {
  return {
      {"host", {{"hostname", "h"}}},
      {"spaces", nlohmann::json::array({{{"name", "Cuda"},
                                         {"kind", "device"},
                                         {"concurrency", 1 << 18},
                                         {"device", {{"name", "test gpu"}, {"l2_bytes", kL2}}}}})}};
}

}  // namespace ridgeline::test
