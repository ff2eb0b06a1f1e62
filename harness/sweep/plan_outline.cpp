#include "harness/sweep/plan_outline.hpp"

#include <algorithm>
#include <set>
#include <string>

#include "backends/fastest_candidate.hpp"
#include "backends/vendor_gemm.hpp"
#include "harness/probes/point_name.hpp"
#include "harness/probes/stream_kernels.hpp"
#include "harness/sweep/plan.hpp"
#include "harness/sweep/plan_sizes.hpp"
#include "results/probe_catalog.hpp"

namespace ridgeline {
namespace {

// Launch constants of the device probes, copied (their headers need Kokkos): 16-byte vectors of
// the grid-stride streams (layout.hpp, Vector16) and their round of 4 vectors per thread
// (LaunchShape::kStreamRound); SRAM words of 16 bytes, 128-thread teams, 2 words in flight per
// thread (sram_probe.hpp, SramShape).
constexpr std::size_t kVectorBytes = 16;
constexpr std::size_t kStreamRoundVectors = 4;
constexpr std::size_t kSramWordBytes = 16;
constexpr std::size_t kSramTeamSize = 128;
constexpr std::size_t kSramGranuleWords = kSramTeamSize * 2;
constexpr std::uint64_t kSramAlignBytes = 64;

bool listed(const std::vector<std::string>& list, const std::string& name) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

std::size_t dtype_bytes(const std::string& dtype) { return dtype == "fp64" ? 8 : 4; }

// As plan.cpp: tf32 is planned with fp32, fp8 with bf16 (the type its GEMM writes).
std::string riding_with(const std::string& dtype) {
  if (dtype == "tf32") return "fp32";
  if (dtype == "fp8") return "bf16";
  return dtype;
}

class Outline {
 public:
  Outline(const SweepProfile& p, const DeviceSpaceFacts& d) : profile_(p), device_(d) {
    MachineFacts machine;
    machine.spaces.push_back({d.space, d.capacities});
    limits_ = space_limits(machine, d.space);
    // Measured nowhere yet: the points sized where a run's search puts them at the earliest.
    limits_.dram_plateau_bytes = expected_dram_plateau_bytes(p, limits_, true);
    scale_ = work_scale(p, true);
    dram_bytes_ = dram_working_set(p, limits_, true);
    resident_ = device_resident_threads(d.concurrency);
  }

  std::vector<OutlinePoint> walk() {
    if (!profile_.spaces.empty() && !listed(profile_.spaces, device_.space)) return {};
    for (const std::string& dtype : profile_.dtypes) {
      if (dtype == "fp64" || dtype == "fp32")
        typed(dtype);
      else
        half(dtype);
    }
    // Before the cache sweep, as the planner: a run cut short keeps the library roofs.
    if (listed(profile_.library_probes, "vendor_gemm")) vendor_gemms();
    for (const std::string& dtype : profile_.sram_dtypes_on(true))
      if (dtype == "fp64" || dtype == "fp32") sram(dtype);
    for (const std::string& dtype : profile_.cache_dtypes_on(true))
      if (dtype == "fp64" || dtype == "fp32") cache(dtype);
    return std::move(points_);
  }

 private:
  PointInfo info(const std::string& probe, const std::string& family, const std::string& dtype,
                 const std::string& grade_text) const {
    PointInfo i;
    i.probe = probe;
    i.family = family;
    i.space = device_.space;
    i.dtype = dtype;
    i.name = point_name(probe, device_.space, dtype, grade_text);
    return i;
  }

  // As Planner::add: a point too big for the device's memory, or without elements, is skipped.
  void add(PointInfo i, std::string skipped = {}, int setup_calls = 0) {
    OutlinePoint p;
    if (skipped.empty() && i.elements == 0)
      skipped = "working set too small for this backend's launch shape";
    if (skipped.empty() && limits_.memory_bytes && i.working_set_bytes > limits_.memory_bytes)
      skipped = "out of memory: needs " + std::to_string(i.working_set_bytes) + " bytes, " +
                std::to_string(limits_.memory_bytes) + " usable";
    p.info = std::move(i);
    p.skipped_reason = std::move(skipped);
    p.host_bytes = p.skipped_reason.empty() ? host_bytes_of(p.info) : 0;
    p.setup_calls = p.skipped_reason.empty() ? setup_calls : 0;
    points_.push_back(std::move(p));
  }

