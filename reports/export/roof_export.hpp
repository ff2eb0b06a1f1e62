#pragma once
// What every export format writes: per execution space × dtype the roofs exactly as `ridgeline
// fit --json` gives them (P, B, B_read, I* with their 95 % bootstrap intervals) and the memory
// levels of the cache sweeps (plateau locations, no interval), with notes on what is absent.
// Values are in base units (FLOP/s, byte/s, FLOP/byte); each format scales them itself.
#include <optional>
#include <string>
#include <vector>

#include "reports/fit/analysis.hpp"

namespace ridgeline {

struct ExportedRoof {
  double value = 0;
  Interval ci;       // 95 % interval from repetitions (or points, see interval_method)
  std::string from;  // what defined it, e.g. "fma k:1, k:2"
};

struct ExportedLevel {
  std::string probe;  // the cache sweep: cache_update, cache_read, cache_triad
  std::string name;   // L1, L2, L3 (LLC), DRAM, HBM, level k
  double bandwidth = 0;
  double min_working_set = 0, max_working_set = 0;
  int points = 0;
};

struct ExportedGroup {
  std::string space, dtype;
  std::optional<ExportedRoof> peak, bandwidth, read_bandwidth, ridge;
  std::string interval_method;  // "repetitions" or "points"; empty without a fit
  std::vector<ExportedLevel> levels;
  // Why a roof is absent, and the fit's caveats: each export writes them where its format
  // has room, and the command prints them.
  std::vector<std::string> notes;
  bool has_roofs() const { return peak || bandwidth || read_bandwidth; }
};

struct RoofExport {
  std::string results_file;   // as given, for errors
  std::string results_label;  // its base name, for the files (they must not depend on the path)
  std::string hostname;
  std::vector<ExportedGroup> groups;  // in the order of the file
};

// Every group of the analysed file, or only those of `space` / `dtype` where given. Throws
// InputError naming the file when nothing in it could be fitted (as `fit` does), when the
// selection matches no group, or when it holds no fitted roof.
RoofExport collect_roofs(const FileAnalysis& analysis, const std::string& space = "",
                         const std::string& dtype = "");

// The group's sweep levels of the first probe in `probes` that found any, fastest first.
std::vector<ExportedLevel> levels_of_first_sweep(const ExportedGroup& g,
                                                 const std::vector<std::string>& probes);

// "Cuda fp64": how every format names a group.
std::string group_label(const ExportedGroup& g);

// A level that is main memory (DRAM, HBM): formats with one bandwidth per level take the fit's B
// for it, which has an interval, rather than the sweep's plateau.
bool is_main_memory(const std::string& level);

// Dashboards chart G-units: GFLOP/s and GB/s.
inline constexpr double kGiga = 1e9;

}  // namespace ridgeline
