#include "render/roof_tables.hpp"

#include <fmt/format.h>

#include "fit/above_roof.hpp"
#include "fit/roof_roles.hpp"
#include "render/markdown_text.hpp"
#include "render/units.hpp"

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

// Named ceilings: DRAM-sized streaming and ladder points that do not define a roof, and every
// library point.
bool is_ceiling(const Point& p, bool device, double dram) {
  if (!p.measured() || !p.verified || roof_role(p, device) == RoofRole::kLevel) return false;
  if (p.family == "library") return true;
  const RoofRole role = roof_role(p, device);
  return (role == RoofRole::kCeiling || role == RoofRole::kReadBandwidth) &&
         (p.family == "bandwidth" || p.family == "fma") && (dram <= 0 || dram_sized(p, dram));
}

// The point against the roofs at its intensity, and, where stores allocate lines, with the
// uncounted write-allocate reads added back (a kernel bound by B then sits near 1).
std::string versus_roof(const Point& p, const Roof& r, bool device) {
  std::string s;
  if (is_tensor_point(p)) return "–";  // against the matrix roof: versus_matrix_roof
  double ratio = 0;
  if (p.intensity && p.flops_per_s) {
    ratio = *p.flops_per_s / r.attainable(*p.intensity);
    s = fmt::format("{:.2f} × roof at I = {:.3g}", ratio, *p.intensity);
  } else if (p.bytes_per_s) {
    ratio = *p.bytes_per_s / r.bandwidth;
    s = fmt::format("{:.2f} × B", ratio);
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

void group_tables(std::string& md, const FileAnalysis& f, const GroupAnalysis& g) {
  const GroupFit& gf = g.fit;
  const bool device = is_device_space(f.results, gf.space);
  if (!gf.fit && gf.matrix) {  // only a GEMM ran in this dtype (tf32): its roof, no vector roofs
    md += fmt::format("### {} {} {}\n\n", md_code(f.label), md_text(gf.space), md_text(gf.dtype));
    md += "| roof | value | 95 % CI (repetitions) | spread across probes | defined by | bytes |\n";
    md += "|---|---|---|---|---|---|\n" + matrix_row(gf) + "\n";
    if (!gf.matrix->bandwidth_dtype.empty())
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
  md += fmt::format("| roof | value | 95 % CI ({}) | spread across probes | defined by | bytes |\n",
                    fit.interval_method);
  md += "|---|---|---|---|---|---|\n";
  md += fmt::format("| **P** (vector units) | {} | {} | {} | {} | register-only |\n",
                    format_flops(r.peak_flops), format_flops_ci(fit.peak_ci, r.peak_flops),
                    spread_cell(fit.estimate.peak_spread, fit.estimate.compute_points, true),
                    md_text(gf.peak_from));
  const std::string dram = gf.dram_working_set > 0
                               ? fmt::format("{}, working sets ≥ {}", device ? "HBM/DRAM" : "DRAM",
                                             format_size_bytes(gf.dram_working_set))
                               : std::string("DRAM");
  md += fmt::format("| **B** ({}) | {} | {} | {} | {} | moved |\n", dram,
                    format_bytes_per_s(r.bandwidth), format_bytes_ci(fit.bandwidth_ci, r.bandwidth),
                    spread_cell(fit.estimate.bandwidth_spread, fit.estimate.memory_points, false),
                    md_text(gf.bandwidth_from));
  if (gf.read_bandwidth) {
    const LevelFit& rb = *gf.read_bandwidth;
    md += fmt::format("| **B_read** (read-only, {:.2f} × B) | {} | {} | {} | {} | moved |\n",
                      rb.value / r.bandwidth, format_bytes_per_s(rb.value),
                      format_bytes_ci(rb.ci, rb.value), spread_cell(rb.spread, rb.points, false),
                      md_text(gf.read_bandwidth_from));
  }
  if (gf.matrix) md += matrix_row(gf);
  md += "\n";
  for (const auto& c : gf.caveats) md += "> " + md_text(c) + "\n";
  if (!gf.caveats.empty()) md += "\n";

  std::string rows;
  for (const auto& p : f.results.points) {
    if (p.space != gf.space || p.dtype != gf.dtype || !is_ceiling(p, device, gf.dram_working_set))
      continue;
    rows += fmt::format("| {} | {} | {} | {} | {} | {} |\n", md_code(p.name),
                        p.flops_per_s ? format_flops(*p.flops_per_s) : "–",
                        p.bytes_per_s ? format_bytes_per_s(*p.bytes_per_s) : "–",
                        is_tensor_point(p) ? versus_matrix_roof(p, gf) : versus_roof(p, r, device),
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
      "Roofs come only from points whose counted bytes are the bytes the memory system moves: B "
      "from the in-place FMA ladder (on GPUs also the read/write streaming kernels), B_read from "
      "read-only "
      "kernels, P (P_vector) from the register-only peak, P_matrix from the library GEMMs on "
      "tensor or matrix units (the best of them: the envelope). Intervals come from the "
      "repetitions of those "
      "points (block bootstrap), the spread is the range of their per-point values. Ceilings are "
      "what other kernels and libraries reach, with how their bytes are counted.\n\n";
  for (const auto& f : files)
    for (const auto& g : f.groups) group_tables(md, f, g);
}

void points_above_roofs(std::string& md, const std::vector<FileAnalysis>& files) {
  std::string unexplained, explained;
  int n_unexplained = 0, n_explained = 0;
  for (const auto& f : files)
    for (const auto& a : points_above_roof(f)) {
      const auto fmt_rate = a.flops ? format_flops : format_bytes_per_s;
      const std::string row = fmt::format(
          "| {} | {} | {} | {} | {:.2f} | {} |\n", md_text(f.label), md_code(a.point->name),
          fmt_rate(a.measured), fmt_rate(a.roof), a.ratio,
          a.reason.empty() ? "**none known** (DRAM-sized, register-only or compute-bound)"
                           : md_text(a.reason));
      (a.reason.empty() ? unexplained : explained) += row;
      ++(a.reason.empty() ? n_unexplained : n_explained);
    }
  md += "## Points above their roof\n\n";
  if (n_unexplained + n_explained == 0) {
    md += fmt::format("No verified point is more than {:.0f} % above its roof.\n\n",
                      100 * kAboveRoofMargin);
    return;
  }
  md += fmt::format(
      "Verified points more than {:.0f} % above the roof of their space × dtype at their "
      "intensity (the higher of B and B_read; P_matrix for GEMMs on tensor or matrix units): {} "
      "without a known reason, {} with one (a cache-resident working set, which "
      "the DRAM roof does not bound, or a point inside the roof's own 95 % interval).\n\n",
      100 * kAboveRoofMargin, n_unexplained, n_explained);
  md += "| file | point | measured | roof there | ratio | reason |\n|---|---|---|---|---|---|\n" +
        unexplained + explained + "\n";
}

}  // namespace ridgeline
