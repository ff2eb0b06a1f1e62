#pragma once
// What a spread from a few nights can promise. Every metric the gate judges by its history (the
// machine-wide factor, the roofs, the points) is judged in units of its robust spread across the
// history nights (robust_log_spread over 3 to 7 of them), and that spread is itself an estimate
// from a few values: for normal nights, 7 put it below a third of the true spread in 5 % of
// histories, 3 below a fourteenth. So tonight's value, counted in spreads, scatters far wider
// than a normal z: with 7 nights of history 2.2 % of A/A nights reach 5 spreads (a normal z: 6 in
// 10 million), with 3 nights 14 %. So a statistic judged by its spread alone (the machine-wide
// factor, a level's points together: compare/machine_factor.hpp) is tested with T_n's p-value,
// not a normal z's (1 % two-sided: 73 spreads for 3 nights, 12 for 4 or 5, 6.8 for 6 or 7); so
// are the roofs (P, B, B_read, P_matrix), whose own test (a bootstrap pairing tonight with each
// history night, or their intervals) sees the night-to-night noise only through those nights,
// besides their 10 spreads; the points, tested on their repetitions (Mann–Whitney), are held to 10
// spreads, each spread floored by half the median of the host's points'. And the printed minimum
// detectable change is a promise to catch a change in 95 % of nights: with a normal z's 1.645
// spreads past the threshold 7 normal nights keep it in 89 %, 5 in 87 %.
//
// So the promise uses the distribution of
//   T_n = (x − median(x_1 … x_n)) / robust_log_spread(x_1 … x_n)
// for n + 1 independent normal values (a Student-like t for the median and the MAD), simulated
// once per n with a fixed seed: every run and every host gets the same figures (95 %: 7.1
// spreads for 3 nights, 2.6 for 7; a normal z: 1.645). Where the gate raised the spread (to the
// nights' own standard error, or for a noisier night) the figure is conservative. What it cannot
// see: nights that are not alike. On the development VM's 28-night series (issue 49) the spread
// of the 7 nights before each night ranged 1.0–11 % around a factor whose spread over all 28 was
// 3.0 %; after a quiet week two nights wandered 4–5 of its spreads, and the machine-wide promise
// of 10 % missed there with T_7 as with z (without re-measures, 2 of 5 kept either way).
#include <cstddef>

namespace ridgeline {

// The value T_n stays below with probability `p` (0.5 ≤ p < 1; T_n is symmetric). `nights` (n)
// from 3; counts above 64 use 64's distribution (slightly wider than theirs).
double few_nights_quantile(std::size_t nights, double p);

// The two-sided p-value of tonight's value lying `t` spreads from the history's median, the spread
// from `nights` nights (3 on; counts above 64 as 64): the share of |T_n| at or beyond |t|, at
// least one draw's (1 / kFewNightsDraws). What a statistic judged against its own spread across
// the history nights is tested with (compare/machine_factor.hpp): with 3 nights a normal z's 5
// spreads are passed by 14 % of normal nights, T_3's 1 % two-sided needs 73.
double few_nights_p_value(std::size_t nights, double t);

// The share of nights in which a printed minimum detectable change is caught.
inline constexpr double kDetectionPower = 0.95;

// How many spreads past its threshold a change must lie to be caught in kDetectionPower of
// nights, tonight scattering as a spread from `nights` nights knows it: T_n's quantile. Held to
// `remeasured` re-measures (compare/remeasure.hpp) a change is called only when all k + 1 runs
// call it, so each must catch it in 95 %^(1/(k+1)) of nights (7 nights: 2.56 spreads, 3.54 with
// one re-measure, 4.24 with two).
double detection_margin(std::size_t nights, int remeasured);

// The change of throughput caught in kDetectionPower of nights: `threshold_log` (the slowdown, in
// log units, past which the verdict calls it) plus detection_margin spreads; the threshold alone
// where the spread is unknown (< 0) or from fewer than 3 nights. What every printed minimum
// detectable change of the gate is (points, roofs, kernels, the machine-wide factor).
double detectable_change(double threshold_log, double spread, std::size_t nights, int remeasured);

// Histories simulated per n, once per process and n (28 ms for 7 nights, 190 ms for 64 on the
// development Xeon, -O3): tests/reports/few_nights_test.cpp, drawing its own histories with
// another generator, finds the 95 % quantile held in 95 ± 0.6 % of them.
inline constexpr std::size_t kFewNightsDraws = 40000;

}  // namespace ridgeline
