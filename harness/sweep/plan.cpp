#include "harness/sweep/plan.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>
#include <utility>

#include "backends/host/cpu_info.hpp"
#include "backends/spaces.hpp"
#include "backends/vendor_gemm.hpp"
#include "core/input_error.hpp"
#include "harness/compat/kokkos_compat.hpp"
#include "harness/compat/kokkos_kernels_compat.hpp"
#include "harness/probes/fma_ladder_probe.hpp"
#include "harness/probes/half_fma_probe.hpp"
#include "harness/probes/library_probes.hpp"
#include "harness/probes/peak_probe.hpp"
#include "harness/probes/point_name.hpp"
#include "harness/probes/sram_probe.hpp"
#include "harness/probes/stream_probe.hpp"
#include "harness/probes/vendor_gemm_probe.hpp"
#include "harness/sweep/plan_sizes.hpp"
#include "harness/sweep/vendor_gemm_plan.hpp"
#include "results/probe_catalog.hpp"

namespace ridgeline {

namespace {

// The stream kernel of the probe a profile's `family` section lists as `name`. The profile parser
// accepts the catalog's names and stream_kernels.hpp checks its kernels against the catalog, so a
// miss is ridgeline's bug: said, not dereferenced.
const StreamKernel& stream_kernel_for(std::string_view family, const std::string& name) {
  const ProbeSpec* spec = find_profile_probe(family, name);
  const StreamKernel* kernel = spec ? stream_kernel_of(*spec) : nullptr;
  if (!kernel)
    throw std::logic_error("the planner has no stream kernel for the " + std::string(family) +
                           " probe '" + name + "'");
  return *kernel;
}

// The catalog name of the probe a profile's `family` section lists as `name` (the parser
// accepted it from the catalog); empty for none.
std::string_view catalog_name(std::string_view family, const std::string& name) {
  const ProbeSpec* spec = find_profile_probe(family, name);
  return spec ? spec->name : std::string_view();
}

// Whether that probe runs a stream kernel (else a kernel of its own: the cache sweep's in-place
// ladder).
bool runs_stream_kernel(std::string_view family, const std::string& name) {
  const ProbeSpec* spec = find_profile_probe(family, name);
  return spec && !spec->kernel.empty();
}

bool wanted(const std::vector<std::string>& list, const std::string& name) {
  return list.empty() || std::find(list.begin(), list.end(), name) != list.end();
}

// The storage dtype a profile names for a GEMM-only dtype: tf32 is planned with fp32, fp8 with
// bf16 (the type its GEMM writes); others are their own.
std::string riding_with(const std::string& dtype) {
  if (dtype == "tf32") return "fp32";
  if (dtype == "fp8") return "bf16";
  return dtype;
}

class Planner {
 public:
  Planner(const SweepProfile& p, const MachineFacts& machine, const PlanFilter& f)
      : profile_(p), machine_(machine), filter_(f) {}

  template <class Space>
  void space() {
    const std::string name = Space::name();
    if (!wanted(profile_.spaces, name) || !wanted(filter_.spaces, name)) return;
    limits_ = space_limits(machine_, name);
    work_scale_ = work_scale(profile_, kIsDeviceSpace<Space>);
    dram_bytes_ = dram_working_set(profile_, limits_, kIsDeviceSpace<Space>);
    for (const auto& dtype : profile_.dtypes) {
      if (dtype == "fp64")
        typed<Space, double>();
      else if (dtype == "fp32")
        typed<Space, float>();
      else
        half<Space>(dtype);
    }
    // Before the cache sweep: a run cut short by its time limit keeps the library roofs.
    vendor_gemms<Space>();
    for (const auto& dtype : profile_.sram_dtypes_on(kIsDeviceSpace<Space>)) {
      if (dtype == "fp64")
        sram<Space, double>();
      else if (dtype == "fp32")
        sram<Space, float>();
    }
    for (const auto& dtype : profile_.cache_dtypes_on(kIsDeviceSpace<Space>)) {
      if (dtype == "fp64")
        cache<Space, double>();
      else if (dtype == "fp32")
        cache<Space, float>();
    }
  }

