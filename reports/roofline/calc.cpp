#include "reports/roofline/calc.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>

#include "core/input_error.hpp"
#include "core/units.hpp"

namespace ridgeline {
namespace {

constexpr double kRidgeSentinel = -1.0;

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return {};
  const auto e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}

struct Unit {
  double scale;
  const char* name;
};

Unit unit_for(double peak) {
  if (peak >= 1e12) return {1e12, "TFLOP/s"};
  if (peak >= 1e9) return {1e9, "GFLOP/s"};
  return {1e6, "MFLOP/s"};
}

}  // namespace

std::vector<double> parse_intensities(const std::string& list, const std::string& field) {
  std::vector<double> out;
  if (trim(list).empty()) throw InputError("", field, "empty intensity list");
  std::size_t start = 0;
  while (start <= list.size()) {
    const auto comma = list.find(',', start);
    const std::string item =
        trim(list.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (item == "ridge") {
      out.push_back(kRidgeSentinel);
    } else {
      char* end = nullptr;
      const double v = item.empty() ? 0.0 : std::strtod(item.c_str(), &end);
      if (item.empty() || end != item.c_str() + item.size() || !std::isfinite(v) || v <= 0)
        throw InputError("", field,
                         "'" + item + "' is not a positive number or 'ridge' (in '" + list + "')");
      if (v < kMinIntensity || v > kMaxIntensity)
        throw InputError("", field,
                         fmt::format("'{}' is outside [{:g}, {:g}] FLOP/byte", item, kMinIntensity,
                                     kMaxIntensity));
      out.push_back(v);
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

std::vector<double> resolve_intensities(const std::vector<double>& parsed, const Roof& roof) {
  std::vector<double> out;
  out.reserve(parsed.size());
  for (double v : parsed) out.push_back(v == kRidgeSentinel ? roof.ridge_point() : v);
  return out;
}

std::string format_calc_line(const Roof& roof, double intensity) {
  const Unit u = unit_for(roof.peak_flops);
  const double attainable = roof.attainable(intensity);
  return fmt::format("I={:>7} FLOP/byte -> {:6.1f} {} ({:5.1f}% of peak, {})",
                     format_sig(intensity), attainable / u.scale, u.name,
                     100.0 * attainable / roof.peak_flops,
                     roof.memory_bound(intensity) ? "memory-bound" : "compute-bound");
}

std::string format_calc_table(const std::string& name, const Roof& roof,
                              const std::vector<double>& intensities) {
  std::string out =
      fmt::format("{}: ridge point I* = {} FLOP/byte\n\n", name, format_sig(roof.ridge_point()));
  for (double i : intensities) out += format_calc_line(roof, i) + "\n";
  return out;
}

}  // namespace ridgeline
