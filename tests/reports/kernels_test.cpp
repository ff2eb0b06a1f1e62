// An application's kernels (kernels files of libridgeline-kp.so) held against fitted roofs: the
// placement arithmetic against roofs read from a fixture, the reader's one-line errors, and the
// report and place commands end to end.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <regex>
#include <set>

#include "core/input_error.hpp"
#include "reports/fit/analysis.hpp"
#include "reports/kernels/kernel_names.hpp"
#include "reports/kernels/kernel_placement.hpp"
#include "results/kernels_file.hpp"
#include "tests/reports/cli_test_support.hpp"
#include "tests/support/test_paths.hpp"

namespace ridgeline {
namespace {

using namespace test;
using nlohmann::json;

// A kernel whose declared counts give intensity `intensity` (bytes_per_call fixed) and whose
// median time gives `flops_per_s`.
Kernel kernel(const std::string& label, double intensity, double flops_per_s,
              const std::string& space = "OpenMP", const std::string& dtype = "fp64") {
  Kernel k;
  k.label = label;
  k.kind = "for";
  k.space = space;
  k.calls = 10;
  const double bytes = 1e8, flop = intensity * bytes;
  k.median_s = k.p25_s = k.p75_s = (flop > 0 ? flop / flops_per_s : 1);
  k.seconds_total = 10 * k.median_s;
  k.counts = KernelCounts{flop, bytes, dtype, "annotation", "", ""};
  return k;
}

class KernelPlacementTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    analysis_ = new FileAnalysis(analyze(load_results(kData + "/cpu_run_a.json"), 200));
  }
  static void TearDownTestSuite() { delete analysis_; }
  const RoofFit& fit() const { return *analysis_->find("OpenMP", "fp64")->fit.fit; }
  const Roof& roof() const { return fit().estimate.roof; }
  KernelsFile file_of(std::vector<Kernel> kernels, const std::string& host = "devbox") const {
    KernelsFile f;
    f.file = "k.json";
    f.hostname = host;
    f.global_fencing = true;
    f.kernels = std::move(kernels);
    return f;
  }
  static FileAnalysis* analysis_;
};
FileAnalysis* KernelPlacementTest::analysis_ = nullptr;

TEST_F(KernelPlacementTest, AMemoryBoundKernelIsHeldAgainstBAtItsIntensity) {
  const double i = roof().ridge_point() / 10;
  const KernelsFile f = file_of({kernel("app::stream", i, 0.5 * i * roof().bandwidth)});
  const auto p = place_kernels(f, {analysis_});
  ASSERT_EQ(p.size(), 1u);
  ASSERT_TRUE(p[0].placed) << p[0].not_placed;
  EXPECT_TRUE(p[0].memory_bound);
  EXPECT_EQ(p[0].bound_by, "B (DRAM)");
  EXPECT_EQ(p[0].group, "OpenMP fp64");
  EXPECT_NEAR(p[0].fraction, 0.5, 1e-12);
  EXPECT_NEAR(*p[0].intensity, i, 1e-12 * i);
  // The interval is the roof's: B's bootstrap bounds at this intensity.
  EXPECT_NEAR(p[0].fraction_ci.low, 0.5 * roof().bandwidth / fit().bandwidth_ci.high, 1e-12);
  EXPECT_NEAR(p[0].fraction_ci.high, 0.5 * roof().bandwidth / fit().bandwidth_ci.low, 1e-12);
  EXPECT_TRUE(p[0].fraction_ci.contains(0.5));
  EXPECT_LT(p[0].fraction_ci.low, p[0].fraction_ci.high);
  EXPECT_EQ(p[0].headroom(), "memory-bound at 50 % of B (DRAM); 2× to the roof");
  EXPECT_EQ(p[0].roofs, analysis_);
}

