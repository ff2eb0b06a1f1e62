// libridgeline-kp.so driven through its C entry points as Kokkos would call them (dlopen, then
// init, settings, kernels, regions, metadata, finalize), and its kernels file read back with the
// reporter's reader: the connector and the reporter agree on the file. No timing is asserted.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "connector/kokkosp_abi.hpp"
#include "results/kernels_file.hpp"
#include "ridgeline/annotation_format.hpp"
#include "tests/support/run_command.hpp"
#include "tests/support/temp_dir.hpp"
#include "tests/support/test_paths.hpp"

namespace ridgeline {
namespace {

// The devID Kokkos passes: the space's type in the top 8 bits (Serial 0, OpenMP 1, Cuda 2).
constexpr std::uint32_t kOpenMP = 1u << 24, kCuda = 2u << 24;
constexpr std::uint64_t kKokkos34 = 20210225, kKokkos4 = 20240906;

struct Connector {
  void* handle = dlopen(ridgeline::test::paths::kKpLibrary, RTLD_NOW | RTLD_LOCAL);
  template <class F>
  F* fn(const char* name) {
    return reinterpret_cast<F*>(dlsym(handle, name));
  }
  void init(std::uint64_t version) {
    fn<void(int, std::uint64_t, std::uint32_t, Kokkos_Profiling_KokkosPDeviceInfo*)>(
        "kokkosp_init_library")(0, version, 0, nullptr);
    Kokkos_Tools_ToolSettings settings{};
    fn<void(std::uint32_t, Kokkos_Tools_ToolSettings*)>("kokkosp_request_tool_settings")(1,
                                                                                         &settings);
    fencing_requested = settings.requires_global_fencing;
  }
  void kernel(const char* kind, const char* label, std::uint32_t dev_id) {
    std::uint64_t id = 0;
    fn<void(const char*, std::uint32_t, std::uint64_t*)>(
        (std::string("kokkosp_begin_parallel_") + kind).c_str())(label, dev_id, &id);
    fn<void(std::uint64_t)>((std::string("kokkosp_end_parallel_") + kind).c_str())(id);
  }
  void push(const char* name) { fn<void(const char*)>("kokkosp_push_profile_region")(name); }
  void pop() { fn<void()>("kokkosp_pop_profile_region")(); }
  void metadata(const std::string& k, const std::string& v) {
    fn<void(const char*, const char*)>("kokkosp_declare_metadata")(k.c_str(), v.c_str());
  }
  void finalize() { fn<void()>("kokkosp_finalize_library")(); }
  bool fencing_requested = false;
};

class ConnectorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_NE(kp.handle, nullptr) << dlerror();
    out = dir.path + "/kernels.json";
    setenv("RIDGELINE_KP_OUT", out.c_str(), 1);
    setenv("RIDGELINE_KP_INTERVAL", "0", 1);  // one write, at finalize
  }
  const Kernel* find(const KernelsFile& f, const std::string& label, const std::string& region) {
    for (const Kernel& k : f.kernels)
      if (k.label == label && k.region == region) return &k;
    return nullptr;
  }
  test::TempDir dir;
  std::string out;
  Connector kp;
};

