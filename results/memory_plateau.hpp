#pragma once
// Where a space's memory plateau begins: the smallest working set from which the bandwidth of
// every traffic mix stops falling as the sets grow. A cache size the machine states may be wrong
// or absent (a VM names only its host's whole L3, or none), so the harness measures the sets
// (harness/sweep/memory_plateau_search.cpp) and records what it found in the space's context
// entry; the planner sizes the DRAM points there and the reporter takes B, B_read and B_write
// from points on the plateau only. The rule lives here, Kokkos-free, so both sides and the tests
// apply the same one.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace ridgeline {

// Traffic mixes the search measures: read-only (the `read` stream kernel) and the in-place 2:1
// mix (`update_xy`: two reads, one write, no write-allocate hidden on a CPU).
inline constexpr const char* kPlateauMixes[] = {"read", "update_xy"};

// One measured set: a mix at one working set.
struct PlateauSet {
  std::string mix;
  double bytes = 0;        // working set
  double bytes_per_s = 0;  // median over the calls
  // Half the interquartile range over the median: the calls' own noise, which widens the
  // tolerance two sets are compared with.
  double spread = 0;
  int calls = 0;
};

// What the run found (recorded as `memory_plateau` in a space's context entry, schema 1.4).
struct MemoryPlateau {
  bool reached = false;
  // Reached: the smallest measured set on the plateau (a finer set between two octaves included).
  double start_bytes = 0;
  // The working set the sweep's DRAM points ran at: when reached, the octave after the
  // plateau's first (one doubling inside it, so an edge a neighbour moves leaves them on it), or
  // a recorded size that still holds; else the largest set measured (then B is a cache level's
  // or DRAM's, nobody knows which). Runs before 2026-12-07 put it on the first octave.
  double planned_bytes = 0;
  double largest_bytes = 0;
  // The machine's last-level cache as the context states it (every copy), 0 when unknown, and
  // how the plateau relates to the planner's old rule of 4 × that.
  double llc_bytes = 0;
  std::string basis;        // one sentence: how start_bytes was settled
  std::string stopped;      // not reached: why the search ended (memory limit, time budget)
  std::string measured_in;  // the space whose threads ran the search (host spaces share one)
  double tolerance = 0;
  std::vector<PlateauSet> sets;
};

// The plateau of one mix, from its sets in growing order (octaves, finer sets in between): the
// first set from which `agreeing` or more larger sets all follow, none of them falling below the
// set before it or below the first (not_falling: `tolerance` plus both sets' spreads). nullopt
// when no set has that many agreeing sets after it. `agreeing` 2 is "two successive doublings
// within noise"; 1 where the context's LLC predicted the start.
std::optional<double> plateau_start(const std::vector<PlateauSet>& sets, double tolerance,
                                    int agreeing);

// The sets of one mix, in growing order.
std::vector<PlateauSet> sets_of_mix(const std::vector<PlateauSet>& sets, const std::string& mix);

// Whether the bandwidth did not fall from `smaller` to `larger` (a larger working set) beyond the
// tolerance the rule uses: a larger set that streams faster is noise, not a cache level, while a
// smaller set faster than a larger one beyond noise is still a cache's.
bool not_falling(const PlateauSet& smaller, const PlateauSet& larger, double tolerance);

// A plateau searched anew where a recorded one (--plateau-from) did not hold: if tonight's begins
// at or below the recorded DRAM size, that size lies on it and the DRAM points keep it (their
// sizes and names, so a nightly does not lose them to a neighbour's burst during the
// confirmation); `searched.planned_bytes` becomes the recorded size and the basis says so.
// Returns whether it did.
bool keep_recorded_dram_size(MemoryPlateau& searched, const MemoryPlateau& recorded);

nlohmann::json to_json(const MemoryPlateau& p);
// Reads what to_json wrote; InputError naming `file` and `at` otherwise.
MemoryPlateau memory_plateau_from_json(const nlohmann::json& j, const std::string& file,
                                       const std::string& at);

}  // namespace ridgeline
