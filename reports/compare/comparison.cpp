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

int Comparison::count(Verdict v) const {
  int n = 0;
  for (const auto& m : roofs) n += m.verdict == v;
  for (const auto& m : points) n += m.verdict == v;
  if (machine) n += machine->verdict == v;
  return n;
}

int Comparison::regressions() const {
  return (gates_speed ? count(Verdict::kSlower) : 0) + count(Verdict::kFailed) +
         count(Verdict::kMissing);
}

}  // namespace ridgeline
