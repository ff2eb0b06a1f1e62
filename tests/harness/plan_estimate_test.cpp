// The device outline (plan_outline.hpp), the time model (plan_estimate.hpp) and the budget the
// main sweep of a GPU session must fit: planned for the H200 of the committed run, an H100 SXM
// and an RTX 4090 on this CPU-only build.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "cli/run/plan_inputs.hpp"
#include "core/input_error.hpp"
#include "harness/probes/stream_kernels.hpp"
#include "harness/sweep/plan.hpp"
#include "harness/sweep/plan_estimate.hpp"
#include "harness/sweep/plan_outline.hpp"
#include "harness/sweep/plan_sizes.hpp"
#include "harness/sweep/sweep_profile.hpp"
#include "results/results_file.hpp"
#include "results/results_model.hpp"
#include "tests/support/temp_dir.hpp"
#include "tests/support/test_paths.hpp"

namespace ridgeline {
namespace {

const std::string kRoot = test::paths::kSourceDir;
const std::string kH200 = kRoot + "/samples/h200";

SweepProfile profile(const std::string& name) {
  return load_sweep_profile(kRoot + "/profiles/sweeps/" + name + ".json");
}
MachineProfile sheet(const std::string& id) {
  return find_machine_profile(id, kRoot + "/profiles/machines");
}

// The three GPUs the session may get: the H200 as its run recorded it, the others from sheets.
struct Card {
  std::string label;
  DeviceSpaceFacts device;
  DeviceSpeed speed;
};
std::vector<Card> cards() {
  std::vector<Card> out;
  const DeviceSpaceFacts h200 = device_from_info(kH200 + "/info.json", "");
  out.push_back({"H200 (info.json)", h200, speed_from_sheet(sheet("h200-sxm"), h200.arch)});
  for (const char* id : {"h100-sxm", "rtx-4090"}) {
    const MachineProfile s = sheet(id);
    const DeviceSpaceFacts d = device_from_sheet(s);
    out.push_back({id, d, speed_from_sheet(s, d.arch)});
  }
  return out;
}

const Results& h200_run() {
  static const Results r = load_results(kH200 + "/results.json");
  return r;
}
DeviceSpeed h200_speed() { return speed_from_sheet(sheet("h200-sxm"), "sm_90"); }

std::map<std::string, int> measured_per_family(const std::vector<OutlinePoint>& plan) {
  std::map<std::string, int> n;
  for (const OutlinePoint& p : plan)
    if (p.measured()) ++n[p.info.family];
  return n;
}

TEST(PlanOutline, DeviceFactsComeFromTheInfoFileAndTheSheets) {
  const std::vector<Card> c = cards();
  EXPECT_EQ(c[0].device.compute_units, 132);
  EXPECT_EQ(c[0].device.capacities.l2_bytes, 62914560u);
  EXPECT_EQ(c[0].device.concurrency, 270336);
  // The committed file predates l1_per_unit_bytes: sm_90's comes from the architecture.
  EXPECT_EQ(c[0].device.capacities.l1_per_unit_bytes, 256u * 1024);
  EXPECT_EQ(c[1].device.compute_units, 132);
  EXPECT_EQ(c[1].device.capacities.l2_bytes, 52428800u);
  EXPECT_EQ(c[1].device.concurrency, 132 * 2048);
  EXPECT_EQ(c[2].device.compute_units, 128);
  EXPECT_EQ(c[2].device.arch, "sm_89");
  EXPECT_EQ(c[2].device.concurrency, 128 * 1536);
  EXPECT_EQ(c[2].device.capacities.l1_per_unit_bytes, 128u * 1024);
}

// Counted from the profile here, not from the outline's walk: each family's rule as the
// planner states it.
TEST(PlanOutline, CountsFollowTheProfileOnEachCard) {
  const SweepProfile p = profile("gpu-first-light");
  for (const Card& card : cards()) {
    SCOPED_TRACE(card.label);
    const std::vector<OutlinePoint> plan = outline_device_plan(p, card.device);
    const auto n = measured_per_family(plan);
    const int typed = int(std::count_if(p.dtypes.begin(), p.dtypes.end(), [](const std::string& d) {
      return d == "fp64" || d == "fp32";
    }));
    const int half = int(p.dtypes.size()) - typed;  // fp16 and bf16 run on CUDA
    EXPECT_EQ(n.at("bandwidth"), int(p.bandwidth_probes.size()) * typed);
    const int rungs = int(std::log2(p.fma_k_max)) + 1;
    EXPECT_EQ(n.at("fma"), rungs * (int(p.fma_probes.size()) * typed + half));
    EXPECT_EQ(n.at("peak"), int(p.dtypes.size()));
    // Every GEMM type rides with a profile dtype; fp8 runs on sm_89 and sm_90.
    const int shapes =
        1 + int(std::count_if(p.vendor_gemm_m.begin(), p.vendor_gemm_m.end(),
                              [&](std::uint64_t m) { return m != p.vendor_gemm_n; }));
    const int kokkos_library = int(p.library_probes.size()) - 1;  // all but vendor_gemm
    EXPECT_EQ(n.at("library"), kokkos_library * typed + 6 * shapes);
    // Scratch above Kokkos' level-0 limit (48 KiB less its reserve) is refused, not clipped.
    std::set<std::uint64_t> sizes;
    const std::uint64_t limit = kCudaSharedPerBlockBytes - kKokkosTeamReserveBytes - 64;
    for (const std::uint64_t b : p.sram_bytes)
      if (b <= limit) sizes.insert(b / 4096 * 4096);
    EXPECT_EQ(n.at("sram"),
              int(sizes.size() * p.sram_probes.size() * p.sram_dtypes_on(true).size()));
    // The cache sweep: every working set for the read kernel; triad (three fp64 arrays) where
    // each resident thread has a 16-byte vector of each array to write.
    ASSERT_EQ(p.cache_dtypes_on(true), std::vector<std::string>{"fp32"});
    ASSERT_EQ(p.cache_probes, (std::vector<std::string>{"read", "triad"}));
    MachineFacts m;
    m.spaces.push_back({card.device.space, card.device.capacities});
    const SpaceLimits limits = space_limits(m, card.device.space);
    const auto sets =
        cache_working_sets(double(p.cache_min_bytes), double(dram_working_set(p, limits, true)),
                           p.cache_steps_per_octave, limits.dense_around);
    const std::size_t threads = device_resident_threads(card.device.concurrency);
    const int triads = int(std::count_if(
        sets.begin(), sets.end(), [&](double ws) { return std::size_t(ws) / 24 / 2 >= threads; }));
    EXPECT_EQ(n.at("cache"), int(sets.size()) + triads);
  }
}

// A profile that searches the memory plateau: the outline sizes a GPU's DRAM points where a run's
// search puts them at the earliest, one doubling past its first set (4 × the L2 or MALL), not on
// that set (the estimate before said 1 GiB for MI300X's quick triad where its runs use 2 GiB);
// then at least the profile's device minimum, 33/32 of it off powers of two. A profile without a
// search keeps the rule.
TEST(PlanOutline, DramPointsSitWhereARunsSearchPutsThem) {
  // MI300X's 256-MiB MALL on an outlined card (sheets outline CUDA cards only): the NVIDIA cards'
  // L2s (50-72 MiB) put even 8 × them below every profile's device minimum.
  DeviceSpaceFacts mi300x = device_from_sheet(sheet("h100-sxm"));
  mi300x.capacities.llc_bytes = 256ull << 20;
  MachineFacts m;
  m.spaces.push_back({mi300x.space, mi300x.capacities});
  const SpaceLimits limits = space_limits(m, mi300x.space);
  ASSERT_EQ(limits.llc_bytes, 256ull << 20);
  const auto triad_bytes = [&](const SweepProfile& p) {
    for (const OutlinePoint& pt : outline_device_plan(p, mi300x))
      if (pt.info.probe == "triad" && pt.info.dtype == "fp64") return pt.info.working_set_bytes;
    return std::uint64_t(0);
  };
  const SweepProfile quick = profile("quick");
  ASSERT_TRUE(quick.plateau_search);
  EXPECT_EQ(expected_dram_plateau_bytes(quick, limits, true), 2 * 4 * limits.llc_bytes);
  // Three arrays of a whole number of doubles: within 24 bytes of 2 GiB × 33/32.
  const double want = double(2 * 4 * limits.llc_bytes) * 33 / 32;
  EXPECT_NEAR(double(triad_bytes(quick)), want, 24.0);
  const SweepProfile nightly = profile("nightly");
  ASSERT_GT(nightly.device_dram_min_bytes, 2 * 4 * limits.llc_bytes);
  EXPECT_NEAR(double(triad_bytes(nightly)), double(nightly.device_dram_min_bytes) * 33 / 32, 24.0);
  SweepProfile fixed = quick;
  fixed.plateau_search = false;
  EXPECT_EQ(expected_dram_plateau_bytes(fixed, limits, true), 0u);
}

TEST(PlanOutline, SkipsWhatTheDeviceCannotRun) {
  const SweepProfile p = profile("gpu-first-light");
  DeviceSpaceFacts small = device_from_sheet(sheet("rtx-4090"));
  small.arch = "sm_86";                        // no fp8 tensor cores
  small.capacities.memory_bytes = 4ull << 30;  // 90 % of it holds no 4.4-GB DRAM set
  int fp8 = 0, out_of_memory = 0;
  for (const OutlinePoint& o : outline_device_plan(p, small)) {
    if (o.info.dtype == "fp8") {
      EXPECT_FALSE(o.measured()) << o.info.name;
      ++fp8;
    }
    if (o.skipped_reason.rfind("out of memory", 0) == 0) ++out_of_memory;
  }
  EXPECT_GT(fp8, 0);
  EXPECT_GT(out_of_memory, 0);
  SweepProfile hip_only = p;
  hip_only.spaces = {"HIP"};
  EXPECT_TRUE(outline_device_plan(hip_only, small).empty());
}

// Google Benchmark 1.7 with manual time: one iteration, then 1.4 × min_time / time of them;
// repetitions after the first reuse the count.
TEST(PlanEstimate, MeasurementFollowsGoogleBenchmarksSizing) {
  SweepProfile p;
  p.repetitions = 5;
  p.min_time_s = 0.01;
  p.warmup_s = 0.03;
  const TimeModel m;
  // 2 ms calls: 1 iteration (2 ms), then 1.4 × 10 / 2 = 7 (14 ms >= 10 ms), 4 more runs of 7.
  const double t = 0.002;
  const double expected = (0.03 + t) + (1 + 7 + 4 * 7) * t + (2 + 4) * m.per_repetition_s;
  EXPECT_NEAR(measurement_seconds(p, t, m), expected, 1e-12);
  // Past a tenth of min_time the count grows by more than 10: 1.4 × 10 / 1.05 → 13 iterations.
  const double t13 = 0.00105;
  EXPECT_NEAR(measurement_seconds(p, t13, m),
              (0.03 + t13) + (1 + 13 + 4 * 13) * t13 + (2 + 4) * m.per_repetition_s, 1e-12);
  const double slow = 0.5;  // above min_time: one iteration per repetition
  EXPECT_NEAR(measurement_seconds(p, slow, m), 2 * slow + 5 * slow + 5 * m.per_repetition_s, 1e-12);
}

// The model replays the committed H200 run from its own points: its total must match what the
// run's log says the main sweep took (the constants were fitted to it: this holds them there).
TEST(PlanEstimate, ReplayOfTheH200RunMatchesItsLog) {
  std::ifstream log(kH200 + "/gpu-run-steps.txt");
  ASSERT_TRUE(log) << kH200 << "/gpu-run-steps.txt";
  const std::regex step(R"(^\[\s*(\d+) s\] (.*)$)");
  double smoke_done = -1, main_done = -1;
  for (std::string line; std::getline(log, line);) {
    std::smatch m;
    if (!std::regex_match(line, m, step)) continue;
    if (m.str(2).rfind("smoke sweep verified", 0) == 0) smoke_done = std::stod(m.str(1));
    if (m.str(2).rfind("main sweep", 0) == 0) main_done = std::stod(m.str(1));
  }
  ASSERT_GE(smoke_done, 0);
  ASSERT_GT(main_done, smoke_done);
  nlohmann::json recorded = read_json_file(kH200 + "/results.json", "results")["profile"];
  recorded.erase("source");
  const SweepProfile p = parse_sweep_profile(recorded, "results.json profile");
  const PlanEstimate replay = replay_run(p, h200_run());
  EXPECT_EQ(replay.points.size(), 115u);
  EXPECT_NEAR(replay.total_s, main_done - smoke_done, 0.1 * (main_done - smoke_done));
  RecordProperty("replay_s", std::to_string(replay.total_s));
  RecordProperty("logged_s", std::to_string(main_done - smoke_done));
}

TEST(PlanEstimate, ScalesMeasuredRatesByTheSheets) {
  const SweepProfile p = profile("gpu-first-light");
  const std::vector<Card> c = cards();
  std::map<std::string, double> call[3];
  for (int i = 0; i < 3; ++i) {
    const PlanEstimate e =
        estimate_plan(p, outline_device_plan(p, c[i].device), c[i].speed, h200_run(), h200_speed());
    for (const PointEstimate& pe : e.points) call[i][pe.point.info.name] = pe.call_s;
  }
  const MachineProfile h200 = sheet("h200-sxm"), h100 = sheet("h100-sxm"), rtx = sheet("rtx-4090");
  // A stream: slower by the memory bandwidth.
  const std::string copy = "copy/Cuda/fp64/n:276824064";
  EXPECT_NEAR(call[1].at(copy) / call[0].at(copy), h200.bandwidth / h100.bandwidth, 1e-9);
  // The fp64 peak: by the vector FMA peak; the fp64 GEMM by the unit it runs on (DMMA on
  // Hopper, the vector units on Ada).
  const std::string peak = "peak/Cuda/fp64/k:2048";
  EXPECT_NEAR(call[2].at(peak) / call[0].at(peak),
              h200.grading_peak("fp64", UnitKind::kVector)->flops /
                  rtx.grading_peak("fp64", UnitKind::kVector)->flops,
              1e-9);
  const std::string gemm = "vendor_gemm/Cuda/fp64/n:8192";
  EXPECT_NEAR(call[2].at(gemm) / call[0].at(gemm),
              h200.grading_peak("fp64", UnitKind::kMatrix, "fp64")->flops /
                  rtx.grading_peak("fp64", UnitKind::kVector)->flops,
              1e-9);
}

TEST(PlanEstimate, ThePointsOfAFileWithoutDevicePointsAreRefused) {
  Results host_only = h200_run();
  for (SpaceInfo& s : host_only.spaces) s.kind = "host";
  const SweepProfile p = profile("gpu-smoke");
  const DeviceSpaceFacts d = device_from_info(kH200 + "/info.json", "");
  EXPECT_THROW(estimate_plan(p, outline_device_plan(p, d), {}, host_only, {}), InputError);
}

// The session: one device command of at most kDeviceCommandLimitS runs gpu-run with
// kSessionBudgetS; the main sweep must leave kAfterSweepReserveS after it and the smoke sweep.
TEST(PlanBudget, GpuFirstLightFitsTheSessionOnEachCard) {
  static_assert(kSessionBudgetS <= kDeviceCommandLimitS, "gpu-run must fit one device command");
  const SweepProfile main = profile("gpu-first-light"), smoke = profile("gpu-smoke");
  for (const Card& card : cards()) {
    const PlanEstimate s = estimate_plan(smoke, outline_device_plan(smoke, card.device), card.speed,
                                         h200_run(), h200_speed());
    const PlanEstimate e = estimate_plan(main, outline_device_plan(main, card.device), card.speed,
                                         h200_run(), h200_speed());
    // gpu-run's smoke runs one unit per process, its main sweep kMainSweepProcesses parts.
    EXPECT_LE(s.session_s(true), kSmokeAllowanceS) << card.label;
    EXPECT_LE(kSmokeAllowanceS + e.session_s(false) + kAfterSweepReserveS, kSessionBudgetS)
        << card.label << ": main sweep " << e.session_s(false) << " s; allowance "
        << main_sweep_allowance(kSessionBudgetS) << " s";
    // Every family stays in the profile, and the report's roofs come before the pyramid.
    for (const char* family : {"bandwidth", "fma", "peak", "cache", "sram", "library"})
      EXPECT_GT(measured_per_family(outline_device_plan(main, card.device))[family], 0) << family;
  }
}

// The H200 sample's info.json made into another card's: what `ridgeline info --json` records of
// its device (CUDA runtime figures of the Programming Guide's tables for sm_89 and sm_90).
DeviceSpaceFacts info_shaped(const test::TempDir& tmp, const std::string& name,
                             const std::string& arch, int sms, long long concurrency,
                             std::uint64_t shared_per_sm, int threads_per_sm, int blocks_per_sm) {
  nlohmann::json info = read_json_file(kH200 + "/info.json", "info");
  nlohmann::json& space = info["spaces"][0];
  space["concurrency"] = concurrency;
  nlohmann::json& d = space["device"];
  d["name"] = name;
  d["arch"] = arch;
  d["compute_units"] = sms;
  d["shared_per_unit_bytes"] = shared_per_sm;
  d["shared_per_block_bytes"] = shared_per_sm - 1024;  // the opt-in maximum
  d["reserved_shared_per_block_bytes"] = 1024;
  d["max_threads_per_unit"] = threads_per_sm;
  d["max_blocks_per_unit"] = blocks_per_sm;
  const std::string path = tmp.path + "/" + arch + ".json";
  std::ofstream(path) << info.dump();
  return device_from_info(path, "");
}

// The SRAM launch fills every SM's shared memory: per size, the blocks an SM holds (shared memory,
// threads or the block limit, whichever binds first) times the SMs, for two waves. One block of
// S bytes of scratch takes S + 64 (alignment) + 1048 (Kokkos' team memory), in 128-byte units,
// plus the driver's 1 KiB.
TEST(SramLaunch, FillsEverySmOfA4090AndAnH100) {
  test::TempDir tmp;
  const SweepProfile p = profile("gpu-first-light");
  struct Want {
    std::uint64_t bytes;
    int blocks;
    const char* limited_by;
  };
  const struct {
    DeviceSpaceFacts device;
    std::vector<Want> want;
  } cards[] = {
      // RTX 4090: 100 KiB per SM, 1536 threads (12 blocks of 128), 24 blocks.
      {info_shaped(tmp, "NVIDIA GeForce RTX 4090", "sm_89", 128, 128 * 1536, 102400, 1536, 24),
       {{8192, 9, "shared memory"},     // 10368 B a block: 9.9 fit
        {16384, 5, "shared memory"},    // 18560 B: 5.5
        {32768, 2, "shared memory"}}},  // 34944 B: 2.9
      // H100 SXM: 228 KiB per SM, 2048 threads (16 blocks), 32 blocks.
      {info_shaped(tmp, "NVIDIA H100 80GB HBM3", "sm_90", 132, 132 * 2048, 233472, 2048, 32),
       {{8192, 16, "threads"},  // 22.5 would fit
        {16384, 12, "shared memory"},
        {32768, 6, "shared memory"}}},
  };
  for (const auto& card : cards) {
    SCOPED_TRACE(card.device.name);
    const std::vector<OutlinePoint> plan = outline_device_plan(p, card.device);
    for (const Want& w : card.want) {
      const auto it = std::find_if(plan.begin(), plan.end(), [&](const OutlinePoint& o) {
        return o.info.probe == "sram_read" && o.info.working_set_bytes == w.bytes;
      });
      ASSERT_NE(it, plan.end()) << w.bytes;
      SCOPED_TRACE(it->info.name);
      EXPECT_TRUE(it->measured()) << it->skipped_reason;
      const nlohmann::json& launch = it->info.params.at("launch");
      EXPECT_EQ(launch.at("blocks_per_unit"), w.blocks);
      EXPECT_EQ(launch.at("limited_by"), w.limited_by);
      EXPECT_EQ(it->info.params.at("teams"), std::size_t(card.device.compute_units) * w.blocks * 2);
      EXPECT_LE(launch.at("shared_filled").get<double>(), 1.0);
      // One more block per SM would not fit what bound it.
      const DeviceResidency& r = card.device.capacities.residency;
      const std::uint64_t block = launch.at("block_shared_bytes");
      if (std::string(w.limited_by) == "shared memory")
        EXPECT_GT((w.blocks + 1) * block, r.shared_per_unit_bytes);
      else
        EXPECT_EQ(w.blocks * 128, r.max_threads_per_unit);
    }
    // Sizes above Kokkos' level-0 scratch (48 KiB less its reserve) are refused with the reason,
    // each under its own name, none clipped into a smaller point.
    int refused = 0;
    for (const OutlinePoint& o : plan) {
      if (o.info.family != "sram" || o.measured()) continue;
      EXPECT_NE(o.skipped_reason.find("Kokkos' level-0 team scratch"), std::string::npos)
          << o.skipped_reason;
      EXPECT_GT(o.info.working_set_bytes, kCudaSharedPerBlockBytes - kKokkosTeamReserveBytes);
      ++refused;
    }
    EXPECT_GT(refused, 0);
  }
}

TEST(SramLaunch, AFileThatStatesNoSharedMemoryKeepsTwoWavesOfTheConcurrency) {
  // The committed H200 info.json predates shared_per_unit_bytes.
  const DeviceSpaceFacts h200 = device_from_info(kH200 + "/info.json", "");
  EXPECT_EQ(h200.capacities.residency.shared_per_unit_bytes, 0u);
  const SramLaunch l = sram_launch(h200.capacities.residency, false, 16384 + 64, 128);
  EXPECT_EQ(l.teams, 0u);
  EXPECT_TRUE(l.to_json().at("blocks_per_unit").is_null());
  for (const OutlinePoint& o : outline_device_plan(profile("gpu-first-light"), h200)) {
    if (o.info.family == "sram" && o.measured()) {
      EXPECT_EQ(o.info.params.at("teams"), std::size_t(2 * 270336 / 128)) << o.info.name;
    }
  }
}

TEST(SramLaunch, TheSheetsGiveTheSameLaunchAsTheRuntime) {
  // A plan from the sheet (no info file) sizes the launch from the architecture's tables.
  const DeviceSpaceFacts rtx = device_from_sheet(sheet("rtx-4090"));
  const DeviceResidency& r = rtx.capacities.residency;
  EXPECT_EQ(r.shared_per_unit_bytes, 102400u);
  EXPECT_EQ(r.reserved_shared_per_block_bytes, 1024u);
  EXPECT_EQ(r.max_threads_per_unit, 1536);
  EXPECT_EQ(r.max_blocks_per_unit, 24);
  EXPECT_EQ(sram_launch(r, false, 16384 + 64, 128).blocks_per_unit, 5);
  const DeviceSpaceFacts h100 = device_from_sheet(sheet("h100-sxm"));
  EXPECT_EQ(h100.capacities.residency.shared_per_unit_bytes, 233472u);
  EXPECT_EQ(sram_launch(h100.capacities.residency, false, 16384 + 64, 128).blocks_per_unit, 12);
  // LDS on HIP is allocated in 512-byte units and has no driver reserve: 64 KiB per CU.
  DeviceResidency mi{110, 65536, 0, 2048, 0};
  const SramLaunch hip = sram_launch(mi, true, 16384 + 64, 128);
  EXPECT_EQ(hip.block_shared_bytes, 17920u);  // 17496 rounded up to 512
  EXPECT_EQ(hip.blocks_per_unit, 3);
  EXPECT_EQ(hip.teams, 110u * 3 * 2);
}

TEST(PlanInputs, AMissingFieldNamesTheFileAndTheField) {
  test::TempDir tmp;
  nlohmann::json info = read_json_file(kH200 + "/info.json", "info");
  info["spaces"][0]["device"].erase("memory_bytes");
  const std::string path = tmp.path + "/info.json";
  std::ofstream(path) << info.dump();
  try {
    device_from_info(path, "");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              path + ": spaces[0].device.memory_bytes: missing required field");
  }
  EXPECT_THROW(device_from_info(kH200 + "/info.json", "HIP"), InputError);
  EXPECT_THROW(device_from_sheet(sheet("epyc-zen3-2vcpu")), InputError);
}

}  // namespace
}  // namespace ridgeline