TEST_F(ConnectorTest, RecordsEveryCallByLabelRegionSpaceAndKind) {
  kp.init(kKokkos34);
  EXPECT_TRUE(kp.fencing_requested);
  kp.metadata(annotation::key_for("app::triad"), annotation::value_for(2000, 24000, "fp64"));
  kp.metadata("Kokkos Version", "3.4.01");
  for (int i = 0; i < 7; ++i) kp.kernel("for", "app::triad", kOpenMP);
  kp.push("solve");
  kp.push("step");
  for (int i = 0; i < 3; ++i) kp.kernel("for", "app::triad", kOpenMP);
  kp.kernel("reduce", "app::norm", kOpenMP);
  kp.pop();
  kp.kernel("scan", "app::prefix", kOpenMP);
  kp.pop();
  kp.finalize();

  const KernelsFile f = load_kernels(out);
  EXPECT_TRUE(f.complete);
  EXPECT_TRUE(f.global_fencing);
  ASSERT_EQ(f.kernels.size(), 4u);
  const Kernel* top = find(f, "app::triad", "");
  const Kernel* nested = find(f, "app::triad", "/solve/step");
  const Kernel* norm = find(f, "app::norm", "/solve/step");
  const Kernel* prefix = find(f, "app::prefix", "/solve");
  ASSERT_TRUE(top && nested && norm && prefix);
  EXPECT_EQ(top->calls, 7);
  EXPECT_EQ(nested->calls, 3);
  EXPECT_EQ(norm->kind, "reduce");
  EXPECT_EQ(prefix->kind, "scan");
  EXPECT_EQ(top->space, "OpenMP");
  EXPECT_LE(top->p25_s, top->median_s);
  EXPECT_LE(top->median_s, top->p75_s);
  // The counts belong to the label wherever it ran; other labels have none.
  ASSERT_TRUE(top->counts && nested->counts);
  EXPECT_EQ(top->counts->flop_per_call, 2000);
  EXPECT_EQ(top->counts->bytes_per_call, 24000);
  EXPECT_EQ(top->counts->dtype, "fp64");
  EXPECT_EQ(top->counts->source, "annotation");
  EXPECT_FALSE(norm->counts);
  EXPECT_TRUE(f.annotations_without_kernel.empty());
  EXPECT_NE(test::slurp(out).find("\"Kokkos Version\": \"3.4.01\""), std::string::npos);
}

TEST_F(ConnectorTest, DecodesTheDeviceOfKokkos4AndOnlyTheSpaceOf34) {
  // Kokkos 4.x: device 3 in bits 17-23, instance 5 below. Kokkos 3.4: bits 0-23 are the instance.
  const std::uint32_t cuda_device3 = kCuda | (3u << 17) | 5u;
  kp.init(kKokkos4);
  kp.kernel("for", "k", cuda_device3);
  kp.finalize();
  KernelsFile f = load_kernels(out);
  ASSERT_EQ(f.kernels.size(), 1u);
  EXPECT_EQ(f.kernels[0].space, "Cuda");
  EXPECT_EQ(f.kernels[0].device_id, 3);

  kp.init(kKokkos34);
  kp.kernel("for", "k", cuda_device3);
  kp.finalize();
  f = load_kernels(out);
  ASSERT_EQ(f.kernels.size(), 1u);
  EXPECT_EQ(f.kernels[0].space, "Cuda");
  EXPECT_EQ(f.kernels[0].device_id, 0);
}

TEST_F(ConnectorTest, SaysWhichAnnotationsNoKernelUsed) {
  kp.init(kKokkos34);
  kp.metadata(annotation::key_for("never::ran"), annotation::value_for(1, 8, "fp32"));
  kp.kernel("for", "ran", kOpenMP);
  kp.finalize();
  const KernelsFile f = load_kernels(out);
  ASSERT_EQ(f.annotations_without_kernel.size(), 1u);
  EXPECT_EQ(f.annotations_without_kernel[0], "never::ran");
}

TEST_F(ConnectorTest, TheSameAnnotationTwiceIsFine) {
  kp.init(kKokkos34);
  for (int i = 0; i < 2; ++i)
    kp.metadata(annotation::key_for("k"), annotation::value_for(10, 80, "fp64"));
  kp.kernel("for", "k", kOpenMP);
  kp.finalize();
  EXPECT_TRUE(load_kernels(out).kernels[0].counts);
}

