// The three commands a user types, on an application built outside the repository
// (tests/connector/outside_app): ridgeline installed, the application built with
// find_package(ridgeline) and ridgeline::annotate, run by `ridgeline profile`, and its kernels
// placed by `ridgeline place`. The tile kernel's counts differ per launch and are summed.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "results/kernels_file.hpp"
#include "tests/support/run_command.hpp"
#include "tests/support/temp_dir.hpp"
#include "tests/support/test_paths.hpp"

namespace ridgeline {
namespace {

namespace paths = test::paths;

TEST(ConnectorOutsideApp, InstalledPackageProfileAndPlace) {
  test::TempDir dir;
  const std::string prefix = dir.path + "/prefix", app = dir.path + "/app";
  auto step = [](const std::string& command) {
    const auto r = test::run_command(command);
    EXPECT_EQ(r.exit_code, 0) << command << "\n" << r.out << r.err;
    return r;
  };
  const std::string cmake = paths::kCMake;
  step(cmake + " --install " + paths::kBuildDir + " --prefix " + prefix);
  // Under a sanitizer build the installed connector needs the sanitizer's runtime first in the
  // application, as a user's sanitized application would have it.
  const std::string sanitize = paths::kSanitize;
  const std::string flags = sanitize.empty()
                                ? ""
                                : " -DCMAKE_CXX_FLAGS=-fsanitize=" + sanitize +
                                      " -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=" + sanitize;
  step(cmake + " -S " + paths::kSourceDir + "/tests/connector/outside_app -B " + app +
       " -DCMAKE_PREFIX_PATH=" + prefix + " -DKokkos_DIR=" + paths::kKokkosDir +
       " -DCMAKE_CXX_COMPILER=" + paths::kCxxCompiler + flags);
  step(cmake + " --build " + app);
  const std::string out = dir.path + "/k.json";
  const auto run = step("OMP_PROC_BIND=false " + prefix + "/bin/ridgeline profile --out " + out +
                        " -- " + app + "/tiles");
  ASSERT_FALSE(HasFailure());
  EXPECT_NE(run.out.find("tiles: sum"), std::string::npos) << run.out;

  const KernelsFile f = load_kernels(out);
  EXPECT_TRUE(f.complete);
  EXPECT_TRUE(f.annotation_errors.empty());
  const Kernel* scale = nullptr;
  for (const Kernel& k : f.kernels)
    if (k.label == "tiles::scale") scale = &k;
  ASSERT_NE(scale, nullptr);
  EXPECT_EQ(scale->calls, 5);
  ASSERT_TRUE(scale->counts);
  EXPECT_EQ(scale->counts->counted_calls, 5);
  EXPECT_TRUE(scale->counts->varied);
  double flop = 0;
  for (int t = 1; t <= 5; ++t) flop += 1.0 * 64 * t * 256;
  EXPECT_DOUBLE_EQ(scale->counts->flop_per_call, flop / 5);
  EXPECT_DOUBLE_EQ(scale->counts->bytes_per_call, 16 * flop / 5);

  const auto place = step(prefix + "/bin/ridgeline place " + paths::kTestData +
                          "/cpu_run_a.json --kernels " + out);
  EXPECT_NE(place.out.find("tiles::scale: 5 calls"), std::string::npos) << place.out;
  EXPECT_NE(place.out.find("counts from annotation, varied per launch"), std::string::npos)
      << place.out;
  // The unlabelled kernel: Kokkos names it by its lambda's type, shown demangled.
  EXPECT_NE(place.out.find("main::{lambda(int)#1}"), std::string::npos) << place.out;
  EXPECT_NE(place.out.find("placed 1 of "), std::string::npos) << place.out;
}

}  // namespace
}  // namespace ridgeline