TEST_F(KernelPlacementTest, AComputeBoundKernelIsHeldAgainstP) {
  const double i = roof().ridge_point() * 10;
  const auto p =
      place_kernels(file_of({kernel("app::gemm", i, 0.25 * roof().peak_flops)}), {analysis_});
  ASSERT_TRUE(p[0].placed);
  EXPECT_FALSE(p[0].memory_bound);
  EXPECT_NEAR(p[0].fraction, 0.25, 1e-12);
  EXPECT_NEAR(p[0].fraction_ci.low, 0.25 * roof().peak_flops / fit().peak_ci.high, 1e-12);
  EXPECT_EQ(p[0].headroom(), "compute-bound at 25 % of P; 4× to the roof");
}

TEST_F(KernelPlacementTest, AKernelWithoutFlopsIsHeldAgainstBItself) {
  Kernel copy = kernel("app::copy", 0, 1);
  copy.median_s = copy.counts->bytes_per_call / (0.8 * roof().bandwidth);
  copy.seconds_total = double(copy.calls) * copy.median_s;
  const auto p = place_kernels(file_of({copy}), {analysis_});
  ASSERT_TRUE(p[0].placed);
  EXPECT_FALSE(p[0].intensity.has_value() && *p[0].intensity > 0);
  EXPECT_NEAR(p[0].fraction, 0.8, 1e-12);
  EXPECT_EQ(p[0].bound_by, "B (DRAM)");
}

TEST_F(KernelPlacementTest, AboveTheRoofSaysSoRatherThanNegativeHeadroom) {
  const double i = roof().ridge_point() / 4;
  const auto p = place_kernels(file_of({kernel("k", i, 1.2 * i * roof().bandwidth)}), {analysis_});
  EXPECT_EQ(p[0].headroom().rfind("above the roof at 120 % of B (DRAM)", 0), 0u) << p[0].headroom();
}

TEST_F(KernelPlacementTest, SharesOfTimeAndKernelsThatCannotBePlaced) {
  Kernel unannotated = kernel("app::check", 1, 1e9);
  unannotated.counts.reset();
  unannotated.seconds_total = 3;
  Kernel fp8 = kernel("app::fp8", 1, 1e9, "OpenMP", "fp8");
  fp8.seconds_total = 1;
  const auto p = place_kernels(file_of({unannotated, fp8}), {analysis_});
  ASSERT_EQ(p.size(), 2u);
  EXPECT_NEAR(p[0].share_of_time, 0.75, 1e-12);
  EXPECT_NEAR(p[1].share_of_time, 0.25, 1e-12);
  EXPECT_FALSE(p[0].placed);
  EXPECT_EQ(p[0].not_placed,
            "no counts (declare them with ridgeline/annotate.hpp, or import a profiler's with "
            "--counts)");
  EXPECT_FALSE(p[1].placed);
  EXPECT_EQ(p[1].not_placed.rfind("no OpenMP fp8 roofs in ", 0), 0u) << p[1].not_placed;
}

TEST_F(KernelPlacementTest, HostsAreMatchedAndAMismatchIsSaid) {
  const double i = roof().ridge_point();
  const KernelsFile other = file_of({kernel("k", i, 1e9)}, "otherhost");
  auto p = place_kernels(other, {analysis_});  // the only results file: used, with a caveat
  ASSERT_TRUE(p[0].placed);
  EXPECT_EQ(p[0].caveat, "kernels ran on otherhost, roofs measured on devbox");
  p = place_kernels(other, {analysis_, analysis_});  // several, none of its host: not placed
  EXPECT_FALSE(p[0].placed);
  EXPECT_EQ(p[0].not_placed, "no results file of host otherhost");
  p = place_kernels(file_of({kernel("k", i, 1e9)}), {analysis_});
  EXPECT_TRUE(p[0].caveat.empty()) << p[0].caveat;
}

TEST_F(KernelPlacementTest, UnfencedTimesOfADeviceSpaceCarryACaveat) {
  KernelsFile f = file_of({kernel("k", 1, 1e9, "Cuda")});
  f.global_fencing = false;
  const auto p = place_kernels(f, {analysis_});
  EXPECT_FALSE(p[0].placed);  // no Cuda roofs in a CPU file
  EXPECT_NE(p[0].caveat.find("times not fenced"), std::string::npos);
}