// A label whose launches differ in size declares before each launch: the counts are summed with
// their launches, and a launch before any declaration carries none.
TEST_F(ConnectorTest, CountsDeclaredPerLaunchAreSummedWithTheirLaunches) {
  kp.init(kKokkos34);
  const std::string key = annotation::key_for("app::tile");
  kp.kernel("for", "app::tile", kOpenMP);  // before any declaration: not counted
  kp.metadata(key, annotation::value_for(10, 80, "fp64"));
  kp.kernel("for", "app::tile", kOpenMP);
  kp.metadata(key, annotation::value_for(30, 240, "fp64"));
  kp.kernel("for", "app::tile", kOpenMP);
  kp.kernel("for", "app::tile", kOpenMP);  // the last declaration holds until the next one
  kp.finalize();
  const auto raw = nlohmann::json::parse(test::slurp(out));
  const auto& counts = raw["kernels"][0]["counts"];
  EXPECT_EQ(counts["calls"], 3);
  EXPECT_EQ(counts["varied"], true);
  const KernelsFile f = load_kernels(out);
  ASSERT_EQ(f.kernels.size(), 1u);
  const Kernel& k = f.kernels[0];
  EXPECT_EQ(k.calls, 4);
  ASSERT_TRUE(k.counts);
  EXPECT_EQ(k.counts->counted_calls, 3);
  EXPECT_TRUE(k.counts->varied);
  EXPECT_DOUBLE_EQ(k.counts->flop_per_call, (10.0 + 30 + 30) / 3);
  EXPECT_DOUBLE_EQ(k.counts->bytes_per_call, (80.0 + 240 + 240) / 3);
  EXPECT_LE(k.counts->counted_seconds, k.seconds_total);
  EXPECT_TRUE(f.annotation_errors.empty());
}

// A malformed annotation, or one that changes a label's dtype, never ends the application: the
// first is one line on stderr, every one is in the file with its reason, and the label keeps the
// counts it had.
TEST_F(ConnectorTest, BadAnnotationsAreRecordedAndTheApplicationGoesOn) {
  const std::string key = annotation::key_for("app::k");
  const std::vector<std::string> bad = {
      "flop=1 bytes=x dtype=fp64", "flop=1 dtype=fp64", "flop=-1 bytes=8 dtype=fp64",
      "flop=1 bytes=8 dtype=fp64 speed=9", "flop=2 bytes=8 dtype=fp32"};
  testing::internal::CaptureStderr();
  kp.init(kKokkos34);
  kp.metadata(key, annotation::value_for(1, 8, "fp64"));
  for (const std::string& value : bad) kp.metadata(key, value);
  kp.kernel("for", "app::k", kOpenMP);
  kp.finalize();
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(test::line_count(err), 2) << err;  // the first bad annotation, and "wrote"
  EXPECT_EQ(err.rfind("ridgeline-kp: ridgeline.counts:app::k: ", 0), 0u) << err;
  const KernelsFile f = load_kernels(out);
  ASSERT_EQ(f.annotation_errors.size(), bad.size());
  EXPECT_EQ(f.annotation_errors_total, static_cast<long long>(bad.size()));
  EXPECT_NE(f.annotation_errors.back().why.find("dtype fp32 differs"), std::string::npos)
      << f.annotation_errors.back().why;
  EXPECT_EQ(f.annotation_errors.back().value, "flop=2 bytes=8 dtype=fp32");
  ASSERT_TRUE(f.kernels[0].counts);
  EXPECT_EQ(f.kernels[0].counts->flop_per_call, 1);
  EXPECT_EQ(f.kernels[0].counts->dtype, "fp64");
}

