#pragma once
// The roofline chart as hand-written SVG: log-log axes with labelled decades, one roof per
// series (dtype × file), memory-level roofs dashed, ridge points marked, measured points drawn.
#include <string>
#include <vector>

#include "roofline/model.hpp"

namespace ridgeline {

struct ChartPoint {
  double intensity, flops_per_s;
  bool library = false;  // drawn as a square: a reference, not fitted
  std::string name;      // library points are labelled with it ("gemm")
};

struct ChartLevel {
  std::string name;
  double bandwidth;
};

struct ChartSeries {
  std::string label;  // e.g. "devbox OpenMP fp64"
  Roof roof{0, 0};
  std::vector<ChartLevel> levels;
  std::vector<ChartPoint> points;
  int style = 0;  // line style: one per results file
};

// Roofs carry their values ("P 198.7 GFLOP/s", "B 49.84 GB/s"), the ridge "I* 3.99"; labels are
// placed where they overlap no other label, or left out (the legend and tables repeat them).
std::string render_roofline_svg(const std::string& title, const std::vector<ChartSeries>& series);

// &, <, >, " and ' escaped for XML text and attributes.
std::string xml_escape(const std::string& s);

}  // namespace ridgeline
