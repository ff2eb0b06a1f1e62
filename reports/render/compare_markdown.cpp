#include "reports/render/compare_markdown.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "reports/compare/comparison.hpp"
#include "reports/render/markdown_text.hpp"
#include "reports/roofline/roofline_fit.hpp"

namespace ridgeline {
namespace {

// The smallest slowdown the gate calls SLOWER for this metric in 95 % of nights.
std::string catches(const MetricComparison& m) {
  if (m.verdict == Verdict::kMissing || m.verdict == Verdict::kFailed) return "–";
  return m.min_detectable < 0 ? "none" : fmt::format("{:.1f} %", 100 * m.min_detectable);
}

// A verdict the range rule gave (compare/shared_level.hpp), after the verdict itself.
std::string range_suffix(const MetricComparison& m) {
  if (!m.shared) return {};
  switch (m.shared->outcome) {
    case RangeOutcome::kVariedWithNeighbours:
      return " (shared level varied with neighbours)";
    case RangeOutcome::kBelowHistory:
      return " (shared level below its history, not below DRAM)";
    case RangeOutcome::kBelowDram:
      return " (shared level below its history and DRAM)";
    default:
      return {};
  }
}

std::string row(const MetricComparison& m) {
  const std::string tolerance = m.verdict == Verdict::kMissing || m.verdict == Verdict::kFailed
                                    ? "–"
                                    : fmt::format("{:.1f} %", 100 * m.tolerance);
  return fmt::format("| {} | {} | {} | {:+.1f} % | {} | {} | {:.3g} | **{}**{}{}{} | {} |\n",
                     md_code(m.metric), m.baseline, m.current, 100 * m.change, tolerance,
                     catches(m), m.q_value, verdict_name(m.verdict),
                     m.clock_limited ? " clock-limited" : "", m.machine_busy ? " machine busy" : "",
                     range_suffix(m), md_text(m.note));
}

// Up to five metric names, then "…".
// The first five of a list, then "…".
std::string first_five(const std::vector<std::string>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size() && i < 5; ++i) out += (i ? ", " : "") + items[i];
  return out + (items.size() > 5 ? ", …" : "");
}

std::string some_names(const std::vector<const MetricComparison*>& list) {
  std::vector<std::string> names;
  for (const MetricComparison* m : list) names.push_back(md_code(m->metric));
  return first_five(names);
}

// Which points were judged against their history's range instead of its median, why, and what
// that range made of them tonight; empty when none.
std::string shared_lines(const Comparison& c) {
  std::vector<std::pair<std::string, int>> reasons;  // the cache list's reasons, each once
  int bimodal = 0, n = 0;
  std::vector<const MetricComparison*> varied, below, below_dram;
  for (const auto& m : c.points) {
    if (!m.shared) continue;
    ++n;
    if (m.shared->reason.rfind("its history is bimodal", 0) == 0) {
      ++bimodal;
    } else {
      auto it = std::find_if(reasons.begin(), reasons.end(),
                             [&m](const auto& r) { return r.first == m.shared->reason; });
      if (it == reasons.end())
        reasons.emplace_back(m.shared->reason, 1);
      else
        ++it->second;
    }
    if (m.shared->outcome == RangeOutcome::kVariedWithNeighbours) varied.push_back(&m);
    if (m.shared->outcome == RangeOutcome::kBelowHistory) below.push_back(&m);
    if (m.shared->outcome == RangeOutcome::kBelowDram) below_dram.push_back(&m);
  }
  if (!n) return {};
  std::string why;
  for (const auto& [reason, count] : reasons)
    why += fmt::format("{}{} point{}: {}", why.empty() ? "" : "; ", count, count == 1 ? "" : "s",
                       md_text(reason));
  if (bimodal)
    why += fmt::format(
        "{}{} point{}: a history in two clusters of nights farther apart than the "
        "threshold (the level behaves as shared)",
        why.empty() ? "" : "; ", bimodal, bimodal == 1 ? "" : "s");
  std::string md = fmt::format(
      "**Shared cache levels**: {} point{} lie in a cache level this run does not own and {} "
      "judged against the range their history showed, not its median ({}). Within that range "
      "(widened by the tolerance) is SAME; below it but not below tonight's DRAM rate of the "
      "point's traffic is AMBIGUOUS, reported and not gated (a neighbour holding the whole level "
      "leaves the set to DRAM); below both is SLOWER. DRAM-plateau and peak points are never "
      "judged this way.",
      n, n == 1 ? "" : "s", n == 1 ? "is" : "are", why);
  if (!varied.empty())
    md += fmt::format(" Tonight SAME because the level varied with neighbours: {}.",
                      some_names(varied));
  if (!below.empty())
    md += fmt::format(" Below everything their history showed, not below DRAM: {}.",
                      some_names(below));
  if (!below_dram.empty())
    md += fmt::format(" Below their history and DRAM: {}.", some_names(below_dram));
  return md + "\n\n";
}

// Slowdowns that this process's waiting for a CPU explains (a shared runner's busy phase).
std::string busy_line(const Comparison& c) {
  std::string names;
  int n = 0;
  for (const auto* list : {&c.levels, &c.roofs, &c.points})
    for (const auto& m : *list)
      if (m.machine_busy && ++n <= 5)
        names += fmt::format("{}{} (waited {:.0f} %)", names.empty() ? "" : ", ", md_code(m.metric),
                             100 * m.cpu_wait_share);
  if (!n) return {};
  return fmt::format(
      "**Machine busy**: {} slowdown{} measured while this process's threads waited for a CPU "
      "(another process had it) more than in the history, by enough to explain the change; "
      "AMBIGUOUS, not gated: {}{}\n\n",
      n, n == 1 ? "" : "s", names, n > 5 ? ", …" : "");
}

// The re-measures tonight's slowdowns were held to: which slowdowns all of them reproduced, which
// were not reproduced, and by which re-measure.
std::string remeasure_line(const Comparison& c) {
  if (c.remeasures.empty()) return {};
  const std::size_t n = c.remeasures.size();
  std::vector<std::string> confirmed, cleared;
  const auto add = [&](const MetricComparison& m) {
    if (!m.remeasure) return;
    std::string readings;
    for (const Remeasure& r : m.remeasures)
      readings += fmt::format("{}{:+.1f} %", readings.empty() ? "" : ", ", 100 * r.change);
    std::string by;  // which re-measure did not reproduce it
    if (n > 1 && m.verdict != Verdict::kSlower)
      for (std::size_t i = 0; i < n; ++i)
        if (by.empty() && c.remeasures[i] == m.remeasure->label)
          by = fmt::format("; not by re-measure {}", i + 1);
    (m.verdict == Verdict::kSlower ? confirmed : cleared)
        .push_back(fmt::format("{} ({:+.1f} %, re-measured {}{})", md_code(m.metric),
                               100 * m.change, readings, by));
  };
  if (c.machine) add(*c.machine);
  for (const auto* list : {&c.levels, &c.roofs, &c.points})
    for (const auto& m : *list) add(m);
  std::string md;
  if (n == 1) {
    md = fmt::format(
        "**Re-measured** ({}): every slowdown fails the gate only where this second run of the "
        "sweep, made right after tonight's and compared with the same history, is slower too; a "
        "slowdown in one run of two (a neighbour's burst, or an intermittent regression) is "
        "AMBIGUOUS \"not reproduced\".",
        md_code(c.remeasures.front()));
    if (!confirmed.empty()) md += " Reproduced: " + first_five(confirmed) + ".";
  } else {
    std::string files;
    for (std::size_t i = 0; i < n; ++i)
      files += fmt::format("{}{} {}", i ? ", " : "", i + 1, md_code(c.remeasures[i]));
    md = fmt::format(
        "**Re-measured** {} times ({}, in the order measured): every slowdown fails the gate "
        "only where every re-measure, compared with the same history, finds it too; a slowdown "
        "one of them contradicts (a neighbour's burst, even one that outlasted the first "
        "re-measure, or an intermittent regression) is AMBIGUOUS \"not reproduced\".",
        n, files);
    if (!confirmed.empty())
      md += fmt::format(" Reproduced by all {}: {}.", n, first_five(confirmed));
  }
  if (!cleared.empty()) md += " Not reproduced: " + first_five(cleared) + ".";
  if (confirmed.empty() && cleared.empty())
    md += n == 1 ? " Tonight found no slowdown to hold to it."
                 : " Tonight found no slowdown to hold to them.";
  return md + "\n\n";
}

// GPU runs: which verdicts a lower clock or a throttle may explain, and tonight's throttled
// samples; empty without telemetry.
std::string clock_lines(const Comparison& c) {
  std::string limited, throttled;
  int flagged = 0, samples = 0, points = 0;
  for (const auto* list : {&c.levels, &c.roofs, &c.points})
    for (const auto& m : *list)
      if (m.clock_limited)
        limited += fmt::format(
            "{}{} ({:.0f} → {:.0f} MHz)", limited.empty() ? "" : ", ", md_code(m.metric),
            m.history_sm_clock_mhz > 0 ? m.history_sm_clock_mhz : m.history_host_clock_mhz,
            m.sm_clock_mhz > 0 ? m.sm_clock_mhz : m.host_clock_mhz);
  for (const auto& m : c.points) {
    samples += m.samples;
    flagged += m.throttled_samples;
    if (m.throttled_samples) {
      ++points;
      if (points <= 5)
        throttled += fmt::format("{}{} {}/{}", throttled.empty() ? "" : ", ", md_code(m.metric),
                                 m.throttled_samples, m.samples);
    }
  }
  std::string md;
  if (!limited.empty())
    md +=
        "**Clock-limited** (slower with a lower clock than the history's, a GPU's SM clock or a "
        "host's cores', or a new throttle reason; the verdict stands but for "
        "--clock-limited-ambiguous, the note gives the change at equal clock for P and peak "
        "points): " +
        limited + "\n\n";
  if (flagged)
    md += fmt::format("**Throttled samples tonight**: {} of {} in {} point{} ({}{})\n\n", flagged,
                      samples, points, points == 1 ? "" : "s", throttled, points > 5 ? ", …" : "");
  return md;
}

constexpr const char* kHeader =
    "| metric | baseline | current | change | tolerance | catches | p | verdict | note |\n"
    "|---|---|---|---|---|---|---|---|---|\n";

// Order of the first table: what fails the gate first, then what needs a look.
int rank(Verdict v) {
  switch (v) {
    case Verdict::kFailed:
      return 0;
    case Verdict::kMissing:
      return 1;
    case Verdict::kSlower:
      return 2;
    case Verdict::kAmbiguous:
      return 3;
    case Verdict::kFaster:
      return 4;
    default:
      return 5;
  }
}

std::string detectable(const MetricComparison& m) {
  return m.min_detectable >= 0 ? fmt::format("{:.1f} %", 100 * m.min_detectable)
                               : std::string("none");
}

// "P OpenMP/fp64: 3.1 %, B OpenMP/fp64: 31 %; points: median 6 %, largest 40 % (`x`)".
std::string catch_line(const Comparison& c) {
  std::string s;
  if (c.machine)
    s = fmt::format("every point together (the minimum detectable machine-wide change): {}",
                    detectable(*c.machine));
  // A level's points together: the slowdown of every one of them it calls SLOWER.
  for (const auto& m : c.levels)
    s += fmt::format("{}{}: {}", s.empty() ? "" : ", ", md_code(m.metric), detectable(m));
  for (const auto& m : c.roofs) {
    if (m.verdict == Verdict::kMissing) continue;
    s += fmt::format("{}{}: {}", s.empty() ? "" : ", ", md_code(m.metric), detectable(m));
  }
  std::vector<const MetricComparison*> pts, shared;
  int none = 0;
  for (const auto& m : c.points) {
    if (m.min_detectable >= 0) (m.shared ? shared : pts).push_back(&m);
    none += m.min_detectable < 0 && m.verdict != Verdict::kMissing && m.verdict != Verdict::kFailed;
  }
  if (!pts.empty()) {
    std::sort(pts.begin(), pts.end(),
              [](const auto* a, const auto* b) { return a->min_detectable < b->min_detectable; });
    s += fmt::format("{}points: median {:.1f} %, smallest {:.1f} %, largest {:.1f} % ({})",
                     s.empty() ? "" : "; ", 100 * pts[pts.size() / 2]->min_detectable,
                     100 * pts.front()->min_detectable, 100 * pts.back()->min_detectable,
                     md_code(pts.back()->metric));
  }
  if (!shared.empty()) {
    // What the range rule gave up: a slowdown that stays within the history's range, or above
    // tonight's DRAM rate of the point's traffic.
    std::sort(shared.begin(), shared.end(),
              [](const auto* a, const auto* b) { return a->min_detectable < b->min_detectable; });
    s += fmt::format(
        "{}shared-level points ({}, judged against their history's range): only a fall below "
        "their history's slowest night (and, where the cache list says the level is not the "
        "run's, below tonight's DRAM rate of their traffic), median {:.1f} %, largest {:.1f} % "
        "({}); a slowdown that stays within that range, or above that DRAM rate, is not caught "
        "there",
        s.empty() ? "" : "; ", shared.size(), 100 * shared[shared.size() / 2]->min_detectable,
        100 * shared.back()->min_detectable, md_code(shared.back()->metric));
  }
  if (none) s += fmt::format("; {} points: none (too few samples for the test)", none);
  return s;
}

// Each roof as measured against the history's (absolute) and with the night's machine-wide
// factor taken out (relative, what the verdict judges); the absolute change is what the machine
// delivered, the relative one what moved against the rest of the night.
std::string roof_table(const Comparison& c) {
  std::string rows;
  for (const auto& m : c.roofs) {
    if (!m.absolute_change) continue;
    const bool lost = std::find(c.machine_roofs.begin(), c.machine_roofs.end(), m.metric) !=
                      c.machine_roofs.end();
    rows += fmt::format("| {} | {} | {} | {:+.1f} %{} | {:+.1f} % | {} |\n", md_code(m.metric),
                        m.absolute_baseline, m.current, 100 * *m.absolute_change,
                        lost ? " **lost**" : "", 100 * m.change, verdict_name(m.verdict));
  }
  if (rows.empty()) return {};
  const std::string factor =
      c.machine ? fmt::format("every point together {:+.1f} %, {}", 100 * c.machine->change,
                              verdict_name(c.machine->verdict))
                : std::string("no machine-wide factor taken out: fewer than 3 history nights");
  return "**Roofs, absolute and relative to the night** (" + factor +
         "):\n\n| roof | history (as measured) | current | absolute | relative | verdict "
         "(relative) |\n|---|---|---|---|---|---|\n" +
         rows + "\n";
}

}  // namespace

