#include "core/units.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

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
  // Beyond the largest prefix by far (a hostile count, never a measured rate): an exponent, not
  // a 300-digit number.
  if (!std::isfinite(v) || std::fabs(v) >= 1e5) return fmt::format("{:.4g}", v);
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

std::string format_sig(double v, int digits) {
  if (!std::isfinite(v) || v == 0) return fmt::format("{:g}", v);
  // Fixed notation for what a table shows; an exponent beyond it, where fixed notation would
  // print up to 300 digits (a finite but extreme count or time from a hostile file).
  if (std::fabs(v) >= 1e15 || std::fabs(v) < 1e-6) return fmt::format("{:.{}g}", v, digits);
  const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(v))));
  const int decimals = std::max(0, digits - 1 - magnitude);
  std::string s = fmt::format("{:.{}f}", v, decimals);
  // Rounding can carry into a new digit (9.996 -> "10.00"): one decimal fewer keeps `digits`.
  if (decimals > 0 && std::fabs(std::strtod(s.c_str(), nullptr)) >= std::pow(10.0, magnitude + 1))
    s = fmt::format("{:.{}f}", v, decimals - 1);
  // As %g does: no trailing zeros ("32", not "32.0").
  if (s.find('.') != std::string::npos) {
    s.erase(s.find_last_not_of('0') + 1);
    if (s.back() == '.') s.pop_back();
  }
  return s;
}

std::string format_intensity(double v) { return format_sig(v) + " FLOP/byte"; }

std::string format_flops_ci(const Interval& ci, double v) {
  const Scale s = scale_for(v);
  return "[" + num(ci.low / s.factor) + ", " + num(ci.high / s.factor) + "] " + s.prefix + "FLOP/s";
}

std::string format_bytes_ci(const Interval& ci, double v) {
  const Scale s = scale_for(v);
  return "[" + num(ci.low / s.factor) + ", " + num(ci.high / s.factor) + "] " + s.prefix + "B/s";
}

std::string format_flops_with_ci(double v, const Interval& ci) {
  const Scale s = scale_for(v);
  return num(v / s.factor) + " [" + num(ci.low / s.factor) + ", " + num(ci.high / s.factor) + "] " +
         s.prefix + "FLOP/s";
}

std::string format_bytes_with_ci(double v, const Interval& ci) {
  const Scale s = scale_for(v);
  return num(v / s.factor) + " [" + num(ci.low / s.factor) + ", " + num(ci.high / s.factor) + "] " +
         s.prefix + "B/s";
}

std::string format_intensity_ci(const Interval& ci) {
  return "[" + format_sig(ci.low) + ", " + format_sig(ci.high) + "]";
}

std::string format_size_bytes(double b) {
  if (b >= double(1ull << 40)) return format_sig(b / double(1ull << 40)) + " TiB";
  if (b >= 1 << 30) return format_sig(b / (1 << 30)) + " GiB";
  if (b >= 1 << 20) return format_sig(b / (1 << 20)) + " MiB";
  if (b >= 1 << 10) return format_sig(b / (1 << 10)) + " KiB";
  return fmt::format("{:.0f} B", b);
}

std::string format_seconds(double s) {
  if (!std::isfinite(s)) return "n/a";
  if (s >= 1) return format_sig(s) + " s";
  if (s >= 1e-3) return format_sig(s * 1e3) + " ms";
  if (s >= 1e-6) return format_sig(s * 1e6) + " µs";
  return format_sig(s * 1e9) + " ns";
}

}  // namespace ridgeline
