#include "reports/render/plateau_section.hpp"

#include <fmt/format.h>

#include <map>

#include "core/units.hpp"
#include "reports/render/markdown_text.hpp"
#include "results/memory_plateau.hpp"

namespace ridgeline {

namespace {

// One search's table: a row per working set, a column per mix, and whether the set is on the
// plateau.
std::string set_rows(const MemoryPlateau& p) {
  std::map<double, std::map<std::string, const PlateauSet*>> by_size;
  for (const PlateauSet& s : p.sets) by_size[s.bytes][s.mix] = &s;
  std::string rows;
  for (const auto& [bytes, mixes] : by_size) {
    std::string cells;
    for (const char* mix : kPlateauMixes) {
      const auto it = mixes.find(mix);
      cells += it == mixes.end()
                   ? " – |"
                   : fmt::format(" {} ±{:.1f} % |", format_bytes_per_s(it->second->bytes_per_s),
                                 100 * it->second->spread);
    }
    const char* where = !p.reached                      ? "not known"
                        : bytes >= 0.99 * p.start_bytes ? "**on the plateau**"
                                                        : "a cache level";
    rows += fmt::format("| {} |{} {} |\n", format_size_bytes(bytes), cells, where);
  }
  return rows;
}

}  // namespace

void memory_plateau_section(std::string& md, const std::vector<FileAnalysis>& files) {
  std::string body;
  for (const auto& f : files) {
    // Host spaces share one search: shown once, with every space it served.
    std::map<std::string, std::vector<std::string>> served;  // measured_in → spaces
    std::map<std::string, const MemoryPlateau*> search;
    for (const SpaceInfo& s : f.results.spaces) {
      if (!s.plateau) continue;
      const std::string key = s.plateau->measured_in.empty() ? s.name : s.plateau->measured_in;
      served[key].push_back(s.name);
      search.emplace(key, &*s.plateau);
    }
    for (const auto& [key, spaces] : served) {
      const MemoryPlateau& p = *search.at(key);
      std::string names;
      for (const auto& n : spaces) names += (names.empty() ? "" : ", ") + n;
      body += fmt::format("### {} {}\n\n", md_code(f.label), md_text(names));
      body += p.reached ? fmt::format("DRAM plateau from **{}**: {}. The DRAM points ran at {}{}.",
                                      format_size_bytes(p.start_bytes), md_text(p.basis),
                                      format_size_bytes(p.planned_bytes),
                                      p.planned_bytes > 1.01 * p.start_bytes
                                          ? ", inside it, and B, B_read and B_write come from "
                                            "points at or beyond that size (a set at the edge "
                                            "may stream from a cache a neighbour shares)"
                                          : "")
                        : fmt::format(
                              "**DRAM not reached**: {}. The DRAM points ran at the largest "
                              "set, {}, and B there is at least a cache level's, not DRAM's.",
                              md_text(p.stopped.empty() ? "the search stopped" : p.stopped),
                              format_size_bytes(p.planned_bytes));
      body += p.llc_bytes > 0
                  ? fmt::format(" The context states a last-level cache of {} (every copy).",
                                format_size_bytes(p.llc_bytes))
                  : std::string(" The context states no last-level cache this run trusts.");
      body += fmt::format(
          " Searched in {}, a larger set counted as slower beyond {:.0f} % plus both sets' "
          "spreads.\n\n",
          md_text(p.measured_in), 100 * p.tolerance);
      body += "| working set |";
      for (const char* mix : kPlateauMixes) body += fmt::format(" {} |", md_code(mix));
      body += " set |\n|---|";
      for (std::size_t i = 0; i < std::size(kPlateauMixes); ++i) body += "---|";
      body += "---|\n" + set_rows(p) + "\n";
    }
  }
  if (body.empty()) return;
  md +=
      "## Where DRAM begins\n\n"
      "Before the sweep, working sets of a read-only (`read`) and an in-place 2:1 "
      "(`update_xy`) stream grew by octaves until both stopped falling: the first set from "
      "which two doublings stream no slower (beyond noise) is where the DRAM plateau begins (one "
      "doubling where it confirms 4 × the last-level cache the context states). B, B_read and "
      "B_write are envelopes of points on that plateau only; the smaller sets are cache "
      "levels of this host.\n\n" +
      body;
}

}  // namespace ridgeline