// Rates use the mean time per call (the share of time's statistic), not the median: a kernel
// with a few slow calls is placed by the time it really took.
TEST_F(KernelPlacementTest, RatesUseTheMeanTimePerCall) {
  const double i = roof().ridge_point() / 10;
  Kernel k = kernel("app::stream", i, 0.5 * i * roof().bandwidth);
  k.seconds_total *= 2;  // the mean is twice the median
  const auto p = place_kernels(file_of({k}), {analysis_});
  ASSERT_TRUE(p[0].placed);
  EXPECT_NEAR(p[0].fraction, 0.25, 1e-12);
  // Counts declared per launch: the counted calls' sums.
  k.counts->counted_calls = 5;
  k.counts->counted_seconds = 5 * k.median_s;
  EXPECT_NEAR(place_kernels(file_of({k}), {analysis_})[0].fraction, 0.5, 1e-12);
}

TEST_F(KernelPlacementTest, HottestFirstAndHowManyWerePlaced) {
  const double i = roof().ridge_point();
  Kernel cold = kernel("app::cold", i, 1e9), hot = kernel("app::hot", i, 1e9);
  Kernel init = kernel("Kokkos::View::initialization [a]", 1, 1e9);
  init.counts.reset();
  cold.seconds_total = 1;
  hot.seconds_total = 5;
  init.seconds_total = 2;
  const KernelsFile f = file_of({cold, init, hot});  // placements point into it
  const auto p = place_kernels(f, {analysis_});
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[0].kernel->label, "app::hot");
  EXPECT_EQ(p[1].kernel->label, init.label);
  EXPECT_EQ(p[2].kernel->label, "app::cold");
  EXPECT_EQ(placement_tally(p),
            "placed 2 of 3 kernels (75 % of kernel time); not placed: 1 no counts (declare them "
            "with ridgeline/annotate.hpp, or import a profiler's with --counts)");
}

TEST_F(KernelPlacementTest, OtherThreadsThanTheRoofsAreSaid) {
  const double i = roof().ridge_point();
  KernelsFile f = file_of({kernel("k", i, 1e9)});
  int roof_threads = 0;
  for (const SpaceInfo& s : analysis_->results.spaces)
    if (s.name == "OpenMP") roof_threads = s.concurrency;
  ASSERT_GT(roof_threads, 0);
  f.host_threads = roof_threads + 1;
  f.host_threads_from = "OMP_NUM_THREADS";
  auto p = place_kernels(f, {analysis_});
  EXPECT_EQ(p[0].caveat, "kernels ran on " + std::to_string(roof_threads + 1) +
                             " threads (OMP_NUM_THREADS), the roofs on " +
                             std::to_string(roof_threads));
  f.host_threads = roof_threads;
  EXPECT_TRUE(place_kernels(f, {analysis_})[0].caveat.empty());
}

TEST(KernelNames, MangledLambdaLabelsAreDemangledAndShortened) {
  // typeid(lambda).name() of a lambda in update_halo_kernel(int, int*, double*), as Kokkos 3.4
  // labels an unnamed kernel.
  EXPECT_EQ(readable_kernel_name("Z18update_halo_kerneliPiPdEUliE_"),
            "update_halo_kernel(int, int*, double*)::{lambda(int)#1}");
  const std::string longer = "Z18update_halo_kerneliiiiPiS_PdS0_S0_S0_S0_S0_S0_EUliiE_";
  EXPECT_EQ(readable_kernel_name(longer), "update_halo_kernel(…)::{lambda(int, int)#1}");
  EXPECT_EQ(readable_kernel_name("N6Kokkos4Impl9FunctorXYE"), "Kokkos::Impl::FunctorXY");
  for (const std::string label :
       {"app::triad", "Kokkos::View::initialization [a]", "Zoom", "NaN check", ""})
    EXPECT_EQ(readable_kernel_name(label), label);
}

