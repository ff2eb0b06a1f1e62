#include "render/units.hpp"

#include <fmt/format.h>

namespace ridgeline {
namespace {

struct Scale {
  double factor;
  const char* prefix;
};

Scale scale_for(double v) {
  if (v >= 1e12) return {1e12, "T"};
  if (v >= 1e9) return {1e9, "G"};
  if (v >= 1e6) return {1e6, "M"};
  return {1e3, "k"};
}

// Three significant digits are plenty for rates measured with percent-level noise.
std::string num(double v) {
  if (v >= 100) return fmt::format("{:.1f}", v);
  if (v >= 10) return fmt::format("{:.2f}", v);
  return fmt::format("{:.3f}", v);
}

}  // namespace

std::string format_flops(double v) {
  const Scale s = scale_for(v);
  return num(v / s.factor) + " " + s.prefix + "FLOP/s";
}

std::string format_bytes_per_s(double v) {
  const Scale s = scale_for(v);
  return num(v / s.factor) + " " + s.prefix + "B/s";
}

std::string format_intensity(double v) { return fmt::format("{:.3g} FLOP/byte", v); }

std::string format_flops_ci(const Interval& ci, double v) {
  const Scale s = scale_for(v);
  return "[" + num(ci.low / s.factor) + ", " + num(ci.high / s.factor) + "] " + s.prefix + "FLOP/s";
}

std::string format_bytes_ci(const Interval& ci, double v) {
  const Scale s = scale_for(v);
  return "[" + num(ci.low / s.factor) + ", " + num(ci.high / s.factor) + "] " + s.prefix + "B/s";
}

std::string format_intensity_ci(const Interval& ci) {
  return fmt::format("[{:.3g}, {:.3g}]", ci.low, ci.high);
}

std::string format_size_bytes(double b) {
  if (b >= 1 << 30) return fmt::format("{:.3g} GiB", b / (1 << 30));
  if (b >= 1 << 20) return fmt::format("{:.3g} MiB", b / (1 << 20));
  if (b >= 1 << 10) return fmt::format("{:.3g} KiB", b / (1 << 10));
  return fmt::format("{:.0f} B", b);
}

}  // namespace ridgeline
