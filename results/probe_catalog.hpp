#pragma once
// The probe catalog: the one table of probe facts. Every probe ridgeline measures, by the name
// and family a results file writes (schema.md's probe table): the name a sweep profile lists it
// by, the stream kernel it runs and that kernel's counts per element, its traffic (reads, writes,
// lines written without being read, what the bytes are), what its family's points are to the
// roofline (the roof they define or are held against), and how the report's Methods names it.
// The harness plans, lists, counts and checks probes from it, the profile parser accepts its
// names, the reporter decides roofs and writes its prose from it. Code asks it through the
// predicates below, never by comparing a probe's or family's name. Plain data: no Kokkos.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ridgeline {

// What a family's points are to the roofline.
enum class FamilyRole {
  kPeak,     // register-only: defines P (its bytes are one store per work item: no intensity)
  kMemory,   // our own streams and ladders: DRAM-sized points define their traffic mix's roof
  kLevel,    // memory levels (working sets swept through the caches, on-chip scratch): never B
  kCeiling,  // library calls: named ceilings beside the roofs, held against their mix's roof
};

struct ProbeFamily {
  std::string_view name{};  // a point's `family`
  // How the report's notes name the family when a file has none of its points; empty: the
  // report does not note its absence.
  std::string_view absent_note{};
  FamilyRole role = FamilyRole::kCeiling;
  bool graded = false;   // a ladder of intensities (K FMAs per element): rungs on both sides of I*
  bool swept = false;    // working sets swept from the smallest cache to DRAM (graded by `ws`)
  bool on_chip = false;  // on-chip scratch: a level above every cache, never against DRAM roofs
};

// In the order `list` prints them and the report notes them.
inline constexpr ProbeFamily kProbeFamilies[] = {
    {"bandwidth", "the streaming kernels (copy, triad, dot, …)", FamilyRole::kMemory},
    {"fma", "the FMA ladder, which defines B", FamilyRole::kMemory, true},
    {"peak", "the peak probe, which defines P", FamilyRole::kPeak},
    {"cache", "the cache sweep (memory levels)", FamilyRole::kLevel, false, true},
    {"sram", "", FamilyRole::kLevel, false, false, true},
    {"library", "the library references (gemm, axpby, …)", FamilyRole::kCeiling},
};

// Per element of the probe's arrays. The results record no reads and writes per point: the
// catalog says them, here and nowhere else.
struct Traffic {
  int reads = 0;   // arrays read
  int writes = 0;  // arrays written
  // Arrays written without being read first: on a write-allocate CPU each such line is read
  // before it is written, and that read is not counted (streaming stores allocate nothing).
  int allocating = 0;
  std::string_view moved{};  // what the bytes are when nothing is hidden
  constexpr int counted() const { return reads + writes; }
  constexpr bool known() const { return counted() > 0; }  // none: peak, the GEMMs
};

// A stream kernel's counts per element (harness/probes/stream_kernels.hpp makes its kernels from
// these; bytes are traffic.counted() · sizeof(T), and a kernel that writes nothing reduces).
struct StreamCounts {
  int flops = 0;
  int arrays = 0;  // arrays touched (the working set is arrays · n · sizeof(T))
  // Stores bypass the caches where the ISA has streaming stores (x86 `movnt`): no line is read
  // before it is written.
  bool nontemporal = false;
  // On host spaces the kernel reads the array's bytes as 32-bit words, XORed within a pass and
  // added mod 2^32 across lanes and passes (harness/probes/word_sum.hpp): no FLOPs there. `flops`
  // is the device kernels' count (fp adds).
  bool host_words = false;
};

// Where and how the report's Methods names a probe among the kernels of its traffic mix.
struct MethodsName {
  int rank = 0;  // position in the list (1 first); 0: not named
  std::string_view as{};
};

