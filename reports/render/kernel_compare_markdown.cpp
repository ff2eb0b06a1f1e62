#include "reports/render/kernel_compare_markdown.hpp"

#include <fmt/format.h>

#include "reports/render/markdown_text.hpp"

namespace ridgeline {
namespace {

std::string change_text(const MetricComparison& m) {
  if (m.verdict == Verdict::kMissing) return "–";
  return fmt::format("{:+.1f} % (tolerance {:.1f} %)", 100 * m.change, 100 * m.tolerance);
}

}  // namespace

std::string render_kernel_compare_markdown(const std::string& current, const KernelsComparison& c,
                                           const CompareOptions& o) {
  const int regressions = c.regressions();
  std::string md = fmt::format("## ridgeline kernels compare: {}\n\n", md_text(current));
  md += fmt::format(
      "**{}**: {} kernel{} against {} history night{}; {} slower, {} missing, "
      "{} faster, {} ambiguous.\n\n",
      regressions ? "REGRESSION" : "no regression", c.kernels.size(),
      c.kernels.size() == 1 ? "" : "s", c.history.size(), c.history.size() == 1 ? "" : "s",
      c.count(Verdict::kSlower), c.count(Verdict::kMissing), c.count(Verdict::kFaster),
      c.count(Verdict::kAmbiguous));
  if (!c.gates_speed)
    md += fmt::format(
        "Fewer than {} history nights: the spread is unknown, speed changes are "
        "reported, not gated.\n\n",
        o.min_history);
  md +=
      "| kernel | time per call | change of calls/s | verdict | % of roof | change of % | roof | "
      "why |\n|---|---:|---:|---|---:|---:|---:|---|\n";
  for (const KernelComparison& k : c.kernels) {
    const MetricComparison& t = k.time;
    std::string fraction = "–", fraction_change = "–", roof = "–";
    if (k.fraction) {
      fraction = k.fraction->baseline + " → " + k.fraction->current;
      fraction_change = change_text(*k.fraction) + " " + verdict_name(k.fraction->verdict);
    }
    if (k.roof_change) roof = fmt::format("{:+.1f} %", 100 * *k.roof_change);
    md += fmt::format("| {} | {} → {} | {} | **{}** | {} | {} | {} | {} |\n", md_code(k.kernel),
                      t.baseline, t.current, change_text(t), verdict_name(t.verdict), fraction,
                      fraction_change, roof,
                      md_text(k.explanation.empty() ? t.note : k.explanation + "; " + t.note));
  }
  md += "\n";
  for (const std::string& n : c.not_compared) md += "- not compared: " + md_text(n) + "\n";
  if (!c.not_compared.empty()) md += "\n";
  md += fmt::format(
      "A kernel's time per call is its median fenced time (libridgeline-kp.so); % of roof is its "
      "achieved rate over the roof that bounds it at its intensity in the same night's results "
      "(--roofs). Each is held to max({:g} %, {:g} × its spread across the history nights) and "
      "a test at alpha {:g}, the gate's rule for points. A slower kernel whose % of roof held "
      "lost what the machine lost (the roof moved with it); one whose % fell while the roof "
      "held got slower itself.\n",
      o.threshold_pct, o.k, o.alpha);
  return md;
}

}  // namespace ridgeline
