#include "reports/render/pyramid_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "core/units.hpp"
#include "reports/fit/roof_roles.hpp"
#include "reports/render/markdown_text.hpp"
#include "reports/render/spec_scope.hpp"
#include "reports/roofline/roofline_fit.hpp"
#include "results/probe_catalog.hpp"

namespace ridgeline {
namespace {

// One tier of the pyramid as measured: the best of what every dtype and probe saw there.
struct Tier {
  std::string level;     // SRAM, L1, L2, L3 (LLC), MALL, level k, DRAM, device memory
  std::string capacity;  // "48 KiB", "– (not recorded)"
  double bandwidth = 0;
  Interval ci;
  std::string from;  // "cache_read fp64"
  bool measured = false;
  double capacity_bytes = 0;  // as the context states it (0: not recorded)
  double plateau_to = 0;      // the largest working set of the best plateau of the level
  double next_set = 0;        // the smallest working set measured beyond that plateau
};

void keep_best(Tier& t, double bandwidth, const Interval& ci, std::string from) {
  if (t.measured && bandwidth <= t.bandwidth) return;
  t.bandwidth = bandwidth, t.ci = ci, t.from = std::move(from), t.measured = true;
}

// SRAM: the fastest verified read-only scratch point of any dtype, its interval the bootstrap of
// its median (fit_envelope of one point is the repetition bootstrap of that point).
std::optional<Tier> sram_tier(const FileAnalysis& f, const std::string& space) {
  Tier t;
  t.level = "SRAM";
  for (const auto& g : f.groups) {
    if (g.fit.space != space) continue;
    for (const Point* p : f.points_of(g.fit.space, g.fit.dtype)) {
      if (!on_chip(p->family) || !read_only_probe(p->probe) || !p->measured() || !p->verified ||
          !p->bytes_per_s)
        continue;
      if (t.measured && *p->bytes_per_s <= t.bandwidth) continue;
      Observation o;
      o.count = p->bytes;
      o.samples = p->samples;
      const Interval ci = fit_envelope({o}).ci;
      keep_best(t, *p->bytes_per_s, ci, p->probe + " " + p->dtype);
      t.capacity = format_size_bytes(p->working_set_bytes) + " per team";
    }
  }
  if (!t.measured) return std::nullopt;
  return t;
}

// The caches named from the context's capacities, each with the best plateau named exactly it
// (transitions and plateaus spanning several capacities are not a level's bandwidth); without
// capacities the plateaus as the sweep numbered them.
std::vector<Tier> cache_tiers(const FileAnalysis& f, const std::string& space) {
  std::vector<Tier> tiers;
  for (const auto& c : cache_capacities(f.results, space)) {
    Tier t;
    t.level = c.name;
    t.capacity = format_size_bytes(c.bytes) + (c.per_unit ? " per unit" : "");
    // A per-unit capacity (one SM's L1) is not comparable with a whole set: no bytes kept.
    t.capacity_bytes = c.per_unit ? 0.0 : double(c.bytes);
    tiers.push_back(std::move(t));
  }
  const bool numbered = tiers.empty();
  for (const auto& g : f.groups) {
    if (g.fit.space != space) continue;
    for (const auto& sweep : g.levels)
      for (const auto& l : sweep.levels) {
        // Read-only plateaus: the sheets' limits are load paths (an in-place update also writes
        // back, and a write path of its own would let it pass a load limit: 108 % of the Zen 5
        // L2's 64 B/clk here).
        if (l.transition || !read_only_probe(sweep.probe)) continue;
        auto it = std::find_if(tiers.begin(), tiers.end(),
                               [&l](const Tier& t) { return t.level == l.name; });
        if (it == tiers.end()) {
          if (!numbered || l.name.rfind("level ", 0) != 0) continue;
          tiers.push_back({l.name, "– (not recorded)", 0, {}, {}, false});
          it = tiers.end() - 1;
        }
        const bool best = !it->measured || l.bandwidth > it->bandwidth;
        keep_best(*it, l.bandwidth, l.bandwidth_ci, sweep.probe + " " + g.fit.dtype);
        if (best) {
          // The first set the sweep measured beyond this plateau: where the level visibly ended.
          it->plateau_to = l.max_working_set;
          it->next_set = 0;
          for (const auto& other : sweep.levels)
            if (other.min_working_set > l.max_working_set &&
                (it->next_set == 0 || other.min_working_set < it->next_set))
              it->next_set = other.min_working_set;
        }
      }
  }
  // The capacity a kernel sees: where the level's plateau ended well short of the stated size
  // (an H200's 60 MiB L2 streams at L2 speed to about 44 MB in gpu-benches' sweep).
  // Only where a set that fits the stated size ran below the plateau: an octave grid's last
  // set below a capacity says nothing about where the level ends.
  for (Tier& t : tiers)
    if (t.measured && t.capacity_bytes > 0 && t.plateau_to > 0 && t.next_set > 0 &&
        t.next_set <= 0.9 * t.capacity_bytes)
      t.capacity += " (its plateau seen to " + format_size_bytes(t.plateau_to) + ")";
  std::stable_sort(tiers.begin(), tiers.end(), [numbered](const Tier& a, const Tier& b) {
    return numbered && a.level < b.level;  // "level 1" < "level 2" (fewer than 10 levels)
  });
  return tiers;
}

// "dot n:… (fp64)": the point that set a memory roof, with its dtype (the texts of roofs pooled
// over the device's dtypes name it already).
std::string set_by(const GroupFit& g, const std::string& best) {
  return best + (g.device_memory_roofs ? "" : " (" + g.dtype + ")");
}

// Memory: a read bandwidth like every tier above it, so B_read (the envelope of the DRAM-sized
// read-only kernels; traffic that also writes turns the bus around, and B is below it), the best
// over dtypes; B, named so, where no read-only kernel ran.
std::optional<Tier> memory_tier(const FileAnalysis& f, const std::string& space) {
  Tier t;
  t.level = is_device_space(f.results, space) ? "device memory" : "DRAM";
  t.capacity = "–";
  // Where the run searched it: where the plateau began, or that it was not reached (then the
  // tier may be a cache level, and is named so).
  if (const SpaceInfo* s = f.results.find_space(space); s && s->plateau) {
    if (s->plateau->reached)
      t.capacity = "plateau from " + format_size_bytes(s->plateau->start_bytes);
    else
      t.level += " not reached (a cache level or " + t.level + ")";
  }
  for (const auto& g : f.groups)
    if (g.fit.space == space && g.fit.read_bandwidth)
      if (const MixRoof* read = g.fit.mix_roof(TrafficMix::kReadOnly))
        keep_best(t, read->roof.value, read->roof.ci,
                  "B_read, set by " + set_by(g.fit, read->best));
  if (t.measured) return t;
  for (const auto& g : f.groups)
    if (g.fit.space == space && g.fit.fit)
      keep_best(t, g.fit.fit->estimate.roof.bandwidth, g.fit.fit->bandwidth_ci,
                "B (no read-only kernel ran), set by " + set_by(g.fit, g.fit.bandwidth_best));
  if (!t.measured) return std::nullopt;
  return t;
}

}  // namespace

void memory_pyramid(std::string& md, const std::vector<FileAnalysis>& files,
                    const std::vector<MachineProfile>& profiles) {
  std::string rows;
  for (const auto& f : files) {
    std::vector<std::string> spaces;
    for (const auto& g : f.groups)
      if (std::find(spaces.begin(), spaces.end(), g.fit.space) == spaces.end())
        spaces.push_back(g.fit.space);
    for (const auto& space : spaces) {
      std::vector<Tier> tiers;
      if (auto s = sram_tier(f, space)) tiers.push_back(*s);
      for (auto& t : cache_tiers(f, space)) tiers.push_back(std::move(t));
      const auto memory = memory_tier(f, space);
      if (memory) tiers.push_back(*memory);
      if (tiers.size() < 2) continue;  // a pyramid needs more than one tier
      const SpecScope scope = spec_scope(f, space, profiles);
      const bool device = is_device_space(f.results, space);
      for (const auto& t : tiers) {
        std::string limit = scope.profile ? "not on sheet" : "no sheet", ratio = "–";
        double limit_bps = 0;
        if (scope.profile) {
          const MachineProfile& sheet = *scope.profile;
          if (memory && &t == &tiers.back()) {
            if (scope.bandwidth_why_not.empty()) {
              limit_bps = sheet.bandwidth;
              limit = format_bytes_per_s(limit_bps) + " (memory.bandwidth)";
            } else {
              limit = md_text(scope.bandwidth_why_not);
            }
          } else {
            // A host's SRAM is a buffer that stays in L1d: its limit is the L1's.
            const LevelLimit* l = sheet.level_limit(t.level);
            if (!l && t.level == "SRAM" && !device) l = sheet.level_limit("L1");
            // At the clock the space was measured at where known (per-clock limits scale
            // with it), else the sheet's.
            const double mhz = scope.measured_clock_mhz.value_or(sheet.clock_mhz);
            if (l) {
              limit_bps = l->at(scope.units, mhz);
              limit = format_bytes_per_s(limit_bps) + " (" + md_text(l->formula(scope.units, mhz)) +
                      (scope.measured_clock_mhz && l->bytes_per_clock > 0 ? ", measured" : "") +
                      ")";
            }
          }
        }
        std::string measured = "not seen in the sweep";
        if (t.measured) {
          measured = format_bytes_with_ci(t.bandwidth, t.ci);
          if (limit_bps > 0)
            ratio = fmt::format("{} [{}, {}]", pct(t.bandwidth / limit_bps),
                                pct(t.ci.low / limit_bps), pct(t.ci.high / limit_bps));
        }
        rows += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} |\n", md_text(f.label),
                            md_text(space), md_text(t.level), md_text(t.capacity), measured,
                            t.measured ? md_text(t.from) : "–", limit, ratio);
      }
    }
  }
  if (rows.empty()) return;
  md +=
      "## Memory pyramid\n\n"
      "Each level's best measured read bandwidth, fastest first: SRAM from the read-only "
      "scratch probe (the fastest verified point), the caches from the `cache_read` plateaus "
      "that are a level of their own (the best over dtypes, with the " +
      confidence_label() +
      " interval of the "
      "plateau's location), and memory as B_read (the envelope of the DRAM-sized read-only "
      "kernels; B, named so, where none ran). Each cell's source says which roof or plateau it "
      "is. The limit is the machine sheet's physical figure for the level's load path: bytes "
      "per clock × the units the space runs on × the sheet's clock, or a published bandwidth; a "
      "level whose sheet gives none says so. A ratio above 100 % means the limit (or the clock "
      "it assumes) is wrong, or that the level's working sets were not where their name "
      "says.\n\n"
      "| file | space | level | capacity | measured (" +
      confidence_label() +
      " interval) | from | limit | ratio |\n"
      "|---|---|---|---|---|---|---|---|\n" +
      rows + "\n";
}

}  // namespace ridgeline
