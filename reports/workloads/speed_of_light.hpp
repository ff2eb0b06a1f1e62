#pragma once
// A phase placed on a host's roofs: the roofline's attainable FLOP/s at the phase's intensity and
// the tokens per second that would give. An upper bound: no attention kernel, scheduler, launch
// or communication overhead is modelled, and only the counted bytes move.
#include "reports/workloads/phase_counts.hpp"
#include "reports/workloads/phase_roofs.hpp"

namespace ridgeline {

// A phase whose bytes are at least this share reads is held against B_read when the fit has it.
inline constexpr double kReadDominated = 0.9;

struct PhasePlacement {
  const char* compute_roof = "";  // "P_matrix" or "P_vector"
  const char* memory_roof = "";   // "B_read" or "B"
  bool memory_bound = false;
  double ridge = 0;        // I* = compute / memory roof, FLOP/byte
  double attainable = 0;   // FLOP/s
  RoofValue tokens_per_s;  // the interval from the roofs' intervals (both ends low, both high)
};

PhasePlacement place_phase(const PhaseCounts& counts, const PhaseRoofs& roofs);

}  // namespace ridgeline