  std::vector<PointPlan> take() { return std::move(plan_); }

 private:
  // Half precision needs native types: on host backends Kokkos' half_t is a plain float. Device
  // backends run packed two-lane probes (probes/half_fma_probe.hpp).
  template <class Space>
  void half(const std::string& dtype) {
    std::string reason =
        kIsDeviceSpace<Space>
            ? "packed " + dtype + " probes are not implemented for the " + Space::name() +
                  " backend yet"
            : "no native " + dtype +
                  " arithmetic on host backends (Kokkos' half types are plain float there)";
#if defined(RIDGELINE_PACKED_HALF)
    if constexpr (kIsDeviceSpace<Space>) {
      if (dtype == "fp16") return half_typed<Space, Fp16>();
#if defined(KOKKOS_ENABLE_HIP)
      // CDNA2/3 have a packed fp16 FMA (v_pk_fma_f16) but none for bf16: hip_bf16.h's __hfma2
      // goes through fp32, so its "peak" would be a software rate. Not instantiated either:
      // ROCm 5 has no packed bf16 type at all (half_precision.hpp).
      reason =
          "no packed bf16 FMA instruction on AMD CDNA2/CDNA3 (gfx90a, gfx942): HIP's "
          "__hfma2 for bf16 is emulated through fp32, not a hardware peak";
#elif defined(RIDGELINE_PACKED_BF16)
      // bf16 by name: any other dtype gets the skip points below (an unconditional return also
      // left that loop unreachable on CUDA: nvcc warning #128-D).
      if (dtype == "bf16") return half_typed<Space, Bf16>();
#endif
    }
#endif
    for (const char* probe : {"fma", "peak"}) {
      if (!probe_wanted(probe)) continue;
      PointPlan p;
      p.info.probe = probe;
      p.info.family = probe;
      p.info.space = Space::name();
      p.info.dtype = dtype;
      p.info.name = point_name(probe, Space::name(), dtype, "all");
      p.skipped_reason = reason;
      plan_.push_back(std::move(p));
    }
  }

#if defined(RIDGELINE_PACKED_HALF)
  template <class Space, class H>
  void half_typed() {
    if (profile_.fma) half_ladder<Space, H>(std::make_integer_sequence<int, 14>{});
    if (profile_.peak)
      add(std::make_unique<HalfPeakProbe<Space, H>>(
          std::size_t(work_scale_ * profile_.peak_flops_per_call / (2.0 * profile_.peak_k)),
          profile_.peak_k));
    for (const auto& lib : profile_.library_probes)
      if (lib == "gemm" && probe_wanted("gemm")) {
        PointPlan p;
        p.info.probe = "gemm";
        p.info.family = "library";
        p.info.space = Space::name();
        p.info.dtype = H::kName;
        p.info.name = point_name("gemm", Space::name(), H::kName, grade("n", profile_.gemm_n));
        p.skipped_reason = half_gemm_reason<Space, H>();
        plan_.push_back(std::move(p));
      }
  }
  template <class Space, class H, int... J>
  void half_ladder(std::integer_sequence<int, J...>) {
    (half_rung<Space, H, (1 << J)>(), ...);
  }
  template <class Space, class H, int K>
  void half_rung() {
    if (K > profile_.fma_k_max) return;
    add(std::make_unique<HalfFmaLadderProbe<Space, H, K>>(
        half_ladder_elements(profile_, dram_bytes_, K, work_scale_)));
  }
  // A tensor-core roof needs Kokkos Kernels to hand half/bf16 gemm to the vendor BLAS; its TPL
  // table says whether it does (Kokkos Kernels 4.7.00: cuBLAS gemm only for double, float and
  // their complex types, so no).
  template <class Space, class H>
  static std::string half_gemm_reason() {
#if KOKKOS_VERSION < 30700
    // Kokkos before 3.7 has no bhalf_t (Debian's 3.4.01 with its HIP backend): no bf16 gemm
    // through Kokkos Kernels to ask about.
    if constexpr (!std::is_same_v<H, Fp16>)
      return std::string("Kokkos ") + compat::kokkos_version() +
             " has no bf16 type (bhalf_t arrived in Kokkos 3.7); the tensor-core roof is the "
             "vendor_gemm point";
    else
      return half_gemm_tpl_reason<Space, H, Kokkos::Experimental::half_t>();
#else
    using Scalar = std::conditional_t<std::is_same_v<H, Fp16>, Kokkos::Experimental::half_t,
                                      Kokkos::Experimental::bhalf_t>;
    return half_gemm_tpl_reason<Space, H, Scalar>();
#endif
  }
  template <class Space, class H, class Scalar>
  static std::string half_gemm_tpl_reason() {
    using Device = Kokkos::Device<Space, typename Space::memory_space>;
    using Unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
    using A = Kokkos::View<const Scalar**, Kokkos::LayoutLeft, Device, Unmanaged>;
    using C = Kokkos::View<Scalar**, Kokkos::LayoutLeft, Device, Unmanaged>;
#ifdef KOKKOSKERNELS_VERSION
    constexpr bool kTpl = KokkosBlas::Impl::gemm_tpl_spec_avail<Space, A, A, C>::value;
#else  // Kokkos Kernels 3.4: the table is keyed by the views alone
    constexpr bool kTpl = KokkosBlas::Impl::gemm_tpl_spec_avail<A, A, C>::value;
#endif
    if constexpr (kTpl)
      return std::string("Kokkos Kernels hands ") + H::kName +
             " gemm to the vendor BLAS, but ridgeline has no half-precision gemm probe yet";
    else
      return std::string("Kokkos Kernels ") + compat::kokkos_kernels_version() +
             " has no vendor-BLAS (TPL) gemm for " + H::kName + " on " + Space::name() +
             " (KokkosBlas3_gemm_tpl_spec_avail.hpp: cuBLAS/rocBLAS only for double, float and "
             "their complex types) and its own kernel would not use tensor cores; the "
             "tensor-core roof is the vendor_gemm point";
  }
#endif

