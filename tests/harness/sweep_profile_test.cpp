// Sweep profiles are validated on load: every error names the file and the field.
#include "harness/sweep/sweep_profile.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/input_error.hpp"

namespace ridgeline {
namespace {

std::string error_of(const std::string& body) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("ridgeline-profile-" + std::to_string(::getpid()) + ".json");
  std::ofstream(path) << body;
  try {
    load_sweep_profile(path.string());
  } catch (const InputError& e) {
    std::filesystem::remove(path);
    return std::string(e.what()).substr(path.string().size());
  }
  std::filesystem::remove(path);
  return "no error";
}

TEST(SweepProfile, ShippedProfilesLoad) {
  for (const char* name : {"quick", "nightly", "full", "cache"}) {
    const SweepProfile p = load_sweep_profile(name);
    EXPECT_EQ(p.name, name);
    EXPECT_GE(p.repetitions, 3) << name;
  }
}

TEST(SweepProfile, UnknownProbeNamesFieldAndProbe) {
  EXPECT_EQ(error_of(R"({"name":"x","bandwidth":{"probes":["triad","triadd"]}})"),
            ": bandwidth.probes[1]: unknown bandwidth probe 'triadd' (known: copy, scale, add, "
            "triad, update_xy, dot, read, fill, copy_nt)");
}

// `"probes": "all"`: every name the catalog has for the section, in its order, and the results
// file records the names it stood for (a later catalog's run says what it ran).
TEST(SweepProfile, AllProbesAreTheCatalogsInItsOrder) {
  const SweepProfile p = parse_sweep_profile(nlohmann::json::parse(R"({"name":"x",
      "bandwidth":{"probes":"all"}, "fma":{"probes":"all"}, "cache":{"probes":"all"},
      "sram":{"probes":"all"}, "library":{"probes":"all"}})"),
                                             "p");
  EXPECT_EQ(p.bandwidth_probes, profile_names_in("bandwidth"));
  EXPECT_EQ(p.fma_probes, profile_names_in("fma"));
  EXPECT_EQ(p.cache_probes, profile_names_in("cache"));
  EXPECT_EQ(p.sram_probes, profile_names_in("sram"));
  EXPECT_EQ(p.library_probes, profile_names_in("library"));
  EXPECT_GT(p.bandwidth_probes.size(), 1u);
  EXPECT_EQ(p.to_json()["bandwidth"]["probes"], nlohmann::json(profile_names_in("bandwidth")));
  EXPECT_EQ(error_of(R"({"name":"x","bandwidth":{"probes":"every"}})"),
            ": bandwidth.probes: must be an array of bandwidth probe names, or \"all\"");
  EXPECT_EQ(error_of(R"({"name":"x","cache":{"probes":7}})"),
            ": cache.probes: must be an array of cache probe names");
}

// The ladder forms a profile asks for: the in-place reference by default, fma_xy on request.
TEST(SweepProfile, SramSizesAreIntegersNamedByTheirIndex) {
  EXPECT_EQ(error_of(R"({"name":"x","sram":{"bytes":[4096, 8]}})"),
            ": sram.bytes[1]: must be an integer in [16, 1048576]");
  EXPECT_EQ(error_of(R"({"name":"x","sram":{"bytes":[]}})"),
            ": sram.bytes: must be a non-empty array of integers");
  EXPECT_EQ(error_of(R"({"name":"x","sram":{"probes":["write"]}})"),
            ": sram.probes[0]: unknown sram probe 'write' (known: read, update)");
  const SweepProfile p =
      parse_sweep_profile({{"name", "x"}, {"sram", nlohmann::json::object()}}, "x.json");
  EXPECT_EQ(p.sram_probes, (std::vector<std::string>{"read", "update"}));
  EXPECT_EQ(p.sram_bytes, (std::vector<std::uint64_t>{16384}));
  EXPECT_EQ(p.to_json()["sram"]["passes"], p.sram_passes);
}

TEST(SweepProfile, LadderFormsDefaultToTheInPlaceLadder) {
  EXPECT_EQ(parse_sweep_profile(nlohmann::json::parse(R"({"name":"x","fma":{}})"), "p").fma_probes,
            std::vector<std::string>{"fma"});
  const auto both = parse_sweep_profile(
      nlohmann::json::parse(R"({"name":"x","fma":{"probes":["fma","fma_xy"]}})"), "p");
  EXPECT_EQ(both.fma_probes, (std::vector<std::string>{"fma", "fma_xy"}));
  EXPECT_EQ(both.to_json()["fma"]["probes"], nlohmann::json({"fma", "fma_xy"}));
  EXPECT_EQ(error_of(R"({"name":"x","fma":{"probes":["fma_nt"]}})"),
            ": fma.probes[0]: unknown fma probe 'fma_nt' (known: fma, fma_xy)");
}

