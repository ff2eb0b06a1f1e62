#pragma once
// The roofline chart as hand-written SVG: log-log axes with labelled decades, one roof per
// series (host × space × dtype), ridge points marked, measured points drawn. Colour and marker
// say which series; line style says which roof (solid: fitted P and B, long dashes and dots: the
// matrix roof min(P_matrix, I·B), dashes: memory levels).
#include <optional>
#include <string>
#include <vector>

#include "reports/roofline/model.hpp"

namespace ridgeline {

struct ChartPoint {
  double intensity, flops_per_s;
  bool library = false;  // drawn as a square: a reference, not fitted
  std::string name;      // library points are labelled with it ("gemm")
  bool kernel = false;   // an application's kernel (kernels file): filled, labelled with name
};

struct ChartLevel {
  std::string name;  // one line style per name on a chart ("L1", "DRAM", "B_read")
  double bandwidth;
};

struct ChartSeries {
  std::string label;  // e.g. "devbox OpenMP fp64"
  Roof roof{0, 0};
  // P_matrix where a GEMM ran on tensor or matrix units: drawn as min(P_matrix, I·B).
  std::optional<double> matrix_peak;
  std::vector<ChartLevel> levels;
  std::vector<ChartPoint> points;
  int marker = 0;  // shape of the measured points: one per results file
};

// Overview: every series of a host (or of all hosts); small: one space × dtype, levels drawn.
enum class ChartSize { overview, small };

// Roofs carry their values ("P 198.7 GFLOP/s", "B 49.84 GB/s"), the ridge "I* 3.99"; labels are
// placed where they overlap no other label, or left out (the legend and tables repeat them).
// The chart grows wider and taller to hold its legend.
std::string render_roofline_svg(const std::string& title, const std::vector<ChartSeries>& series,
                                ChartSize size = ChartSize::overview);

// A text's width in em, estimated per kind of character at or above DejaVu Sans' widths (the
// font Debian's Chromium draws sans-serif with; most others are narrower).
double text_width_em(const std::string& utf8);

// &, <, >, " and ' escaped for XML text and attributes.
std::string xml_escape(const std::string& s);

}  // namespace ridgeline
