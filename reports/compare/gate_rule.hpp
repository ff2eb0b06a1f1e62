#pragma once
// What makes a metric SAME, FASTER, SLOWER or AMBIGUOUS: its tolerance from the history's spread,
// the test's significance after the Benjamini–Hochberg adjustment, and the smallest change the
// gate can detect.
#include <cstddef>
#include <string>
#include <vector>

#include "core/stats.hpp"  // robust_log_spread, part of compare.hpp's API
#include "reports/compare/comparison.hpp"

namespace ridgeline {

// Size first: within the tolerance (a slowdown fraction, symmetric on a log scale) is SAME
// whatever the test says. Beyond it: FASTER/SLOWER when
// p < alpha, else AMBIGUOUS, with a note when the test could never reach alpha (too few samples).
Verdict decide(double change, double tolerance, double p_value, double min_p_value, double alpha,
               std::string& note);

// q-values of Benjamini–Hochberg's step-up procedure, in the order of `p`.
std::vector<double> benjamini_hochberg(const std::vector<double>& p);

// The slowdown a spread (of logs) tolerates: the larger of --threshold and --k spreads.
double tolerance_of(double spread, const CompareOptions& o);

// Baseline (the median), spread and tolerance of a metric from its values on the history nights.
void set_history(MetricComparison& m, const std::vector<double>& values, const CompareOptions& o);

// The z with a two-sided normal p of `p`.
double z_two_sided(double p);

// A metric the baseline had and tonight lost: MISSING, with `why`.
MetricComparison missing(const std::string& metric, bool roof, const std::string& baseline,
                         double baseline_value, const std::string& why);

// Floors the spreads of `list` (the tested ones: `which`), sets the tolerances and decides;
// `tests`: how many p-values the Benjamini–Hochberg adjustment spread alpha over.
// `few_nights`: a change must also be significant against the history's spread as that many
// nights know it (T_n, compare/few_nights.hpp): for metrics whose own test sees the night-to-night
// noise only through the few history nights (the roofs' bootstrap pairs tonight with each).
void decide_all(std::vector<MetricComparison>& list, const std::vector<std::size_t>& which,
                std::size_t tests, const CompareOptions& o, bool few_nights = false);

// "spread 1.2 % over 5 nights", or "spread unknown (2 nights)".
std::string spread_note(const MetricComparison& m);

}  // namespace ridgeline
