#include "reports/render/methods_section.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

#include "core/stats.hpp"
#include "reports/fit/above_roof.hpp"
#include "reports/fit/roof_roles.hpp"
#include "reports/levels/memory_levels.hpp"
#include "reports/render/markdown_text.hpp"
#include "reports/roofline/roofline_fit.hpp"
#include "results/probe_catalog.hpp"

namespace ridgeline {
namespace {

// "a", "a and b", "a, b and c" (or another conjunction).
std::string series(const std::vector<std::string>& items, const char* conjunction = "and") {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i)
    out += (i == 0                 ? ""
            : i + 1 < items.size() ? ", "
                                   : fmt::format(" {} ", conjunction)) +
           items[i];
  return out;
}

// Small counts read as words in the prose ("fewer than two points").
std::string count_word(int n) {
  static const char* const kWords[] = {"zero", "one",   "two",   "three", "four", "five",
                                       "six",  "seven", "eight", "nine",  "ten"};
  return n >= 0 && n <= 10 ? kWords[n] : std::to_string(n);
}

// "copy, scale, the FMA ladders 1:1; add, triad 2:1; …": the kernels the catalog names for the
// Methods (ProbeSpec::methods), in its order, each under the mix roof_roles gives it, so a
// kernel whose counted traffic changes moves in the text.
std::string traffic_mixes_text() {
  std::vector<const ProbeSpec*> named;
  for (const ProbeSpec& p : kProbes)
    if (p.methods.rank > 0) named.push_back(&p);
  std::stable_sort(named.begin(), named.end(), [](const ProbeSpec* a, const ProbeSpec* b) {
    return a->methods.rank < b->methods.rank;
  });
  std::string text;
  for (const TrafficMix mix : kTrafficMixes) {
    std::vector<std::string> kernels;
    for (const ProbeSpec* k : named) {
      Point p;
      p.probe = std::string(k->name);
      if (traffic_mix(p) == mix) kernels.emplace_back(k->methods.as);
    }
    if (kernels.empty()) continue;
    std::string group;
    for (const auto& k : kernels) group += (group.empty() ? "" : ", ") + k;
    text += (text.empty() ? "" : "; ") + group + " " + mix_name(mix);
  }
  return text;
}

std::string file_lines(const std::vector<FileAnalysis>& files) {
  std::string text;
  for (const auto& f : files)
    text += fmt::format("- {}: profile {}, {} repetitions per point{}.\n", md_code(f.label),
                        md_code(f.results.profile_name.empty() ? "?" : f.results.profile_name),
                        f.results.repetitions > 0 ? std::to_string(f.results.repetitions) : "?",
                        f.results.complete ? "" : "; **the run did not complete** (partial file)");
  return text;
}

std::string timing() {
  return "- Timing: Google Benchmark with manual time; the execution space is fenced before and "
         "after each timed kernel call; one sample per repetition; rates use the median sample.\n";
}

std::string roofs() {
  std::vector<std::string> both_ways, one_way;
  for (const TrafficMix mix : kTrafficMixes)
    if (reads_and_writes(mix))
      both_ways.push_back(mix_name(mix));
    else
      one_way.push_back(mix_roof_name(mix));
  return fmt::format(
      "- Roofs: memory roofs are envelopes per traffic mix (reads : writes as the kernel counts "
      "them: {mixes}) of our own verified streaming kernels, ladder rungs and cache-sweep sets "
      "whose working set is DRAM-sized (at least {multiple:g}x the last-level cache of the whole "
      "machine, every copy; "
      "{multiple:g}x the L2 on a GPU). B, the roof of kernels that read and write, is the "
      "envelope of the {both_ways} mixes; {one_way} those of one direction. On a write-allocate "
      "CPU a kernel that stores into lines it never read moves more than it counts: its counted "
      "rate is a lower bound of what the memory did, which an envelope may take (the report says "
      "so where such a kernel sets a roof). Memory roofs are the device's, not a dtype's: each "
      "is the envelope over every dtype of the execution space (each dtype's own fit says which "
      "of its ladder rungs are memory-bound), the same in every dtype, and each dtype's ridge is "
      "its own P over it (P's bootstrap replicates paired with B's). P is the envelope of the "
      "register-only `peak` probe and the ladder's compute-bound rungs. Library calls are named "
      "ceilings.\n",
      fmt::arg("mixes", traffic_mixes_text()), fmt::arg("multiple", kDramLlcMultiple),
      fmt::arg("both_ways", series(both_ways)), fmt::arg("one_way", series(one_way)));
}

std::string fit() {
  std::vector<std::string> narrower;
  for (std::size_t i = 1; i < std::size(kKneeBands); ++i)
    narrower.push_back(fmt::format("{:g}", kKneeBands[i]));
  return fmt::format(
      "- Fit: in log space, defining points left of the ridge I* = P/B observe log B (log FLOP/s "
      "− log I); points within a factor {widest:g} of the ridge ({narrower} when a side would "
      "keep fewer than {side_points} points) are the rounded knee and are left out. The ridge the "
      "sides are split at comes from Tukey-biweight locations (MAD scale, c = {tuning:g}), "
      "re-estimated until it settles; P and B are then the envelopes (largest median rate) of "
      "their sides, since the points are different kernels whose differences are real, not "
      "noise around one value. Intervals: {confidence} % percentile block bootstrap over "
      "repetitions, {replicates} replicates: each replicate redraws every defining point's "
      "repetitions with replacement and refits, fixed seed (the report is deterministic). The "
      "spread across probes is the range of the defining points' own values, reported apart. "
      "Library, unverified and skipped points are never fitted.\n",
      fmt::arg("widest", kKneeBands[0]), fmt::arg("narrower", series(narrower, "or")),
      fmt::arg("side_points", count_word(kMinSidePoints)), fmt::arg("tuning", kBiweightTuning),
      fmt::arg("confidence", kConfidencePercent), fmt::arg("replicates", kBootstrapReplicates));
}

std::string points_above_roofs() {
  return fmt::format(
      "- Points above their roof: every verified point more than {margin:g} % above min(P, I·B) "
      "of its space × dtype, B the memory roof of its traffic mix (B, B_read or B_write; the "
      "highest of them for a kernel of no mix; byte/s against it for points without FLOPs), is "
      "listed; a working set that a cache holds is the known reason, anything else should not "
      "happen, unless the machine's speed changed between rounds: in a file swept in rounds, a "
      "point is also held against the roof's points round by round (in each round it shared with "
      "them, its rate over the fastest of theirs; the median over those rounds), and one within "
      "{margin:g} % of them there is above the roof only because its median and the roof's came "
      "from different phases. Apart: every point whose own {confidence} % interval (the bootstrap "
      "of its median) lies above the top of its roof's interval, and which is above the roof's "
      "points round by round too, beyond noise. Library GEMMs on tensor or matrix "
      "units are held against the matrix roof min(P_matrix, I·B) instead.\n",
      fmt::arg("margin", 100 * kAboveRoofMargin), fmt::arg("confidence", kConfidencePercent));
}

std::string matrix_roof() {
  return "- P_matrix: the envelope (largest median rate) of the verified library GEMMs on tensor "
         "or matrix units of the space × dtype, since shapes below the best one (a skinny GEMM) "
         "are below the roof by design, not by noise; its interval is the same block bootstrap "
         "(each replicate redraws every GEMM's repetitions and takes the largest median). The "
         "intervals of I*_matrix pair P_matrix's replicates with B's (or B_read's). tf32 "
         "multiplies fp32 arrays: its ridges use the fp32 B.\n";
}

std::string memory_levels() {
  return fmt::format(
      "- Memory levels: the cache sweep's log bandwidth over working set is split into plateaus "
      "by optimal partitioning (penalty {penalty:g}·σ²·ln n, σ from neighbouring differences, at "
      "least {plateau_points} points per plateau); each plateau falls in the range of the "
      "smallest cache that holds all its working sets (on a host: size × copies across the "
      "space's threads; on a GPU: one SM's or CU's L1, the L2, a MALL, as the context records "
      "them), else DRAM (device memory on a GPU). The range's last plateau, the one that reaches "
      "the next capacity, is the level; plateaus before it, and any slower than the level after "
      "them, are transitions.\n",
      fmt::arg("penalty", kPlateauPenaltyFactor), fmt::arg("plateau_points", kMinPlateauPoints));
}

}  // namespace

void methods_section(std::string& md, const std::vector<FileAnalysis>& files) {
  md += "## Methods\n\n" + file_lines(files) + timing() + roofs() + fit() + points_above_roofs() +
        matrix_roof() + memory_levels() + "\n";
}

}  // namespace ridgeline
