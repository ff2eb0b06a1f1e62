#include "results/memory_plateau.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/field_reader.hpp"
#include "core/input_error.hpp"
#include "core/units.hpp"

namespace ridgeline {

namespace {
constexpr std::size_t kMaxPlateauSets = 4096;
constexpr double kMaxBytes = 1e18;           // an exabyte: larger is not a working set
constexpr double kMaxBytesPerSecond = 1e18;  // an exabyte per second: no memory streams that
// A share in [0, 1]; 0 when absent.
double fraction(const FieldReader& r, const std::string& file, const std::string& key) {
  const double v = r.number(key, false).value_or(0);
  if (v > 1) throw InputError(file, r.where(key), "must be a share in [0, 1]");
  return v;
}

}  // namespace

bool not_falling(const PlateauSet& smaller, const PlateauSet& larger, double tolerance) {
  const double tol = tolerance + smaller.spread + larger.spread;
  return larger.bytes_per_s >= (1 - tol) * smaller.bytes_per_s;
}

std::optional<double> plateau_start(const std::vector<PlateauSet>& sets, double tolerance,
                                    int agreeing) {
  const std::size_t n = sets.size();
  for (std::size_t k = 0; k + std::size_t(std::max(agreeing, 1)) < n; ++k) {
    bool flat = true;
    // No larger set below the one before it beyond noise (the bandwidth stopped falling), nor
    // below the first (a slow slide over several octaves is still a cache emptying, not DRAM).
    for (std::size_t j = k + 1; j < n && flat; ++j)
      flat =
          not_falling(sets[j - 1], sets[j], tolerance) && not_falling(sets[k], sets[j], tolerance);
    if (flat) return sets[k].bytes;
  }
  return std::nullopt;
}

std::vector<PlateauSet> sets_of_mix(const std::vector<PlateauSet>& sets, const std::string& mix) {
  std::vector<PlateauSet> out;
  for (const PlateauSet& s : sets)
    if (s.mix == mix) out.push_back(s);
  std::stable_sort(out.begin(), out.end(),
                   [](const PlateauSet& a, const PlateauSet& b) { return a.bytes < b.bytes; });
  return out;
}

bool keep_recorded_dram_size(MemoryPlateau& searched, const MemoryPlateau& recorded) {
  const double size = recorded.planned_bytes;
  if (!recorded.reached || !searched.reached || !(size > 0) || searched.start_bytes > size ||
      searched.planned_bytes == size)
    return false;
  searched.planned_bytes = size;
  searched.basis +=
      fmt::format("; the recorded DRAM size ({}) lies on it and stands", format_size_bytes(size));
  return true;
}

nlohmann::json to_json(const MemoryPlateau& p) {
  nlohmann::json sets = nlohmann::json::array();
  for (const PlateauSet& s : p.sets)
    sets.push_back({{"mix", s.mix},
                    {"bytes", s.bytes},
                    {"bytes_per_s", s.bytes_per_s},
                    {"spread", s.spread},
                    {"calls", s.calls}});
  const auto bytes_or_null = [](double v) { return v > 0 ? nlohmann::json(v) : nlohmann::json(); };
  return {{"reached", p.reached},
          {"start_bytes", bytes_or_null(p.reached ? p.start_bytes : 0)},
          {"planned_bytes", p.planned_bytes},
          {"largest_bytes", p.largest_bytes},
          {"llc_bytes", bytes_or_null(p.llc_bytes)},
          {"basis", p.basis},
          {"stopped", p.stopped},
          {"measured_in", p.measured_in},
          {"tolerance", p.tolerance},
          {"sets", sets}};
}

MemoryPlateau memory_plateau_from_json(const nlohmann::json& j, const std::string& file,
                                       const std::string& at) {
  if (!j.is_object()) throw InputError(file, at, "must be an object");
  const FieldReader r(file, j, at);
  MemoryPlateau p;
  p.reached = r.boolean("reached");
  p.start_bytes = r.number("start_bytes", true).value_or(0);
  if (p.reached && p.start_bytes <= 0)
    throw InputError(file, at + ".start_bytes", "must be a positive number when reached is true");
  p.planned_bytes = r.number("planned_bytes", true).value_or(0);
  p.largest_bytes = r.number("largest_bytes", true).value_or(0);
  p.llc_bytes = r.number("llc_bytes", true).value_or(0);
  p.basis = r.str("basis", false);
  p.stopped = r.str("stopped", false);
  p.measured_in = r.str("measured_in", false);
  p.tolerance = fraction(r, file, "tolerance");
  if (j.contains("sets")) {
    const nlohmann::json& sets = j["sets"];
    if (!sets.is_array()) throw InputError(file, at + ".sets", "must be an array");
    if (sets.size() > kMaxPlateauSets)
      throw InputError(file, at + ".sets",
                       "has more than " + std::to_string(kMaxPlateauSets) + " entries");
    for (std::size_t i = 0; i < sets.size(); ++i) {
      const std::string where = at + ".sets[" + std::to_string(i) + "]";
      if (!sets[i].is_object()) throw InputError(file, where, "must be an object");
      const FieldReader s(file, sets[i], where);
      PlateauSet set;
      set.mix = s.str("mix", true);
      set.bytes = s.bounded("bytes", kMaxBytes);
      set.bytes_per_s = s.bounded("bytes_per_s", kMaxBytesPerSecond);
      // Over 1 where a call was stalled (a busy machine): noise, recorded as it was.
      set.spread = s.number("spread", false).value_or(0);
      set.calls = int(s.optional_integer("calls", 0, 1 << 20));
      p.sets.push_back(set);
    }
  }
  return p;
}

}  // namespace ridgeline
