#include "reports/export/rocprof_roofline_csv.hpp"

#include <fmt/format.h>

#include <map>

namespace ridgeline {
namespace {

// The order in which the groups of one space supply its memory roofs: the tool measures HBM
// with doubles and its caches with floats.
const std::vector<std::string> kBandwidthDtypes = {"fp64", "fp32"};
const std::vector<std::string> kCacheDtypes = {"fp32", "fp64"};
const std::vector<std::string> kRocprofCacheProbes = {"cache_read", "cache_update", "cache_triad"};

const ExportedGroup* group_of(const std::vector<const ExportedGroup*>& groups,
                              const std::string& dtype) {
  for (const ExportedGroup* g : groups)
    if (g->dtype == dtype) return g;
  return nullptr;
}

// A full-precision number (shortest round trip) in the tool's units.
std::string number(double v, double scale) { return fmt::format("{}", v / scale); }

// The vector (non-MFMA) peak columns of ridgeline's dtypes.
const std::map<std::string, std::string> kPeakColumns = {
    {"fp16", "FP16Flops"}, {"bf16", "BF16Flops"}, {"fp32", "FP32Flops"}, {"fp64", "FP64Flops"}};

void put_roof(std::map<std::string, std::string>& row, const std::string& column,
              const ExportedRoof& r) {
  row[column] = number(r.value, kGiga);
  row[column + "Low"] = number(r.ci.low, kGiga);
  // The tool's one odd spelling, kept: its reader looks the column up by this name.
  row[column == "HBMBw" ? "hbmBwHigh" : column + "High"] = number(r.ci.high, kGiga);
}

}  // namespace

const std::vector<std::string>& rocprof_roofline_columns() {
  static const std::vector<std::string> columns = [] {
    // As roofline.cpp writes it, line for line.
    const std::string header =
        "device,HBMBw,HBMBwLow,hbmBwHigh,MALLBw,MALLBwLow,MALLBwHigh,"
        "L2Bw,L2BwLow,L2BwHigh,L1Bw,L1BwLow,L1BwHigh,LDSBw,LDSBwLow,LDSBwHigh,"
        "FP8Flops,FP8FlopsLow,FP8FlopsHigh,"
        "FP16Flops,FP16FlopsLow,FP16FlopsHigh,BF16Flops,BF16FlopsLow,BF16FlopsHigh,"
        "FP32Flops,FP32FlopsLow,FP32FlopsHigh,FP64Flops,FP64FlopsLow,FP64FlopsHigh,"
        "I8Ops,I8OpsLow,I8OpsHigh,"
        "I32Ops,I32OpsLow,I32OpsHigh,"
        "I64Ops,I64OpsLow,I64OpsHigh,"
        "MFMAF4Flops,MFMAF4FlopsLow,MFMAF4FlopsHigh,MFMAF6Flops,MFMAF6FlopsLow,MFMAF6FlopsHigh,"
        "MFMAF8Flops,MFMAF8FlopsLow,MFMAF8FlopsHigh,"
        "MFMAF16Flops,MFMAF16FlopsLow,MFMAF16FlopsHigh,"
        "MFMABF16Flops,MFMABF16FlopsLow,MFMABF16FlopsHigh,"
        "MFMAF32Flops,MFMAF32FlopsLow,MFMAF32FlopsHigh,"
        "MFMAF64Flops,MFMAF64FlopsLow,MFMAF64FlopsHigh,"
        "MFMAI8Ops,MFMAI8OpsLow,MFMAI8OpsHigh";
    std::vector<std::string> names;
    std::size_t from = 0;
    for (std::size_t comma; (comma = header.find(',', from)) != std::string::npos; from = comma + 1)
      names.push_back(header.substr(from, comma - from));
    names.push_back(header.substr(from));
    return names;
  }();
  return columns;
}

std::string rocprof_roofline_csv(const RoofExport& roofs) {
  // The spaces in the file's order, each with its groups.
  std::vector<std::string> spaces;
  std::map<std::string, std::vector<const ExportedGroup*>> groups;
  for (const auto& g : roofs.groups) {
    if (groups.find(g.space) == groups.end()) spaces.push_back(g.space);
    groups[g.space].push_back(&g);
  }
  std::string csv;
  for (const auto& c : rocprof_roofline_columns()) csv += (csv.empty() ? "" : ",") + c;
  csv += "\n";
  int device = 0;
  for (const auto& space : spaces) {
    std::map<std::string, std::string> row;
    row["device"] = std::to_string(device++);
    for (const auto& dtype : kBandwidthDtypes) {
      const ExportedGroup* g = group_of(groups[space], dtype);
      if (!g || !g->bandwidth) continue;
      put_roof(row, "HBMBw", *g->bandwidth);
      break;
    }
    for (const auto& dtype : kCacheDtypes) {
      const ExportedGroup* g = group_of(groups[space], dtype);
      const auto levels =
          g ? levels_of_first_sweep(*g, kRocprofCacheProbes) : std::vector<ExportedLevel>{};
      for (const auto& l : levels)
        if (l.name == "L1" || l.name == "L2" || l.name == "MALL")
          row[l.name + "Bw"] = number(l.bandwidth, kGiga);
      if (!levels.empty()) break;
    }
    for (const auto& [dtype, column] : kPeakColumns)
      if (const ExportedGroup* g = group_of(groups[space], dtype); g && g->peak)
        put_roof(row, column, *g->peak);
    std::string line;
    bool first = true;
    for (const auto& c : rocprof_roofline_columns()) {
      if (!first) line += ",";
      first = false;
      if (const auto it = row.find(c); it != row.end()) line += it->second;
    }
    csv += line + "\n";
  }
  return csv;
}

}  // namespace ridgeline
