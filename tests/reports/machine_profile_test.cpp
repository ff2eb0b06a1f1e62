#include "reports/machines/machine_profile.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/input_error.hpp"
#include "reports/machines/host_match.hpp"
#include "tests/support/run_command.hpp"
#include "tests/support/test_paths.hpp"

namespace ridgeline {
namespace {

namespace fs = std::filesystem;

const std::string kMachines =
    std::string(ridgeline::test::paths::kSourceDir) + "/profiles/machines";

TEST(MachineProfile, EveryShippedProfileLoads) {
  const auto all = load_machine_profiles(kMachines);
  EXPECT_GE(all.size(), 5u);
  for (const auto& m : all) {
    EXPECT_FALSE(m.peaks.empty()) << m.file;
    EXPECT_TRUE(m.dense_peak("fp64") || m.dense_peak("fp32")) << m.file;
  }
}

TEST(MachineProfile, DenseTensorPeakIsNotTheSparseOne) {
  const auto m = find_machine_profile("H200 SXM", kMachines);
  ASSERT_TRUE(m.dense_peak("bf16"));
  EXPECT_DOUBLE_EQ(m.dense_peak("bf16")->flops, 989.4e12);
  EXPECT_DOUBLE_EQ(m.bandwidth, 4.8e12);
  EXPECT_DOUBLE_EQ(m.dense_peak("fp64", "vector")->flops, 33.45e12);
}

// An fp16 GEMM that accumulates in fp32 on an RTX 4090 is graded against 165 TFLOP/s, not the
// 330 TFLOP/s of fp16 accumulate (the highest dense fp16 figure, which dense_peak used to take);
// P_vector against the packed vector figure, never a tensor one.
TEST(MachineProfile, GradingPicksDtypeUnitAndAccumulate) {
  const auto m = find_machine_profile("rtx-4090", kMachines);
  EXPECT_DOUBLE_EQ(m.dense_peak("fp16")->flops, 165.2e12);
  EXPECT_DOUBLE_EQ(m.dense_peak("fp16", "", "fp16")->flops, 330.3e12);
  EXPECT_DOUBLE_EQ(m.grading_peak("fp16", UnitKind::kMatrix, "fp32")->flops, 165.2e12);
  EXPECT_DOUBLE_EQ(m.grading_peak("fp16", UnitKind::kMatrix)->flops, 165.2e12);
  EXPECT_DOUBLE_EQ(m.grading_peak("fp16", UnitKind::kMatrix, "fp16")->flops, 330.3e12);
  EXPECT_DOUBLE_EQ(m.grading_peak("fp16", UnitKind::kVector)->flops, 82.6e12);
  EXPECT_EQ(m.grading_peak("fp16", UnitKind::kVector)->unit, "vector-packed");
  EXPECT_DOUBLE_EQ(m.grading_peak("fp8", UnitKind::kMatrix)->flops, 330.3e12);
  EXPECT_DOUBLE_EQ(m.grading_peak("fp8", UnitKind::kMatrix, "fp16")->flops, 660.6e12);
  // No FP64 tensor cores on sm_89: no matrix figure to grade an fp64 GEMM against.
  EXPECT_FALSE(m.grading_peak("fp64", UnitKind::kMatrix));
  EXPECT_DOUBLE_EQ(m.grading_peak("fp64", UnitKind::kVector)->flops, 1.29e12);
}

// CDNA's vector peaks: the probes' fp32 loop is packed (v_pk_fma_f32), so P_vector is graded
// against the packed figure where a sheet lists both; fp16 has its packed vector figure too.
TEST(MachineProfile, AmdVectorPeaksAreGradedAgainstThePackedFigure) {
  const auto mi250x = find_machine_profile("mi250x", kMachines);
  EXPECT_DOUBLE_EQ(mi250x.grading_peak("fp32", UnitKind::kVector)->flops, 95.7e12);
  EXPECT_EQ(mi250x.grading_peak("fp32", UnitKind::kVector)->unit, "vector-packed");
  EXPECT_DOUBLE_EQ(mi250x.grading_peak("fp16", UnitKind::kVector)->flops, 95.7e12);
  EXPECT_DOUBLE_EQ(mi250x.grading_peak("fp64", UnitKind::kVector)->flops, 47.9e12);
  const auto mi300x = find_machine_profile("mi300x", kMachines);
  EXPECT_DOUBLE_EQ(mi300x.grading_peak("fp32", UnitKind::kVector)->flops, 163.4e12);
  EXPECT_DOUBLE_EQ(mi300x.grading_peak("fp16", UnitKind::kVector)->flops, 163.4e12);
  EXPECT_DOUBLE_EQ(mi300x.grading_peak("tf32", UnitKind::kMatrix)->flops, 653.7e12);
  EXPECT_DOUBLE_EQ(mi300x.grading_peak("fp32", UnitKind::kMatrix)->flops, 163.4e12);
}

TEST(MachineProfile, Fp8DenseFiguresOnEverySheetThatHasFp8) {
  const std::pair<const char*, double> kFp8[] = {
      {"h200-sxm", 1978.9e12}, {"h100-sxm", 1978.9e12}, {"mi300x", 2614.9e12}};
  for (const auto& [id, flops] : kFp8) {
    const auto m = find_machine_profile(id, kMachines);
    const auto p = m.grading_peak("fp8", UnitKind::kMatrix);
    ASSERT_TRUE(p) << id;
    EXPECT_DOUBLE_EQ(p->flops, flops) << id;
    EXPECT_TRUE(p->dense) << id;
    EXPECT_FALSE(p->source.empty()) << id << ": an fp8 figure says where it comes from";
  }
  // MI300X: the matrix cores' fp64 (163.4) for a DGEMM, the vector figure (81.7) for P.
  const auto mi300x = find_machine_profile("mi300x", kMachines);
  EXPECT_DOUBLE_EQ(mi300x.grading_peak("fp64", UnitKind::kMatrix)->flops, 163.4e12);
  EXPECT_DOUBLE_EQ(mi300x.grading_peak("fp64", UnitKind::kVector)->flops, 81.7e12);
  EXPECT_EQ(unit_kind("matrix"), UnitKind::kMatrix);
  EXPECT_EQ(unit_kind("tensor"), UnitKind::kMatrix);
  EXPECT_EQ(unit_kind("vector-packed"), UnitKind::kVector);
  EXPECT_FALSE(unit_kind_named("tensor")) << "the command line says vector or matrix";
}

// Issue 43: the card decides the sheet. Names as the CUDA and HIP runtimes report them; "" is
// no sheet (another product: other SMs, clocks or power, so no percentages).
TEST(MachineProfile, MatchesDeviceNames) {
  const auto all = load_machine_profiles(kMachines);
  const std::pair<const char*, const char*> kNames[] = {
      {"NVIDIA H100 80GB HBM3", "h100-sxm"},
      {"NVIDIA H100 SXM5 80GB", "h100-sxm"},
      {"NVIDIA H200", "h200-sxm"},
      {"NVIDIA H200 141GB HBM3e", "h200-sxm"},
      {"NVIDIA GeForce RTX 4090", "rtx-4090"},
      {"AMD Instinct MI250X", "mi250x-gcd"},
      {"AMD Instinct MI300X", "mi300x"},
      {"NVIDIA GH200 480GB", ""},  // "H200" inside a longer word
      {"NVIDIA H100 PCIe", ""},
      {"NVIDIA H100 NVL", ""},
      {"NVIDIA H200 NVL", ""},  // the sheet's exclude
      {"NVIDIA GeForce RTX 4090 D", ""},
      {"NVIDIA GeForce RTX 4090 Laptop GPU", ""},
      {"gfx90a", ""},  // an arch an MI210 shares, never a sheet's name
      {"Some Unknown Accelerator", ""}};
  for (const auto& [name, id] : kNames) {
    const auto m = match_machine_profile(name, all);
    EXPECT_EQ(m ? m->id : "", id) << name;
  }
}

TEST(MachineProfile, MatchStringsAreWholeWords) {
  EXPECT_TRUE(has_words("NVIDIA H200 141GB HBM3e", "h200"));
  EXPECT_FALSE(has_words("NVIDIA GH200 480GB", "H200"));
  EXPECT_TRUE(has_words("NVIDIA H100 SXM5 80GB", "H100 SXM5"));
  EXPECT_FALSE(has_words("NVIDIA H100 SXM5 80GB", "H100 SXM"));
  EXPECT_TRUE(has_words("NVIDIA GeForce RTX 4090 D", "D"));
  EXPECT_FALSE(has_words("NVIDIA GeForce RTX 4090", "D"));
  EXPECT_TRUE(has_words("AMD Instinct MI250X / MI250", "MI250"));  // the second occurrence
  EXPECT_TRUE(has_words("Intel(R) Xeon(R) Gold", "Xeon(R) Gold"));
  EXPECT_FALSE(has_words("anything", ""));
}

// Issue 44: every vector figure on every sheet is its units × FMAs per clock × 2 × the sheet's
// clock within 1 %: a datasheet's rounding (Hopper's "34 TFLOPS" fp64 for 33.45) moves every P
// graded against it.
double per_clock_flops(const MachineProfile& m, const SpecPeak& p) {
  return m.compute_units * p.fma_per_clock * 2 * m.clock_mhz * 1e6;
}

TEST(MachineProfile, EveryVectorPeakIsItsUnitsTimesFmasPerClockTimesTwoTimesTheClock) {
  int checked = 0;
  for (const auto& m : load_machine_profiles(kMachines))
    for (const auto& p : m.peaks) {
      if (unit_kind(p.unit) == UnitKind::kVector) {
        EXPECT_GT(p.fma_per_clock, 0) << m.id << " " << p.dtype << " " << p.unit
                                      << ": a vector figure states its FMAs per clock";
      }
      if (p.fma_per_clock <= 0) continue;
      ASSERT_GT(m.compute_units, 0) << m.id;
      const double want = per_clock_flops(m, p);
      EXPECT_NEAR(p.flops / want, 1.0, 0.01)
          << m.id << " " << p.dtype << " " << p.unit << ": " << p.flops << " FLOP/s on the sheet, "
          << m.compute_units << " units x " << p.fma_per_clock << " x 2 x " << m.clock_mhz
          << " MHz = " << want;
      ++checked;
    }
  EXPECT_GE(checked, 28) << "every shipped sheet's vector figures";
  // The check has teeth: the datasheet's 34 TFLOPS fp64 is 1.6 % above 132 x 64 x 2 x 1980 MHz.
  const auto h200 = find_machine_profile("h200-sxm", kMachines);
  SpecPeak datasheet = *h200.dense_peak("fp64", "vector");
  EXPECT_DOUBLE_EQ(datasheet.flops, 33.45e12);
  datasheet.flops = 34e12;
  EXPECT_GT(datasheet.flops / per_clock_flops(h200, datasheet) - 1, 0.01);
}

// A host as a results file describes it: model, cores, threads, the avx512 flag (nullopt: not
// recorded) and the ISA its probes ran ("": no point records one).
Results host_results(const std::string& model, int cores, int threads, std::optional<bool> avx512,
                     const std::string& isa, int vector_bytes) {
  Results r;
  r.cpu_model = model;
  r.cpu_cores = cores;
  r.cpu_threads = threads;
  r.cpu_avx512 = avx512;
  Point p;
  if (!isa.empty()) p.params = {{"isa", isa}, {"vector_bytes", vector_bytes}};
  r.points.push_back(p);
  Point gpu;  // a device point's "gpu" says nothing about the host
  gpu.params = {{"isa", "gpu"}, {"vector_bytes", nullptr}};
  r.points.push_back(gpu);
  return r;
}

TEST(MachineProfile, CpuSheetStatesTheHostItDescribes) {
  const auto m = find_machine_profile("epyc-zen5-2vcpu", kMachines);
  ASSERT_TRUE(m.cpu);
  EXPECT_EQ(m.cpu->isa, "avx512");
  EXPECT_EQ(m.cpu->vector_bits, 512);
  EXPECT_EQ(m.cpu->cores, 2);
  EXPECT_EQ(m.cpu->threads, 2);
  EXPECT_EQ(m.compute_units, 2) << "P is for its 2 cores";
  for (const auto& gpu : {"h200-sxm", "rtx-4090", "mi300x"})
    EXPECT_FALSE(find_machine_profile(gpu, kMachines).cpu) << gpu;
  // By name alone no CPU sheet is found: that is how a Zen 3 VM got the Zen 5 sheet.
  EXPECT_FALSE(match_machine_profile("AMD EPYC", load_machine_profiles(kMachines)));
}

// The unmet facts of sheet `id` in a match that missed it; empty when it was not a near miss.
std::vector<std::string> unmet_of(const HostMatch& m, const std::string& id) {
  for (const auto& miss : m.misses)
    if (miss.id == id) return miss.unmet;
  return {};
}

// Issue 23: the Zen 3 VM (model "AMD EPYC", AVX2, 2 vCPUs) is not the Zen 5 VM of that sheet; it
// gets its own, matched on the same facts.
TEST(HostMatch, Zen3WithAvx2GetsTheZen3SheetNotTheZen5One) {
  const auto all = load_machine_profiles(kMachines);
  const HostFacts zen3 = host_facts(host_results("AMD EPYC", 2, 2, false, "avx2", 32));
  EXPECT_EQ(zen3.vendor, "AMD");
  EXPECT_EQ(zen3.isa, "avx2");
  EXPECT_EQ(zen3.vector_bits, 256);
  EXPECT_EQ(describe_host(zen3), "AMD, avx2, 256-bit, 2 cores, 2 threads");
  const HostMatch m = match_host_profile(zen3, all);
  ASSERT_TRUE(m.profile);
  EXPECT_EQ(m.profile->id, "epyc-zen3-2vcpu");
  EXPECT_TRUE(m.misses.empty());
  // A file whose points record no ISA knows only "no AVX-512": not the Zen 5 VM, and not enough
  // to say AVX2.
  const HostFacts flag_only = host_facts(host_results("AMD EPYC", 2, 2, false, "", 0));
  EXPECT_EQ(describe_host(flag_only), "AMD, no AVX-512, 2 cores, 2 threads");
  const HostMatch by_flag = match_host_profile(flag_only, all);
  EXPECT_FALSE(by_flag.profile);
  EXPECT_EQ(unmet_of(by_flag, "epyc-zen5-2vcpu"),
            (std::vector<std::string>{"avx512", "512-bit vectors (not in the file)"}));
  EXPECT_FALSE(unmet_of(by_flag, "epyc-zen3-2vcpu").empty());
}

TEST(HostMatch, Zen5WithAvx512AndTwoThreadsGetsTheZen5Sheet) {
  const auto all = load_machine_profiles(kMachines);
  // From the CPU's flag (a build for AVX2 on that machine), from the points, or from both.
  for (const auto& r : {host_results("AMD EPYC", 2, 2, true, "avx2", 32),
                        host_results("AMD EPYC 9R45", 2, 2, std::nullopt, "avx512", 64),
                        host_results("AMD EPYC", 2, 2, true, "avx512", 64)}) {
    const HostMatch m = match_host_profile(host_facts(r), all);
    ASSERT_TRUE(m.profile) << describe_host(host_facts(r));
    EXPECT_EQ(m.profile->id, "epyc-zen5-2vcpu");
    EXPECT_TRUE(m.misses.empty());
  }
}

TEST(HostMatch, OtherVendorsSizesAndMissingFacts) {
  const auto all = load_machine_profiles(kMachines);
  // No sheet names the model: no sheet and nothing that nearly matched.
  const HostMatch xeon =
      match_host_profile(host_facts(host_results("Intel(R) Xeon(R) Gold", 2, 2, true, "", 0)), all);
  EXPECT_FALSE(xeon.profile);
  EXPECT_TRUE(xeon.misses.empty());
  EXPECT_EQ(host_facts(host_results("Intel(R) Xeon(R) Gold", 2, 2, true, "", 0)).vendor, "Intel");
  // The sheet's name in a model that states no vendor: the vendor is a missing fact.
  const HostMatch kvm =
      match_host_profile(host_facts(host_results("KVM AMD EPYC", 2, 2, true, "", 0)), all);
  EXPECT_EQ(unmet_of(kvm, "epyc-zen5-2vcpu"),
            (std::vector<std::string>{"vendor AMD (not in the file)"}));
  // 4 threads on 2 cores (SMT): not the 2-vCPU machine.
  const HostMatch smt =
      match_host_profile(host_facts(host_results("AMD EPYC", 2, 4, true, "", 0)), all);
  EXPECT_EQ(unmet_of(smt, "epyc-zen5-2vcpu"), (std::vector<std::string>{"2 threads"}));
  // Cores not recorded: the sheet requires them, so it is not used.
  const HostMatch no_cores =
      match_host_profile(host_facts(host_results("AMD EPYC", 0, 2, true, "", 0)), all);
  EXPECT_FALSE(no_cores.profile);
  EXPECT_EQ(unmet_of(no_cores, "epyc-zen5-2vcpu"),
            (std::vector<std::string>{"2 cores (not in the file)"}));
  // SVE's width comes from the points; length-agnostic SVE has none.
  EXPECT_EQ(host_facts(host_results("Neoverse", 4, 4, std::nullopt, "sve", 32)).vector_bits, 256);
  EXPECT_EQ(host_facts(host_results("Neoverse", 4, 4, std::nullopt, "sve-vla", 16)).vector_bits, 0);
}

class BrokenProfile : public ::testing::Test {
 protected:
  std::string write(const std::string& body) {
    dir_ = fs::temp_directory_path() / ("ridgeline-mp-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    const auto path = (dir_ / "broken.json").string();
    std::ofstream(path) << body;
    return path;
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(BrokenProfile, MissingFieldNamesFileAndField) {
  const auto path =
      write(R"({"name":"x","vendor":"v","source":"y","clock":{"assumed":"boost","sm_mhz":1},
                               "peaks":[{"dtype":"fp32","flops":1,"unit":"vector","dense":true}]})");
  try {
    load_machine_profile(path);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": memory: missing required field");
  }
}

// A misspelt field would drop its figure unsaid: refused, naming the field and the likely one.
TEST_F(BrokenProfile, UnknownFieldsAreRefusedWithTheLikelyOne) {
  const std::string sheet =
      R"({"name":"x","vendor":"v","source":"y","clock":{"assumed":"boost","sm_mhz":1},
          "memory":{"bandwidth":1e9},"peaks":[{"dtype":"fp32","flops":1,"unit":"vector",
          "dense":true}]})";
  const std::pair<std::string, std::string> kCases[] = {
      {R"("peaks":)", R"("peak":[], "peaks":)"},
      {R"("bandwidth":1e9)", R"("bandwith":1e9, "bandwidth":1e9)"},
      {R"("sm_mhz":1)", R"("sm_mhz":1, "smmhz":2)"},
      {R"("dense":true)", R"("dense":true, "sparse":false)"}};
  const std::string expected[] = {"peak: unknown field", "memory.bandwith: unknown field",
                                  "clock.smmhz: unknown field", "peaks[0].sparse: unknown field"};
  const std::string likely[] = {"(did you mean 'peaks'?)", "(did you mean 'bandwidth'?)",
                                "(did you mean 'sm_mhz'?)", ""};
  for (std::size_t i = 0; i < std::size(kCases); ++i) {
    std::string body = sheet;
    body.replace(body.find(kCases[i].first), kCases[i].first.size(), kCases[i].second);
    const auto path = write(body);
    try {
      load_machine_profile(path);
      ADD_FAILURE() << "accepted " << kCases[i].second;
    } catch (const InputError& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind(path + ": " + expected[i], 0), 0u) << what;
      EXPECT_NE(what.find(likely[i]), std::string::npos) << what;
    }
  }
}

