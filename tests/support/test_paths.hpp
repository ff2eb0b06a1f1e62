#pragma once
// Where this build keeps the source tree, the test data and the programs under test. The values
// live in one file CMake generates (tests/support/test_paths.cpp.in), not in compile flags: every
// other test file then compiles to the same object from any checkout, and ccache serves a fresh
// clone's tests from what an earlier clone compiled. Empty where the build has no such target.
namespace ridgeline::test::paths {

extern const char kSourceDir[];         // the repository root
extern const char kTestData[];          // tests/data
extern const char kReportBin[];         // ridgeline-report
extern const char kRunBin[];            // ridgeline (builds with the harness)
extern const char kKpLibrary[];         // ridgeline-kp, the Kokkos Tools connector
extern const char kExampleBin[];        // ridgeline-example-kernels (builds with the harness)
extern const char kFailingIoPreload[];  // failing_io_preload, loaded with LD_PRELOAD
// For a project built outside the tree against this build (tests/connector/outside_app):
extern const char kBuildDir[];     // this build's folder (what `cmake --install` installs)
extern const char kCMake[];        // the cmake that configured it
extern const char kCxxCompiler[];  // its C++ compiler
extern const char kSanitize[];     // its -fsanitize= list (RIDGELINE_SANITIZE), empty if none
extern const char kKokkosDir[];    // Kokkos_DIR (empty in a reporter-only build)

}  // namespace ridgeline::test::paths