// What a probe's setup() and verify() carry between the device and the host and fill or check
// there (the planner's time model, host_bytes_of in harness/sweep/plan_outline.hpp): a few values,
// one value per element (the ladders' output, the vector library calls' y), one of its three
// matrices (the KokkosBlas GEMM's C), or its counted bytes (the vendor GEMM's A, B and C).
enum class HostSetup { kNone, kElements, kOneMatrix, kCountedBytes };

struct ProbeSpec {
  std::string_view name{};          // a point's `probe`
  std::string_view family{};        // a point's `family`, one of kProbeFamilies
  std::string_view profile_name{};  // in the profile's section of the family; empty: no list there
  std::string_view what{};          // what it computes per element (schema.md has the counts)
  // The stream kernel's operation it runs (StreamOp in harness/probes/stream_kernels.hpp: copy,
  // scale, add, triad, update_xy, dot, read, fill); empty for a probe with a kernel of its own.
  // A cache probe runs the bandwidth probe of that name, with its counts and traffic.
  std::string_view kernel{};
  StreamCounts counts{};  // bandwidth probes: the kernel's counts
  Traffic traffic{};      // unknown (all 0) for kernels of no mix and cache probes of a kernel
  MethodsName methods{};
  // How its bytes are counted where its traffic does not say it (register-only, GEMMs).
  std::string_view bytes_note{};
  bool device_only = false;  // planned on GPU spaces only
  // Its FLOP rate is a GEMM's on the vendor library's units: planned against the sheet's GEMM
  // figure, not the vector peak.
  bool gemm_rate = false;
  // Results files before schema 1.1 record no `params.form`: this probe ran then as the probe
  // named here, with its traffic (the ladder stored into a second array).
  std::string_view formless_as{};
  HostSetup host_setup = HostSetup::kNone;

  // Builders: each row of kProbes reads as the probe's facts.
  constexpr ProbeSpec listed_as(std::string_view profile) const {
    ProbeSpec p = *this;
    p.profile_name = profile;
    return p;
  }
  constexpr ProbeSpec runs(std::string_view op, int flops = 0, int arrays = 0) const {
    ProbeSpec p = *this;
    p.kernel = op;
    p.counts.flops = flops;
    p.counts.arrays = arrays;
    return p;
  }
  constexpr ProbeSpec streaming_stores() const {
    ProbeSpec p = *this;
    p.counts.nontemporal = true;
    return p;
  }
  constexpr ProbeSpec sums_words_on_hosts() const {
    ProbeSpec p = *this;
    p.counts.host_words = true;
    return p;
  }
  constexpr ProbeSpec moves(int reads, int writes, int allocating, std::string_view moved) const {
    ProbeSpec p = *this;
    p.traffic = {reads, writes, allocating, moved};
    return p;
  }
  constexpr ProbeSpec in_methods(int rank, std::string_view as) const {
    ProbeSpec p = *this;
    p.methods = {rank, as};
    return p;
  }
  constexpr ProbeSpec bytes_counted(std::string_view note) const {
    ProbeSpec p = *this;
    p.bytes_note = note;
    return p;
  }
  constexpr ProbeSpec on_devices_only() const {
    ProbeSpec p = *this;
    p.device_only = true;
    return p;
  }
  constexpr ProbeSpec at_gemm_rate() const {
    ProbeSpec p = *this;
    p.gemm_rate = true;
    return p;
  }
  constexpr ProbeSpec formless(std::string_view as) const {
    ProbeSpec p = *this;
    p.formless_as = as;
    return p;
  }
  constexpr ProbeSpec set_up_on_host(HostSetup h) const {
    ProbeSpec p = *this;
    p.host_setup = h;
    return p;
  }
};

// A probe listed in its profile section under its own name.
constexpr ProbeSpec probe_spec(std::string_view name, std::string_view family,
                               std::string_view what) {
  ProbeSpec p;
  p.name = name;
  p.family = family;
  p.profile_name = name;
  p.what = what;
  return p;
}

