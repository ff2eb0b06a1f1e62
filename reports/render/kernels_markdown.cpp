#include "reports/render/kernels_markdown.hpp"

#include <fmt/format.h>

#include "core/units.hpp"
#include "reports/render/markdown_text.hpp"

namespace ridgeline {
namespace {

std::string kernel_name(const Kernel& k) {
  return k.region.empty() ? k.label : k.label + " in " + k.region;
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

// "ncu (run.csv)", "annotation".
std::string counts_from(const KernelCounts& c) {
  return c.file.empty() ? c.source : c.source + " (" + c.file + ")";
}

}  // namespace

std::string render_kernels_markdown(const std::vector<PlacedKernelsFile>& files) {
  if (files.empty()) return "";
  std::string md = "## Your kernels\n\n";
  md +=
      "Kernels of an application recorded by the Kokkos Tools connector (libridgeline-kp.so), "
      "held against the fitted roofs of their execution space and dtype. Rates are the counts per "
      "call over the median fenced time per call; the counts come from the column \"counts "
      "from\": annotation (ridgeline/annotate.hpp, exact by construction; it wins over an "
      "import of the same label), ncu or rocprofv3 (a profiler's counters, --counts, per "
      "profiled launch; FLOP of the dtype placed, DRAM bytes), papi (the connector's hardware "
      "counters). The interval "
      "of % of roof is carried from the roof's bootstrap interval (the kernel's own time spread "
      "is not in it). Share is of all recorded kernel time.\n\n";
  for (const PlacedKernelsFile& f : files) {
    const KernelsFile& kf = *f.file;
    md += fmt::format("### {} ({})\n\n", md_code(kf.file), md_text(kf.hostname));
    if (!kf.command.empty()) md += "Command: " + md_code(kf.command) + "\n\n";
    if (!kf.complete)
      md +=
          "This file was written while the application ran (a periodic write, or the run "
          "was killed): it holds the kernels up to then.\n\n";
    md +=
        "| kernel | space dtype | calls | share of time | time per call | intensity | "
        "achieved | bound by | % of roof | headroom | counts from |\n";
    md += "|---|---|---:|---:|---:|---:|---:|---|---:|---|---|\n";
    std::string unplaced, notes;
    for (const KernelPlacement& p : f.placements) {
      const Kernel& k = *p.kernel;
      if (!p.placed) {
        unplaced += fmt::format("| {} | {} | {} | {} | {} | {} |\n", md_code(kernel_name(k)),
                                md_text(k.space), k.calls, pct(p.share_of_time),
                                format_seconds(k.median_s), md_text(p.not_placed));
        continue;
      }
      std::string achieved =
          format_flops(*p.flops_per_s) + ", " + format_bytes_per_s(*p.bytes_per_s);
      std::string headroom = md_text(p.headroom());
      if (!p.caveat.empty()) headroom += " (" + md_text(p.caveat) + ")";
      md +=
          fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
                      md_code(kernel_name(k)), md_text(p.group), k.calls, pct(p.share_of_time),
                      format_seconds(k.median_s), intensity_text(p), achieved, md_text(p.bound_by),
                      pct_interval(p), headroom, md_text(counts_from(*k.counts)));
      if (!k.counts->note.empty())
        notes += "- " + md_code(kernel_name(k)) + ": " + md_text(k.counts->note) + "\n";
    }
    md += "\n";
    if (!notes.empty()) md += "Counts, what else is known:\n\n" + notes + "\n";
    if (!unplaced.empty()) {
      md += "Not placed (listed with their calls and time):\n\n";
      md += "| kernel | space | calls | share of time | time per call | why not placed |\n";
      md += "|---|---|---:|---:|---:|---|\n" + unplaced + "\n";
    }
    for (const std::string& label : kf.annotations_without_kernel)
      md += "Counts were declared for " + md_code(label) + ", but no kernel of that label ran.\n\n";
    if (!kf.counts_without_kernel.empty()) {
      md +=
          "Counted by a profiler, but no kernel of this file has that label (a profiler's kernel "
          "name must be the Kokkos label: see the README):\n\n";
      for (const std::string& name : kf.counts_without_kernel) md += "- " + md_text(name) + "\n";
      md += "\n";
    }
  }
  return md;
}

std::string format_kernels_text(const PlacedKernelsFile& f) {
  std::string out = "kernels of " + f.file->file + " (" + f.file->hostname + ")\n";
  for (const KernelPlacement& p : f.placements) {
    const Kernel& k = *p.kernel;
    out += fmt::format("  {}: {} calls, {} per call, {} of kernel time", kernel_name(k), k.calls,
                       format_seconds(k.median_s), pct(p.share_of_time));
    if (!p.placed) {
      out += "; not placed: " + p.not_placed + "\n";
      continue;
    }
    out += fmt::format("\n    {}: {}, {}, {}; {} of the roof; {}", p.group, intensity_text(p),
                       format_flops(*p.flops_per_s), format_bytes_per_s(*p.bytes_per_s),
                       pct_interval(p), p.headroom());
    if (!p.caveat.empty()) out += " (" + p.caveat + ")";
    out += "\n    counts from " + counts_from(*k.counts);
    if (!k.counts->note.empty()) out += ": " + k.counts->note;
    out += "\n";
  }
  for (const std::string& name : f.file->counts_without_kernel)
    out += "  counted, but no kernel of that label: " + name + "\n";
  return out;
}

}  // namespace ridgeline
