#include "render/svg_chart.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "render/units.hpp"

namespace ridgeline {
namespace {

constexpr double kWidth = 1060, kHeight = 600;
constexpr double kLeft = 100, kRight = 680, kTop = 40, kBottom = 540;  // plot area
constexpr const char* kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                   "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};
// One line style per results file; the thin dotted "1 3" is kept for memory-level roofs.
constexpr const char* kDashes[] = {"", "8 4", "12 3 3 3", "6 2 2 2"};

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

// The box a text takes, estimated: 0.6 em per character is wider than the digits and most letters
// of common sans-serif fonts, so labels placed apart by it stay apart in a browser.
struct Box {
  double x0, y0, x1, y1;
  bool overlaps(const Box& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
};

std::size_t glyphs(const std::string& utf8) {
  std::size_t n = 0;
  for (unsigned char c : utf8) n += (c & 0xC0) != 0x80;
  return n;
}

Box text_box(double x, double y, const std::string& text, double size, const char* anchor) {
  const double w = 0.6 * size * double(glyphs(text));
  const double left = anchor[0] == 'e' ? x - w : anchor[0] == 'm' ? x - w / 2 : x;
  return {left, y - 0.8 * size, left + w, y + 0.25 * size};
}

// Labels inside the plot, each at the first of its candidate positions that is clear of the
// labels already placed and inside the frame.
class LabelPlacer {
 public:
  struct At {
    double x, y;
  };
  std::optional<At> place(const std::vector<At>& candidates, const std::string& text, double size,
                          const char* anchor) {
    for (const At& a : candidates) {
      const Box b = text_box(a.x, a.y, text, size, anchor);
      if (b.x0 < kLeft + 2 || b.x1 > kRight - 2 || b.y0 < kTop + 2 || b.y1 > kBottom - 2) continue;
      if (std::any_of(placed_.begin(), placed_.end(), [&b](const Box& o) { return b.overlaps(o); }))
        continue;
      placed_.push_back(b);
      return a;
    }
    return std::nullopt;
  }