  void stream(const StreamKernel& k, const std::string& probe, const std::string& family,
              const std::string& dtype, std::size_t elements, int passes) {
    const std::size_t s = dtype_bytes(dtype), v = kVectorBytes / s;
    const bool cache = sweeps_working_set(family);
    // Cache sets in whole vectors; bandwidth arrays keep their length (and a tail).
    const std::size_t n = cache ? elements / v * v : elements;
    const DeviceSweep sweep =
        DeviceSweep::make(n / v, kStreamRoundVectors, resident_, n * s * k.arrays, cache,
                          !k.reduces, passes, limits_.llc_bytes);
    const double touched = double(sweep.passes) * double(sweep.span * v + (n - n / v * v));
    PointInfo i = info(probe, family, dtype,
                       cache ? grade("ws", n * s * std::size_t(k.arrays)) : grade("n", n));
    i.elements = n;
    i.working_set_bytes = n * s * std::size_t(k.arrays);
    i.flops = double(k.flops) * touched;
    i.bytes = double(k.accesses) * double(s) * touched;
    add(std::move(i), sweep.unfit);
  }

  void typed(const std::string& dtype) {
    const std::size_t s = dtype_bytes(dtype);
    for (const std::string& name : profile_.bandwidth_probes) {
      const ProbeSpec* spec = find_profile_probe("bandwidth", name);
      const StreamKernel* k = spec ? stream_kernel_of(*spec) : nullptr;
      if (k)
        stream(*k, std::string(spec->name), "bandwidth", dtype, dram_bytes_ / (k->arrays * s), 1);
    }
    if (profile_.fma)
      for (const std::string& probe : profile_.fma_probes) {
        const ProbeSpec* spec = find_profile_probe("fma", probe);
        const std::size_t arrays = spec && in_place_probe(spec->name) ? 1 : 2;
        for (int k = 1; k <= profile_.fma_k_max && k <= (1 << 13); k *= 2) {
          const std::size_t n = ladder_elements(profile_, dram_bytes_, arrays, s, k, scale_);
          PointInfo i = info(probe, "fma", dtype, grade("k", std::uint64_t(k)));
          i.elements = n;
          i.working_set_bytes = arrays * n * s;
          i.flops = 2.0 * k * double(n);
          i.bytes = 2.0 * double(n) * double(s);
          add(std::move(i));
        }
      }
    if (profile_.peak) {
      const double per_element = 2.0 * profile_.peak_k + 1;
      const auto n = std::size_t(scale_ * profile_.peak_flops_per_call / per_element);
      PointInfo i = info("peak", "peak", dtype, grade("k", std::uint64_t(profile_.peak_k)));
      i.elements = n;
      i.flops = double(n) * per_element;  // registers only: one store per work item
      add(std::move(i));
    }
    for (const std::string& lib : profile_.library_probes) {
      const std::size_t n = dram_bytes_ / (2 * s);
      if (lib == "gemm") {
        const std::size_t g = profile_.gemm_n;
        PointInfo i = info("gemm", "library", dtype, grade("n", g));
        i.elements = g * g;
        i.working_set_bytes = 3 * g * g * s;
        i.flops = 2.0 * double(g) * double(g) * double(g);
        i.bytes = 3.0 * double(g) * double(g) * double(s);
        add(std::move(i));
      } else if (lib == "axpby" || lib == "lib_dot" || lib == "deep_copy") {
        // Per element: axpby 2 FLOPs over 3 accesses, lib_dot 2 over 2, deep_copy 0 over 2.
        const double flops = lib == "deep_copy" ? 0 : 2, accesses = lib == "axpby" ? 3 : 2;
        PointInfo i = info(lib, "library", dtype, grade("n", n));
        i.elements = n;
        i.working_set_bytes = 2 * n * s;
        i.flops = flops * double(n);
        i.bytes = accesses * double(n) * double(s);
        add(std::move(i));
      }
    }
  }

