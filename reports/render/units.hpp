#pragma once
// Human-readable rates: one unit per value, chosen from its size, and intervals in the same unit.
#include <string>

#include "fit/roofline_fit.hpp"

namespace ridgeline {

std::string format_flops(double flops_per_s);        // "200.1 GFLOP/s"
std::string format_bytes_per_s(double bytes_per_s);  // "50.12 GB/s"
std::string format_intensity(double flop_per_byte);  // "4.00 FLOP/byte"
// "[198.1, 202.0] GFLOP/s": the unit of `v` applied to both ends.
std::string format_flops_ci(const Interval& ci, double v);
std::string format_bytes_ci(const Interval& ci, double v);
std::string format_intensity_ci(const Interval& ci);
std::string format_size_bytes(double bytes);  // "48 KiB", "32 MiB"

}  // namespace ridgeline
