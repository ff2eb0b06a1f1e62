#pragma once
// A phase placed on a host's roofs: the roofline's attainable FLOP/s at the phase's intensity and
// the tokens per second that would give. An upper bound: no attention kernel, scheduler, launch
// or communication overhead is modelled, and only the counted bytes move.
//
// Each byte meets the roof of its direction: weights and KV reads the read roof B_read, KV
// appends the write roof B_write (B where that direction was not measured). The memory time is
// the sum of the two, not the longer: DRAM reads and writes share one bus, so a step's writes
// never hide under its reads, and each direction alone is the fastest that bus was measured.
#include <string>

#include "reports/workloads/phase_counts.hpp"
#include "reports/workloads/phase_roofs.hpp"

namespace ridgeline {

struct PhasePlacement {
  const char* compute_roof = "";  // "P_matrix" or "P_vector"
  const char* read_roof = "";     // "B_read", or "B" where no read roof was measured
  const char* write_roof = "";    // "B_write", or "B" where no write roof was measured
  bool memory_bound = false;
  double compute_s = 0, memory_s = 0;  // the phase's time on each side, at the roofs' values
  double bandwidth = 0;                // bytes / memory_s: the roofs' mix for this traffic
  double ridge = 0;                    // I* = compute roof / bandwidth, FLOP/byte
  double attainable = 0;               // FLOP/s
  RoofValue tokens_per_s;  // the interval from the roofs' intervals (every end low, every high)
  // The same phase with every byte on B, the read-write envelope (the one-roof answer): what the
  // split by direction changed.
  double tokens_per_s_on_b = 0;
  // "B_read + B_write", or the one roof the bytes met ("B_read" for a phase that writes nothing).
  std::string memory_roofs(const PhaseCounts& c) const;
  // The side that does not bound the phase, as a share of the one that does (< 1).
  double other_side_share() const {
    return memory_bound ? compute_s / memory_s : memory_s / compute_s;
  }
};

PhasePlacement place_phase(const PhaseCounts& counts, const PhaseRoofs& roofs);

}  // namespace ridgeline