  bool probe_wanted(const std::string& probe) const { return wanted(filter_.probes, probe); }

  void add(ProbePtr probe, const std::string& skipped_reason = {}) {
    PointPlan p;
    p.info = probe->info();
    if (!probe_wanted(p.info.probe) && !probe_wanted(p.info.family)) return;
    if (!skipped_reason.empty()) {
      p.skipped_reason = skipped_reason;
    } else if (!p.info.unfit_reason.empty()) {
      p.skipped_reason = p.info.unfit_reason;
    } else if (p.info.elements == 0) {
      p.skipped_reason = "working set too small for this backend's launch shape";
    } else if (limits_.memory_bytes && p.info.working_set_bytes > limits_.memory_bytes) {
      p.skipped_reason = "out of memory: needs " + std::to_string(p.info.working_set_bytes) +
                         " bytes, " + std::to_string(limits_.memory_bytes) + " usable";
    } else {
      p.probe = std::move(probe);
    }
    plan_.push_back(std::move(p));
  }

  template <class Space, class T>
  void typed() {
    for (const auto& name : profile_.bandwidth_probes) {
      const StreamKernel& k = stream_kernel_for("bandwidth", name);
      add(std::make_unique<StreamProbe<Space, T>>(k, "bandwidth",
                                                  dram_bytes_ / (k.arrays * sizeof(T)), 1));
    }
    for (const auto& probe : profile_.fma ? profile_.fma_probes : std::vector<std::string>{}) {
      if (in_place_probe(catalog_name("fma", probe)))
        ladder<Space, T, LadderForm::kInPlace>(std::make_integer_sequence<int, 14>{});
      else
        ladder<Space, T, LadderForm::kTwoArrays>(std::make_integer_sequence<int, 14>{});
    }
    if (profile_.peak) {
      const double per_element = 2.0 * profile_.peak_k + 1;
      add(std::make_unique<PeakProbe<Space, T>>(
          std::size_t(work_scale_ * profile_.peak_flops_per_call / per_element), profile_.peak_k));
    }
    for (const auto& lib : profile_.library_probes) {
      const std::size_t n = dram_bytes_ / (2 * sizeof(T));
      if (lib == "gemm") add(std::make_unique<GemmProbe<Space, T>>(profile_.gemm_n));
      if (lib == "axpby")
        add(std::make_unique<VectorLibraryProbe<Space, T>>(VectorLibOp::kAxpby, n));
      if (lib == "lib_dot")
        add(std::make_unique<VectorLibraryProbe<Space, T>>(VectorLibOp::kDot, n));
      if (lib == "deep_copy")
        add(std::make_unique<VectorLibraryProbe<Space, T>>(VectorLibOp::kDeepCopy, n),
            deep_copy_skip_reason<Space>());
    }
  }