TEST(SweepProfile, NegativeSizeIsRejected) {
  EXPECT_EQ(error_of(R"({"name":"x","working_set_bytes":-4096})"),
            ": working_set_bytes: must be an integer in [1, 1125899906842624]");
  EXPECT_EQ(error_of(R"({"name":"x","cache":{"min_bytes":0}})"),
            ": cache.min_bytes: must be an integer in [1, 1125899906842624]");
}

TEST(SweepProfile, MalformedJsonAndTyposAreRejected) {
  EXPECT_EQ(error_of(R"({"name":"x", )").rfind(": malformed JSON", 0), 0u);
  EXPECT_EQ(error_of(R"({"name":"x","repetitons":5})").rfind(": repetitons: unknown field", 0), 0u);
  EXPECT_EQ(error_of(R"({"bandwidth":{}})"), ": name: missing required field");
  EXPECT_EQ(error_of(R"({"name":"x","fma":{"k_max":100000}})"),
            ": fma.k_max: must be an integer in [1, 8192]");
}

struct OutOfRange {
  const char* body;   // profile fields after "name"
  const char* error;  // the whole message after the file name
};
void PrintTo(const OutOfRange& o, std::ostream* os) { *os << o.body; }

class SweepProfileRange : public ::testing::TestWithParam<OutOfRange> {};

// Every number has a range: values that overflowed the planner (gemm_n 2^31 wrapped 3·n²·8 to 0),
// grew the plan without bound (steps_per_octave 1e6), never finished (min_time_s 1e9,
// flops_per_call 1e300) or were cut to something else (repetitions 2^32+1 ran once, k_max
// 2^32+16 became 16).
TEST_P(SweepProfileRange, IsOneLineNamingTheField) {
  EXPECT_EQ(error_of(std::string(R"({"name":"x",)") + GetParam().body + "}"), GetParam().error);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, SweepProfileRange,
    ::testing::Values(
        OutOfRange{R"("repetitions":1000000000)", ": repetitions: must be an integer in [1, 1000]"},
        OutOfRange{R"("repetitions":2147483648)", ": repetitions: must be an integer in [1, 1000]"},
        OutOfRange{R"("repetitions":4294967297)", ": repetitions: must be an integer in [1, 1000]"},
        OutOfRange{R"("repetitions":0)", ": repetitions: must be an integer in [1, 1000]"},
        OutOfRange{R"("repetitions":2.5)", ": repetitions: must be an integer in [1, 1000]"},
        OutOfRange{R"("repetitions":"5")", ": repetitions: must be an integer in [1, 1000]"},
        OutOfRange{R"("repetitions":10,"rounds":0)", ": rounds: must be an integer in [1, 1000]"},
        OutOfRange{R"("repetitions":10,"rounds":3)",
                   ": rounds: must divide repetitions (10): each round takes the same number of "
                   "samples of every point"},
        OutOfRange{R"("min_time_s":1e9)", ": min_time_s: must be a number in (0, 60]"},
        OutOfRange{R"("min_time_s":0)", ": min_time_s: must be a number in (0, 60]"},
        OutOfRange{R"("warmup_s":1e9)", ": warmup_s: must be a number in [0, 60]"},
        OutOfRange{R"("warmup_s":-1)", ": warmup_s: must be a number in [0, 60]"},
        OutOfRange{R"("dram_llc_multiple":0.5)",
                   ": dram_llc_multiple: must be a number in [1, 1024]"},
        OutOfRange{R"("dram_min_bytes":1152921504606846976)",
                   ": dram_min_bytes: must be an integer in [1, 1125899906842624]"},
        OutOfRange{R"("device_work_scale":1e9)",
                   ": device_work_scale: must be a number in (0, 10000]"},
        OutOfRange{R"("fma":{"k_max":4294967312})", ": fma.k_max: must be an integer in [1, 8192]"},
        OutOfRange{R"("fma":{"k_max":0})", ": fma.k_max: must be an integer in [1, 8192]"},
        OutOfRange{R"("fma":{"flops_per_call":1e300})",
                   ": fma.flops_per_call: must be a number in (0, 1e+12]"},
        OutOfRange{R"("peak":{"k":4294967295})", ": peak.k: must be an integer in [1, 65536]"},
        OutOfRange{R"("peak":{"flops_per_call":1e300})",
                   ": peak.flops_per_call: must be a number in (0, 1e+12]"},
        OutOfRange{R"("cache":{"steps_per_octave":1000000})",
                   ": cache.steps_per_octave: must be an integer in [1, 64]"},
        OutOfRange{R"("cache":{"bytes_per_call":-1})",
                   ": cache.bytes_per_call: must be a number in (0, 1e+12]"},
        OutOfRange{R"("library":{"gemm_n":2147483648})",
                   ": library.gemm_n: must be an integer in [1, 65536]"},
        OutOfRange{R"("library":{"vendor_gemm_m":[16,0]})",
                   ": library.vendor_gemm_m[1]: must be an integer in [1, 65536]"},
        OutOfRange{R"("library":{"vendor_gemm_m":[16,16]})",
                   ": library.vendor_gemm_m[1]: is listed twice"},
        OutOfRange{R"("library":{"vendor_gemm_m":16})",
                   ": library.vendor_gemm_m: must be a non-empty array of integers"},
        OutOfRange{R"("dtypes":["fp64","fp32","fp64"])", ": dtypes[2]: 'fp64' is listed twice"},
        OutOfRange{R"("bandwidth":{"probes":["triad","triad"]})",
                   ": bandwidth.probes[1]: 'triad' is listed twice"},
        OutOfRange{R"("spaces":["Serial","Serial"])", ": spaces[1]: 'Serial' is listed twice"}));

