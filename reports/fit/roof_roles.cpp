#include "reports/fit/roof_roles.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/units.hpp"
#include "results/probe_catalog.hpp"

namespace ridgeline {
namespace {

// The point's traffic from the catalog (results/probe_catalog.hpp), the one table of it;
// unknown (known() false) for kernels of no mix and probes the catalog lacks.
Traffic traffic_of(const Point& p) {
  const ProbeSpec* spec = find_probe(p.probe);
  // Files before results schema 1.1 record no params.form: the ladder stored into a second array.
  if (spec && !spec->formless_as.empty() && p.param("form") != "in_place")
    return probe_traffic(spec->formless_as);
  return probe_traffic(p.probe);
}

}  // namespace

bool is_device_space(const Results& r, const std::string& space) {
  const SpaceInfo* s = r.find_space(space);
  return s && (s->device || s->kind == "device");
}

std::optional<TrafficMix> traffic_mix(const Point& p) {
  const Traffic t = traffic_of(p);
  if (!t.known()) return std::nullopt;
  if (t.writes == 0) return TrafficMix::kReadOnly;
  if (t.reads == 0) return TrafficMix::kWriteOnly;
  return t.reads == t.writes ? TrafficMix::kOneToOne : TrafficMix::kTwoToOne;
}

namespace {
struct MixNames {
  TrafficMix mix;
  const char* name;  // "2:1"
  const char* roof;  // "B_2:1"
};
constexpr MixNames kMixNames[] = {{TrafficMix::kOneToOne, "1:1", "B_1:1"},
                                  {TrafficMix::kTwoToOne, "2:1", "B_2:1"},
                                  {TrafficMix::kReadOnly, "read-only", "B_read"},
                                  {TrafficMix::kWriteOnly, "write-only", "B_write"}};
const MixNames& names_of(TrafficMix m) {
  for (const auto& n : kMixNames)
    if (n.mix == m) return n;
  static constexpr MixNames kUnknown{TrafficMix::kOneToOne, "?", "B_?"};
  return kUnknown;  // not reached: every mix is listed
}
}  // namespace

const char* mix_name(TrafficMix m) { return names_of(m).name; }

const char* mix_roof_name(TrafficMix m) { return names_of(m).roof; }

bool reads_and_writes(TrafficMix m) {
  return m == TrafficMix::kOneToOne || m == TrafficMix::kTwoToOne;
}

RoofRole roof_role(const Point& p) {
  if (defines_peak(p.family)) return RoofRole::kPeak;
  // On-chip scratch (shared memory, LDS, an L1-resident buffer) is a memory level of its own,
  // far above DRAM: never pooled into B.
  if (level_probe(p.family)) return RoofRole::kLevel;
  // Library calls, and families the catalog lacks.
  if (!defines_memory_roof(p.family)) return RoofRole::kCeiling;
  const std::optional<TrafficMix> mix = traffic_mix(p);
  if (!mix) return RoofRole::kCeiling;
  // One direction only is a roof of its own on every space: on hosts nothing is allocated by a
  // read and one core's misses limit it, on GPUs the bus never turns around (the H200 reads at
  // 1.10x the rate of any read/write mix), so taking it into B would set the roof of kernels that
  // read and write by a kind of traffic they never have.
  if (*mix == TrafficMix::kReadOnly) return RoofRole::kReadBandwidth;
  if (*mix == TrafficMix::kWriteOnly) return RoofRole::kWriteBandwidth;
  // Every space: on a GPU counted bytes are moved bytes; on a write-allocate CPU the stores of
  // copy/scale/add/triad/fma_xy also read their lines, so the counted rate is a lower bound of
  // what the memory moved, and an envelope of lower bounds stays below what the memory does.
  return RoofRole::kBandwidth;
}

bool is_tensor_point(const Point& p) {
  const std::string unit = p.param("unit");
  return unit == "tensor" || unit == "matrix";
}

std::string point_accumulate(const Point& p) {
  const std::string acc = p.param("accumulate");
  return acc.empty() ? p.param("c_dtype") : acc;
}

double moved_per_counted(const Point& p, bool device_space) {
  const Traffic t = traffic_of(p);
  if (device_space || !t.known()) return 1;
  return double(t.counted() + t.allocating) / t.counted();
}

std::string bytes_convention(const Point& p, bool device_space) {
  const std::string_view note = bytes_note(p.probe);  // register-only, the GEMMs
  if (!note.empty()) return std::string(note);
  const Traffic t = traffic_of(p);
  if (!t.known()) return "as the probe counts them";
  if (t.allocating == 0) return fmt::format("moved ({})", t.moved);
  if (device_space)
    return fmt::format("moved ({}; a GPU writes without reading the line)", t.moved);
  return fmt::format(
      "STREAM-style ({}): each written line is also read first (write-allocate), not counted, "
      "so it moves {}/{} of what it counts",
      t.moved, t.counted() + t.allocating, t.counted());
}

double dram_working_set_bytes(const Results& r, const std::string& space) {
  const SpaceInfo* s = r.find_space(space);
  // Measured: from the DRAM points' own size, one octave inside the plateau (runs before
  // 2026-12-07: its start), so that no set on the plateau's edge sets a roof: where a neighbour
  // uses a shared cache the edge moves, and the edge's set streams from that cache (issue 49's
  // Zen 5 VM: cache_update at the 128 MiB start set B at 131 GB/s, 102 at 256 MiB, same run).
  // Where none was reached, only the largest sets the search measured (what the DRAM points ran
  // at) count, and the report says what they may be.
  if (s && s->plateau) return s->plateau->planned_bytes;
  // A GPU's last-level cache: the L2, or a MALL behind it (MI300's 256 MiB Infinity Cache).
  if (s && s->device) return kDramLlcMultiple * std::max(s->device->l2_bytes, s->device->llc_bytes);
  // Every copy of the last-level cache the file records; files before schema 1.1 do not say how
  // many copies there are, then the space's threads tell how many it can fill. A list that lacks
  // a level knows no last-level cache: then the profile's minimum, what the planner sized the
  // DRAM kernels at (harness/sweep/plan.cpp), is all there is.
  if (!r.caches_incomplete.empty()) return r.dram_min_bytes;
  const CacheInfo* llc = nullptr;
  for (const auto& c : r.caches)
    if (!llc || c.level >= llc->level) llc = &c;
  if (!llc) return 0;
  const int threads = s ? s->concurrency : 1;
  const double copies = llc->instances > 0
                            ? llc->instances
                            : std::max(1.0, std::floor(double(threads) / llc->shared_by_threads));
  return kDramLlcMultiple * llc->size_bytes * copies;
}

std::string dram_roof_name(const Results& r, const std::string& space, double dram_working_set) {
  const SpaceInfo* s = r.find_space(space);
  const std::string memory = s && s->device ? "HBM/DRAM" : "DRAM";
  if (s && s->plateau) {
    const MemoryPlateau& p = *s->plateau;
    if (p.reached)
      return memory + " plateau from " + format_size_bytes(p.start_bytes) +
             (p.planned_bytes > 1.01 * p.start_bytes
                  ? " (roofs from " + format_size_bytes(p.planned_bytes) + ")"
                  : "");
    return "a cache level or " + memory + ": no plateau up to " +
           format_size_bytes(p.largest_bytes) + ", " + memory + " not reached";
  }
  return dram_working_set > 0 ? memory + ", working sets ≥ " + format_size_bytes(dram_working_set)
                              : memory;
}

bool dram_sized(const Point& p, double dram_working_set) {
  // Launch shapes round element counts down to whole chunks: allow that, not more.
  return p.working_set_bytes >= 0.99 * dram_working_set;
}

bool on_dram_plateau(const Results& r, const Point& p) {
  const double dram = dram_working_set_bytes(r, p.space);
  return dram > 0 && dram_sized(p, dram);
}

}  // namespace ridgeline
