#pragma once
// How long a planned sweep takes on a device, estimated from a results file's measured points:
// a GPU session is lent for minutes at a time, so whether a profile fits must be known on the
// CPU before the GPU is borrowed (`ridgeline plan`).
//
// The model, per measured point of the plan (outline_device_plan), in seconds:
//
//   point = per_point_s                        setup, verification, release, the results file
//         + per_host_byte_s × host_bytes        what setup and verify move to the host and check
//         + setup_calls × call                  the vendor GEMM's algorithm selection
//         + warm-up + Google Benchmark's runs   max(warmup_s, call) + call, then the sizing runs
//                                               and the repetitions, as Google Benchmark 1.7
//                                               picks their iterations for min_time_s (manual
//                                               time), plus per_repetition_s for each run
//   total = startup_s + Σ point                 skipped points cost nothing
//
// `call`, one kernel call on the target, comes from the timing file's nearest point of the same
// probe and dtype (the same intensity, then the nearest working set): its byte rate for
// memory-bound points, its FLOP rate otherwise, scaled by the two devices' sheet figures
// (memory bandwidth, or the dtype's peak on the unit that runs it) where both sheets are known.
// Points without such a neighbour take the same family's nearest point of the dtype; the vendor
// GEMM's fp8 takes another dtype's GEMM rate scaled by the timing device's sheet (fp8 / that
// dtype), or unscaled (conservative: fp8 is never slower); points with no neighbour at all (the
// SRAM family on a file that has none) take half the target sheet's figure (SRAM level, memory
// bandwidth, the dtype's peak: kUnmeasuredEfficiency), and without a sheet figure one min_time
// per call.
//
// The constants were fitted to the only GPU session on record (samples/h200: its
// results.json and the log gpu-run-steps.txt), which records no per-point times, only two
// totals: the main sweep ran 160 s ([3 s] → [163 s]) for 115 measured points of 4 GiB arrays,
// and the smoke sweep took at most 3 s ([1 s] → [3 s], two nvidia-smi calls included) for 4
// points of 256 MiB. The repetitions' wall time per point (NVML's telemetry span, ~0.1 s for
// 5 repetitions of min_time 10 ms) gives per_repetition_s; it leaves ~140 s of the 160 outside
// the timed calls, about 1.2 s per point, while the smoke's points cost under 0.5 s: the cost
// grows with the bytes a point checks on the host (its ladders copy 4 GiB outputs back and
// compare every element on one host thread). Startup is taken as 1 s (CUDA context, cuBLAS,
// NVML); the two totals then give per_point_s = 0.38 s and per_host_byte_s = 0.89 ns/B with the
// smoke at its 3-s bound (at 2 s: 0.12 s and 1.18 ns/B). Replaying the H200 run's own points
// through this model gives its 160 s by construction (plan_estimate_test holds it within 10 %
// of the log's figure); a run that records each point's wall time would test it. The vendor
// GEMM's selection (kLtCandidates × (1 + kLtTimedRuns) calls) postdates that run and is counted
// from the code, not fitted.
#include <map>
#include <string>
#include <vector>

#include "harness/sweep/plan_outline.hpp"
#include "harness/sweep/sweep_profile.hpp"
#include "results/results_model.hpp"

