#include "reports/export/ert_roofline_json.hpp"

#include <nlohmann/json.hpp>

#include "core/input_error.hpp"

namespace ridgeline {
namespace {

const std::vector<std::string> kErtCacheProbes = {"cache_update", "cache_triad", "cache_read"};

nlohmann::json interval(const Interval& ci, double scale) {
  return nlohmann::json::array({ci.low / scale, ci.high / scale});
}

}  // namespace

std::string ert_roofline_json(const RoofExport& roofs) {
  if (roofs.groups.size() != 1) {
    std::string have;
    for (const auto& g : roofs.groups) have += (have.empty() ? "" : ", ") + group_label(g);
    throw InputError(roofs.results_file, "format ert",
                     "one roofline per file: choose one with --space and --dtype (" + have + ")");
  }
  const ExportedGroup& g = roofs.groups.front();
  if (!g.peak || !g.bandwidth)
    throw InputError(roofs.results_file, g.space + "/" + g.dtype,
                     "ERT's roofline.json needs P and B" +
                         (g.notes.empty() ? std::string() : ": " + g.notes.front()));

  nlohmann::json gbytes_data = nlohmann::json::array();
  nlohmann::json level_metadata = nlohmann::json::array();
  for (const auto& l : levels_of_first_sweep(g, kErtCacheProbes)) {
    if (is_main_memory(l.name)) continue;  // the fit's B below stands for it
    gbytes_data.push_back({l.name, l.bandwidth / kGiga});
    level_metadata.push_back({{"LEVEL", l.name},
                              {"SWEEP", l.probe},
                              {"POINTS", l.points},
                              {"WORKING_SET_BYTES", {l.min_working_set, l.max_working_set}}});
  }
  gbytes_data.push_back({"DRAM", g.bandwidth->value / kGiga});

  nlohmann::json gflops_metadata = {{"CI_95_GFLOPS", interval(g.peak->ci, kGiga)},
                                    {"DEFINED_BY", g.peak->from}};
  nlohmann::json gbytes_metadata = {{"DRAM_CI_95_GBYTES", interval(g.bandwidth->ci, kGiga)},
                                    {"DRAM_DEFINED_BY", g.bandwidth->from},
                                    {"CACHE_LEVELS", level_metadata}};
  if (g.read_bandwidth)
    gbytes_metadata["READ_ONLY_GBYTES"] = {{"VALUE", g.read_bandwidth->value / kGiga},
                                           {"CI_95", interval(g.read_bandwidth->ci, kGiga)},
                                           {"DEFINED_BY", g.read_bandwidth->from}};
  nlohmann::json metadata = {{"SOURCE", "ridgeline export"},
                             {"RESULTS", roofs.results_label},
                             {"HOSTNAME", roofs.hostname},
                             {"SPACE", g.space},
                             {"DTYPE", g.dtype},
                             {"INTERVAL_METHOD", g.interval_method},
                             {"NOTES", g.notes}};
  nlohmann::json out = {{"empirical",
                         {{"metadata", metadata},
                          {"gflops",
                           {{"data", nlohmann::json::array({{"GFLOPs", g.peak->value / kGiga}})},
                            {"metadata", gflops_metadata}}},
                          {"gbytes", {{"data", gbytes_data}, {"metadata", gbytes_metadata}}}}},
                        {"spec",
                         {{"gflops", {{"data", nlohmann::json::array()}}},
                          {"gbytes", {{"data", nlohmann::json::array()}}}}}};
  return out.dump(3) + "\n";
}

}  // namespace ridgeline
