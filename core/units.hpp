#pragma once
// Human-readable rates: one unit per value, chosen from its size, and intervals in the same unit.
#include <string>

#include "core/interval.hpp"

namespace ridgeline {

std::string format_flops(double flops_per_s);        // "200.1 GFLOP/s"
std::string format_bytes_per_s(double bytes_per_s);  // "50.12 GB/s"
std::string format_intensity(double flop_per_byte);  // "4.00 FLOP/byte"
// "[198.1, 202.0] GFLOP/s": the unit of `v` applied to both ends.
std::string format_flops_ci(const Interval& ci, double v);
std::string format_bytes_ci(const Interval& ci, double v);
std::string format_intensity_ci(const Interval& ci);
// "198.7 [194.5, 203.6] GFLOP/s": a value and its interval, the unit once.
std::string format_flops_with_ci(double v, const Interval& ci);
std::string format_bytes_with_ci(double v, const Interval& ci);
std::string format_size_bytes(double bytes);  // "48 KiB", "32 MiB", "1020 KiB" (never 1.02e+03)
std::string format_seconds(double s);         // "94.2 µs", "1.72 ms", "3.05 s"
// At most `digits` significant digits in fixed notation, no exponent, no trailing zeros (%g
// without its exponent): 4.46025 -> "4.46", 1000 -> "1000", 0.0625 -> "0.0625". Beyond 1e15 or
// below 1e-6 (no measured figure; a hostile file's), %g with its exponent: "1e+300".
std::string format_sig(double v, int digits = 3);

}  // namespace ridgeline