  // The vendor library's gemm in every type it multiplies (device spaces only: on hosts the
  // library roof is Kokkos Kernels' gemm through the host BLAS).
  template <class Space>
  void vendor_gemms() {
    if constexpr (kIsDeviceSpace<Space>) {
      if (!probe_wanted("vendor_gemm") && !probe_wanted("library")) return;
      if (std::find(profile_.library_probes.begin(), profile_.library_probes.end(),
                    "vendor_gemm") == profile_.library_probes.end())
        return;
      vendor_gemm_points<Space>();
    }
  }
  template <class Space>
  void vendor_gemm_points() {
    std::string why_not;
    VendorGemm* library = vendor_gemm(Space::name(), why_not);
    const auto wanted_type = [this](GemmType t) { return dtype_wanted(gemm_type_info(t).dtype); };
    for (PointPlan& p : vendor_gemm_plan<Space>(library, why_not, vendor_gemm_shapes(profile_),
                                                wanted_type, limits_.llc_bytes)) {
      if (p.probe)
        add(std::move(p.probe));
      else
        plan_.push_back(std::move(p));
    }
  }
  // The profile's dtypes name storage types: tf32 rides with fp32, fp8 with bf16 (its GEMM
  // writes bf16).
  bool dtype_wanted(const std::string& dtype) const {
    const std::string stored = riding_with(dtype);
    return std::find(profile_.dtypes.begin(), profile_.dtypes.end(), stored) !=
           profile_.dtypes.end();
  }

  // Kokkos 3.x copies host to host with a parallel_for on the default host space, whatever space
  // the copy names: a Serial deep_copy would measure OpenMP. Modern Kokkos uses the instance.
  template <class Space>
  static std::string deep_copy_skip_reason() {
#if KOKKOS_VERSION < 40000
    if constexpr (!kIsDeviceSpace<Space> &&
                  !std::is_same_v<Space, Kokkos::DefaultHostExecutionSpace>)
      return "Kokkos " + compat::kokkos_version() + " copies host to host on " +
             Kokkos::DefaultHostExecutionSpace::name() + ", not on " + Space::name();
#endif
    return {};
  }

  // K = 1, 2, 4, … up to k_max. Rungs below 1 FLOP/byte are memory-bound on every machine (ridge
  // points are above 1) and always use the DRAM working set: they define B. Higher rungs whose
  // calls would exceed the FLOP budget shrink their arrays (they are compute-bound there anyway).
  template <class Space, class T, LadderForm Form, int... J>
  void ladder(std::integer_sequence<int, J...>) {
    (rung<Space, T, Form, (1 << J)>(), ...);
  }
  template <class Space, class T, LadderForm Form, int K>
  void rung() {
    if (K > profile_.fma_k_max) return;
    const std::size_t arrays = Form == LadderForm::kInPlace ? 1 : 2;
    add(std::make_unique<FmaLadderProbe<Space, T, K, Form>>(
        ladder_elements(profile_, dram_bytes_, arrays, sizeof(T), K, work_scale_)));
  }

