#include "reports/render/kernels_markdown.hpp"

#include <fmt/format.h>

#include "core/input_error.hpp"
#include "core/units.hpp"
#include "reports/kernels/kernel_names.hpp"
#include "reports/render/markdown_text.hpp"

namespace ridgeline {
namespace {

// Kernels that were not placed, listed hottest first up to this many; the rest are counted
// (all of them are in the kernels file).
constexpr std::size_t kUnplacedShown = 20;

std::string kernel_name(const Kernel& k) {
  const std::string name = readable_kernel_name(k.label);
  return k.region.empty() ? name : name + " in " + k.region;
}

std::string pct_interval(const KernelPlacement& p) {
  return fmt::format("{} [{}, {}] %", format_sig(100 * p.fraction, 3),
                     format_sig(100 * p.fraction_ci.low, 3),
                     format_sig(100 * p.fraction_ci.high, 3));
}

std::string intensity_text(const KernelPlacement& p) {
  if (!p.kernel->counts) return "–";
  if (!p.intensity) return "∞ (no bytes)";
  return format_intensity(*p.intensity);
}

// "1.2 ms / 25 µs / 9.1 ms": mean (the rates' and the share's statistic), median, slowest.
std::string per_call(const Kernel& k) {
  return format_seconds(k.mean_s()) + " / " + format_seconds(k.median_s) + " / " +
         (k.max_s > 0 ? format_seconds(k.max_s) : std::string("–"));
}

// "ncu (run.csv)", "annotation".
std::string counts_from(const KernelCounts& c) {
  std::string from = c.file.empty() ? c.source : c.source + " (" + c.file + ")";
  if (c.varied) from += ", varied per launch";
  return from;
}

std::string threads_text(const KernelsFile& kf) {
  if (kf.host_threads <= 0) return "";
  return "Host threads: " + std::to_string(kf.host_threads) + " (from " + kf.host_threads_from +
         "; a count the application set in code is not seen)";
}

std::string incomplete_text() {
  return "This file was written while the application ran (a periodic write, or the run was "
         "killed): it holds the kernels up to then.";
}

}  // namespace

std::string render_kernels_markdown(const std::vector<PlacedKernelsFile>& files) {
  if (files.empty()) return "";
  std::string md = "## Your kernels\n\n";
  md +=
      "Kernels of an application recorded by the Kokkos Tools connector (libridgeline-kp.so), "
      "held against the fitted roofs of their execution space and dtype, hottest first. Rates are "
      "the counts per call over the mean fenced time per call (total time over calls, the "
      "statistic the share of time uses; counts declared per launch are summed with their "
      "launches' time); the time per call is shown as mean / median / slowest. The counts come "
      "from the column \"counts from\": annotation (ridgeline/annotate.hpp, exact by "
      "construction; it wins over an import of the same label), ncu or rocprofv3 (a profiler's "
      "counters, --counts, per profiled launch; FLOP of the dtype placed, DRAM bytes), papi (the "
      "connector's hardware counters). The interval of % of roof is carried from the roof's "
      "bootstrap interval (the kernel's own time spread is not in it). Share is of all recorded "
      "kernel time.\n\n";
  for (const PlacedKernelsFile& f : files) {
    const KernelsFile& kf = *f.file;
    md += fmt::format("### {} ({})\n\n", md_code(kf.file), md_text(kf.hostname));
    if (!kf.command.empty()) md += "Command: " + md_code(kf.command) + "\n\n";
    if (!kf.complete) md += incomplete_text() + "\n\n";
    if (const std::string t = threads_text(kf); !t.empty()) md += md_text(t) + "\n\n";
    md += md_text(placement_tally(f.placements)) + ".\n\n";
    md +=
        "| kernel | space dtype | calls | share of time | time per call (mean / median / max) | "
        "intensity | achieved | bound by | % of roof | headroom | counts from |\n";
    md += "|---|---|---:|---:|---:|---:|---:|---|---:|---|---|\n";
    std::string unplaced, notes;
    std::size_t unplaced_rows = 0, unplaced_more = 0;
    for (const KernelPlacement& p : f.placements) {
      const Kernel& k = *p.kernel;
      if (!p.placed) {
        if (unplaced_rows++ >= kUnplacedShown) {
          ++unplaced_more;
          continue;
        }
        unplaced += fmt::format("| {} | {} | {} | {} | {} | {} |\n", md_code(kernel_name(k)),
                                md_text(k.space), k.calls, pct(p.share_of_time), per_call(k),
                                md_text(p.not_placed));
        continue;
      }
      std::string achieved =
          format_flops(*p.flops_per_s) + ", " + format_bytes_per_s(*p.bytes_per_s);
      std::string headroom = md_text(p.headroom());
      if (!p.caveat.empty()) headroom += " (" + md_text(p.caveat) + ")";
      md += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
                        md_code(kernel_name(k)), md_text(p.group), k.calls, pct(p.share_of_time),
                        per_call(k), intensity_text(p), achieved, md_text(p.bound_by),
                        pct_interval(p), headroom, md_text(counts_from(*k.counts)));
      if (!k.counts->note.empty())
        notes += "- " + md_code(kernel_name(k)) + ": " + md_text(k.counts->note) + "\n";
    }
    md += "\n";
    if (!notes.empty()) md += "Counts, what else is known:\n\n" + notes + "\n";
    if (!unplaced.empty()) {
      md += "Not placed, hottest first:\n\n";
      md +=
          "| kernel | space | calls | share of time | time per call (mean / median / max) | "
          "why not placed |\n";
      md += "|---|---|---:|---:|---:|---|\n" + unplaced + "\n";
      if (unplaced_more > 0)
        md += fmt::format("… {} more not placed, in {}.\n\n", unplaced_more, md_code(kf.file));
    }
    for (const std::string& label : kf.annotations_without_kernel)
      md += "Counts were declared for " + md_code(label) + ", but no kernel of that label ran.\n\n";
    if (kf.annotation_errors_total > 0) {
      md += fmt::format("{} counts declaration{} could not be used (the application went on):\n\n",
                        kf.annotation_errors_total, kf.annotation_errors_total == 1 ? "" : "s");
      for (const RejectedAnnotation& e : kf.annotation_errors)
        md += "- " + md_text(e.key + ": " + e.why) + "\n";
      if (kf.annotation_errors_total > static_cast<long long>(kf.annotation_errors.size()))
        md += fmt::format("- … {} more\n", kf.annotation_errors_total -
                                               static_cast<long long>(kf.annotation_errors.size()));
      md += "\n";
    }
    if (!kf.counts_without_kernel.empty()) {
      md +=
          "Counted by a profiler, but no kernel of this file has that label (a profiler's kernel "
          "name must be the Kokkos label: see docs/connector.md):\n\n";
      for (const std::string& name : kf.counts_without_kernel) md += "- " + md_text(name) + "\n";
      md += "\n";
    }
  }
  return md;
}

