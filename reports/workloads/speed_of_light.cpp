#include "reports/workloads/speed_of_light.hpp"

#include <algorithm>

namespace ridgeline {
namespace {

// Tokens per second when the phase takes the longer of its compute and its memory time.
double tokens_per_s(const PhaseCounts& c, double peak, double bandwidth) {
  return c.tokens() / std::max(c.flops / peak, c.bytes() / bandwidth);
}

}  // namespace

PhasePlacement place_phase(const PhaseCounts& counts, const PhaseRoofs& roofs) {
  const bool read_roof = roofs.b_read && counts.read_share() >= kReadDominated;
  const RoofValue& memory = read_roof ? *roofs.b_read : roofs.b;
  const RoofValue& compute = roofs.compute();
  PhasePlacement p;
  p.compute_roof = roofs.compute_name();
  p.memory_roof = read_roof ? "B_read" : "B";
  const Roof roof{compute.value, memory.value};
  p.ridge = roof.ridge_point();
  p.memory_bound = roof.memory_bound(counts.intensity());
  p.attainable = roof.attainable(counts.intensity());
  p.tokens_per_s = {tokens_per_s(counts, compute.value, memory.value),
                    {tokens_per_s(counts, compute.ci.low, memory.ci.low),
                     tokens_per_s(counts, compute.ci.high, memory.ci.high)}};
  return p;
}

}  // namespace ridgeline
