#pragma once
// Text helpers shared by the markdown writers.
#include <fmt/format.h>

#include <string>

namespace ridgeline {

// A table cell: pipes escaped, line breaks flattened.
inline std::string md_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n' || c == '\r')
      out += ' ';
    else
      out += c;
  }
  return out;
}

inline std::string pct(double v) { return fmt::format("{:.1f} %", 100 * v); }

}  // namespace ridgeline
