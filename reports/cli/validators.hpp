#pragma once
// CLI11 validators with messages a user can act on (CLI11's own PositiveNumber prints the whole
// double range).
#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdlib>
#include <string>

namespace ridgeline {

inline const CLI::Validator kPositiveNumber(
    [](std::string& s) -> std::string {
      char* end = nullptr;
      const double v = std::strtod(s.c_str(), &end);
      if (s.empty() || end != s.c_str() + s.size() || !std::isfinite(v) || v <= 0)
        return "must be a positive number, got '" + s + "'";
      return {};
    },
    "POSITIVE", "positive number");

}  // namespace ridgeline
