#pragma once
// How an Lt library's algorithm is chosen for one GEMM, the same on cuBLASLt and hipBLASLt: each
// of the heuristic's candidates is launched once untimed (one that fails is passed over, not an
// error of the point) and then timed `timed_runs` times; the one with the fastest single run is
// kept. Runtime-free (the launches and timings come in as callables), so it is unit-tested in the
// CPU build.
#include <stdexcept>
#include <string>

#include "backends/vendor_gemm.hpp"

namespace ridgeline {

// What cuBLASLt and hipBLASLt are asked for: the heuristic's first kLtCandidates algorithms,
// each timed kLtTimedRuns times after its untimed launch. One place, because the plan's time
// estimate (harness/sweep/plan_estimate.hpp) counts these calls too: up to
// kLtCandidates × (1 + kLtTimedRuns) GEMMs in every vendor_gemm point's setup.
inline constexpr int kLtCandidates = 8;
inline constexpr int kLtTimedRuns = 3;

// `usable(r)`: the heuristic's own state for candidate r; `warm(r)`: one untimed launch, true
// when it ran; `timed(r)`: one timed launch, its seconds, or <= 0 when it did not run. Fills
// `choice`'s candidates, tried, heuristic_rank and seconds, and returns the rank kept; throws
// when no candidate ran (`what` names the heuristic).
template <class Usable, class Warm, class Timed>
int fastest_candidate(int candidates, int timed_runs, Usable usable, Warm warm, Timed timed,
                      GemmChoice& choice, const std::string& what) {
  choice.candidates = candidates;
  choice.tried = 0;
  choice.heuristic_rank = -1;
  choice.seconds = 0;
  for (int r = 0; r < candidates; ++r) {
    if (!usable(r) || !warm(r)) continue;
    ++choice.tried;
    double fastest = 0;
    for (int i = 0; i < timed_runs; ++i) {
      const double s = timed(r);
      if (s > 0 && (fastest == 0 || s < fastest)) fastest = s;
    }
    if (fastest > 0 && (choice.heuristic_rank < 0 || fastest < choice.seconds)) {
      choice.heuristic_rank = r;
      choice.seconds = fastest;
    }
  }
  if (choice.heuristic_rank < 0)
    throw std::runtime_error("none of the " + std::to_string(candidates) + " algorithms " + what +
                             " offered ran");
  return choice.heuristic_rank;
}

}  // namespace ridgeline