// A kernels file as the connector writes it (results/kernels_schema.md), host devbox.
json kernels_doc() {
  return json::parse(R"({
    "schema": "ridgeline-kernels", "schema_version": "1.0.0", "complete": true,
    "tool": {"name": "libridgeline-kp", "version": "0.1.0"},
    "host": {"hostname": "devbox"}, "process": {"pid": 1, "command": "./app"},
    "kokkos": {"interface_version": 20210225, "global_fencing": true, "metadata": {}},
    "kernels": [
      {"label": "app::triad", "region": "/step", "kind": "for", "space": "OpenMP",
       "device_id": 0, "instance_id": 0, "calls": 10, "seconds_total": 0.1,
       "seconds_per_call": {"median": 0.01, "p25": 0.009, "p75": 0.011, "min": 0.008,
                            "max": 0.02, "calls_kept": 10},
       "counts": {"flop_per_call": 2e7, "bytes_per_call": 2.4e8, "dtype": "fp64",
                  "source": "annotation"}},
      {"label": "app::check", "region": "", "kind": "reduce", "space": "OpenMP",
       "device_id": 0, "instance_id": 0, "calls": 3, "seconds_total": 0.003,
       "seconds_per_call": {"median": 0.001, "p25": 0.001, "p75": 0.001, "min": 0.001,
                            "max": 0.001, "calls_kept": 3},
       "counts": null}
    ],
    "annotations_without_kernel": ["app::never"]
  })");
}

TEST(KernelsFile, ReadsWhatTheConnectorWrites) {
  const KernelsFile f = parse_kernels(kernels_doc().dump(), "k.json");
  EXPECT_EQ(f.hostname, "devbox");
  EXPECT_TRUE(f.complete);
  EXPECT_TRUE(f.global_fencing);
  ASSERT_EQ(f.kernels.size(), 2u);
  EXPECT_EQ(f.kernels[0].region, "/step");
  EXPECT_EQ(f.kernels[0].calls, 10);
  EXPECT_EQ(f.kernels[0].median_s, 0.01);
  ASSERT_TRUE(f.kernels[0].counts);
  EXPECT_EQ(f.kernels[0].counts->bytes_per_call, 2.4e8);
  EXPECT_FALSE(f.kernels[1].counts);
  EXPECT_EQ(f.kernels[1].kind, "reduce");
  EXPECT_EQ(f.annotations_without_kernel, std::vector<std::string>{"app::never"});
  EXPECT_NEAR(f.seconds_total(), 0.103, 1e-15);
}

// Every field the format has, each with a value unlike its default: what the connector may write.
KernelsFile full_kernels_file() {
  KernelsFile f;
  f.complete = true;
  f.tool_name = "libridgeline-kp";
  f.tool_version = "0.1.0";
  f.hostname = "devbox";
  f.command = "./app --steps 10";
  f.pid = 4242;
  f.host_threads = 2;
  f.host_threads_from = "OMP_NUM_THREADS";
  f.started_utc = "2026-12-01T21:00:00Z";
  f.written_utc = "2026-12-01T21:00:07Z";
  f.interface_version = 20210225;
  f.global_fencing = true;
  f.metadata = {{"Kokkos Version", "3.4.1"}};
  f.papi = PapiState{true, "", {"PAPI_DP_OPS", "PAPI_L3_TCM"}, {"Serial"}};
  Kernel k;
  k.label = "app::triad";
  k.region = "/step";
  k.kind = "for";
  k.space = "OpenMP";
  k.device_id = 1;
  k.instance_id = 3;
  k.calls = 10;
  k.seconds_total = 0.31;
  k.median_s = 0.031;
  k.p25_s = 0.03;
  k.p75_s = 0.033;
  k.min_s = 0.029;
  k.max_s = 0.041;
  k.calls_kept = 10;
  k.counts = KernelCounts{8e6, 1e8, "fp64", "annotation", "", "", 10, 0.31, true};
  f.kernels.push_back(k);
  k.label = "app::serial";
  k.space = "Serial";
  k.counts = KernelCounts{1e6, 6.4e7, "fp32", "papi", "", "PAPI_L3_TCM x 64 byte: over 10 calls"};
  f.kernels.push_back(k);
  k.label = "app::check";
  k.kind = "reduce";
  k.counts.reset();
  f.kernels.push_back(k);
  f.annotations_without_kernel = {"app::never"};
  f.annotation_errors = {{"ridgeline.counts:app::k", "flop=1", "needs flop=, bytes= and dtype="}};
  f.annotation_errors_total = 3;
  return f;
}

