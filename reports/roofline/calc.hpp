#pragma once
// The roofline calculator: a table of attainable throughput at given intensities.
#include <string>
#include <vector>

#include "reports/roofline/model.hpp"

namespace ridgeline {

// Parses "1,10,ridge,1000": positive numbers or the word `ridge` (kept as a negative sentinel
// resolved against a roof by resolve_intensities). Throws InputError naming `field`.
std::vector<double> parse_intensities(const std::string& list, const std::string& field);
std::vector<double> resolve_intensities(const std::vector<double>& parsed, const Roof& roof);

// Header line plus one line per intensity, exactly as `ridgeline calc` prints it.
std::string format_calc_table(const std::string& name, const Roof& roof,
                              const std::vector<double>& intensities);

// One line for one intensity, the unit chosen from the roof's peak (TFLOP/s, GFLOP/s, MFLOP/s).
std::string format_calc_line(const Roof& roof, double intensity);

}  // namespace ridgeline
