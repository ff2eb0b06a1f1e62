#pragma once
// Text helpers shared by the readers: names from sheets, CPU models and model configurations are
// matched without regard to ASCII case.
#include <algorithm>
#include <cctype>
#include <string>

namespace ridgeline {

inline std::string lower_ascii(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

}  // namespace ridgeline
