#pragma once
// Colour on a terminal only, never when NO_COLOR is set (https://no-color.org), so logs and
// pipes stay plain text.
#include <unistd.h>

#include <cstdlib>
#include <string>

namespace ridgeline {

inline bool color_enabled(int fd) {
  const char* no_color = std::getenv("NO_COLOR");
  return isatty(fd) && !(no_color && *no_color);
}

// Bold red: FAILED, SLOWER.
inline std::string paint_bad(const std::string& text, bool on) {
  return on ? "\033[1;31m" + text + "\033[0m" : text;
}

// Yellow: skipped points.
inline std::string paint_warn(const std::string& text, bool on) {
  return on ? "\033[33m" + text + "\033[0m" : text;
}

}  // namespace ridgeline