  // Working sets from cache.min_bytes to the DRAM size (cache_working_sets; dense around a GPU's
  // capacities, hosts keep their geometric sweep). Neighbouring sizes can round to the same
  // launch shape (the same point name): the repeat is left out, never planned twice.
  template <class Space, class T>
  void cache() {
    if (profile_.cache_probes.empty()) return;
    std::map<std::string, std::string> last_name;  // per kernel
    for (const double ws : cache_working_sets(
             double(profile_.cache_min_bytes), double(dram_bytes_), profile_.cache_steps_per_octave,
             kIsDeviceSpace<Space> ? limits_.dense_around : std::vector<std::uint64_t>{})) {
      for (const auto& name : profile_.cache_probes) {
        const int passes = cache_passes(profile_, work_scale_, ws);
        ProbePtr probe;
        std::string skipped;
        if (!runs_stream_kernel("cache", name)) {
          // The in-place ladder, K = 1 (cache_update): counted bytes are moved bytes.
          probe = std::make_unique<FmaLadderProbe<Space, T, 1>>(std::size_t(ws) / sizeof(T), passes,
                                                                "cache");
          // Its passes re-read each thread's own chunk: from L1 on a GPU, whatever the set.
          if (kIsDeviceSpace<Space>)
            skipped =
                "the in-place ladder's passes re-read each thread's own chunk, which a GPU "
                "serves from L1 at every size; the device cache sweep is cache_read and "
                "cache_triad";
        } else {
          const StreamKernel& k = stream_kernel_for("cache", name);
          const std::size_t n = std::size_t(ws) / (k.arrays * sizeof(T));
          probe = std::make_unique<StreamProbe<Space, T>>(k, "cache", n, passes, limits_.llc_bytes);
        }
        std::string& last = last_name[name];
        if (probe->info().name == last) continue;
        last = probe->info().name;
        add(std::move(probe), skipped);
      }
    }
  }

  // Scratch sizes per team as the profile asks. Device spaces: a size above Kokkos' level-0
  // limit is refused with that reason (a skipped point: the backend cannot give it; clipped, all
  // such sizes were one point at the limit), and the teams are the launch that fills every SM's
  // shared memory (sram_launch). Hosts: clipped to one thread's share of L1d (beyond it the
  // "scratch" is L2). Sizes that clip or round to the same point are planned once.
  template <class Space, class T>
  void sram() {
    using Probe = SramProbe<Space, T>;
    std::uint64_t limit = Probe::scratch_limit();
    if (!kIsDeviceSpace<Space> && limits_.l1d_per_thread)
      limit = std::min(limit, limits_.l1d_per_thread);
    std::set<std::string> names;
    for (const auto& name : profile_.sram_probes)
      for (const std::uint64_t bytes : profile_.sram_bytes) {
        const SramOp op =
            read_only_probe(catalog_name("sram", name)) ? SramOp::kRead : SramOp::kUpdate;
        std::unique_ptr<Probe> probe;
        std::string skipped;
        if constexpr (kIsDeviceSpace<Space>) {
          // The scratch a team asks Kokkos for: whole groups of words, and the alignment pad.
          const std::uint64_t granule = Probe::Shape::kGranuleWords * sizeof(typename Probe::Word);
          const SramLaunch launch =
              sram_launch(limits_.residency, std::string(Space::name()) == "HIP",
                          bytes / granule * granule + kSramAlignBytes, Probe::Shape::kTeamSize);
          probe = std::make_unique<Probe>(op, bytes, profile_.sram_passes, bytes, launch.teams,
                                          launch.to_json());
          if (bytes > limit) skipped = sram_refusal(bytes, limit);
        } else {
          probe = std::make_unique<Probe>(op, std::min(bytes, limit), profile_.sram_passes, bytes);
        }
        if (!names.insert(probe->info().name).second) continue;
        add(std::move(probe), skipped);
      }
  }