// One component writes and reads the format: what the writer writes reads back to the same text.
TEST(KernelsFile, WhatTheWriterWritesReadsBackTheSame) {
  const std::string text = kernels_json(full_kernels_file());
  const KernelsFile back = parse_kernels(text, "k.json");
  EXPECT_EQ(kernels_json(back), text);
  ASSERT_EQ(back.annotation_errors.size(), 1u);
  EXPECT_EQ(back.annotation_errors[0].value, "flop=1");
  ASSERT_TRUE(back.papi);
  EXPECT_EQ(back.kernels[2].counter_error,
            "PAPI counted no FLOP or no memory-traffic event for it");
}

// The keys of a JSON document, at any depth, but not those of Kokkos' own metadata.
void collect_keys(const json& j, std::set<std::string>& keys) {
  if (j.is_array())
    for (const json& v : j) collect_keys(v, keys);
  if (!j.is_object()) return;
  for (const auto& item : j.items()) {
    keys.insert(item.key());
    if (item.key() != "metadata") collect_keys(item.value(), keys);
  }
}

// kernels_schema.md describes every field the writer writes, and no field it does not.
TEST(KernelsFile, TheSchemaNamesEveryFieldWrittenAndNoOther) {
  std::set<std::string> written;
  collect_keys(json::parse(kernels_json(full_kernels_file())), written);
  const std::string md = slurp(std::string(test::paths::kSourceDir) + "/results/kernels_schema.md");
  const std::size_t begin = md.find("```jsonc"), end = md.find("```", begin + 3);
  ASSERT_NE(end, std::string::npos);
  const std::string block = md.substr(begin, end - begin);
  std::set<std::string> documented;
  const std::regex key("\"([a-z0-9_]+)\"\\s*:");
  for (auto it = std::sregex_iterator(block.begin(), block.end(), key);
       it != std::sregex_iterator(); ++it)
    documented.insert((*it)[1]);
  for (const std::string& k : written)
    EXPECT_TRUE(documented.count(k)) << k << " is not in kernels_schema.md";
  for (const std::string& k : documented) EXPECT_TRUE(written.count(k)) << k << " is not written";
}

// The counted calls are some of the kernel's calls: their seconds beyond its total (more than
// rounding) are one line naming the file and field, exit 2; rounding is not an error.
TEST(KernelsCli, CountedSecondsBeyondTheKernelsTotalAreOneLineExitTwo) {
  TempDir dir;
  json doc = kernels_doc();
  doc["kernels"][0]["counts"]["calls"] = 10;
  doc["kernels"][0]["counts"]["seconds"] = 0.1 * (1 + 1e-12);
  EXPECT_NO_THROW(parse_kernels(doc.dump(), "k.json"));
  doc["kernels"][0]["counts"]["seconds"] = 0.2;
  write_json(dir.path + "/k.json", doc);
  const auto r =
      run_command(kBin + " place " + kData + "/cpu_run_a.json --kernels " + dir.path + "/k.json");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(dir.path + "/k.json: kernels[0].counts.seconds: 0.2 s is more than the "
                                  "kernel's seconds_total (0.1 s)"),
            std::string::npos)
      << r.err;
}

struct BadKernels {
  std::string field;  // a JSON pointer into the document
  json value;
  std::string expected;  // the whole message after "k.json: "
};

