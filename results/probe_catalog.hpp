#pragma once
// The probe vocabulary, once: every probe ridgeline measures by the name and family a results
// file writes (schema.md's probe table), the name a sweep profile lists it by and the stream
// kernel it runs. The harness plans, lists and checks probes from it, the profile parser accepts
// its names, the reporter describes probes from it. Plain data: no Kokkos.
#include <string>
#include <string_view>
#include <vector>

namespace ridgeline {

struct ProbeFamily {
  std::string_view name;  // a point's `family`
  // How the report's notes name the family when a file has none of its points; empty: the
  // report does not note its absence.
  std::string_view absent_note;
};

// In the order `list` prints them and the report notes them.
inline constexpr ProbeFamily kProbeFamilies[] = {
    {"bandwidth", "the streaming kernels (copy, triad, dot, …)"},
    {"fma", "the FMA ladder, which defines B"},
    {"peak", "the peak probe, which defines P"},
    {"cache", "the cache sweep (memory levels)"},
    {"sram", ""},
    {"library", "the library references (gemm, axpby, …)"},
};

struct ProbeSpec {
  std::string_view name;          // a point's `probe`
  std::string_view family;        // a point's `family`, one of kProbeFamilies
  std::string_view profile_name;  // in the profile's section of the family; empty: no list there
  // The stream kernel it runs (kStreamKernels in harness/probes/stream_kernels.hpp, Kokkos label
  // `ridgeline::<kernel>`); empty for a probe with a kernel of its own.
  std::string_view kernel;
  std::string_view what;     // what it computes per element (schema.md has the counts)
  bool device_only = false;  // planned on GPU spaces only
};

// Families together, each in the order `list` prints and profiles' error lines name them.
inline constexpr ProbeSpec kProbes[] = {
    {"copy", "bandwidth", "copy", "copy", "b = a"},
    {"scale", "bandwidth", "scale", "scale", "b = q·a"},
    {"add", "bandwidth", "add", "add", "c = a + b"},
    {"triad", "bandwidth", "triad", "triad", "c = a + q·b (one FMA)"},
    {"update_xy", "bandwidth", "update_xy", "update_xy", "in place: y = α·x + β·y (β·y, one FMA)"},
    {"dot", "bandwidth", "dot", "dot", "sum += a·b"},
    {"read", "bandwidth", "read", "read", "sum += a"},
    {"fill", "bandwidth", "fill", "fill", "a = q"},
    {"fma", "fma", "fma", "", "in place: load x, K FMAs (x = x·α + β), store back to x"},
    {"fma_xy", "fma", "fma_xy", "", "two arrays: load x, K FMAs, store y"},
    {"peak", "peak", "", "", "K FMAs on values held in registers, one add into a total"},
    {"cache_update", "cache", "update", "", "as fma with K = 1, working set swept"},
    {"cache_read", "cache", "read", "read", "as read, working set swept"},
    {"cache_triad", "cache", "triad", "triad", "as triad, working set swept"},
    {"sram_read", "sram", "read", "", "read sweeps of team scratch, a sum per thread"},
    {"sram_update", "sram", "update", "", "in-place sweeps x = x·α + β of team scratch"},
    {"gemm", "library", "gemm", "", "KokkosBlas::gemm, square n×n"},
    {"axpby", "library", "axpby", "", "KokkosBlas::axpby, y = α·x + y"},
    {"lib_dot", "library", "lib_dot", "", "KokkosBlas::dot"},
    {"deep_copy", "library", "deep_copy", "", "Kokkos::deep_copy"},
    {"vendor_gemm", "library", "vendor_gemm", "", "the vendor library's gemm, square n×n", true},
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

// The names a sweep profile's section of `family` accepts, in catalog order.
inline std::vector<std::string> profile_names_in(std::string_view family) {
  std::vector<std::string> out;
  for (const ProbeSpec& p : kProbes)
    if (p.family == family && !p.profile_name.empty()) out.emplace_back(p.profile_name);
  return out;
}

// "DRAM-sized" is a working set of at least this many times the last-level cache (on a host
// every copy of it, on a GPU its L2 or the MALL behind it): the planner's DRAM arrays (a
// profile's default `dram_llc_multiple`) and the reporter's test of which points may define a
// memory roof. Why 4: when a streaming pass comes back to a byte, at least three cache-sizes of
// other data have passed through since, so at most a quarter of the set can still be cached
// and the rate is the memory's; a larger multiple only makes the arrays and the sweep longer.
inline constexpr double kDramLlcMultiple = 4;

}  // namespace ridgeline
