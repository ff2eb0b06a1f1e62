#pragma once
// The CI regression gate: a change counts only when it is both large (beyond a threshold) and
// significant (a test over repetitions or bootstrap replicates says it is real). What the
// baseline measured and verified must still be there and verify: a point or roof that
// disappeared, was skipped or failed its check is a regression too, never "not compared".
#include <string>
#include <vector>

#include "fit/analysis.hpp"

namespace ridgeline {

// kFailed: verified in the baseline, failed verification now. kMissing: measured and verified
// (or fitted) in the baseline, absent, skipped or not fitted now.
enum class Verdict { kSame, kFaster, kSlower, kAmbiguous, kFailed, kMissing };
const char* verdict_name(Verdict v);

struct CompareOptions {
  double threshold_pct = 5;
  double alpha = 0.01;
};

struct MetricComparison {
  std::string metric;             // "B OpenMP/fp64" or a point name
  std::string baseline, current;  // formatted values
  double change = 0;              // relative change in throughput: current / baseline − 1
  double p_value = 1;
  Verdict verdict = Verdict::kSame;
  std::string note;  // why AMBIGUOUS, or which test
};

struct Comparison {
  std::vector<MetricComparison> roofs;    // P and B per space × dtype
  std::vector<MetricComparison> points;   // each probe point's median, matched by name
  std::vector<std::string> not_compared;  // new points, or points the baseline did not verify
  int count(Verdict v) const;
  int regressions() const;  // SLOWER + FAILED + MISSING: the gate fails when this is not 0
};

// Size first: within the threshold is SAME whatever the test says. Beyond it: FASTER/SLOWER when
// p < alpha, else AMBIGUOUS, with a note when the test could never reach alpha (too few samples).
Verdict decide(double change, double p_value, double min_p_value, const CompareOptions& o,
               std::string& note);

Comparison compare_files(const FileAnalysis& baseline, const FileAnalysis& current,
                         const CompareOptions& o);

}  // namespace ridgeline