// Families together, each in the order `list` prints and profiles' error lines name them.
inline constexpr ProbeSpec kProbes[] = {
    probe_spec("copy", "bandwidth", "b = a")
        .runs("copy", 0, 2)
        .moves(1, 1, 1, "read a, write b")
        .in_methods(1, "copy"),
    probe_spec("scale", "bandwidth", "b = q·a")
        .runs("scale", 1, 2)
        .moves(1, 1, 1, "read a, write b")
        .in_methods(2, "scale"),
    probe_spec("add", "bandwidth", "c = a + b")
        .runs("add", 1, 3)
        .moves(2, 1, 1, "read a and b, write c")
        .in_methods(4, "add"),
    probe_spec("triad", "bandwidth", "c = a + q·b (one FMA)")
        .runs("triad", 2, 3)
        .moves(2, 1, 1, "read a and b, write c")
        .in_methods(5, "triad"),
    // The own kernel of the 2:1 mix whose stores hide no read on a write-allocate CPU (y's line
    // is read first), as the library's axpby: β·y then one FMA (3 FLOPs, an FMA counted as 2).
    probe_spec("update_xy", "bandwidth", "in place: y = α·x + β·y (β·y, one FMA)")
        .runs("update_xy", 3, 2)
        .moves(2, 1, 0, "x read, y read and written back in place")
        .in_methods(6, "update_xy"),
    probe_spec("dot", "bandwidth", "sum += a·b")
        .runs("dot", 2, 2)
        .moves(2, 0, 0, "read only")
        .in_methods(8, "dot"),
    // A bandwidth probe: on hosts an XOR sum of a's 32-bit words (0 FLOPs: fp adds would cap an
    // L1 read on two FADD pipes), on GPUs an fp add per element (1 FLOP).
    probe_spec("read", "bandwidth", "sum += a (hosts: XOR sum of a's 32-bit words)")
        .runs("read", 1, 1)
        .sums_words_on_hosts()
        .moves(1, 0, 0, "read only")
        .in_methods(7, "read"),
    probe_spec("fill", "bandwidth", "a = q")
        .runs("fill", 0, 1)
        .moves(0, 1, 1, "write only")
        .in_methods(9, "fill"),
    // copy with streaming stores where the host ISA has them (x86: vmovntpd/vmovntps), so no
    // line is read before it is written: its counted bytes are moved bytes on every space, a 1:1
    // kernel of B that hides nothing, as update_xy is for 2:1. GPUs allocate no line on a write
    // anyway: there it is the plain copy (params.streaming_stores says which ran).
    probe_spec("copy_nt", "bandwidth", "b = a with streaming stores (x86: movnt)")
        .runs("copy", 0, 2)
        .streaming_stores()
        .moves(1, 1, 0, "read a, write b with streaming stores: no line read first"),
    probe_spec("fma", "fma", "in place: load x, K FMAs (x = x·α + β), store back to x")
        .moves(1, 1, 0, "read and written back in place")
        .in_methods(3, "the FMA ladders")
        .formless("fma_xy")
        .set_up_on_host(HostSetup::kElements),
    probe_spec("fma_xy", "fma", "two arrays: load x, K FMAs, store y")
        .moves(1, 1, 1, "read x, write y")
        .set_up_on_host(HostSetup::kElements),
    probe_spec("peak", "peak", "K FMAs on values held in registers, one add into a total")
        .listed_as("")
        .bytes_counted("register-only: one store per work item"),
    probe_spec("cache_update", "cache", "as fma with K = 1, working set swept")
        .listed_as("update")
        .moves(1, 1, 0, "read and written back in place")
        .in_methods(10, "the cache sweep's cache_update"),
    probe_spec("cache_read", "cache", "as read, working set swept")
        .listed_as("read")
        .runs("read")
        .in_methods(12, "cache_read"),
    probe_spec("cache_triad", "cache", "as triad, working set swept")
        .listed_as("triad")
        .runs("triad")
        .in_methods(11, "cache_triad"),
    probe_spec("sram_read", "sram", "read sweeps of team scratch, a sum per thread")
        .listed_as("read")
        .moves(1, 0, 0, "on-chip scratch: the fill's writes and the sweeps' reads"),
    probe_spec("sram_update", "sram", "in-place sweeps x = x·α + β of team scratch")
        .listed_as("update")
        .moves(1, 1, 0, "on-chip scratch: read and written back in place"),
    probe_spec("gemm", "library", "KokkosBlas::gemm, square n×n")
        .bytes_counted("compulsory: each matrix once (3·n²), whatever the blocking moves")
        .set_up_on_host(HostSetup::kOneMatrix),
    probe_spec("axpby", "library", "KokkosBlas::axpby, y = α·x + y")
        .moves(2, 1, 0, "x read, y read and written back")
        .set_up_on_host(HostSetup::kElements),
    probe_spec("lib_dot", "library", "KokkosBlas::dot")
        .moves(2, 0, 0, "read only")
        .set_up_on_host(HostSetup::kElements),
    probe_spec("deep_copy", "library", "Kokkos::deep_copy")
        .moves(1, 1, 1, "read x, write y")
        .set_up_on_host(HostSetup::kElements),
    // m×n×k since the skinny sweep; a square n³ point is the same count.
    probe_spec("vendor_gemm", "library", "the vendor library's gemm, square n×n")
        .bytes_counted(
            "compulsory: A and B read once, C written once ((m·k + k·n)·in + m·n·out), whatever "
            "the blocking moves")
        .on_devices_only()
        .at_gemm_rate()
        .set_up_on_host(HostSetup::kCountedBytes),
};

