#include "reports/export/github_action_benchmark.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "core/units.hpp"

namespace ridgeline {
namespace {

// Six significant digits: the range is text for a tooltip, the value carries the full number.
std::string range_text(const Interval& ci, double scale) {
  return fmt::format("{:.6g} .. {:.6g}", ci.low / scale, ci.high / scale);
}

std::string joined_notes(const ExportedGroup& g) {
  std::string s;
  for (const auto& n : g.notes) s += "; note: " + n;
  return s;
}

nlohmann::json roof_entry(const ExportedGroup& g, const std::string& roof, const char* unit,
                          double scale, const ExportedRoof& r, const std::string& notes) {
  return {{"name", group_label(g) + " " + roof},
          {"unit", unit},
          {"value", r.value / scale},
          {"range", range_text(r.ci, scale)},
          {"extra", "95% interval from " + g.interval_method + "; defined by " + r.from + notes}};
}

}  // namespace

std::string github_action_benchmark_json(const RoofExport& roofs) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& g : roofs.groups) {
    const std::string notes = joined_notes(g);
    if (g.peak) out.push_back(roof_entry(g, "P", "GFLOP/s", kGiga, *g.peak, notes));
    if (g.bandwidth) out.push_back(roof_entry(g, "B", "GB/s", kGiga, *g.bandwidth, notes));
    if (g.read_bandwidth)
      out.push_back(roof_entry(g, "B_read", "GB/s", kGiga, *g.read_bandwidth, notes));
    if (g.ridge) out.push_back(roof_entry(g, "I*", "FLOP/byte", 1.0, *g.ridge, notes));
    // The sweep's plateaus have no interval: no range, and the extra says so.
    for (const auto& l : g.levels)
      out.push_back({{"name", group_label(g) + " B " + l.name + " (" + l.probe + ")"},
                     {"unit", "GB/s"},
                     {"value", l.bandwidth / kGiga},
                     {"extra", fmt::format("plateau of the {} sweep, {} points from {} to {}; no "
                                           "interval (a robust location)",
                                           l.probe, l.points, format_size_bytes(l.min_working_set),
                                           format_size_bytes(l.max_working_set))}});
  }
  return out.dump(2) + "\n";
}

}  // namespace ridgeline
