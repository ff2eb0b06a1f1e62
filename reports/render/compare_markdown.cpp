#include "render/compare_markdown.hpp"

#include <fmt/format.h>

#include "render/markdown_text.hpp"

namespace ridgeline {
namespace {

std::string row(const MetricComparison& m) {
  return fmt::format("| {} | {} | {} | {:+.1f} % | {:.3g} | **{}** | {} |\n", md_code(m.metric),
                     m.baseline, m.current, 100 * m.change, m.p_value, verdict_name(m.verdict),
                     md_text(m.note));
}

constexpr const char* kHeader =
    "| metric | baseline | current | change | p | verdict | note |\n"
    "|---|---|---|---|---|---|---|\n";

}  // namespace

std::string render_compare_markdown(const std::string& baseline, const std::string& current,
                                    const Comparison& c, const CompareOptions& o) {
  const int slower = c.count(Verdict::kSlower), faster = c.count(Verdict::kFaster),
            ambiguous = c.count(Verdict::kAmbiguous), same = c.count(Verdict::kSame),
            failed = c.count(Verdict::kFailed), missing = c.count(Verdict::kMissing);
  std::string md = fmt::format(
      "## ridgeline compare: {} — {} slower, {} failed, {} missing, {} faster, {} ambiguous, {} "
      "same\n\n"
      "Baseline {}, current {}. A change is reported when it exceeds {:g} % of throughput "
      "AND its p-value is below {:g}. What the baseline measured and verified must still be "
      "measured (else MISSING) and verify (else FAILED).\n\n",
      c.regressions() ? "REGRESSION" : "no regression", slower, failed, missing, faster, ambiguous,
      same, md_code(baseline), md_code(current), o.threshold_pct, o.alpha);
  md += kHeader;
  for (const auto& m : c.roofs) md += row(m);
  for (const auto& m : c.points)
    if (m.verdict != Verdict::kSame) md += row(m);
  md += fmt::format("\n<details><summary>All {} points</summary>\n\n{}", c.points.size(), kHeader);
  for (const auto& m : c.points) md += row(m);
  md += "\n</details>\n\n";
  if (!c.not_compared.empty()) {
    md += fmt::format("<details><summary>Not compared ({})</summary>\n\n", c.not_compared.size());
    for (const auto& s : c.not_compared) md += "- " + md_text(s) + "\n";
    md += "\n</details>\n\n";
  }
  md +=
      "<details><summary>Method</summary>\n\n"
      "- Change: throughput of the current file over the baseline, minus 1 (for points the ratio "
      "of median times, baseline / current).\n"
      "- Points: two-sided Mann–Whitney U over the per-repetition samples (exact without ties, "
      "else normal approximation). With few repetitions the exact test cannot reach alpha "
      "(3 + 3 samples: p >= 0.1; 4 + 4: p >= 0.029; 5 + 5: p >= 0.0079), so such changes are "
      "AMBIGUOUS, never SLOWER: use more repetitions for a gate.\n"
      "- P and B: each file is fitted with its own percentile bootstrap (1000 resamples of its "
      "points); the replicate ratios current / baseline give a two-sided bootstrap p-value for "
      "\"no change\".\n"
      "- SAME within the threshold; FASTER / SLOWER beyond it with p < alpha; AMBIGUOUS beyond "
      "it without significance. FAILED: verified in the baseline, failed verification now. "
      "MISSING: measured and verified (or fitted) in the baseline, absent, skipped or not fitted "
      "now. The exit status is 1 when something is SLOWER, FAILED or MISSING.\n\n"
      "</details>\n";
  return md;
}

}  // namespace ridgeline