  // Packed two-lane probes on device spaces (planner's half()); HIP has no packed bf16 FMA.
  void half(const std::string& dtype) {
    const bool runs = dtype == "fp16" || (dtype == "bf16" && device_.space == "Cuda");
    if (!runs) {
      for (const char* probe : {"fma", "peak"})
        add(info(probe, probe, dtype, "all"),
            "packed " + dtype + " probes do not run on the " + device_.space + " backend");
      return;
    }
    if (profile_.fma)
      for (int k = 1; k <= profile_.fma_k_max && k <= (1 << 13); k *= 2) {
        const std::size_t n = half_ladder_elements(profile_, dram_bytes_, k, scale_);
        PointInfo i = info("fma", "fma", dtype, grade("k", std::uint64_t(k)));
        i.elements = n;
        i.working_set_bytes = 2 * n * 2;
        i.flops = 2.0 * k * double(n);
        i.bytes = 2.0 * double(n) * 2;
        add(std::move(i));
      }
    if (profile_.peak) {
      const auto n = std::size_t(scale_ * profile_.peak_flops_per_call / (2.0 * profile_.peak_k));
      PointInfo i = info("peak", "peak", dtype, grade("k", std::uint64_t(profile_.peak_k)));
      i.elements = n;
      i.flops = 2.0 * profile_.peak_k * double(n);
      add(std::move(i));
    }
    if (listed(profile_.library_probes, "gemm"))
      add(info("gemm", "library", dtype, grade("n", profile_.gemm_n)),
          "no vendor-BLAS (TPL) " + dtype +
              " gemm in Kokkos Kernels; the tensor-core roof is "
              "the vendor_gemm point");
  }

  // Every wanted type in every shape; a type the GPU's architecture cannot run is skipped, as
  // the library would say (the outline assumes the library loads, with its Lt part).
  void vendor_gemms() {
    for (const GemmType t : kGemmTypes) {
      const GemmTypeInfo ti = gemm_type_info(t);
      if (!listed(profile_.dtypes, riding_with(ti.dtype))) continue;
      const std::string unsupported = gemm_type_unsupported(t, device_.arch, true);
      for (const GemmShape& shape : vendor_gemm_shapes(profile_)) {
        const bool square = shape.m == shape.n && shape.n == shape.k;
        PointInfo i = info(
            "vendor_gemm", "library", ti.dtype,
            square ? grade("n", shape.n)
                   : grade("m", shape.m) + "," + grade("n", shape.n) + "," + grade("k", shape.k));
        i.elements = shape.m * shape.n;
        const std::size_t inputs = (shape.m * shape.k + shape.k * shape.n) * ti.in_bytes;
        i.working_set_bytes = gemm_input_copies(inputs, limits_.llc_bytes) * inputs +
                              shape.m * shape.n * ti.out_bytes;
        i.flops = gemm_flops(shape);
        i.bytes = gemm_bytes(t, shape);
        // Every library is taken as an Lt one that times its candidates (cuBLASLt; hipBLASLt on
        // MI300; rocBLAS chooses none): never less than the session will spend.
        add(std::move(i), unsupported, kLtCandidates * (1 + kLtTimedRuns));
      }
    }
  }

