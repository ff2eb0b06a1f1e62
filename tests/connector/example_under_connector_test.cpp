// The example application run under libridgeline-kp.so as a user would run it (the tool named
// by Kokkos 3.4's KOKKOS_PROFILE_LIBRARY and modern Kokkos' KOKKOS_TOOLS_LIBS, or by
// --kokkos-tools-library), its kernels file read by the reporter: every kernel with its exact
// calls, region, space and kind, and the annotated counts equal to the formulas that
// example_counts_test checks against counted operations.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

#include "examples/kernels/app_kernels.hpp"
#include "results/kernels_file.hpp"
#include "tests/support/run_command.hpp"
#include "tests/support/temp_dir.hpp"
#include "tests/support/test_paths.hpp"

namespace ridgeline {
namespace {

constexpr int kSteps = 4;
constexpr std::size_t kStream = 4096, kGrid = 64, kGemm = 16;
const std::string kKp = test::paths::kKpLibrary;
const std::string kExample = test::paths::kExampleBin;

std::string example_args() {
  return " --steps " + std::to_string(kSteps) + " --n-stream " + std::to_string(kStream) +
         " --n-grid " + std::to_string(kGrid) + " --n-gemm " + std::to_string(kGemm);
}

const Kernel* find(const KernelsFile& f, const std::string& label) {
  for (const Kernel& k : f.kernels)
    if (k.label == label) return &k;
  return nullptr;
}

void expect_example_kernels(const KernelsFile& f) {
  EXPECT_TRUE(f.complete);
  EXPECT_TRUE(f.global_fencing);
  EXPECT_TRUE(f.annotations_without_kernel.empty());
  const std::string space = Kokkos::DefaultExecutionSpace::name();
  struct Expected {
    const char* label;
    double flop, bytes;
  };
  for (const Expected& e : {Expected{example::kTriadLabel, example::triad_flop(kStream),
                                     example::triad_bytes(kStream, sizeof(double))},
                            Expected{example::kStencilLabel, example::stencil_flop(kGrid),
                                     example::stencil_bytes(kGrid, sizeof(double))},
                            Expected{example::kGemmLabel, example::gemm_flop(kGemm),
                                     example::gemm_bytes(kGemm, sizeof(double))}}) {
    SCOPED_TRACE(e.label);
    const Kernel* k = find(f, e.label);
    ASSERT_NE(k, nullptr);
    EXPECT_EQ(k->calls, kSteps);
    EXPECT_EQ(k->region, "/timestep");
    EXPECT_EQ(k->kind, "for");
    EXPECT_EQ(k->space, space);
    ASSERT_TRUE(k->counts);
    EXPECT_EQ(k->counts->flop_per_call, e.flop);
    EXPECT_EQ(k->counts->bytes_per_call, e.bytes);
    EXPECT_EQ(k->counts->dtype, "fp64");
    EXPECT_EQ(k->counts->source, "annotation");
  }
  const Kernel* check = find(f, "example::check");
  ASSERT_NE(check, nullptr);
  EXPECT_EQ(check->kind, "reduce");
  EXPECT_EQ(check->calls, 3);
  EXPECT_FALSE(check->counts);  // listed, not placed
}

TEST(ExampleUnderConnector, ByEnvironmentVariable) {
  test::TempDir dir;
  const std::string out = dir.path + "/kernels.json";
  const auto r = test::run_command(std::string("OMP_PROC_BIND=false KOKKOS_PROFILE_LIBRARY=") +
                                   kKp + " KOKKOS_TOOLS_LIBS=" + kKp + " RIDGELINE_KP_OUT=" + out +
                                   " " + kExample + example_args());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("results correct"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("ridgeline-kp: wrote " + out), std::string::npos) << r.err;
  expect_example_kernels(load_kernels(out));
}

TEST(ExampleUnderConnector, ByCommandLineArgument) {
  test::TempDir dir;
  const std::string out = dir.path + "/kernels.json";
  const auto r = test::run_command("OMP_PROC_BIND=false RIDGELINE_KP_OUT=" + out + " " + kExample +
                                   example_args() + " --kokkos-tools-library=" + kKp);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_example_kernels(load_kernels(out));
}

}  // namespace
}  // namespace ridgeline
