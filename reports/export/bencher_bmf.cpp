#include "reports/export/bencher_bmf.hpp"

#include <nlohmann/json.hpp>

namespace ridgeline {
namespace {

nlohmann::json metric(const ExportedRoof& r, double scale) {
  return {{"value", r.value / scale},
          {"lower_value", r.ci.low / scale},
          {"upper_value", r.ci.high / scale}};
}

}  // namespace

std::string bencher_bmf_json(const RoofExport& roofs) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& g : roofs.groups) {
    nlohmann::json measures = nlohmann::json::object();
    if (g.peak) measures["p-gflops"] = metric(*g.peak, kGiga);
    if (g.bandwidth) measures["b-gbps"] = metric(*g.bandwidth, kGiga);
    if (g.read_bandwidth) measures["b-read-gbps"] = metric(*g.read_bandwidth, kGiga);
    if (g.ridge) measures["i-star-flop-per-byte"] = metric(*g.ridge, 1.0);
    if (!measures.empty()) out[group_label(g)] = measures;
    for (const auto& l : g.levels)
      out[group_label(g) + " " + l.name + " (" + l.probe + ")"] = {
          {"b-gbps", {{"value", l.bandwidth / kGiga}}}};
  }
  return out.dump(2) + "\n";
}

}  // namespace ridgeline