namespace ridgeline {

// The GPU session the main sweep must fit into (scripts/gpu-run inside one device command of at
// most 600 s): the budget gpu-run is given, the smoke sweep before the main one, and what must
// remain after it for the torch reference, the report, the SASS dump and a short rerun of what
// failed.
inline constexpr double kDeviceCommandLimitS = 600;  // the device tool's one command
inline constexpr double kSessionBudgetS = 480;
inline constexpr double kSmokeAllowanceS = 60;
inline constexpr double kAfterSweepReserveS = 120;
inline double main_sweep_allowance(double budget_s) {
  return budget_s - kSmokeAllowanceS - kAfterSweepReserveS;
}
// gpu-run runs the main sweep in parts (streams, ladder and peak; the GEMM roofs; the pyramid)
// and the smoke one unit at a time: each a process that pays the startup again.
inline constexpr int kMainSweepProcesses = 3;

struct TimeModel {
  double startup_s = 1.0;            // process start, Kokkos and the device context, libraries
  double per_point_s = 0.38;         // fitted (above)
  double per_host_byte_s = 0.89e-9;  // fitted (above)
  double per_repetition_s = 0.01;    // each Google Benchmark run of a point: fence, NVML reads
};
// The share of a sheet's figure a point without a measured neighbour is taken to reach.
inline constexpr double kUnmeasuredEfficiency = 0.5;

// A device's sheet figures (profiles/machines/*.json), what measured rates are scaled by; 0 or
// absent: not stated.
struct DeviceSpeed {
  std::string sheet;          // the sheet's id; empty: none matched
  double bandwidth = 0;       // device memory, byte/s
  double sram_bandwidth = 0;  // the SRAM level of every unit at the sheet's clock, byte/s
  std::map<std::string, double> vector_flops;  // per dtype: the FMA units' dense peak
  std::map<std::string, double> gemm_flops;    // per dtype: the peak of the unit its GEMM runs on
};

struct PointEstimate {
  OutlinePoint point;
  double call_s = 0;   // one kernel call on the target
  double seconds = 0;  // the point's share of the sweep's wall time
  std::string basis;   // where call_s comes from
};

struct FamilyEstimate {
  std::string family;
  int points = 0, measured = 0;
  double seconds = 0;
};

struct PlanEstimate {
  std::vector<PointEstimate> points;     // in plan order
  std::vector<FamilyEstimate> families;  // in the probe catalog's order, those with points
  // The same points by gpu-run's units (plan_unit): a process each in its smoke and its parts,
  // so each also pays startup_s there. In order of first appearance in the plan.
  std::vector<FamilyEstimate> units;
  TimeModel model;
  double startup_s = 0;
  double total_s = 0;  // one process: startup_s and every point
  // As gpu-run runs it: kMainSweepProcesses processes (the main sweep), or one per unit (the
  // smoke, `per_unit`).
  double session_s(bool per_unit) const {
    const std::size_t processes = per_unit ? units.size() : std::size_t(kMainSweepProcesses);
    return total_s + double(processes > 0 ? processes - 1 : 0) * startup_s;
  }
  int timing_points = 0;  // measured device points of the timing file it drew on
  // How many points, in plan order, end within `seconds` of the sweep's start (the plan's size
  // when all do): where a limit of `seconds` would cut the sweep.
  std::size_t points_within(double seconds) const;
};

// The unit of scripts/gpu-run a point belongs to: its family, the library family per dtype
// ("library:fp8"): what `ridgeline run --probe F [--dtype D]` selects.
std::string plan_unit(const PointInfo& p);

// `timings`: a results file with measured device-space points (InputError naming it otherwise);
// `timing_speed` describes its device, `target` the device planned for.
PlanEstimate estimate_plan(const SweepProfile& profile, const std::vector<OutlinePoint>& plan,
                           const DeviceSpeed& target, const Results& timings,
                           const DeviceSpeed& timing_speed, const TimeModel& model = {});

// The wall time of a point's measurement (warm-up and Google Benchmark's runs) whose kernel call
// takes `call_s`, under the profile's repetitions, rounds, min_time_s and warmup_s.
double measurement_seconds(const SweepProfile& profile, double call_s, const TimeModel& model);

// The measured device points of a results file as outline points, with the file's own call
// times, under `profile` (the run's, as its file records it): the model's replay of a run
// (plan_estimate_test compares it with the run's log). Vendor GEMMs are replayed without
// algorithm selection unless the file's points record one (params.algorithms_tried).
PlanEstimate replay_run(const SweepProfile& profile, const Results& run,
                        const TimeModel& model = {});

}  // namespace ridgeline
