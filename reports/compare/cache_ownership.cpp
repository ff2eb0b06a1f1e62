#include "reports/compare/cache_ownership.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/units.hpp"
#include "reports/fit/roof_roles.hpp"

namespace ridgeline {

std::string unowned_level_reason(const Results& r, const Point& p) {
  if (p.working_set_bytes <= 0 || is_device_space(r, p.space)) return {};
  // Where DRAM begins is roof_roles' to say (the measured plateau where the file records one).
  const double dram = dram_working_set_bytes(r, p.space);
  if (dram > 0 && dram_sized(p, dram)) return {};
  const SpaceInfo* s = r.find_space(p.space);
  const int threads = std::max(s ? s->concurrency : 1, 1);
  std::vector<const CacheInfo*> levels;  // data and unified caches, innermost first
  for (const auto& c : r.caches)
    if (c.type != "instruction") levels.push_back(&c);
  std::sort(levels.begin(), levels.end(),
            [](const CacheInfo* a, const CacheInfo* b) { return a->level < b->level; });
  const auto reason = [&](const CacheInfo& c) -> std::string {
    if (c.shared_by_threads <= threads) return {};
    return fmt::format("L{} ({}) is shared by {} threads, the run has {}", c.level,
                       format_size_bytes(c.size_bytes), c.shared_by_threads, threads);
  };
  for (const CacheInfo* c : levels) {
    // What the run can fill of this level: one copy per group of threads that shares it, as the
    // memory-levels report counts (levels/memory_levels.cpp).
    const double copies = std::max(1.0, std::floor(double(threads) / c->shared_by_threads));
    if (p.working_set_bytes <= c->size_bytes * copies) return reason(*c);
  }
  if (!r.caches_incomplete.empty())
    return fmt::format(
        "beyond the {} the results record, in a last-level cache of unknown size ({})",
        levels.empty() ? std::string("caches") : "L" + std::to_string(levels.back()->level),
        r.caches_incomplete);
  // Between the last-level cache and the DRAM plateau: partly served by that cache.
  return levels.empty() ? std::string() : reason(*levels.back());
}

}  // namespace ridgeline