  const SweepProfile& profile_;
  const MachineFacts& machine_;
  const PlanFilter& filter_;
  SpaceLimits limits_;
  std::uint64_t dram_bytes_ = 0;
  double work_scale_ = 1;
  std::vector<PointPlan> plan_;
};

}  // namespace

std::vector<double> cache_working_sets(double min_bytes, double max_bytes, int steps_per_octave,
                                       const std::vector<std::uint64_t>& capacities) {
  std::vector<double> sizes;
  const double step = std::pow(2.0, 1.0 / steps_per_octave);
  for (double ws = min_bytes; ws <= max_bytes * 1.0001; ws *= step) sizes.push_back(ws);
  for (const std::uint64_t c : capacities)
    for (int quarter = -4; c && quarter <= 4; ++quarter) {
      const double ws = double(c) * std::pow(2.0, quarter / 4.0);
      if (ws >= min_bytes && ws <= max_bytes * 1.0001) sizes.push_back(ws);
    }
  std::sort(sizes.begin(), sizes.end());
  // Within 0.1 % of each other (a capacity on the geometric grid): one size.
  std::vector<double> unique;
  for (const double ws : sizes)
    if (unique.empty() || ws > unique.back() * 1.001) unique.push_back(ws);
  return unique;
}

std::vector<std::string> enabled_space_names() {
  std::vector<std::string> names;
  for_each_space([&](auto* s) { names.push_back(std::decay_t<decltype(*s)>::name()); });
  return names;
}

InputError empty_plan_error(const SweepProfile& profile, const PlanFilter& filter) {
  const auto built = enabled_space_names();
  const auto meet = [](const std::vector<std::string>& a, const std::vector<std::string>& b) {
    return std::any_of(a.begin(), a.end(), [&b](const std::string& x) { return wanted(b, x); });
  };
  const std::string list = fmt::format("{}", fmt::join(built, ", "));
  if (!profile.spaces.empty() && !meet(profile.spaces, built))
    return InputError(profile.source, "spaces",
                      fmt::format("names only spaces this build lacks ({}); this build has {}",
                                  fmt::join(profile.spaces, ", "), list));
  if (!filter.spaces.empty() && !profile.spaces.empty() && !meet(filter.spaces, profile.spaces))
    return InputError(
        "", "--space",
        fmt::format("none of the profile's spaces ({})", fmt::join(profile.spaces, ", ")));
  std::vector<std::string> dtypes = profile.dtypes;
  for (const char* gemm_only : {"tf32", "fp8"})
    if (wanted(dtypes, riding_with(gemm_only))) dtypes.push_back(gemm_only);
  if (!filter.dtypes.empty() && !meet(filter.dtypes, dtypes))
    return InputError(
        "", "--dtype",
        fmt::format("none of the profile's dtypes ({})", fmt::join(profile.dtypes, ", ")));
  return InputError("", filter.probes.empty() ? "" : "--probe",
                    "no point of the profile matches the filters (--space, --dtype, --probe)");
}

std::vector<PointPlan> build_plan(const SweepProfile& profile, const MachineFacts& machine,
                                  const PlanFilter& filter) {
  const auto spaces = enabled_space_names();
  for (const auto& s : filter.spaces)
    if (std::find(spaces.begin(), spaces.end(), s) == spaces.end()) {
      std::string known;
      for (const auto& k : spaces) known += (known.empty() ? "" : ", ") + k;
      throw InputError("", "--space",
                       "unknown execution space '" + s + "' (this build has: " + known + ")");
    }
  Planner planner(profile, machine, filter);
  for_each_space([&](auto* s) { planner.space<std::decay_t<decltype(*s)>>(); });
  std::vector<PointPlan> plan = planner.take();
  if (!filter.dtypes.empty()) {
    // Probes allocate in setup(), so planning every dtype and dropping some costs nothing.
    const auto unwanted = [&filter](const PointPlan& p) {
      return !wanted(filter.dtypes, p.info.dtype) &&
             !wanted(filter.dtypes, riding_with(p.info.dtype));
    };
    plan.erase(std::remove_if(plan.begin(), plan.end(), unwanted), plan.end());
  }
  // Names are the ids results, resume and compare match points by: one name, one point.
  std::set<std::string> names;
  for (const auto& p : plan)
    if (!names.insert(p.info.name).second)
      throw std::logic_error("the plan has two points named " + p.info.name);
  return plan;
}

}  // namespace ridgeline
