#pragma once
// The points a sweep profile plans for a GPU space, listed without the space. A CPU build has
// no Cuda or HIP space to instantiate the planner's probes for, yet a GPU session's plan (and
// its time, plan_estimate.hpp) must be known before the GPU is borrowed.
//
// The outline walks the profile as Planner::space (plan.cpp) does for a device space, in the
// same order, and sizes each point with the planner's own functions (plan_sizes.hpp), the
// stream kernels' counts and the device sweep (probes/stream_kernels.hpp) and the vendor GEMM's
// shapes and types (backends/vendor_gemm.hpp). What it copies rather than shares is the walk
// itself and the few launch constants below: a change of the planner's walk for device spaces
// must be made here too (tests/harness/plan_estimate_test.cpp, PlanOutline, counts each
// family from the profile's own rules).
#include <cstdint>
#include <string>
#include <vector>

#include "harness/context/machine_facts.hpp"
#include "harness/sweep/sweep_profile.hpp"
#include "results/point_info.hpp"

namespace ridgeline {

// A GPU as far as the planner sizes points by it: what `ridgeline info --json` records of a
// device space, or what a machine sheet states.
struct DeviceSpaceFacts {
  std::string space;          // Kokkos' name of the space: Cuda or HIP
  std::string name;           // the GPU's name, e.g. "NVIDIA H200"
  std::string arch;           // as `info` records it: sm_90, gfx90a
  int compute_units = 0;      // SMs or CUs
  long long concurrency = 0;  // Kokkos' concurrency of the space: resident threads
  DeviceCapacities capacities;
  std::string source;  // where the facts come from (a file), for the output
};

// Kokkos' level-0 team scratch: the space's shared memory per block without opting in (CUDA
// 48 KiB on every GPU since Kepler, HIP's LDS 64 KiB), less the reserve Kokkos keeps for its
// team reductions, (1024 + 2) doubles and an int64 (Kokkos 4.6.99,
// Kokkos_Cuda_Parallel_Team.hpp and Kokkos_HIP_TeamPolicyInternal.hpp, scratch_size_max).
inline constexpr std::uint64_t kCudaSharedPerBlockBytes = 48 * 1024;
inline constexpr std::uint64_t kHipSharedPerBlockBytes = 64 * 1024;
inline constexpr std::uint64_t kKokkosTeamReserveBytes = (1024 + 2) * 8 + 8;

struct OutlinePoint {
  PointInfo info;              // name, probe, family, space, dtype, sizes, flops and bytes per call
  std::string skipped_reason;  // non-empty: the plan records it without running it
  // Bytes setup() and verify() carry between the device and the host and check or fill there
  // (host_bytes_of): the part of a point's time that grows with its arrays outside the timed
  // calls.
  double host_bytes = 0;
  // Kernel calls setup() makes besides the warm-up: the vendor GEMM's algorithm selection.
  int setup_calls = 0;
  bool measured() const { return skipped_reason.empty(); }
};

// The points `profile` plans on `device`, in the planner's order; none where the profile's
// spaces leave the device's space out.
std::vector<OutlinePoint> outline_device_plan(const SweepProfile& profile,
                                              const DeviceSpaceFacts& device);

// The bytes a point of this kind moves to or from the host and checks there, from its recorded
// sizes (so a results file's points get the same rule as planned ones): the FMA ladders' output
// array (packed half precision: both arrays, its input is filled on the host), the KokkosBlas
// GEMM's C (a third of its working set), the vector library calls' y (lib_dot: the host sums its
// n products instead), the vendor GEMM's A, B and C (its counted bytes). Stream, cache, peak and
// SRAM points check on the device or copy a few values: 0.
double host_bytes_of(const PointInfo& p);

}  // namespace ridgeline
