#include "reports/compare/comparison.hpp"

namespace ridgeline {

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::kFaster:
      return "FASTER";
    case Verdict::kSlower:
      return "SLOWER";
    case Verdict::kAmbiguous:
      return "AMBIGUOUS";
    case Verdict::kFailed:
      return "FAILED";
    case Verdict::kMissing:
      return "MISSING";
    default:
      return "SAME";
  }
}

const char* range_outcome_name(RangeOutcome r) {
  switch (r) {
    case RangeOutcome::kVariedWithNeighbours:
      return "varied with neighbours";
    case RangeOutcome::kAboveHistory:
      return "above its history";
    case RangeOutcome::kBelowHistory:
      return "below its history, not below DRAM";
    case RangeOutcome::kBelowDram:
      return "below its history and DRAM";
    default:
      return "within tolerance";
  }
}

int Comparison::count(Verdict v) const {
  int n = 0;
  for (const auto& m : roofs) n += m.verdict == v;
  for (const auto& m : points) n += m.verdict == v;
  if (machine) n += machine->verdict == v;
  for (const auto& m : levels) n += m.verdict == v;
  return n;
}

int Comparison::regressions() const {
  return (gates_speed ? count(Verdict::kSlower) : 0) + count(Verdict::kFailed) +
         count(Verdict::kMissing);
}

}  // namespace ridgeline