 private:
  std::vector<Box> placed_;
};

std::string label_svg(const LabelPlacer::At& a, const std::string& text, const char* color,
                      double size, const char* anchor) {
  return fmt::format(
      "<text x=\"{:.1f}\" y=\"{:.1f}\" fill=\"{}\" font-size=\"{:g}\" "
      "text-anchor=\"{}\">{}</text>\n",
      a.x, a.y, color, size, anchor, xml_escape(text));
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
  LabelPlacer labels;
  std::string label_layer;  // drawn last, above every line
  // Candidates along a bandwidth roof: from its left end towards the ridge, just above the line.
  auto along_slope = [&](double bandwidth, double peak) {
    std::vector<LabelPlacer::At> at;
    const double lx = std::log10(xl), rx = std::log10(std::min(xr, peak / bandwidth));
    for (double t : {0.02, 0.12, 0.22, 0.32, 0.42, 0.52, 0.62}) {
      const double i = std::pow(10.0, lx + t * (rx - lx));
      at.push_back({ax.x(i) + 4, ax.y(bandwidth * i) - 5});
    }
    return at;
  };
  // Ridge labels first: they matter most.
  for (std::size_t i = 0; i < series.size(); ++i) {
    const auto& s = series[i];
    const double r = s.roof.ridge_point();
    if (!(r > xl && r < xr)) continue;
    const double px = ax.x(r), py = ax.y(s.roof.peak_flops);
    const std::string text = "I* " + format_sig(r);
    std::vector<LabelPlacer::At> at;
    for (double dy : {-10.0, -24.0, -38.0, 20.0, 34.0, 48.0, -52.0, 62.0})
      for (double dx : {0.0, 30.0, -30.0}) at.push_back({px + dx, py + dy});
    if (auto a = labels.place(at, text, 12, "middle"))
      label_layer += label_svg(*a, text, kColors[i % 8], 12, "middle");
  }
  for (std::size_t i = 0; i < series.size(); ++i) {
    const auto& s = series[i];
    const char* color = kColors[i % 8];
    const std::string p_text = "P " + format_flops(s.roof.peak_flops);
    std::vector<LabelPlacer::At> p_at;
    for (double dy : {-5.0, -19.0, 15.0, -33.0, 29.0})
      p_at.push_back({kRight - 6, ax.y(s.roof.peak_flops) + dy});
    if (auto a = labels.place(p_at, p_text, 11, "end"))
      label_layer += label_svg(*a, p_text, color, 11, "end");
    const std::string b_text = "B " + format_bytes_per_s(s.roof.bandwidth);
    if (auto a =
            labels.place(along_slope(s.roof.bandwidth, s.roof.peak_flops), b_text, 11, "start"))
      label_layer += label_svg(*a, b_text, color, 11, "start");
  }
  for (std::size_t i = 0; i < series.size(); ++i) {
    const auto& s = series[i];
    const char* color = kColors[i % 8];
    const char* dash = kDashes[s.style % 4];
    svg += "<g>\n";
    for (const auto& lvl : s.levels) {
      svg += fmt::format(
          "<path d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"1.2\" stroke-dasharray=\"1 "
          "3\" "
          "opacity=\"0.8\"/>\n",
          roof_path(s.roof.peak_flops, lvl.bandwidth), color);
      const std::string text = lvl.name + " " + format_bytes_per_s(lvl.bandwidth);
      if (auto a = labels.place(along_slope(lvl.bandwidth, s.roof.peak_flops), text, 10, "start"))
        label_layer += label_svg(*a, text, color, 10, "start");
    }
    svg += fmt::format("<path d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2.5\"{}/>\n",
                       roof_path(s.roof.peak_flops, s.roof.bandwidth), color,
                       *dash ? fmt::format(" stroke-dasharray=\"{}\"", dash) : "");
    const double r = s.roof.ridge_point();
    if (r > xl && r < xr)
      svg += fmt::format(
          "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"5\" fill=\"white\" stroke=\"{}\" "
          "stroke-width=\"2\"/>\n",
          ax.x(r), ax.y(s.roof.peak_flops), color);
    for (const auto& p : s.points) {
      if (!(p.intensity >= xl && p.intensity <= xr && p.flops_per_s > 0)) continue;
      const double px = ax.x(p.intensity), py = ax.y(p.flops_per_s);
      if (p.library) {
        svg += fmt::format(
            "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"8\" height=\"8\" fill=\"none\" "
            "stroke=\"{}\"/>\n",
            px - 4, py - 4, color);
        if (!p.name.empty())
          if (auto a = labels.place(
                  {{px + 7, py + 4}, {px - 7, py + 4}, {px + 7, py + 16}, {px + 7, py - 8}}, p.name,
                  10, "start"))
            label_layer += label_svg(*a, p.name, color, 10, "start");
      } else {
        svg += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"2.5\" fill=\"{}\"/>\n", px, py,
                           color);
      }
    }
    svg += "</g>\n";
    svg += fmt::format(
        "<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" stroke=\"{3}\" "
        "stroke-width=\"2.5\"{4}/>\n<text x=\"{5}\" y=\"{6:.1f}\">{7}</text>\n"
        "<text x=\"{5}\" y=\"{8:.1f}\" font-size=\"10\" fill=\"#444\">{9}</text>\n",
        kRight + 15, legend_y, kRight + 45, color,
        *dash ? fmt::format(" stroke-dasharray=\"{}\"", dash) : "", kRight + 52, legend_y + 4,
        xml_escape(s.label), legend_y + 17,
        xml_escape(fmt::format("P {} · B {} · I* {}", format_flops(s.roof.peak_flops),
                               format_bytes_per_s(s.roof.bandwidth),
                               format_sig(s.roof.ridge_point()))));
    legend_y += 34;
  }
  svg += label_layer;
  svg += fmt::format(
      "<circle cx=\"{0}\" cy=\"{1:.1f}\" r=\"2.5\" fill=\"black\"/>"
      "<text x=\"{2}\" y=\"{3:.1f}\">measured point (median)</text>\n"
      "<rect x=\"{4}\" y=\"{5:.1f}\" width=\"8\" height=\"8\" fill=\"none\" stroke=\"black\"/>"
      "<text x=\"{2}\" y=\"{6:.1f}\">library reference (not fitted)</text>\n"
      "<line x1=\"{7}\" y1=\"{8:.1f}\" x2=\"{9}\" y2=\"{8:.1f}\" stroke=\"black\" "
      "stroke-dasharray=\"1 3\"/><text x=\"{2}\" y=\"{10:.1f}\">memory-level roof (L1, L2, "
      "B_read…)</text>\n",
      kRight + 30, legend_y, kRight + 52, legend_y + 4, kRight + 26, legend_y + 16, legend_y + 24,
      kRight + 15, legend_y + 40, kRight + 45, legend_y + 44);
  return svg + "</svg>\n";
}

}  // namespace ridgeline
