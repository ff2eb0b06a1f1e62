#include "reports/workloads/speed_of_light.hpp"

#include <algorithm>
#include <string>

namespace ridgeline {
namespace {

double read_bytes(const PhaseCounts& c) { return c.weight_bytes + c.kv_read_bytes; }

// Seconds of the phase's traffic: reads at `read`, then writes at `write` (one bus).
double memory_seconds(const PhaseCounts& c, double read, double write) {
  return read_bytes(c) / read + c.kv_write_bytes / write;
}

// Tokens per second when the phase takes the longer of its compute and its memory time.
double tokens_per_s(const PhaseCounts& c, double peak, double read, double write) {
  return c.tokens() / std::max(c.flops / peak, memory_seconds(c, read, write));
}

}  // namespace

std::string PhasePlacement::memory_roofs(const PhaseCounts& c) const {
  if (c.kv_write_bytes == 0 || std::string(read_roof) == write_roof) return read_roof;
  if (read_bytes(c) == 0) return write_roof;
  return std::string(read_roof) + " + " + write_roof;
}

PhasePlacement place_phase(const PhaseCounts& counts, const PhaseRoofs& roofs) {
  const RoofValue& read = roofs.b_read ? *roofs.b_read : roofs.b;
  const RoofValue& write = roofs.b_write ? *roofs.b_write : roofs.b;
  const RoofValue& compute = roofs.compute();
  PhasePlacement p;
  p.compute_roof = roofs.compute_name();
  p.read_roof = roofs.b_read ? "B_read" : "B";
  p.write_roof = roofs.b_write ? "B_write" : "B";
  p.compute_s = counts.flops / compute.value;
  p.memory_s = memory_seconds(counts, read.value, write.value);
  p.memory_bound = p.memory_s >= p.compute_s;
  p.bandwidth = counts.bytes() / p.memory_s;
  const Roof roof{compute.value, p.bandwidth};
  p.ridge = roof.ridge_point();
  p.attainable = roof.attainable(counts.intensity());
  p.tokens_per_s = {tokens_per_s(counts, compute.value, read.value, write.value),
                    {tokens_per_s(counts, compute.ci.low, read.ci.low, write.ci.low),
                     tokens_per_s(counts, compute.ci.high, read.ci.high, write.ci.high)}};
  p.tokens_per_s_on_b = tokens_per_s(counts, compute.value, roofs.b.value, roofs.b.value);
  return p;
}

}  // namespace ridgeline