// Bad environment values are one line at init and a default, never an exit.
TEST_F(ConnectorTest, ABadIntervalIsOneLineAndADefault) {
  for (const auto& [value, said] :
       {std::pair<std::string, std::string>{"soon", "'soon' is not a number of seconds"},
        {"1e-300", "1e-300 s is below the shortest interval; using 0.1 s"}}) {
    SCOPED_TRACE(value);
    setenv("RIDGELINE_KP_INTERVAL", value.c_str(), 1);
    testing::internal::CaptureStderr();
    kp.init(kKokkos34);
    kp.kernel("for", "k", kOpenMP);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // room for periodic writes
    kp.finalize();
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_EQ(test::line_count(err), 2) << err;  // the interval's line, and "wrote"
    EXPECT_EQ(err.rfind("ridgeline-kp: RIDGELINE_KP_INTERVAL: ", 0), 0u) << err;
    EXPECT_NE(err.find(said), std::string::npos) << err;
    EXPECT_EQ(load_kernels(out).kernels[0].calls, 1);
  }
}

// Kokkos 3.x launches a View's initialisation with devID 0 whatever its space; 0 must not read
// as Serial there. Kokkos 4.x passes the space's own devID, so 0 is Serial.
TEST_F(ConnectorTest, ViewInitialisationOfKokkos3HasNoSpace) {
  const char* init = "Kokkos::View::initialization [a]";
  kp.init(kKokkos34);
  kp.kernel("for", init, 0);
  kp.kernel("for", "app::serial", 0);
  kp.finalize();
  KernelsFile f = load_kernels(out);
  EXPECT_EQ(find(f, init, "")->space, "unspecified");
  EXPECT_EQ(find(f, "app::serial", "")->space, "Serial");
  kp.init(kKokkos4);
  kp.kernel("for", init, 0);
  kp.finalize();
  f = load_kernels(out);
  EXPECT_EQ(find(f, init, "")->space, "Serial");
}

// The host threads as Kokkos would pick them: here from OMP_NUM_THREADS (the test's command line
// has no --kokkos-threads).
TEST_F(ConnectorTest, RecordsTheHostThreadsAndWhereTheyCameFrom) {
  unsetenv("KOKKOS_NUM_THREADS");
  setenv("OMP_NUM_THREADS", "3,2", 1);
  kp.init(kKokkos34);
  kp.kernel("for", "k", kOpenMP);
  kp.finalize();
  unsetenv("OMP_NUM_THREADS");
  const KernelsFile f = load_kernels(out);
  EXPECT_EQ(f.host_threads, 3);
  EXPECT_EQ(f.host_threads_from, "OMP_NUM_THREADS");
}

// A label's bytes are the application's: invalid UTF-8 is replaced in the file, not a lost write.
TEST_F(ConnectorTest, ALabelThatIsNotUtf8StillGivesAFile) {
  kp.init(kKokkos34);
  kp.kernel("for", "app::\xff\xfe", kOpenMP);
  kp.finalize();
  const KernelsFile f = load_kernels(out);
  ASSERT_EQ(f.kernels.size(), 1u);
  EXPECT_EQ(f.kernels[0].label, "app::\xef\xbf\xbd\xef\xbf\xbd");
}

// A periodic write holds what ran so far, marked incomplete: an application killed before
// Kokkos::finalize keeps it. Waits for the writer thread (up to a minute; no time is asserted).
TEST_F(ConnectorTest, PeriodicWritesKeepWhatRanBeforeFinalize) {
  setenv("RIDGELINE_KP_INTERVAL", "0.05", 1);
  kp.init(kKokkos34);
  for (int i = 0; i < 5; ++i) kp.kernel("for", "k", kOpenMP);
  // A write may come between two of the calls above; a later one holds all five.
  auto holds_five = [this] {
    if (!std::filesystem::exists(out)) return false;
    const KernelsFile f = load_kernels(out);
    return f.kernels.size() == 1 && f.kernels[0].calls == 5;
  };
  for (int tries = 0; tries < 600 && !holds_five(); ++tries)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ASSERT_TRUE(holds_five()) << "no periodic write of the five calls within a minute";
  EXPECT_FALSE(load_kernels(out).complete);
  kp.kernel("for", "k", kOpenMP);
  kp.finalize();
  const KernelsFile after = load_kernels(out);
  EXPECT_TRUE(after.complete);
  EXPECT_EQ(after.kernels[0].calls, 6);
}