// A CPU sheet's facts are checked like every other field: one line naming the file and field.
TEST_F(BrokenProfile, CpuSheetFactsNameFileAndField) {
  const std::string head =
      R"({"name":"x","vendor":"AMD","source":"y","clock":{"assumed":"boost","sm_mhz":1},
          "memory":{"bandwidth":1e9},"peaks":[{"dtype":"fp32","flops":1,"unit":"vector",
          "dense":true}],)";
  const std::pair<std::string, std::string> kCases[] = {
      {R"("cpu":"avx512")", "cpu: must be an object"},
      {R"("cpu":{"isa":5,"cores":2})", "cpu.isa: must be a non-empty string"},
      {R"("cpu":{"cores":2})", "cpu.isa: missing required field"},
      {R"("cpu":{"isa":"avx-512","cores":2})",
       "cpu.isa: must be one of avx512, avx2, sve, sve-vla, neon, sse2, scalar"},
      {R"("cpu":{"isa":"avx512","cores":"2"})", "cpu.cores: must be an integer in [1, 1000000]"},
      {R"("cpu":{"isa":"avx512","threads":2.5})",
       "cpu.threads: must be an integer in [1, 1000000]"},
      {R"("cpu":{"isa":"avx512","cores":2,"vector_bits":"512"})",
       "cpu.vector_bits: must be an integer in [64, 2048]"},
      {R"("cpu":{"isa":"avx512"})",
       "cpu.cores: missing required field (give cores, threads or both)"},
      {R"("cpu":{"isa":"avx512","cores":2,"fma_pipes":2})",
       "cpu.fma_pipes: is not a fact a results file records (known: isa, vector_bits, cores, "
       "threads)"},
      {R"("compute_units":2,"cpu":{"isa":"avx512","cores":2})",
       "compute_units: must be left out of a CPU sheet (cpu.cores and cpu.threads give its "
       "size)"}};
  for (const auto& [cpu, error] : kCases) {
    const auto path = write(head + cpu + "}");
    try {
      load_machine_profile(path);
      ADD_FAILURE() << "expected InputError for " << cpu;
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()), path + ": " + error);
    }
  }
}

