#include "render/svg_chart.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace ridgeline {
namespace {

constexpr double kWidth = 980, kHeight = 600;
constexpr double kLeft = 100, kRight = 680, kTop = 40, kBottom = 540;  // plot area
constexpr const char* kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                   "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};
constexpr const char* kDashes[] = {"", "8 4", "2 3", "12 3 3 3"};

struct Axes {
  double x0, x1, y0, y1;  // decades (log10) at the plot edges
  double x(double v) const { return kLeft + (std::log10(v) - x0) / (x1 - x0) * (kRight - kLeft); }
  double y(double v) const { return kBottom - (std::log10(v) - y0) / (y1 - y0) * (kBottom - kTop); }
};

std::string decade_label(int e, const char* unit) {
  static const char* prefixes[] = {"", "k", "M", "G", "T", "P", "E"};
  if (unit[0] == '\0')
    return e >= 0 ? fmt::format("{:g}", std::pow(10.0, e)) : fmt::format("1e{}", e);
  if (e < 0 || e >= 21) return fmt::format("1e{} {}", e, unit);
  return fmt::format("{:g} {}{}", std::pow(10.0, e % 3), prefixes[e / 3], unit);
}

}  // namespace

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        // Control characters are not allowed in XML 1.0.
        if (static_cast<unsigned char>(c) >= 0x20 || c == '\t' || c == '\n') out += c;
    }
  }
  return out;
}

