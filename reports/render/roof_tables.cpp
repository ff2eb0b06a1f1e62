#include "reports/render/roof_tables.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/units.hpp"
#include "reports/fit/above_roof.hpp"
#include "reports/fit/roof_roles.hpp"
#include "reports/render/markdown_text.hpp"
#include "reports/roofline/roofline_fit.hpp"
#include "results/probe_catalog.hpp"

namespace ridgeline {
namespace {

std::string spread_cell(const Interval& spread, int points, bool flops) {
  if (points < 2) return "– (1 point)";
  const auto f = flops ? format_flops : format_bytes_per_s;
  return fmt::format("{} – {} ({} points)", f(spread.low), f(spread.high), points);
}

// The library behind a library point and the threads it may use (params), else empty.
std::string library_cell(const Point& p) {
  std::string s = p.param("blas");
  const auto threads =
      p.params.find(p.params.contains("blas_threads") ? "blas_threads" : "threads");
  if (threads != p.params.end() && threads->is_number_integer())
    s += (s.empty() ? "" : ", ") + fmt::format("{} thread{}", threads->get<long long>(),
                                               threads->get<long long>() == 1 ? "" : "s");
  return s.empty() ? "–" : md_text(s);
}

// Named ceilings: every library point, and DRAM-sized streaming and ladder points of no traffic
// mix (the others define the roof of their mix).
bool is_ceiling(const Point& p, double dram) {
  if (!p.measured() || !p.verified) return false;
  if (library_ceiling(p.family)) return true;
  return roof_role(p) == RoofRole::kCeiling && defines_memory_roof(p.family) &&
         (dram <= 0 || dram_sized(p, dram));
}

// The memory roof of the point's traffic mix: B for kernels that read and write, B_read or
// B_write for one direction where measured, else B.
std::pair<double, const char*> mix_bandwidth(const Point& p, const GroupFit& gf) {
  const std::optional<TrafficMix> mix = traffic_mix(p);
  if (mix && !reads_and_writes(*mix))
    if (const MixRoof* m = gf.mix_roof(*mix)) return {m->roof.value, mix_roof_name(*mix)};
  return {gf.fit->estimate.roof.bandwidth, "B"};
}

// The point against the roof of its mix at its intensity, and, where stores allocate lines,
// with the uncounted write-allocate reads added back (a kernel bound by B then sits near 1).
std::string versus_roof(const Point& p, const GroupFit& gf, bool device) {
  std::string s;
  if (is_tensor_point(p)) return "–";  // against the matrix roof: versus_matrix_roof
  const auto [bandwidth, name] = mix_bandwidth(p, gf);
  const Roof r{gf.fit->estimate.roof.peak_flops, bandwidth};
  double ratio = 0;
  if (p.intensity && p.flops_per_s) {
    ratio = *p.flops_per_s / r.attainable(*p.intensity);
    s = fmt::format("{:.2f} × roof at I = {:.3g} ({})", ratio, *p.intensity,
                    r.memory_bound(*p.intensity) ? name : "P");
  } else if (p.bytes_per_s) {
    ratio = *p.bytes_per_s / r.bandwidth;
    s = fmt::format("{:.2f} × {}", ratio, name);
  } else {
    return "–";
  }
  const double moved = moved_per_counted(p, device);
  const bool memory_bound = !p.intensity || r.memory_bound(*p.intensity);
  if (moved > 1 && memory_bound) s += fmt::format("; {:.2f} × B in moved bytes", ratio * moved);
  return s;
}

// A GEMM on matrix units against the matrix roof min(P_matrix, I·B) (P_matrix alone where no B
// is known).
std::string versus_matrix_roof(const Point& p, const GroupFit& gf) {
  if (!p.flops_per_s || !gf.matrix) return "–";
  const auto roof = gf.matrix_roof();
  if (roof && p.intensity)
    return fmt::format("{:.2f} × matrix roof at I = {:.3g}",
                       *p.flops_per_s / roof->attainable(*p.intensity), *p.intensity);
  return fmt::format("{:.2f} × P_matrix", *p.flops_per_s / gf.matrix->peak.value);
}

std::string matrix_row(const GroupFit& gf) {
  const MatrixRoofFit& m = *gf.matrix;
  return fmt::format(
      "| **P_matrix** (tensor/matrix units{}) | {} | {} | {} | {} | compulsory: each matrix "
      "once |\n",
      m.accumulate.empty() ? "" : ", " + md_text(m.accumulate) + " accumulate",
      format_flops(m.peak.value), format_flops_ci(m.peak.ci, m.peak.value),
      spread_cell(m.peak.spread, m.peak.points, true), md_text("the envelope of " + m.from));
}

// "moved", or "counted" where a point of the mix allocates the lines it stores to.
std::string mix_bytes(bool lower_bound) {
  return lower_bound ? "counted: a lower bound of moved (write-allocate)" : "moved";
}

std::string mix_label(TrafficMix m) {
  return reads_and_writes(m) ? fmt::format("reads : writes {}", mix_name(m)) : mix_name(m);
}

// What sets B: the mix and the point, then every point the envelope was taken over.
std::string bandwidth_defined_by(const GroupFit& gf) {
  if (!gf.bandwidth_mix) return md_text(gf.bandwidth_from);
  if (gf.fit && gf.fit->estimate.memory_points < 2)
    return fmt::format("the {} mix: {}", md_text(mix_name(*gf.bandwidth_mix)),
                       md_text(gf.bandwidth_best));
  return fmt::format("the envelope, set by the {} mix: **{}** (of {})",
                     md_text(mix_name(*gf.bandwidth_mix)), md_text(gf.bandwidth_best),
                     md_text(gf.bandwidth_from));
}

std::string peak_defined_by(const GroupFit& gf, int points) {
  if (gf.peak_best.empty() || points < 2) return md_text(gf.peak_from);
  return fmt::format("the envelope, set by **{}** (of {})", md_text(gf.peak_best),
                     md_text(gf.peak_from));
}

void group_tables(std::string& md, const FileAnalysis& f, const GroupAnalysis& g,
                  const std::vector<AboveRoof>& beyond_noise) {
  const GroupFit& gf = g.fit;
  const bool device = is_device_space(f.results, gf.space);
  if (!gf.fit && gf.matrix) {  // only a GEMM ran in this dtype (tf32): its roof, no vector roofs
    md += fmt::format("### {} {} {}\n\n", md_code(f.label), md_text(gf.space), md_text(gf.dtype));
    md += "| roof | value | " + confidence_label() +
          " CI (repetitions) | spread across probes | defined by | bytes |\n";
    md += "|---|---|---|---|---|---|\n" + matrix_row(gf) + "\n";
    const GroupAnalysis* b = f.find(gf.space, gf.matrix->bandwidth_dtype);
    if (b && b->fit.device_memory_roofs)
      md += fmt::format(
          "> no vector roofs in {}: the matrix roof's B is the device's, one for every dtype of "
          "the space (taken from {}'s fit)\n\n",
          md_text(gf.dtype), md_text(gf.matrix->bandwidth_dtype));
    else if (!gf.matrix->bandwidth_dtype.empty())
      md += fmt::format(
          "> no vector roofs in {}: the matrix roof's B is that of {}, the type its "
          "operands are stored in\n\n",
          md_text(gf.dtype), md_text(gf.matrix->bandwidth_dtype));
    return;
  }
  if (!gf.fit) return;
  const RoofFit& fit = *gf.fit;
  const Roof& r = fit.estimate.roof;
  md += fmt::format("### {} {} {}\n\n", md_code(f.label), md_text(gf.space), md_text(gf.dtype));
  md += fmt::format("| roof | value | {} CI ({}) | spread across probes | defined by | bytes |\n",
                    confidence_label(), fit.interval_method);
  md += "|---|---|---|---|---|---|\n";
  md += fmt::format("| **P** (vector units) | {} | {} | {} | {} | register-only |\n",
                    format_flops(r.peak_flops), format_flops_ci(fit.peak_ci, r.peak_flops),
                    spread_cell(fit.estimate.peak_spread, fit.estimate.compute_points, true),
                    peak_defined_by(gf, fit.estimate.compute_points));
  const std::string dram = dram_roof_name(f.results, gf.space, gf.dram_working_set);
  md += fmt::format("| **B** ({}; reads and writes) | {} | {} | {} | {} | {} |\n", dram,
                    format_bytes_per_s(r.bandwidth), format_bytes_ci(fit.bandwidth_ci, r.bandwidth),
                    spread_cell(fit.estimate.bandwidth_spread, fit.estimate.memory_points, false),
                    bandwidth_defined_by(gf), mix_bytes(gf.bandwidth_lower_bound));
  // One row per traffic mix: its envelope, against B.
  for (const MixRoof& m : gf.mixes)
    md += fmt::format(
        "| **{}** ({}, {:.2f} × B) | {} | {} | {} | {} | {} |\n", md_text(mix_roof_name(m.mix)),
        md_text(mix_label(m.mix)), m.roof.value / r.bandwidth, format_bytes_per_s(m.roof.value),
        format_bytes_ci(m.roof.ci, m.roof.value), spread_cell(m.roof.spread, m.roof.points, false),
        md_text(m.roof.points > 1 ? m.best + " (of " + m.from + ")" : m.best),
        mix_bytes(m.lower_bound));
  if (gf.matrix) md += matrix_row(gf);
  md += "\n";
  for (const auto& c : gf.caveats) md += "> " + md_text(c) + "\n";
  if (!gf.caveats.empty()) md += "\n";

  std::string rows;
  for (const auto& p : f.results.points) {
    if (p.space != gf.space || p.dtype != gf.dtype || !is_ceiling(p, gf.dram_working_set)) continue;
    std::string versus =
        is_tensor_point(p) ? versus_matrix_roof(p, gf) : versus_roof(p, gf, device);
    const auto flagged = std::find_if(beyond_noise.begin(), beyond_noise.end(),
                                      [&p](const AboveRoof& a) { return a.point == &p; });
    if (flagged != beyond_noise.end())
      versus += fmt::format("; **above {} beyond noise**", md_text(flagged->roof_name));
    rows += fmt::format("| {} | {} | {} | {} | {} | {} |\n", md_code(p.name),
                        p.flops_per_s ? format_flops(*p.flops_per_s) : "–",
                        p.bytes_per_s ? format_bytes_per_s(*p.bytes_per_s) : "–", versus,
                        md_text(bytes_convention(p, device)), library_cell(p));
  }
  if (rows.empty()) return;
  md +=
      "| ceiling | FLOP/s | byte/s | against the roofs | bytes counted | library, threads |\n"
      "|---|---|---|---|---|---|\n" +
      rows + "\n";
}

}  // namespace

void roofs_and_ceilings(std::string& md, const std::vector<FileAnalysis>& files) {
  md += "## Roofs and ceilings\n\n";
  md +=
      "Memory roofs are envelopes, one per traffic mix (reads : writes 1:1, 2:1, read-only, "
      "write-only): the fastest of our own verified, DRAM-sized streaming kernels, FMA-ladder "
      "rungs and cache-sweep sets of that mix in any dtype of the space (each at the median of "
      "its repetitions; memory is the device's, so every dtype's table holds the same memory "
      "roofs and, where several dtypes ran, names each point's dtype). B, the roof "
      "of kernels that "
      "read and write, is the envelope of the 1:1 and 2:1 mixes, and the table names the mix and "
      "the point that set it; B_read and B_write are the one-direction mixes. P (P_vector) comes "
      "from the register-only peak, P_matrix from the library GEMMs on tensor or matrix units "
      "(the best of them: the envelope). Intervals come from the repetitions of those points "
      "(block bootstrap), the spread is the range of their per-point values. Ceilings are what "
      "libraries reach, held against the roof of their mix, with how their bytes are counted; "
      "one above its roof beyond noise (its own " +
      confidence_label() +
      " interval above the roof's) is flagged: the "
      "machine does more than our kernels.\n\n";
  for (const auto& f : files) {
    const auto beyond_noise = points_above_roof_beyond_noise(f);
    for (const auto& g : f.groups) group_tables(md, f, g, beyond_noise);
  }
}

void points_above_roofs(std::string& md, const std::vector<FileAnalysis>& files) {
  std::string unexplained, explained, beyond;
  int n_unexplained = 0, n_explained = 0, n_beyond = 0;
  for (const auto& f : files) {
    for (const auto& a : points_above_roof(f)) {
      const auto fmt_rate = a.flops ? format_flops : format_bytes_per_s;
      const std::string row = fmt::format(
          "| {} | {} | {} | {} ({}) | {:.2f} | {} |\n", md_text(f.label), md_code(a.point->name),
          fmt_rate(a.measured), fmt_rate(a.roof), md_text(a.roof_name), a.ratio,
          a.reason.empty() ? "**none known** (DRAM-sized, register-only or compute-bound)"
                           : md_text(a.reason));
      (a.reason.empty() ? unexplained : explained) += row;
      ++(a.reason.empty() ? n_unexplained : n_explained);
    }
    for (const auto& a : points_above_roof_beyond_noise(f)) {
      const auto fmt_rate = a.flops ? format_flops : format_bytes_per_s;
      beyond += fmt::format(
          "| {} | {} | {} | {} | {} ({}) | {} | {:.3f} |\n", md_text(f.label),
          md_code(a.point->name),
          library_ceiling(a.point->family) ? "library (ceiling)" : "**own**",
          (a.flops ? format_flops_with_ci : format_bytes_with_ci)(a.measured, a.measured_ci),
          fmt_rate(a.roof), md_text(a.roof_name), fmt_rate(a.roof_high), a.ratio);
      ++n_beyond;
    }
  }
  md += "## Points above their roof\n\n";
  if (n_unexplained + n_explained == 0) {
    md += fmt::format("No verified point is more than {:.0f} % above its roof.\n\n",
                      100 * kAboveRoofMargin);
  } else {
    md += fmt::format(
        "Verified points more than {:.0f} % above the roof of their space × dtype at their "
        "intensity (the memory roof of their traffic mix: B for kernels that read and write, "
        "B_read or B_write for one direction, the highest of them for kernels of no mix; "
        "P_matrix for GEMMs on tensor or matrix units): {} without a known reason, {} with one "
        "(a cache-resident working set, which the DRAM roof does not bound; a point within {:.0f} "
        "% of the roof's points in the rounds they shared, above it only because the machine's "
        "speed changed between rounds; or a point inside the roof's own {} interval).\n\n",
        100 * kAboveRoofMargin, n_unexplained, n_explained, 100 * kAboveRoofMargin,
        confidence_label());
    md += "| file | point | measured | roof there | ratio | reason |\n|---|---|---|---|---|---|\n" +
          unexplained + explained + "\n";
  }
  if (n_beyond == 0) {
    md += "No verified point that DRAM bounds lies above its roof beyond noise (its " +
          confidence_label() + " interval above the top of the roof's).\n\n";
    return;
  }
  md += fmt::format(
      "Above their roof beyond noise (the point's {0} interval, from its repetitions, lies above "
      "the top of the roof's {0} interval at its intensity): {1}. An own kernel here means the "
      "roof is wrong; a library kernel, that the machine does more than our kernels reach.\n\n",
      confidence_label(), n_beyond);
  md += "| file | point | kernel | measured (" + confidence_label() +
        " CI) | roof there | top of the roof's CI | ratio "
        "|\n|---|---|---|---|---|---|---|\n" +
        beyond + "\n";
}

}  // namespace ridgeline