std::string render_compare_markdown(const std::string& current, const Comparison& c,
                                    const CompareOptions& o) {
  const int slower = c.count(Verdict::kSlower), faster = c.count(Verdict::kFaster),
            ambiguous = c.count(Verdict::kAmbiguous), same = c.count(Verdict::kSame),
            failed = c.count(Verdict::kFailed), missing = c.count(Verdict::kMissing);
  std::string history;
  if (!c.history.empty())
    history = c.history.size() == 1
                  ? md_code(c.history.front())
                  : md_code(c.history.front()) + " … " + md_code(c.history.back());
  std::string md = fmt::format(
      "## ridgeline compare: {} — {} slower, {} failed, {} missing, {} faster, {} ambiguous, {} "
      "same\n\n"
      "Current {}, against a history of {} night{} ({}). A change is reported when it exceeds "
      "its tolerance, the larger of {:g} % and {:g} × the metric's spread across the history "
      "nights, AND its p-value (Benjamini–Hochberg adjusted over the points) is below {:g}. What "
      "the newest history night measured and verified must still be measured (else MISSING) "
      "and verify (else FAILED).\n\n",
      c.regressions() ? "REGRESSION" : "no regression", slower, failed, missing, faster, ambiguous,
      same, md_code(current), c.history_nights, c.history_nights == 1 ? "" : "s", history,
      o.threshold_pct, o.k, o.alpha);
  if (!c.busy_history.empty()) {
    std::string names;
    for (const auto& n : c.busy_history) names += (names.empty() ? "" : ", ") + md_code(n);
    md += fmt::format(
        "Left out of the history as measured on a busy machine (their points' median wait for a "
        "CPU was {:g} % of the time or more; enough quiet nights remain): {}.\n\n",
        100 * kBusyShare, names);
  }
  if (c.busy_night())
    md += fmt::format(
        "**Tonight was measured on a busy machine**: its points waited for a CPU {:.0f} % of the "
        "time (median).\n\n",
        100 * c.night_cpu_wait);
  if (!c.gates_speed)
    md += fmt::format(
        "**History too short to gate on speed: {} night{}, {} needed.** SLOWER is reported but "
        "does not fail (a machine-wide change needs 3 nights to be judged at all); MISSING and "
        "FAILED do.\n\n",
        c.history_nights, c.history_nights == 1 ? "" : "s", o.min_history);

  std::vector<const MetricComparison*> changed;
  if (c.machine && c.machine->verdict != Verdict::kSame) changed.push_back(&*c.machine);
  for (const auto* list : {&c.levels, &c.roofs, &c.points})
    for (const auto& m : *list)
      if (m.verdict != Verdict::kSame) changed.push_back(&m);
  std::stable_sort(changed.begin(), changed.end(), [](const auto* a, const auto* b) {
    return rank(a->verdict) < rank(b->verdict);
  });
  if (changed.empty()) {
    md += "Every metric is within its tolerance.\n\n";
  } else {
    md += kHeader;
    for (const auto* m : changed) md += row(*m);
    md += "\n";
  }
  md += roof_table(c);
  md += clock_lines(c);
  md += busy_line(c);
  md += remeasure_line(c);
  md += shared_lines(c);
  md +=
      "**What this history lets the gate catch** (smallest change of throughput it calls SLOWER "
      "in 95 % of nights";
  md += c.gates_speed ? ")" : "; not gated yet)";
  md += ": " + catch_line(c) + "\n\n";

  md += fmt::format("<details><summary>SAME: {} metrics</summary>\n\n{}", same, kHeader);
  if (c.machine && c.machine->verdict == Verdict::kSame) md += row(*c.machine);
  for (const auto* list : {&c.levels, &c.roofs, &c.points})
    for (const auto& m : *list)
      if (m.verdict == Verdict::kSame) md += row(m);
  md += "\n</details>\n\n";
  if (!c.not_compared.empty()) {
    md += fmt::format("<details><summary>Not compared ({})</summary>\n\n", c.not_compared.size());
    for (const auto& s : c.not_compared) md += "- " + md_text(s) + "\n";
    md += "\n</details>\n\n";
  }
  md += fmt::format(
      "<details><summary>Method</summary>\n\n"
      "- Baseline: the median of the metric over the history nights. Change: throughput of the "
      "current file over the baseline, minus 1 (for points the ratio of median times, baseline / "
      "current).\n"
      "- Tolerance: the larger of --threshold ({:g} %) and --k ({:g}) × the metric's spread "
      "across the history nights (the median absolute deviation of the logarithms, scaled to a "
      "standard deviation with a small-sample factor; "
      "known from 3 nights on; at least half the median spread of its kind; widened by tonight's "
      "own noise), on a log scale. Catches: the smallest slowdown the gate calls SLOWER in 95 % of "
      "nights: past the tolerance (or, where the test needs more to reach alpha, "
      "Benjamini–Hochberg included, past that) by as far as tonight scatters in 95 % of nights, "
      "counted in a spread from that many nights (not a normal z); none where the test can never "
      "reach alpha.\n"
      "- Points: two-sided Mann–Whitney U of tonight's repetitions against those of all history "
      "nights (exact without ties up to 4096 sample pairs, else the normal approximation); the "
      "p-values "
      "are adjusted over all points with Benjamini–Hochberg (the p column shows the adjusted "
      "value), so that hundreds of points do not produce false discoveries every night.\n"
      "- Every point together: with 3 history nights or more and at least 5 points, "
      "each night's machine-wide factor (the median over the points of the time over the "
      "history's median) is taken out of every point and roof first, so that a slow phase of a "
      "shared machine does not read as a regression of everything: those verdicts are relative "
      "to the night. The factor itself is judged against its own spread across the history "
      "nights (each night's factor against the others'; at least the nights' own standard "
      "error, widened by tonight's when tonight's points scatter more): beyond the larger of "
      "--machine-threshold ({:g} %) and --machine-k ({:g}) spreads, and significant as a spread "
      "from that many nights knows it (the factor in spreads against the distribution of a "
      "normal night counted in the spread of n normal nights, not a normal z), it is SLOWER "
      "(or FASTER), naming the roofs that lost as much in absolute terms; AMBIGUOUS machine busy "
      "when waiting for a CPU explains it; SLOWER clock-limited, with the clocks, when tonight's "
      "clock (a GPU's SM clock, a host's cores') was lower or a new throttle reason appeared "
      "(AMBIGUOUS with "
      "--clock-limited-ambiguous where the lower clock explains the change). Each "
      "roof is shown both absolute and relative to the night. Under a hypervisor, whose "
      "factor leaves the private cache levels out, P and the points that move with the clock "
      "(peak points, L1 and L2, probes above the ridge) take out their own factor instead.\n"
      "- A level's points together: per space, the median change of the peak points and of the "
      "points of each cache level the cache list gives the run alone (L1, L2; a GPU's levels), "
      "as measured, judged like the factor against its own spread across the history nights "
      "(at least the factor's: a night the factor tolerates fails by no level), beyond the "
      "larger of --threshold ({:g} %) and --machine-k ({:g}) spreads, tested as the factor is. "
      "Under a hypervisor these hold a private level that its points, judged by their history's "
      "range, no longer do.\n"
      "- P and B: each file is fitted with its own percentile bootstrap ({} resamples); "
      "tonight's replicates over those of the history nights in turn give a two-sided bootstrap "
      "p-value for \"no change\". B_read: a normal approximation from both {} intervals and "
      "the spread across nights.\n"
      "- Machine busy: the results record how long this process's threads waited for a CPU "
      "during each sample (Linux schedstat). A slowdown whose median wait tonight is at least "
      "{:g} % of the time and {:g} points above the history's, and which the waiting explains "
      "(each "
      "thread's wait counted as a stall of the whole region, on both sides, leaves the change "
      "within the tolerance), is AMBIGUOUS \"machine busy\" and does not fail the gate. So is "
      "a roof that tonight's points, all there and each gated, did not fit while they waited {:g} "
      "% "
      "of the time or more.\n"
      "- Shared cache levels: a point whose working set lies in a cache level the run does not "
      "own (a set beyond the levels an incomplete cache list records, where the last-level "
      "cache's size is unknown; a level shared by more threads than the run has; or a cache-level "
      "point whose history falls in two clusters of nights farther apart than the threshold) is "
      "judged against the range its history showed: SAME within it (\"varied with neighbours\"), "
      "AMBIGUOUS below it but not below tonight's DRAM rate of its traffic mix, SLOWER (with a "
      "significant test) below both. Its tolerance is one cluster's spread, and it is left out "
      "of the machine-wide factor. DRAM-plateau and peak points are never judged so.\n"
      "- SAME within the tolerance; FASTER / SLOWER beyond it with p < alpha; AMBIGUOUS beyond "
      "it without significance. FAILED: verified in the baseline, failed verification now. "
      "MISSING: measured and verified (or fitted) in the newest history night, absent, skipped "
      "or not fitted now. The exit status is 1 when something is FAILED or MISSING, or SLOWER "
      "with at least --min-history ({}) history nights.\n\n"
      "</details>\n",
      o.threshold_pct, o.k, o.machine_threshold_pct, o.machine_k, o.threshold_pct, o.machine_k,
      kBootstrapReplicates, confidence_label(), 100 * kBusyShare, 100 * kBusyShare,
      100 * kBusyShare, o.min_history);
  return md;
}

}  // namespace ridgeline
