#include "reports/render/gemm_shape_table.hpp"

#include <fmt/format.h>

#include "core/units.hpp"
#include "reports/fit/gemm_shapes.hpp"
#include "reports/render/markdown_text.hpp"

namespace ridgeline {

void gemm_shape_section(std::string& md, const std::vector<FileAnalysis>& files) {
  std::string body;
  for (const FileAnalysis& f : files)
    for (const GemmShapeSweep& s : gemm_shape_sweeps(f)) {
      body += fmt::format(
          "**{}{} {}, n = {}, k = {}**: ", files.size() > 1 ? md_text(f.label) + ", " : "",
          md_text(s.space), md_text(s.dtype), s.n, s.k);
      body += s.saturated_m
                  ? fmt::format(
                        "saturated from m = {} (every m from there reaches {} of P_matrix "
                        "= {})",
                        *s.saturated_m, pct(kGemmSaturatedShare), format_flops(s.peak))
                  : fmt::format(
                        "not saturated at any m measured (the largest, m = {}, reaches {} "
                        "of P_matrix = {})",
                        s.rows.back().m, pct(s.rows.back().share_of_peak), format_flops(s.peak));
      if (s.roof_knee_m)
        body += fmt::format(
            "; the roofs put the knee at m ≈ {:.0f}, where the shape's intensity "
            "is {} = {:.3g} FLOP/byte",
            *s.roof_knee_m, s.knee_ridge, s.knee_ridge_value);
      else if (s.knee_ridge.empty())
        body += "; no B was measured, so the roofs give no knee";
      else
        body += fmt::format("; no m reaches {} = {:.3g} FLOP/byte, so the roofs give no knee",
                            s.knee_ridge, s.knee_ridge_value);
      body +=
          ".\n\n| m | FLOP/s | % of P_matrix | I (FLOP/byte) | matrix roof at I | % of roof |\n"
          "|---|---|---|---|---|---|\n";
      for (const GemmShapeRow& r : s.rows)
        body += fmt::format("| {} | {} | {} | {:.3g} | {} | {} |\n", r.m,
                            format_flops(r.flops_per_s), pct(r.share_of_peak), r.intensity,
                            r.attainable ? format_flops(*r.attainable) : "–",
                            r.attainable ? pct(r.flops_per_s / *r.attainable) : "–");
      body += "\n";
    }
  if (body.empty()) return;
  md += fmt::format(
      "## Matrix units by GEMM shape\n\n"
      "The vendor GEMM of m × n × k: m rows (the tokens of a prefill, or a decode step batched m "
      "wide) against an n × k weight. Each m is held against P_matrix and against the matrix roof "
      "min(P_matrix, I·B) at the shape's compulsory intensity I (each matrix read or written once; "
      "B_read where it is known, since such a GEMM mostly reads its weight). The units count as "
      "saturated from the smallest m from which every larger m reaches {} of P_matrix. Verified "
      "points on matrix units only.\n\n",
      pct(kGemmSaturatedShare));
  md += body;
}

}  // namespace ridgeline
