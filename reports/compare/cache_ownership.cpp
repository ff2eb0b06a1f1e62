#include "reports/compare/cache_ownership.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/units.hpp"
#include "reports/fit/roof_roles.hpp"
#include "reports/levels/memory_levels.hpp"

namespace ridgeline {

std::string unowned_level_reason(const Results& r, const Point& p) {
  if (p.working_set_bytes <= 0 || is_device_space(r, p.space)) return {};
  // Where DRAM begins is roof_roles' to say (the measured plateau where the file records one).
  if (on_dram_plateau(r, p)) return {};
  const SpaceInfo* s = r.find_space(p.space);
  const int threads = std::max(s ? s->concurrency : 1, 1);
  std::vector<const CacheInfo*> levels;  // data and unified caches, innermost first
  for (const auto& c : r.caches)
    if (c.type != "instruction") levels.push_back(&c);
  std::sort(levels.begin(), levels.end(),
            [](const CacheInfo* a, const CacheInfo* b) { return a->level < b->level; });
  const auto reason = [&](const CacheInfo& c) -> std::string {
    // A VM sees its own topology, not the host's: its per-core L1 and L2 may serve an SMT sibling
    // of another tenant, its last-level cache the host's other tenants. On a 2-vCPU Xeon VM whose
    // cache list says each L2 is one thread's, 512 KiB-1 MiB sets inside it read 0.39-1.11 x
    // their median over 17 unchanged nights (2026-12-06), failing 2 of 14 A/A nights.
    if (r.cpu_hypervisor.value_or(false))
      return fmt::format(
          "L{} ({}): this CPU runs under a hypervisor, whose other tenants may share any of "
          "its caches (a per-core level with an SMT sibling the VM cannot see)",
          c.level, format_size_bytes(c.size_bytes));
    if (c.shared_by_threads <= threads) return {};
    return fmt::format("L{} ({}) is shared by {} threads, the run has {}", c.level,
                       format_size_bytes(c.size_bytes), c.shared_by_threads, threads);
  };
  // A cache sweep's set within an octave of a capacity is split between two levels: which part
  // each serves depends on replacement and on whatever else runs (on a 2-vCPU Xeon VM the 4 MiB
  // set, both cores' L2s, read 62-127 GB/s over ten unchanged nights and failed one of seven).
  const auto edge = [](const std::string& level, double capacity) {
    return fmt::format(
        "within an octave of the {} capacity ({}): part of the set is served from "
        "each side, as replacement and whatever else runs decide",
        level, format_size_bytes(capacity));
  };
  double below = 0;  // what the run can fill of the level below the set's
  std::string below_name;
  for (const CacheInfo* c : levels) {
    // What the run can fill of this level: one copy per group of threads that shares it, as the
    // memory-levels report counts (levels/memory_levels.cpp).
    const double copies = std::max(1.0, std::floor(double(threads) / c->shared_by_threads));
    const double capacity = c->size_bytes * copies;
    if (p.working_set_bytes <= capacity) {
      if (std::string shared = reason(*c); !shared.empty()) return shared;
      if (p.family != "cache") return {};
      if (p.working_set_bytes > capacity / std::sqrt(2.0))
        return edge("L" + std::to_string(c->level), capacity);
      if (below > 0 && p.working_set_bytes <= 2 * below) return edge(below_name, below);
      return {};
    }
    below = capacity;
    below_name = "L" + std::to_string(c->level);
  }
  if (!r.caches_incomplete.empty())
    return fmt::format(
        "beyond the {} the results record, in a last-level cache of unknown size ({})",
        levels.empty() ? std::string("caches") : "L" + std::to_string(levels.back()->level),
        r.caches_incomplete);
  // Between the last-level cache and the DRAM plateau: partly served by that cache.
  if (levels.empty()) return {};
  if (std::string shared = reason(*levels.back()); !shared.empty()) return shared;
  return p.family == "cache" && p.working_set_bytes <= 2 * below ? edge(below_name, below)
                                                                 : std::string();
}

std::optional<std::string> point_level(const Results& r, const Point& p) {
  if (p.working_set_bytes <= 0 || roof_role(p) == RoofRole::kPeak) return std::nullopt;
  if (on_dram_plateau(r, p)) return "DRAM plateau";
  const std::vector<CacheCapacity> caps = cache_capacities(r, p.space);
  if (caps.empty()) return std::nullopt;
  for (const CacheCapacity& c : caps)
    if (p.working_set_bytes <= c.bytes) return c.name.substr(0, c.name.find(" ("));
  return "beyond the listed caches";
}

std::optional<std::string> private_level(const Results& r, const Point& p) {
  std::optional<std::string> level = point_level(r, p);
  if (!level || *level == "DRAM plateau" || *level == "beyond the listed caches") return {};
  if (is_device_space(r, p.space)) return level;
  const SpaceInfo* s = r.find_space(p.space);
  const int threads = std::max(s ? s->concurrency : 1, 1);
  for (const auto& c : r.caches)
    if (c.type != "instruction" && "L" + std::to_string(c.level) == *level)
      return c.shared_by_threads <= threads ? level : std::nullopt;
  return {};
}

}  // namespace ridgeline