// Level limits: bytes per clock per unit at the sheet's clock, or a published bandwidth.
TEST(MachineProfile, LevelLimitsScaleWithUnitsAndClock) {
  const auto h200 = find_machine_profile("h200-sxm", kMachines);
  const LevelLimit* l1 = h200.level_limit("L1");
  ASSERT_TRUE(l1);
  EXPECT_DOUBLE_EQ(l1->at(132, 1980), 128.0 * 132 * 1980e6);  // 33.45 TB/s
  EXPECT_EQ(l1->formula(132, 1980), "128 B/clk × 132 units × 1980 MHz");
  EXPECT_FALSE(h200.level_limit("L2"));  // NVIDIA publishes none
  const auto mi300x = find_machine_profile("mi300x", kMachines);
  ASSERT_TRUE(mi300x.level_limit("L2"));
  EXPECT_DOUBLE_EQ(mi300x.level_limit("L2")->at(304, 2100), 16384.0 * 2100e6);  // per device
  ASSERT_TRUE(mi300x.level_limit("MALL"));
  EXPECT_DOUBLE_EQ(mi300x.level_limit("MALL")->at(304, 1000), 17.2e12);  // published
  EXPECT_EQ(mi300x.level_limit("MALL")->formula(304, 2100), "published");
  const auto zen5 = find_machine_profile("epyc-zen5-2vcpu", kMachines);
  ASSERT_TRUE(zen5.level_limit("L3 (LLC)"));  // the report's name of the last level
  EXPECT_DOUBLE_EQ(zen5.level_limit("L3 (LLC)")->at(1, 3100), 32 * 3100e6);
}

