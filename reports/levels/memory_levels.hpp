#pragma once
// Memory levels from a cache sweep: steps in bandwidth found in the data (changepoints in log
// bandwidth over log working set), then named from the cache sizes the context records.
#include <string>
#include <vector>

#include "reports/roofline/roofline_fit.hpp"
#include "results/results_model.hpp"

namespace ridgeline {

struct SweepPoint {
  double working_set_bytes;
  double bytes_per_s;
  const Point* point = nullptr;  // its repetitions give the plateau's interval
};

// Plateaus: index ranges [begin, end) of the points sorted by working set.
struct Segment {
  std::size_t begin, end;
};

// Optimal partition of log bandwidth into constant pieces (at least kMinPlateauPoints each) with
// a penalty per piece of kPlateauPenaltyFactor·σ²·ln n, σ the noise estimated from neighbouring
// points, so a step must stand out of the noise to count; no fixed ratio between neighbours is
// assumed.
inline constexpr int kMinPlateauPoints = 2;
inline constexpr double kPlateauPenaltyFactor = 3;
std::vector<Segment> find_plateaus(const std::vector<double>& log_bandwidth);

// find_plateaus, bounded in time: sweeps of more than 2048 points are partitioned on the medians
// of consecutive runs of points; segments are returned in the indices of `log_bandwidth`.
std::vector<Segment> plateaus_of_long_sweep(const std::vector<double>& log_bandwidth);

struct MemoryLevel {
  // L1, L2, L3 (LLC), MALL, DRAM, device memory; "level k" when no sizes are known; for a
  // transition, "L1 → L2" (the capacity below it and the level it leads to).
  std::string name;
  double min_working_set = 0, max_working_set = 0;
  double bandwidth = 0;   // robust location of the plateau, byte/s
  Interval bandwidth_ci;  // 95 %, from the repetition bootstrap of its points (fit_level)
  int points = 0;
  // A plateau that is not a level of its own: between two capacities, before the plateau that
  // reaches the next one (the lower level still serves part of the set), or one slower than the
  // level after it (an artifact of how the sweep runs there). Not drawn as a roof.
  bool transition = false;
  std::string note;  // why it is a transition, or empty
};

struct LevelSweep {
  std::string probe;  // cache_update, cache_read, cache_triad
  std::vector<MemoryLevel> levels;
};

// What each cache level holds for the whole space, smallest first: a per-core cache serves every
// thread that shares none of it, so a host space with 2 threads has twice the L1 of one core.
// A GPU space has the L1 of one SM (CU): the cache sweep's small sets are read by threads on
// every SM, so each SM's L1 holds the whole set; then the L2, then a MALL (MI300's Infinity
// Cache) where the context records one. Named L1, L2, L3 (LLC), MALL.
struct CacheCapacity {
  std::string name;
  double bytes;
  // A GPU's L1: one SM's (CU's), which holds a set every SM reads, not the sum over SMs (on an
  // H200 the 4–128 KiB sets ran at 31 TB/s and 256 KiB – 32 MiB fell to the L2's 8.7 TB/s,
  // where 132 × 256 KiB would call all of them L1).
  bool per_unit = false;
};
std::vector<CacheCapacity> cache_capacities(const Results& r, const std::string& space);

// One sweep per cache probe of this space × dtype (verified, measured points only).
std::vector<LevelSweep> detect_memory_levels(const Results& r, const std::string& space,
                                             const std::string& dtype,
                                             int replicates = kBootstrapReplicates,
                                             std::uint64_t seed = kBootstrapSeed);

}  // namespace ridgeline