std::string render_roofline_svg(const std::string& title, const std::vector<ChartSeries>& series) {
  double xmin = 1e300, xmax = 0, ymin = 1e300, ymax = 0;
  auto widen = [&](double x, double y) {
    if (!(x > 0 && y > 0 && std::isfinite(x) && std::isfinite(y))) return;
    xmin = std::min(xmin, x), xmax = std::max(xmax, x);
    ymin = std::min(ymin, y), ymax = std::max(ymax, y);
  };
  for (const auto& s : series) {
    widen(s.roof.ridge_point() / 10, s.roof.peak_flops);
    widen(s.roof.ridge_point() * 10, s.roof.peak_flops);
    for (const auto& p : s.points) widen(p.intensity, p.flops_per_s);
  }
  if (xmax == 0) xmin = 0.1, xmax = 10, ymin = 1e9, ymax = 1e12;
  Axes ax{std::floor(std::log10(xmin)), std::ceil(std::log10(xmax)), 0, 0};
  if (ax.x1 <= ax.x0) ax.x1 = ax.x0 + 1;
  for (const auto& s : series)
    widen(std::pow(10.0, ax.x0), s.roof.attainable(std::pow(10.0, ax.x0)));
  ax.y0 = std::floor(std::log10(ymin));
  ax.y1 = std::ceil(std::log10(ymax * 1.05));
  if (ax.y1 <= ax.y0) ax.y1 = ax.y0 + 1;

  std::string svg = fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\" font-family=\"sans-serif\" font-size=\"12\">\n"
      "<rect width=\"{0}\" height=\"{1}\" fill=\"white\"/>\n"
      "<text x=\"{2}\" y=\"24\" font-size=\"16\" text-anchor=\"middle\">{3}</text>\n",
      kWidth, kHeight, (kLeft + kRight) / 2, xml_escape(title));
  // Grid and decade labels.
  for (int e = int(ax.x0); e <= int(ax.x1); ++e) {
    const double px = ax.x(std::pow(10.0, e));
    svg += fmt::format(
        "<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"#ddd\"/>\n"
        "<text x=\"{0:.1f}\" y=\"{3}\" text-anchor=\"middle\">{4}</text>\n",
        px, kTop, kBottom, kBottom + 18, decade_label(e, ""));
  }
  for (int e = int(ax.y0); e <= int(ax.y1); ++e) {
    const double py = ax.y(std::pow(10.0, e));
    svg += fmt::format(
        "<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" stroke=\"#ddd\"/>\n"
        "<text x=\"{3}\" y=\"{4:.1f}\" text-anchor=\"end\">{5}</text>\n",
        kLeft, py, kRight, kLeft - 6, py + 4, decade_label(e, "FLOP/s"));
  }
  svg += fmt::format(
      "<rect x=\"{0}\" y=\"{1}\" width=\"{2}\" height=\"{3}\" fill=\"none\" stroke=\"black\"/>\n"
      "<text x=\"{4}\" y=\"{5}\" text-anchor=\"middle\">arithmetic intensity (FLOP/byte)</text>\n"
      "<text x=\"16\" y=\"{6}\" text-anchor=\"middle\" transform=\"rotate(-90 16 {6})\">"
      "attainable FLOP/s</text>\n",
      kLeft, kTop, kRight - kLeft, kBottom - kTop, (kLeft + kRight) / 2, kBottom + 40,
      (kTop + kBottom) / 2);

  const double xl = std::pow(10.0, ax.x0), xr = std::pow(10.0, ax.x1);
  auto roof_path = [&](double p, double b) {
    const double ridge = p / b;
    std::string d = fmt::format("M{:.1f},{:.1f}", ax.x(xl), ax.y(b * xl));
    if (ridge > xl && ridge < xr) d += fmt::format(" L{:.1f},{:.1f}", ax.x(ridge), ax.y(p));
    return d + fmt::format(" L{:.1f},{:.1f}", ax.x(xr), ax.y(std::min(p, b * xr)));
  };
  double legend_y = kTop + 10;
  for (std::size_t i = 0; i < series.size(); ++i) {
    const auto& s = series[i];
    const char* color = kColors[i % 8];
    const char* dash = kDashes[s.style % 4];
    svg += "<g>\n";
    for (const auto& lvl : s.levels) {
      svg += fmt::format(
          "<path d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"1\" stroke-dasharray=\"4 4\" "
          "opacity=\"0.6\"/>\n"
          "<text x=\"{:.1f}\" y=\"{:.1f}\" fill=\"{}\" font-size=\"10\">{}</text>\n",
          roof_path(s.roof.peak_flops, lvl.bandwidth), color, ax.x(xl) + 4,
          ax.y(lvl.bandwidth * xl) - 4, color, xml_escape(lvl.name));
    }
    svg += fmt::format("<path d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2.5\"{}/>\n",
                       roof_path(s.roof.peak_flops, s.roof.bandwidth), color,
                       *dash ? fmt::format(" stroke-dasharray=\"{}\"", dash) : "");
    const double r = s.roof.ridge_point();
    if (r > xl && r < xr)
      svg += fmt::format(
          "<circle cx=\"{0:.1f}\" cy=\"{1:.1f}\" r=\"5\" fill=\"white\" stroke=\"{2}\" "
          "stroke-width=\"2\"/>\n"
          "<text x=\"{0:.1f}\" y=\"{3:.1f}\" fill=\"{2}\" "
          "text-anchor=\"middle\">I*={4:.3g}</text>\n",
          ax.x(r), ax.y(s.roof.peak_flops), color, ax.y(s.roof.peak_flops) - 10, r);
    for (const auto& p : s.points) {
      if (!(p.intensity >= xl && p.intensity <= xr && p.flops_per_s > 0)) continue;
      if (p.library)
        svg += fmt::format(
            "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"8\" height=\"8\" fill=\"none\" "
            "stroke=\"{}\"/>\n",
            ax.x(p.intensity) - 4, ax.y(p.flops_per_s) - 4, color);
      else
        svg += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"2.5\" fill=\"{}\"/>\n",
                           ax.x(p.intensity), ax.y(p.flops_per_s), color);
    }
    svg += "</g>\n";
    svg += fmt::format(
        "<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" stroke=\"{3}\" "
        "stroke-width=\"2.5\"{4}/>\n<text x=\"{5}\" y=\"{6:.1f}\">{7}</text>\n",
        kRight + 15, legend_y, kRight + 45, color,
        *dash ? fmt::format(" stroke-dasharray=\"{}\"", dash) : "", kRight + 52, legend_y + 4,
        xml_escape(s.label));
    legend_y += 20;
  }
  svg += fmt::format(
      "<circle cx=\"{0}\" cy=\"{1:.1f}\" r=\"2.5\" fill=\"black\"/>"
      "<text x=\"{2}\" y=\"{3:.1f}\">measured point (median)</text>\n"
      "<rect x=\"{4}\" y=\"{5:.1f}\" width=\"8\" height=\"8\" fill=\"none\" stroke=\"black\"/>"
      "<text x=\"{2}\" y=\"{6:.1f}\">library reference (not fitted)</text>\n"
      "<line x1=\"{7}\" y1=\"{8:.1f}\" x2=\"{9}\" y2=\"{8:.1f}\" stroke=\"black\" "
      "stroke-dasharray=\"4 4\"/><text x=\"{2}\" y=\"{10:.1f}\">memory-level roof</text>\n",
      kRight + 30, legend_y, kRight + 52, legend_y + 4, kRight + 26, legend_y + 16, legend_y + 24,
      kRight + 15, legend_y + 40, kRight + 45, legend_y + 44);
  return svg + "</svg>\n";
}

}  // namespace ridgeline
