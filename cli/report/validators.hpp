#pragma once
// CLI11 validators with messages a user can act on (CLI11's own PositiveNumber prints the whole
// double range, and its Range lets NaN through).
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdlib>
#include <string>

namespace ridgeline {

// A finite number in (low, high), or [low, high] when `inclusive`; NaN and infinity never pass
// (CLI::Range lets NaN through: every comparison with it is false).
inline CLI::Validator number_in_range(double low, double high, bool inclusive) {
  const std::string range =
      inclusive ? fmt::format("[{:g}, {:g}]", low, high) : fmt::format("({:g}, {:g})", low, high);
  return CLI::Validator(
      [low, high, inclusive, range](std::string& s) -> std::string {
        char* end = nullptr;
        const double v = std::strtod(s.c_str(), &end);
        const bool inside = inclusive ? (v >= low && v <= high) : (v > low && v < high);
        if (s.empty() || end != s.c_str() + s.size() || !std::isfinite(v) || !inside)
          return "must be a number in " + range + ", got '" + s + "'";
        return {};
      },
      "NUMBER in " + range, "number in " + range);
}

}  // namespace ridgeline
