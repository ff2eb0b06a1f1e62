#pragma once
// The Google Benchmark side of the sweep: a reporter that hands every point's repetitions to the
// Sweep (verify, record) and shows Google Benchmark's own table with --verbose.
#include <benchmark/benchmark.h>

#include <vector>

#include "harness/sweep/sweep.hpp"

namespace ridgeline {

// Collects every repetition for the results file; shows Google Benchmark's table with --verbose.
class GbenchCollector final : public benchmark::ConsoleReporter {
 public:
  GbenchCollector(Sweep& sweep, bool show_table, bool aggregates_only);

  bool ReportContext(const Context& context) override;
  void ReportRuns(const std::vector<Run>& runs) override;

 private:
  Sweep& sweep_;
  bool show_table_, aggregates_only_;
};

}  // namespace ridgeline