// nullptr if no probe has that name.
constexpr const ProbeSpec* find_probe(std::string_view name) {
  for (const ProbeSpec& p : kProbes)
    if (p.name == name) return &p;
  return nullptr;
}

// nullptr if no family has that name.
constexpr const ProbeFamily* find_family(std::string_view name) {
  for (const ProbeFamily& f : kProbeFamilies)
    if (f.name == name) return &f;
  return nullptr;
}

// The probe a sweep profile's section of `family` lists as `profile_name`; nullptr if none.
constexpr const ProbeSpec* find_profile_probe(std::string_view family,
                                              std::string_view profile_name) {
  for (const ProbeSpec& p : kProbes)
    if (p.family == family && !p.profile_name.empty() && p.profile_name == profile_name) return &p;
  return nullptr;
}

// The probes of one family in catalog order, by their results names.
inline std::vector<std::string> probes_in(std::string_view family) {
  std::vector<std::string> out;
  for (const ProbeSpec& p : kProbes)
    if (p.family == family) out.emplace_back(p.name);
  return out;
}

// The names a sweep profile's section of `family` accepts, in catalog order (what `"probes":
// "all"` stands for).
inline std::vector<std::string> profile_names_in(std::string_view family) {
  std::vector<std::string> out;
  for (const ProbeSpec& p : kProbes)
    if (p.family == family && !p.profile_name.empty()) out.emplace_back(p.profile_name);
  return out;
}

// ---- Families: what their points are to the roofline. An unknown family is none of these.

namespace catalog_detail {
constexpr bool family_is(std::string_view family, bool (*test)(const ProbeFamily&)) {
  for (const ProbeFamily& f : kProbeFamilies)
    if (f.name == family) return test(f);
  return false;
}
}  // namespace catalog_detail