std::string format_kernels_text(const PlacedKernelsFile& f) {
  // Every string from the file goes through single_line: a label holding ESC, CR or a newline
  // cannot forge a line or move the cursor on the reader's terminal.
  const KernelsFile& kf = *f.file;
  std::string out = "kernels of " + single_line(kf.file) + " (" + single_line(kf.hostname) + ")\n";
  if (!kf.complete) out += "  " + incomplete_text() + "\n";
  if (const std::string t = threads_text(kf); !t.empty()) out += "  " + single_line(t) + "\n";
  out += "  " + single_line(placement_tally(f.placements)) + "\n";
  std::size_t unplaced_rows = 0, unplaced_more = 0;
  for (const KernelPlacement& p : f.placements) {
    const Kernel& k = *p.kernel;
    if (!p.placed && unplaced_rows++ >= kUnplacedShown) {
      ++unplaced_more;
      continue;
    }
    out += fmt::format("  {}: {} calls, {} per call (mean; median {}), {} of kernel time",
                       single_line(kernel_name(k)), k.calls, format_seconds(k.mean_s()),
                       format_seconds(k.median_s), pct(p.share_of_time));
    if (!p.placed) {
      out += "; not placed: " + single_line(p.not_placed) + "\n";
      continue;
    }
    out += fmt::format("\n    {}: {}, {}, {}; {} of the roof; {}", single_line(p.group),
                       intensity_text(p), format_flops(*p.flops_per_s),
                       format_bytes_per_s(*p.bytes_per_s), pct_interval(p), p.headroom());
    if (!p.caveat.empty()) out += " (" + single_line(p.caveat) + ")";
    out += "\n    counts from " + single_line(counts_from(*k.counts));
    if (!k.counts->note.empty()) out += ": " + single_line(k.counts->note);
    out += "\n";
  }
  if (unplaced_more > 0)
    out += fmt::format("  … {} more not placed, in {}\n", unplaced_more, single_line(kf.file));
  for (const RejectedAnnotation& e : kf.annotation_errors)
    out += "  counts declaration not used: " + single_line(e.key + ": " + e.why) + "\n";
  for (const std::string& name : f.file->counts_without_kernel)
    out += "  counted, but no kernel of that label: " + single_line(name) + "\n";
  return out;
}

}  // namespace ridgeline