TEST_F(BrokenProfile, LevelLimitsNameFileAndField) {
  const std::string head =
      R"({"name":"x","vendor":"NVIDIA","source":"y","clock":{"assumed":"boost","sm_mhz":1},
          "memory":{"bandwidth":1e9},"peaks":[{"dtype":"fp32","flops":1,"unit":"vector",
          "dense":true}],)";
  const std::pair<std::string, std::string> kCases[] = {
      {R"("levels":{})", "levels: must be an array of objects"},
      {R"("levels":[5])", "levels[0]: must be an object"},
      {R"("levels":[{"level":"HBM","bandwidth":1e12,"source":"s"}])",
       "levels[0].level: must be one of SRAM, L1, L2, L3, MALL (DRAM is memory.bandwidth)"},
      {R"("levels":[{"level":"L1","bytes_per_clock":128,"per":"unit"}])",
       "levels[0].source: missing required field"},
      {R"("levels":[{"level":"L1","bytes_per_clock":128,"bandwidth":1e12,"source":"s"}])",
       "levels[0].bytes_per_clock: give either bytes_per_clock (with per) or bandwidth, not both "
       "or neither"},
      {R"("levels":[{"level":"L1","source":"s"}])",
       "levels[0].bytes_per_clock: give either bytes_per_clock (with per) or bandwidth, not both "
       "or neither"},
      {R"("levels":[{"level":"L1","bytes_per_clock":128,"source":"s"}])",
       "levels[0].per: missing required field"},
      {R"("levels":[{"level":"L1","bytes_per_clock":128,"per":"SM","source":"s"}])",
       "levels[0].per: must be unit (an SM, CU or core) or device (the whole chip)"},
      {R"("levels":[{"level":"L1","bytes_per_clock":-1,"per":"unit","source":"s"}])",
       "levels[0].bytes_per_clock: must be a number in (0, 1e+09]"},
      {R"("levels":[{"level":"L2","bandwidth":1e12,"source":"s"},
                    {"level":"L2","bandwidth":2e12,"source":"s"}])",
       "levels[1].level: gives L2 a second time"}};
  for (const auto& [levels, error] : kCases) {
    const auto path = write(head + levels + "}");
    try {
      load_machine_profile(path);
      ADD_FAILURE() << "expected InputError for " << levels;
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()), path + ": " + error);
    }
  }
}