TEST(KernelsFile, BadInputNamesTheFileAndTheField) {
  const std::vector<BadKernels> cases = {
      {"/schema", "ridgeline-results", "schema: not \"ridgeline-kernels\""},
      {"/schema_version", "2.0.0", "schema_version: '2.0.0' is not a version 1.x"},
      {"/kernels", json::object(), "kernels: missing or not an array"},
      {"/kernels/0/calls", "ten", "kernels[0].calls: must be a number"},
      {"/kernels/0/calls", nullptr, "kernels[0].calls: missing required field"},
      {"/kernels/0/kind", "loop", "kernels[0].kind: must be \"for\", \"reduce\" or \"scan\""},
      {"/kernels/0/label", "", "kernels[0].label: must not be empty"},
      {"/kernels/0/seconds_total", -1, "kernels[0].seconds_total: must not be negative"},
      {"/kernels/1/seconds_per_call/p25", 0.5,
       "kernels[1].seconds_per_call.median: must lie between p25 and p75"},
      {"/kernels/0/counts/flop_per_call", "many",
       "kernels[0].counts.flop_per_call: must be a number"},
      {"/kernels/0/counts/dtype", nullptr, "kernels[0].counts.dtype: missing required field"},
      {"/kernels/0/counts", 7, "kernels[0].counts: must be an object or null"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.field);
    json doc = kernels_doc();
    doc[json::json_pointer(c.field)] = c.value;
    try {
      parse_kernels(doc.dump(), "k.json");
      ADD_FAILURE() << "accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("k.json: " + c.expected, 0), 0u) << e.what();
    }
  }
  EXPECT_THROW(parse_kernels("{\"schema\": ", "k.json"), InputError);
}

TEST(KernelsCli, ReportHasYourKernelsAndTheirMarkers) {
  TempDir dir;
  write_json(dir.path + "/k.json", kernels_doc());
  const auto r = run_command(kBin + " report " + kData + "/cpu_run_a.json --kernels " + dir.path +
                             "/k.json --out " + dir.path + "/out");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string md = slurp(dir.path + "/out/report.md");
  EXPECT_NE(md.find("## Your kernels"), std::string::npos);
  EXPECT_NE(md.find("| `app::triad in /step` | OpenMP fp64 | 10 |"), std::string::npos) << md;
  EXPECT_NE(md.find("memory-bound at"), std::string::npos);
  EXPECT_NE(md.find("| `app::check` | OpenMP | 3 |"), std::string::npos);
  EXPECT_NE(md.find("no counts (declare them with"), std::string::npos);
  EXPECT_NE(md.find("Counts were declared for `app::never`"), std::string::npos);
  bool marker = false;
  for (const auto& e : std::filesystem::directory_iterator(dir.path + "/out"))
    if (e.path().extension() == ".svg")
      marker |= slurp(e.path().string()).find(">app::triad</text>") != std::string::npos;
  EXPECT_TRUE(marker) << "no chart names the kernel";
}