// Register-only points that define P (the peak probe): their bytes mean nothing.
constexpr bool defines_peak(std::string_view family) {
  return catalog_detail::family_is(
      family, [](const ProbeFamily& f) { return f.role == FamilyRole::kPeak; });
}
// Our own streams and ladders: their DRAM-sized points define the roof of their traffic mix.
constexpr bool defines_memory_roof(std::string_view family) {
  return catalog_detail::family_is(
      family, [](const ProbeFamily& f) { return f.role == FamilyRole::kMemory; });
}
// The DRAM streams among them (one size per point, no ladder): the bandwidth family.
constexpr bool dram_stream(std::string_view family) {
  return catalog_detail::family_is(
      family, [](const ProbeFamily& f) { return f.role == FamilyRole::kMemory && !f.graded; });
}
// The FMA ladder: rungs graded by K, memory-bound below the ridge, compute-bound above it.
constexpr bool graded_ladder(std::string_view family) {
  return catalog_detail::family_is(family, [](const ProbeFamily& f) { return f.graded; });
}
// Memory levels: the cache sweep and the on-chip scratch, never pooled into B.
constexpr bool level_probe(std::string_view family) {
  return catalog_detail::family_is(
      family, [](const ProbeFamily& f) { return f.role == FamilyRole::kLevel; });
}
// The cache sweep: working sets swept from the smallest cache to DRAM.
constexpr bool sweeps_working_set(std::string_view family) {
  return catalog_detail::family_is(family, [](const ProbeFamily& f) { return f.swept; });
}
// On-chip scratch (shared memory, LDS, an L1-resident buffer): faster than DRAM by design.
constexpr bool on_chip(std::string_view family) {
  return catalog_detail::family_is(family, [](const ProbeFamily& f) { return f.on_chip; });
}
// Library calls: named ceilings, never fitted.
constexpr bool library_ceiling(std::string_view family) {
  return catalog_detail::family_is(
      family, [](const ProbeFamily& f) { return f.role == FamilyRole::kCeiling; });
}

// ---- Probes.

// The probe's traffic; a cache probe of a stream kernel has its kernel's. Unknown (known() is
// false) for probes of no mix and for names the catalog lacks.
constexpr Traffic probe_traffic(std::string_view probe) {
  const ProbeSpec* p = find_probe(probe);
  if (!p) return {};
  if (!p->traffic.known() && !p->kernel.empty() && p->kernel != p->name)
    return probe_traffic(p->kernel);
  return p->traffic;
}

// Reads and writes nothing back: the read-only probes (read, dot, cache_read, sram_read, …).
constexpr bool read_only_probe(std::string_view probe) {
  const Traffic t = probe_traffic(probe);
  return t.reads > 0 && t.writes == 0;
}

// Writes only lines it read first: the in-place kernels (fma, update_xy, …), whose stores
// allocate nothing because the line is already there, not because they stream past the cache.
constexpr bool in_place_probe(std::string_view probe) {
  const ProbeSpec* p = find_probe(probe);
  const Traffic t = probe_traffic(probe);
  return p && !p->counts.nontemporal && t.writes > 0 && t.allocating == 0;
}

// Its FLOP rate is a GEMM's on the vendor library's units (ProbeSpec::gemm_rate).
constexpr bool runs_at_gemm_rate(std::string_view probe) {
  const ProbeSpec* p = find_probe(probe);
  return p && p->gemm_rate;
}

// What the probe carries to and from the host (kNone for names the catalog lacks).
constexpr HostSetup host_setup(std::string_view probe) {
  const ProbeSpec* p = find_probe(probe);
  return p ? p->host_setup : HostSetup::kNone;
}

// The probe's bytes-per-element note when its traffic does not describe them; empty if none.
constexpr std::string_view bytes_note(std::string_view probe) {
  const ProbeSpec* p = find_probe(probe);
  return p ? p->bytes_note : std::string_view();
}

// "DRAM-sized" is a working set of at least this many times the last-level cache (on a host
// every copy of it, on a GPU its L2 or the MALL behind it): the planner's DRAM arrays (a
// profile's default `dram_llc_multiple`) and the reporter's test of which points may define a
// memory roof. Why 4: when a streaming pass comes back to a byte, at least three cache-sizes of
// other data have passed through since, so at most a quarter of the set can still be cached
// and the rate is the memory's; a larger multiple only makes the arrays and the sweep longer.
inline constexpr double kDramLlcMultiple = 4;

}  // namespace ridgeline