  void sram(const std::string& dtype) {
    const std::uint64_t shared =
        device_.space == "HIP" ? kHipSharedPerBlockBytes : kCudaSharedPerBlockBytes;
    const std::uint64_t limit = shared - kKokkosTeamReserveBytes - kSramAlignBytes;
    const std::size_t s = dtype_bytes(dtype), lanes = kSramWordBytes / s;
    std::set<std::string> names;
    for (const std::string& name : profile_.sram_probes)
      for (const std::uint64_t asked : profile_.sram_bytes) {
        const ProbeSpec* spec = find_profile_probe("sram", name);
        const bool read = spec && read_only_probe(spec->name);
        // As the planner: the launch that fills every unit's shared memory, and a size the
        // backend cannot give refused, not clipped.
        const std::size_t words = asked / kSramWordBytes / kSramGranuleWords * kSramGranuleWords;
        const SramLaunch launch =
            sram_launch(device_.capacities.residency, device_.space == "HIP",
                        words * kSramWordBytes + kSramAlignBytes, kSramTeamSize);
        const std::size_t teams =
            launch.teams
                ? launch.teams
                : std::max<std::size_t>(
                      1, 2 * std::size_t(std::max(device_.concurrency, 1LL)) / kSramTeamSize);
        PointInfo i = info(read ? "sram_read" : "sram_update", "sram", dtype,
                           grade("scratch", words * kSramWordBytes));
        if (!names.insert(i.name).second) continue;
        i.params = {{"teams", teams}, {"launch", launch.to_json()}};
        const double elements = double(teams) * double(words) * double(lanes);
        const double passes = profile_.sram_passes;
        i.elements = std::size_t(elements);
        i.working_set_bytes = words * kSramWordBytes;
        i.bytes = (read ? 1.0 + passes : 2.0 + 2.0 * passes) * elements * double(s);
        i.flops = (read ? passes : 2.0 * passes + 1.0) * elements;
        add(std::move(i), asked > limit ? sram_refusal(asked, limit) : std::string());
      }
  }

  void cache(const std::string& dtype) {
    if (profile_.cache_probes.empty()) return;
    const std::size_t s = dtype_bytes(dtype);
    std::set<std::string> names;
    for (const double ws :
         cache_working_sets(double(profile_.cache_min_bytes), double(dram_bytes_),
                            profile_.cache_steps_per_octave, limits_.dense_around)) {
      for (const std::string& name : profile_.cache_probes) {
        const int passes = cache_passes(profile_, scale_, ws);
        const ProbeSpec* spec = find_profile_probe("cache", name);
        if (spec && spec->kernel.empty()) {  // the in-place ladder's K = 1
          const std::size_t n = std::size_t(ws) / s;
          PointInfo i = info("cache_update", "cache", dtype, grade("ws", n * s));
          i.elements = n;
          i.working_set_bytes = n * s;
          if (!names.insert(i.name).second) continue;
          add(std::move(i),
              "the in-place ladder's passes re-read each thread's own chunk, which a GPU serves "
              "from L1 at every size; the device cache sweep is cache_read and cache_triad");
          continue;
        }
        const StreamKernel* k = spec ? stream_kernel_of(*spec) : nullptr;
        if (!k) continue;
        const std::size_t n = std::size_t(ws) / (std::size_t(k->arrays) * s);
        const std::size_t v = kVectorBytes / s;
        const std::string point = point_name(std::string(spec->name), device_.space, dtype,
                                             grade("ws", n / v * v * s * std::size_t(k->arrays)));
        if (!names.insert(point).second) continue;  // rounds to the last size's point
        stream(*k, std::string(spec->name), "cache", dtype, n, passes);
      }
    }
  }

  const SweepProfile& profile_;
  const DeviceSpaceFacts& device_;
  SpaceLimits limits_;
  double scale_ = 1;
  std::uint64_t dram_bytes_ = 0;
  std::size_t resident_ = 0;
  std::vector<OutlinePoint> points_;
};

}  // namespace

std::vector<OutlinePoint> outline_device_plan(const SweepProfile& profile,
                                              const DeviceSpaceFacts& device) {
  return Outline(profile, device).walk();
}

double host_bytes_of(const PointInfo& p) {
  const bool half = p.dtype == "fp16" || p.dtype == "bf16";
  const double s = p.dtype == "fp64" ? 8 : half ? 2 : 4;
  switch (host_setup(p.probe)) {
    case HostSetup::kElements:
      return half ? 4.0 * double(p.elements) : double(p.elements) * s;
    case HostSetup::kOneMatrix:
      return double(p.working_set_bytes) / 3;
    case HostSetup::kCountedBytes:
      return p.bytes;
    case HostSetup::kNone:
      break;
  }
  return 0;
}

}  // namespace ridgeline