// The match fields and the per-clock figure are checked like every other field.
TEST_F(BrokenProfile, MatchExcludeAndFmaPerClockNameFileAndField) {
  const std::string head =
      R"({"name":"x","vendor":"NVIDIA","source":"y","clock":{"assumed":"boost","sm_mhz":1},
          "memory":{"bandwidth":1e9},)";
  const std::string peaks = R"("peaks":[{"dtype":"fp32","flops":1,"unit":"vector","dense":true}])";
  const std::pair<std::string, std::string> kCases[] = {
      {R"("match":"RTX 4090",)" + peaks, "match: must be an array of strings"},
      {R"("match":["RTX 4090"],"exclude":"D",)" + peaks, "exclude: must be an array of strings"},
      {R"("match":["RTX 4090"],"exclude":["D",""],)" + peaks,
       "exclude: must be an array of non-empty strings"},
      {R"("match":["RTX 4090 D"],"exclude":["D"],)" + peaks,
       "exclude: 'D' would refuse the sheet's own match 'RTX 4090 D'"},
      {R"("compute_units":2,"peaks":[{"dtype":"fp32","flops":1,"unit":"vector","dense":true,
          "fma_per_clock":"64"}])",
       "peaks[0].fma_per_clock: must be a number in (0, 1e+06]"},
      {R"("peaks":[{"dtype":"fp32","flops":1,"unit":"vector","dense":true,"fma_per_clock":64}])",
       "peaks[0].fma_per_clock: needs the sheet's compute_units (a CPU sheet's cpu.cores or "
       "threads)"}};
  for (const auto& [body, error] : kCases) {
    const auto path = write(head + body + "}");
    try {
      load_machine_profile(path);
      ADD_FAILURE() << "expected InputError for " << body;
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()), path + ": " + error);
    }
  }
}

TEST_F(BrokenProfile, CalcWithBrokenProfileFailsWithOneLine) {
  const auto path =
      write(R"({"name":"x","vendor":"v","source":"y","clock":{"assumed":"boost","sm_mhz":1},
      "memory":{"bandwidth":1e9},"peaks":[{"dtype":"fp32","flops":-1,"unit":"vector","dense":true}]})");
  const auto r2 = test::run_command(
      "mkdir -p " + dir_.string() + "/p/machines && cp " + path + " " + dir_.string() +
      "/p/machines/ && RIDGELINE_PROFILES=" + dir_.string() + "/p " +
      std::string(ridgeline::test::paths::kReportBin) + " calc --machine broken --intensities 1");
  EXPECT_EQ(r2.exit_code, 2);
  EXPECT_EQ(test::line_count(r2.err), 1) << r2.err;
  EXPECT_NE(r2.err.find("peaks[0].flops"), std::string::npos) << r2.err;
}

}  // namespace
}  // namespace ridgeline