TEST(KernelsCli, PlaceTakesAKernelsFile) {
  TempDir dir;
  write_json(dir.path + "/k.json", kernels_doc());
  const auto r =
      run_command(kBin + " place " + kData + "/cpu_run_a.json --kernels " + dir.path + "/k.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("app::triad in /step: 10 calls"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("of the roof; memory-bound at"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("app::check: 3 calls"), std::string::npos);
  const auto none = run_command(kBin + " place " + kData + "/cpu_run_a.json");
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_EQ(line_count(none.err), 1) << none.err;
}

// What `place` prints for a kernels file is the file's text, escaped: a label with ESC, CR or a
// newline cannot forge a line on the terminal. An incomplete file and the tally are said.
TEST(KernelsCli, PlaceEscapesLabelsAndSaysWhatItHolds) {
  TempDir dir;
  json doc = kernels_doc();
  doc["complete"] = false;
  doc["kernels"][1]["label"] = "evil\x1b[2J\rplaced 9 of 9\nfake";
  write_json(dir.path + "/k.json", doc);
  const auto r =
      run_command(kBin + " place " + kData + "/cpu_run_a.json --kernels " + dir.path + "/k.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos);
  EXPECT_EQ(r.out.find('\r'), std::string::npos);
  EXPECT_NE(r.out.find("evil\\x1b[2J\\rplaced 9 of 9\\nfake"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("written while the application ran"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("placed 1 of 2 kernels"), std::string::npos) << r.out;
}

TEST(KernelsFile, ARateBeyondADoubleNamesTheField) {
  json doc = kernels_doc();
  doc["kernels"][0]["counts"]["flop_per_call"] = 1e300;
  doc["kernels"][0]["seconds_total"] = 1e-20;
  doc["kernels"][0]["seconds_per_call"] = {{"median", 1e-21}, {"p25", 1e-21}, {"p75", 1e-21}};
  try {
    parse_kernels(doc.dump(), "k.json");
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "k.json: kernels[0].counts.flop_per_call: over the time per call gives a rate "
              "beyond a double's range");
  }
}

// `profile` checks the kernels file's folder before the application starts, and returns the
// application's exit code; a program whose Kokkos never loaded the connector (here: no Kokkos at
// all) is said in one line, and a "successful" run without a kernels file is not a success.
TEST(KernelsCli, ProfileChecksTheOutputFirstAndReturnsTheApplicationsCode) {
  TempDir dir;
  const std::string marker = dir.path + "/ran";
  auto r = run_command(kBin + " profile --out " + dir.path + "/no/such/k.json -- touch " + marker);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("--out: folder '" + dir.path + "/no/such' does not exist"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(marker)) << "the application ran";

  r = run_command(kBin + " profile --out " + dir.path + "/k.json -- sh -c 'exit 3'");
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("no kernels file: the application's Kokkos did not load the connector"),
            std::string::npos)
      << r.err;
  r = run_command(kBin + " profile --out " + dir.path + "/k.json -- true");
  EXPECT_EQ(r.exit_code, 1) << r.err;
}

// Finite but extreme counts and times: an intensity beyond a double is refused; what is left
// prints with an exponent, never "inf" or a 300-digit number.
TEST(KernelsCli, ExtremeCountsAndTimesPrintNoInfinityAndNoEndlessDigits) {
  TempDir dir;
  json doc = kernels_doc();
  doc["kernels"][0]["counts"]["flop_per_call"] = 1e300;
  doc["kernels"][0]["counts"]["bytes_per_call"] = 1e-300;
  try {
    parse_kernels(doc.dump(), "k.json");
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "k.json: kernels[0].counts.flop_per_call: over bytes_per_call gives an intensity "
              "beyond a double's range");
  }
  doc = kernels_doc();
  doc["kernels"][0]["seconds_total"] = 1e300;
  doc["kernels"][0]["seconds_per_call"] = {{"median", 1e290}, {"p25", 1e290}, {"p75", 1e290}};
  doc["kernels"][1]["seconds_total"] = 1e-290;
  doc["kernels"][1]["seconds_per_call"] = {{"median", 1e-291}, {"p25", 1e-291}, {"p75", 1e-291}};
  doc["kernels"][1]["counts"] = {{"flop_per_call", 1e-280},
                                 {"bytes_per_call", 1e-280},
                                 {"dtype", "fp64"},
                                 {"source", "annotation"}};
  write_json(dir.path + "/k.json", doc);
  const auto place =
      run_command(kBin + " place " + kData + "/cpu_run_a.json --kernels " + dir.path + "/k.json");
  ASSERT_EQ(place.exit_code, 0) << place.err;
  const auto report = run_command(kBin + " report " + kData + "/cpu_run_a.json --kernels " +
                                  dir.path + "/k.json --out " + dir.path + "/out");
  ASSERT_EQ(report.exit_code, 0) << report.err;
  for (const std::string& text : {place.out, slurp(dir.path + "/out/report.md")}) {
    EXPECT_FALSE(std::regex_search(text, std::regex("\\binf\\b"))) << text;
    EXPECT_FALSE(std::regex_search(text, std::regex("[0-9]{25}"))) << text;
  }
}

TEST(KernelsCli, ABadKernelsFileIsOneLineExitTwoAndNoReport) {
  TempDir dir;
  json doc = kernels_doc();
  doc["kernels"][0]["calls"] = "ten";
  write_json(dir.path + "/k.json", doc);
  const auto r = run_command(kBin + " report " + kData + "/cpu_run_a.json --kernels " + dir.path +
                             "/k.json --out " + dir.path + "/out");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(dir.path + "/k.json: kernels[0].calls: must be a number"), std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.path + "/out/report.md"));
}

}  // namespace
}  // namespace ridgeline
