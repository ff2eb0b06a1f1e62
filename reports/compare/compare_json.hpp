#pragma once
// compare.json, the gate's contract with scripts (scripts/nightly through `ridgeline gate`,
// scripts/gate-aa, the CI workflow): one typed shape, one writer, one reader. Every field is
// described in reports/compare/schema.md; a field added here bumps kCompareSchemaVersion's minor
// version and gets its line there.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "reports/compare/comparison.hpp"
#include "reports/compare/kernel_compare.hpp"

namespace ridgeline {

// 1.4.0: the shared_level fields (per metric and the shared_levels counts), added without a bump
// under 1.3.0. 1.5.0: the re-measure (remeasure, not_reproduced, options.remeasured, each
// metric's remeasure; history_decision transient_kept_out). 1.6.0: more than one re-measure
// (remeasures, each metric's remeasures; options.remeasured a count, 1.5.0's true read as 1).
// 1.7.0: each point's level (where its working set lives; older files read as null). 1.8.0:
// metrics of kind "level", a level's points together (compare/level_factors.hpp). 1.9.0: each
// metric's host_clock_mhz and history_host_clock_mhz (older files read as null). 1.9.2: a roof's
// p_value no smaller than T_n's (no field changed). The reader takes any 1.x.
inline constexpr const char* kCompareSchemaVersion = "1.9.2";

// A history file left out (or, the baseline, fatal) because it could not be used: its path, its
// role ("baseline": the first file, or "history") and compare's one-line error.
struct UnreadableFile {
  std::string file, role, error;
};

// A point judged against its history's range (compare/shared_level.hpp), as written.
struct SharedLevelRecord {
  std::string reason;
  std::optional<double> history_lowest, history_highest, dram_floor;
  std::string outcome;  // range_outcome_name
};

// A re-measure's reading of a slowdown (results only): which re-measure, its change and verdict.
struct RemeasureRecord {
  std::string label;
  std::optional<double> change;
  std::string verdict;
};

// One entry of "metrics" (kind machine, roof, point) or of "kernels" (kind kernel; its
// fraction_of_roof is kind fraction). Which keys the entry has follows from its kind: roofs add
// the absolute_* fields, kernels the fraction_of_roof, roof_change, cause and explanation.
struct CompareMetric {
  std::string metric, kind, unit;
  std::optional<double> baseline, current, change, tolerance, min_detectable_change, spread;
  int history_nights = 0;
  std::optional<double> p_value, q_value;
  std::string verdict, note;
  bool clock_limited = false;
  std::optional<double> sm_clock_mhz, history_sm_clock_mhz;
  std::optional<double> host_clock_mhz, history_host_clock_mhz;  // since 1.9.0
  std::vector<std::string> new_throttle_reasons;
  int throttled_samples = 0;
  std::optional<double> change_per_cycle;
  bool machine_busy = false;
  std::optional<double> cpu_wait_share, history_cpu_wait_share;
  std::optional<SharedLevelRecord> shared_level;
  // kind "point" (since 1.7.0): where tonight's working set lives (MetricComparison::level);
  // kind "level" (since 1.8.0): the level its points lie in, "P" for the peak points.
  std::optional<std::string> level;
  // A slowdown held to tonight's re-measures: the change and verdict of the one that decided
  // (the first that contradicted it, else the last), and every re-measure's (results only).
  std::optional<double> remeasure_change;
  std::optional<std::string> remeasure_verdict;
  std::vector<RemeasureRecord> remeasures;
  // kind "roof"
  std::optional<double> relative_change, absolute_baseline, absolute_change, absolute_tolerance;
  // kind "kernel": at most one entry (kind "fraction"); a vector, as the type is recursive.
  std::vector<CompareMetric> fraction_of_roof;
  std::optional<double> roof_change;
  std::optional<std::string> cause;  // machine, code, both, unknown; null: not slower
  std::string explanation;
};

struct CompareFile {
  std::string schema_version = kCompareSchemaVersion;
  // "results" (results files; written without a kind key), "kernels" (kernels files), or
  // "unreadable_baseline": the baseline could not be read, and the file holds schema_version,
  // verdict and history_decision (both null) and unreadable only.
  std::string kind = "results";
  std::optional<std::string> verdict;           // "REGRESSION" or "no regression"
  std::optional<std::string> history_decision;  // joins, regressed, busy_kept_out,
                                                // transient_kept_out (results)
  std::vector<UnreadableFile> unreadable;
  int regressions = 0;
  bool gates_speed = false;
  // results only
  std::optional<std::string> machine_verdict;
  std::vector<std::string> machine_roofs;
  std::vector<std::string> busy_history;
  int quiet_history_nights = 0;
  std::optional<double> night_cpu_wait_share;
  bool busy_night = false;
  std::map<std::string, int> shared_levels;  // "points" and one count per range outcome
  // The re-measures' labels, in the order they were measured (written also as "remeasure", the
  // first's, for 1.5.0 readers), and the slowdowns they did not reproduce (AMBIGUOUS).
  std::vector<std::string> remeasures;
  int not_reproduced = 0;
  // both
  std::vector<std::string> history;
  std::string current;
  CompareOptions options;  // kernels files write threshold_pct, alpha, k and min_history only
  std::map<std::string, int> counts;
  std::vector<CompareMetric> metrics;  // written as "kernels" for kernels files
  std::vector<std::string> not_compared;

  bool has_comparison() const { return kind != "unreadable_baseline"; }
};

// The file for a comparison of results files (label: tonight's), of kernels files, and for a
// baseline that could not be read.
CompareFile compare_file(const std::string& label, const Comparison& c, const CompareOptions& o,
                         const std::vector<UnreadableFile>& unreadable);
CompareFile kernels_compare_file(const std::string& label, const KernelsComparison& c,
                                 const CompareOptions& o,
                                 const std::vector<UnreadableFile>& unreadable);
CompareFile unreadable_baseline_file(const UnreadableFile& baseline);

// The text of compare.json (one-space indent, keys sorted, a final newline).
std::string write_compare_json(const CompareFile& f);

// Reads compare.json (`file` names it in errors): InputError, one line naming the file and the
// field, for anything the writer would not have written; a major version other than 1 too.
CompareFile parse_compare_json(const std::string& text, const std::string& file);
CompareFile read_compare_json(const std::string& path);

// How many slowdowns a busy machine explains (metrics with machine_busy): made AMBIGUOUS, not
// gated.
int busy_slowdowns(const CompareFile& f);

}  // namespace ridgeline