TEST(SweepProfile, RangeEndsAreAccepted) {
  EXPECT_EQ(error_of(R"({"name":"x","repetitions":1000,"min_time_s":60,"warmup_s":0,
                      "fma":{"k_max":8192,"flops_per_call":1e12},"peak":{"k":65536},
                      "cache":{"steps_per_octave":64},"library":{"gemm_n":65536}})"),
            "no error");
}

// The skinny vendor gemm sweep: M from 16 to 1024 against the 8192² weight of the square (the
// GPU session's profile; `full` keeps every power of two up to 8192).
TEST(SweepProfile, VendorGemmSweepIsReadAndWrittenBack) {
  const SweepProfile p = load_sweep_profile("gpu-first-light");
  EXPECT_EQ(p.vendor_gemm_n, 8192u);
  EXPECT_EQ(p.vendor_gemm_m, (std::vector<std::uint64_t>{16, 64, 256, 1024}));
  EXPECT_EQ(p.to_json()["library"]["vendor_gemm_m"].size(), 4u);
  EXPECT_EQ(load_sweep_profile("full").vendor_gemm_m.size(), 10u);
  // Profiles without the sweep write no field: their results still --resume.
  EXPECT_FALSE(load_sweep_profile("nightly").to_json()["library"].contains("vendor_gemm_m"));
}

// GPUs read their pyramid in fp32 (an fp64 read is capped by its own adds on sm_89), hosts keep
// their dtypes and so their nightly baselines.
TEST(SweepProfile, DeviceDtypesOfThePyramidStandApartFromTheHosts) {
  const SweepProfile p = load_sweep_profile("nightly");
  EXPECT_EQ(p.cache_dtypes_on(false), (std::vector<std::string>{"fp64", "fp32"}));
  EXPECT_EQ(p.cache_dtypes_on(true), std::vector<std::string>{"fp32"});
  EXPECT_EQ(p.sram_dtypes_on(false), (std::vector<std::string>{"fp64", "fp32"}));
  EXPECT_EQ(p.sram_dtypes_on(true), std::vector<std::string>{"fp32"});
  EXPECT_EQ(p.to_json()["cache"]["device_dtypes"], nlohmann::json::array({"fp32"}));
  // Without device_dtypes a device sweeps the family's dtypes, and the written profile says
  // nothing more (results written before still --resume).
  const SweepProfile g = load_sweep_profile("gpu-first-light");
  EXPECT_EQ(g.cache_dtypes_on(true), g.cache_dtypes);
  EXPECT_FALSE(g.to_json()["cache"].contains("device_dtypes"));
  EXPECT_NE(error_of(R"({"name": "x", "cache": {"probes": ["read"], "device_dtypes": ["fp65"]}})"),
            "no error");
}

TEST(SweepProfile, UnknownProfileNameListsTheKnownOnes) {
  try {
    load_sweep_profile("nosuch");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(
        std::string(e.what()).find(
            "--profile: unknown profile 'nosuch' (known: cache, full, gpu-ab, gpu-first-light, "
            "gpu-smoke, nightly, quick"),
        std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace ridgeline