// A folder that does not exist is said once, at init, before the application spends its run;
// the periodic writes and the final one fail without repeating it.
TEST_F(ConnectorTest, AnUnwritableFileIsOneLineAtInitAndTheApplicationGoesOn) {
  const std::string path = dir.path + "/no/such/dir/k.json";
  setenv("RIDGELINE_KP_OUT", path.c_str(), 1);
  setenv("RIDGELINE_KP_INTERVAL", "0.1", 1);
  testing::internal::CaptureStderr();
  kp.init(kKokkos34);
  const std::string at_init = testing::internal::GetCapturedStderr();
  EXPECT_EQ(test::line_count(at_init), 1) << at_init;
  EXPECT_EQ(at_init.rfind("ridgeline-kp: " + path, 0), 0u) << at_init;
  testing::internal::CaptureStderr();
  kp.kernel("for", "k", kOpenMP);
  std::this_thread::sleep_for(std::chrono::milliseconds(350));  // room for periodic writes
  kp.finalize();
  const std::string after = testing::internal::GetCapturedStderr();
  EXPECT_TRUE(after.empty()) << after;
}

// RIDGELINE_KP_PAPI=1 on a machine without usable counters (this VM: no PMU, or no libpapi):
// the file records PAPI's reason, the kernels keep their calls and time, and the reporter says
// why they are not placed. Where PAPI does count, the Serial kernel's counts say "papi" and the
// OpenMP kernel (other threads, not counted) says why it has none.
TEST_F(ConnectorTest, PapiRequestedRecordsWhyNothingWasCounted) {
  setenv("RIDGELINE_KP_PAPI", "1", 1);
  kp.init(kKokkos34);
  unsetenv("RIDGELINE_KP_PAPI");
  constexpr std::uint32_t kSerial = 0;
  for (int i = 0; i < 3; ++i) kp.kernel("for", "app::serial", kSerial);
  kp.kernel("for", "app::threads", kOpenMP);
  testing::internal::CaptureStderr();
  kp.finalize();
  testing::internal::GetCapturedStderr();
  const auto raw = nlohmann::json::parse(test::slurp(out));
  ASSERT_TRUE(raw.contains("papi"));
  EXPECT_EQ(raw["papi"]["requested"], true);
  const KernelsFile f = load_kernels(out);
  const Kernel* serial = find(f, "app::serial", "");
  const Kernel* threads = find(f, "app::threads", "");
  ASSERT_TRUE(serial && threads);
  EXPECT_EQ(serial->calls, 3);
  if (raw["papi"]["available"] == false) {
    const std::string error = raw["papi"]["error"].get<std::string>();
    EXPECT_FALSE(error.empty());
    EXPECT_FALSE(serial->counts);
    EXPECT_EQ(serial->counter_error, "PAPI unavailable (" + error + ")");
    EXPECT_EQ(threads->counter_error, serial->counter_error);
  } else {
    ASSERT_FALSE(raw["papi"]["events"].empty());
    if (serial->counts) {
      EXPECT_EQ(serial->counts->source, "papi");
    }
    EXPECT_FALSE(threads->counts);
    EXPECT_NE(threads->counter_error.find("PAPI counts the kernels of the thread"),
              std::string::npos)
        << threads->counter_error;
  }
}

TEST_F(ConnectorTest, WithoutThePapiRequestTheFileHasNoPapiObject) {
  unsetenv("RIDGELINE_KP_PAPI");
  kp.init(kKokkos34);
  kp.kernel("for", "k", kOpenMP);
  kp.finalize();
  EXPECT_FALSE(nlohmann::json::parse(test::slurp(out)).contains("papi"));
  EXPECT_TRUE(load_kernels(out).kernels[0].counter_error.empty());
}

}  // namespace
}  // namespace ridgeline
