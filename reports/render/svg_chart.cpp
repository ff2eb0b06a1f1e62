#include "reports/render/svg_chart.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iterator>
#include <optional>

#include "core/units.hpp"
#include "core/utf8.hpp"

namespace ridgeline {
namespace {

// The plot area; the legend sits to its right.
struct Frame {
  double left, right, top, bottom;
};
constexpr Frame kOverview{112, 692, 40, 540}, kSmall{112, 472, 40, 330};
constexpr const char* kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                   "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};
// One dash pattern per memory-level name on a chart; solid is the fitted roofs' alone.
constexpr const char* kLevelDashes[] = {"1 3",  "6 3",         "10 3 2 3", "12 3 2 3 2 3",
                                        "16 5", "4 2 1 2 1 2", "2 6",      "20 3 6 3"};
// The matrix roof's pattern: unlike any memory level's.
constexpr const char* kMatrixDash = "14 3 3 3";
constexpr int kMarkers = 4;  // circle, triangle, diamond, inverted triangle (square: library)

struct Axes {
  Frame f;
  double x0, x1, y0, y1;  // decades (log10) at the plot edges
  double x(double v) const {
    return f.left + (std::log10(v) - x0) / (x1 - x0) * (f.right - f.left);
  }
  double y(double v) const {
    return f.bottom - (std::log10(v) - y0) / (y1 - y0) * (f.bottom - f.top);
  }
};

std::string decade_label(int e, const char* unit) {
  static const char* prefixes[] = {"", "k", "M", "G", "T", "P", "E"};
  if (unit[0] == '\0')
    return e >= 0 ? fmt::format("{:g}", std::pow(10.0, e)) : fmt::format("1e{}", e);
  if (e < 0 || e >= 21) return fmt::format("1e{} {}", e, unit);
  return fmt::format("{:g} {}{}", std::pow(10.0, e % 3), prefixes[e / 3], unit);
}

// The box a text takes, estimated: text_width_em wide, 0.95 em above to 0.25 em below the
// baseline (DejaVu Sans' ascent and descent), so labels placed apart by it stay apart in a
// browser (checked there by tests/reports/chart_browser_test.py).
struct Box {
  double x0, y0, x1, y1;
  bool overlaps(const Box& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
};

Box text_box(double x, double y, const std::string& text, double size, const char* anchor) {
  const double w = size * text_width_em(text);
  const double left = anchor[0] == 'e' ? x - w : anchor[0] == 'm' ? x - w / 2 : x;
  return {left, y - 0.95 * size, left + w, y + 0.25 * size};
}

// Labels inside the plot, each at the first of its candidate positions that is clear of the
// labels already placed and inside the frame.
class LabelPlacer {
 public:
  explicit LabelPlacer(Frame f) : f_(f) {}
  struct At {
    double x, y;
  };
  std::optional<At> place(const std::vector<At>& candidates, const std::string& text, double size,
                          const char* anchor) {
    for (const At& a : candidates) {
      const Box b = text_box(a.x, a.y, text, size, anchor);
      if (b.x0 < f_.left + 2 || b.x1 > f_.right - 2 || b.y0 < f_.top + 2 || b.y1 > f_.bottom - 2)
        continue;
      if (std::any_of(placed_.begin(), placed_.end(), [&b](const Box& o) { return b.overlaps(o); }))
        continue;
      placed_.push_back(b);
      return a;
    }
    return std::nullopt;
  }

 private:
  Frame f_;
  std::vector<Box> placed_;
};

// A white halo under each label keeps it legible where it crosses a roof or a point.
std::string label_svg(const LabelPlacer::At& a, const std::string& text, const char* color,
                      double size, const char* anchor) {
  return fmt::format(
      "<text class=\"label\" x=\"{:.1f}\" y=\"{:.1f}\" fill=\"{}\" font-size=\"{:g}\" "
      "text-anchor=\"{}\" "
      "stroke=\"white\" stroke-width=\"3\" stroke-linejoin=\"round\" "
      "paint-order=\"stroke\">{}</text>\n",
      a.x, a.y, color, size, anchor, xml_escape(text));
}

// A measured point's marker, centred on (x, y); shapes tell results files apart on one chart.
std::string marker_svg(int shape, double x, double y, const char* color) {
  switch (shape % kMarkers) {
    case 1:
      return fmt::format("<path d=\"M{:.1f},{:.1f} l3.5,6 h-7 z\" fill=\"{}\"/>\n", x, y - 4,
                         color);
    case 2:
      return fmt::format(
          "<path d=\"M{:.1f},{:.1f} l3.5,3.5 l-3.5,3.5 l-3.5,-3.5 z\" fill=\"{}\"/>\n", x, y - 3.5,
          color);
    case 3:
      return fmt::format("<path d=\"M{:.1f},{:.1f} l3.5,-6 h-7 z\" fill=\"{}\"/>\n", x, y + 4,
                         color);
    default:
      return fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"2.5\" fill=\"{}\"/>\n", x, y,
                         color);
  }
}

std::string dash_attr(const std::string& dash) {
  return dash.empty() ? std::string() : fmt::format(" stroke-dasharray=\"{}\"", dash);
}

}  // namespace

double text_width_em(const std::string& utf8) {
  double em = 0;
  for (unsigned char c : utf8) {
    if ((c & 0xC0) == 0x80) continue;  // UTF-8 continuation byte: same glyph
    em += c == 'm' || c == 'w' || c == 'M' || c == 'W'                           ? 1.0
          : std::isupper(c)                                                      ? 0.78
          : std::isdigit(c)                                                      ? 0.64
          : c == ' ' || c == '.' || c == ',' || c == 'i' || c == 'l' || c == 'j' ? 0.34
                                                                                 : 0.64;
  }
  return em;
}

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : valid_utf8(s)) {  // an XML parser refuses invalid UTF-8
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

std::string render_roofline_svg(const std::string& title, const std::vector<ChartSeries>& series,
                                ChartSize size) {
  const Frame f = size == ChartSize::small ? kSmall : kOverview;
  double xmin = 1e300, xmax = 0, ymin = 1e300, ymax = 0;
  auto widen = [&](double x, double y) {
    if (!(x > 0 && y > 0 && std::isfinite(x) && std::isfinite(y))) return;
    xmin = std::min(xmin, x), xmax = std::max(xmax, x);
    ymin = std::min(ymin, y), ymax = std::max(ymax, y);
  };
  for (const auto& s : series) {
    widen(s.roof.ridge_point() / 10, s.roof.peak_flops);
    widen(s.roof.ridge_point() * 10, s.roof.peak_flops);
    if (s.matrix_peak) {
      const double ridge = *s.matrix_peak / s.roof.bandwidth;
      widen(ridge / 10, *s.matrix_peak);
      // Room above the matrix roof for its labels (it is often the highest line of the chart).
      widen(ridge * 10, 2 * *s.matrix_peak);
    }
    for (const auto& p : s.points) widen(p.intensity, p.flops_per_s);
  }
  if (xmax == 0) xmin = 0.1, xmax = 10, ymin = 1e9, ymax = 1e12;
  Axes ax{f, std::floor(std::log10(xmin)), std::ceil(std::log10(xmax)), 0, 0};
  if (ax.x1 <= ax.x0) ax.x1 = ax.x0 + 1;
  for (const auto& s : series)
    widen(std::pow(10.0, ax.x0), s.roof.attainable(std::pow(10.0, ax.x0)));
  ax.y0 = std::floor(std::log10(ymin));
  ax.y1 = std::ceil(std::log10(ymax * 1.05));
  if (ax.y1 <= ax.y0) ax.y1 = ax.y0 + 1;

  // Memory levels by name, in order of appearance: each name keeps one dash pattern.
  std::vector<std::string> level_names;
  for (const auto& s : series)
    for (const auto& l : s.levels)
      if (std::find(level_names.begin(), level_names.end(), l.name) == level_names.end())
        level_names.push_back(l.name);
  auto level_dash = [&level_names](const std::string& name) -> std::string {
    const auto i = std::find(level_names.begin(), level_names.end(), name) - level_names.begin();
    return kLevelDashes[std::size_t(i) % std::size(kLevelDashes)];
  };
  bool several_markers = false, any_matrix = false;
  for (const auto& s : series) several_markers |= s.marker % kMarkers != 0;
  for (const auto& s : series) any_matrix |= s.matrix_peak.has_value();
  bool with_kernels = false;
  for (const auto& s : series)
    for (const auto& p : s.points) with_kernels |= p.kernel;

  // The legend, built first: its size decides the chart's.
  const double lx = f.right + 15, tx = lx + 37;  // swatch and text columns
  double ly = f.top + 4, legend_w = 0;
  std::string legend;
  auto legend_text = [&](double y, const std::string& text, double size, const char* fill) {
    legend_w = std::max(legend_w, tx - lx + size * text_width_em(text));
    legend += fmt::format("<text x=\"{}\" y=\"{:.1f}\" font-size=\"{:g}\" fill=\"{}\">{}</text>\n",
                          tx, y, size, fill, xml_escape(text));
  };
  auto legend_header = [&](const std::string& text) {
    legend_w = std::max(legend_w, 11 * text_width_em(text));
    legend += fmt::format(
        "<text x=\"{}\" y=\"{:.1f}\" font-size=\"11\" font-weight=\"bold\" "
        "fill=\"#444\">{}</text>\n",
        lx, ly + 4, xml_escape(text));
    ly += 20;
  };
  legend_header(several_markers ? "colour, marker: file · space · dtype" : "colour: space · dtype");
  for (std::size_t i = 0; i < series.size(); ++i) {
    const auto& s = series[i];
    const char* color = kColors[i % std::size(kColors)];
    legend += fmt::format(
        "<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" stroke=\"{}\" "
        "stroke-width=\"2.5\"/>\n",
        lx, ly, lx + 30, ly, color);
    legend += marker_svg(s.marker, lx + 15, ly, color);
    legend_text(ly + 4, s.label, 12, "black");
    legend_text(ly + 19,
                fmt::format("P {} · B {} · I* {}", format_flops(s.roof.peak_flops),
                            format_bytes_per_s(s.roof.bandwidth), format_sig(s.roof.ridge_point())),
                10, "#444");
    if (s.matrix_peak) {
      legend_text(ly + 33,
                  fmt::format("P_matrix {} · I*_matrix {}", format_flops(*s.matrix_peak),
                              format_sig(*s.matrix_peak / s.roof.bandwidth)),
                  10, "#444");
      ly += 14;
    }
    ly += 38;
  }
  ly += 4;
  legend_header("line style: roof");
  auto legend_line = [&](const std::string& dash, double width, const std::string& text) {
    legend += fmt::format(
        "<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" stroke=\"black\" "
        "stroke-width=\"{:g}\"{}/>\n",
        lx, ly, lx + 30, ly, width, dash_attr(dash));
    legend_text(ly + 4, text, 12, "black");
    ly += 18;
  };
  legend_line("", 2.5, "fitted roofs P and B");
  if (any_matrix) legend_line(kMatrixDash, 2, "matrix roof P_matrix (tensor/matrix units)");
  for (const auto& name : level_names)
    legend_line(level_dash(name), 1.2,
                name == "B_read" ? "B_read: read-only kernels" : name + " (memory level)");
  ly += 4;
  legend_header("points");
  legend += marker_svg(0, lx + 15, ly, "black");
  legend_text(ly + 4, several_markers ? "measured (median), shape per file" : "measured (median)",
              12, "black");
  ly += 18;
  legend += fmt::format(
      "<rect x=\"{}\" y=\"{:.1f}\" width=\"8\" height=\"8\" fill=\"none\" stroke=\"black\"/>\n",
      lx + 11, ly - 4);
  legend_text(ly + 4, "library reference (not fitted)", 12, "black");
  ly += 18;
  if (with_kernels) {
    legend += fmt::format(
        "<circle cx=\"{}\" cy=\"{:.1f}\" r=\"5\" fill=\"black\" stroke=\"black\"/>\n", lx + 15, ly);
    legend_text(ly + 4, "your kernel or workload phase, named", 12, "black");
    ly += 18;
  }

  const double title_w = 16 * text_width_em(title);
  const double width = std::ceil(std::max(lx + legend_w + 10, f.left + title_w + 10));
  const double height = std::ceil(std::max(f.bottom + 60, ly + 10));
  std::string svg = fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\" font-family=\"sans-serif\" font-size=\"12\">\n"
      "<title>{3}</title>\n"
      "<rect width=\"{0}\" height=\"{1}\" fill=\"white\"/>\n"
      "<text x=\"{2}\" y=\"24\" font-size=\"16\">{3}</text>\n",
      width, height, f.left, xml_escape(title));
  // Grid and decade labels.
  for (int e = int(ax.x0); e <= int(ax.x1); ++e) {
    const double px = ax.x(std::pow(10.0, e));
    svg += fmt::format(
        "<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"#ddd\"/>\n"
        "<text x=\"{0:.1f}\" y=\"{3}\" text-anchor=\"middle\">{4}</text>\n",
        px, f.top, f.bottom, f.bottom + 20, decade_label(e, ""));
  }
  for (int e = int(ax.y0); e <= int(ax.y1); ++e) {
    const double py = ax.y(std::pow(10.0, e));
    svg += fmt::format(
        "<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" stroke=\"#ddd\"/>\n"
        "<text x=\"{3}\" y=\"{4:.1f}\" text-anchor=\"end\">{5}</text>\n",
        f.left, py, f.right, f.left - 6, py + 4, decade_label(e, "FLOP/s"));
  }
  svg += fmt::format(
      "<rect class=\"plot\" x=\"{0}\" y=\"{1}\" width=\"{2}\" height=\"{3}\" fill=\"none\" "
      "stroke=\"black\"/>\n"
      "<text x=\"{4}\" y=\"{5}\" text-anchor=\"middle\">arithmetic intensity (FLOP/byte)</text>\n"
      "<text x=\"16\" y=\"{6}\" text-anchor=\"middle\" transform=\"rotate(-90 16 {6})\">"
      "attainable FLOP/s</text>\n",
      f.left, f.top, f.right - f.left, f.bottom - f.top, (f.left + f.right) / 2, f.bottom + 42,
      (f.top + f.bottom) / 2);

  const double xl = std::pow(10.0, ax.x0), xr = std::pow(10.0, ax.x1);
  auto roof_path = [&](double p, double b) {
    const double ridge = p / b;
    std::string d = fmt::format("M{:.1f},{:.1f}", ax.x(xl), ax.y(b * xl));
    if (ridge > xl && ridge < xr) d += fmt::format(" L{:.1f},{:.1f}", ax.x(ridge), ax.y(p));
    return d + fmt::format(" L{:.1f},{:.1f}", ax.x(xr), ax.y(std::min(p, b * xr)));
  };
  LabelPlacer labels(f);
  std::string label_layer;  // drawn last, above every line
  // Candidates along a bandwidth roof: from its left end towards the ridge, just above the line.
  auto along_slope = [&](double bandwidth, double peak) {
    std::vector<LabelPlacer::At> at;
    const double l = std::log10(xl), r = std::log10(std::min(xr, peak / bandwidth));
    for (double t : {0.02, 0.12, 0.22, 0.32, 0.42, 0.52, 0.62}) {
      const double i = std::pow(10.0, l + t * (r - l));
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
      label_layer += label_svg(*a, text, kColors[i % std::size(kColors)], 12, "middle");
  }
  for (std::size_t i = 0; i < series.size(); ++i) {
    const auto& s = series[i];
    if (!s.matrix_peak) continue;
    const double r = *s.matrix_peak / s.roof.bandwidth;
    if (!(r > xl && r < xr)) continue;
    const double px = ax.x(r), py = ax.y(*s.matrix_peak);
    const std::string text = "I*_matrix " + format_sig(r);
    std::vector<LabelPlacer::At> at;
    for (double dy : {-10.0, -24.0, 20.0, 34.0, -38.0, 48.0})
      for (double dx : {0.0, 40.0, -40.0}) at.push_back({px + dx, py + dy});
    if (auto a = labels.place(at, text, 12, "middle"))
      label_layer += label_svg(*a, text, kColors[i % std::size(kColors)], 12, "middle");
  }
  for (std::size_t i = 0; i < series.size(); ++i) {
    const auto& s = series[i];
    const char* color = kColors[i % std::size(kColors)];
    const std::string p_text = "P " + format_flops(s.roof.peak_flops);
    std::vector<LabelPlacer::At> p_at;
    for (double dy : {-5.0, -19.0, 15.0, -33.0, 29.0})
      p_at.push_back({f.right - 6, ax.y(s.roof.peak_flops) + dy});
    if (auto a = labels.place(p_at, p_text, 11, "end"))
      label_layer += label_svg(*a, p_text, color, 11, "end");
    if (s.matrix_peak) {
      const std::string m_text = "P_matrix " + format_flops(*s.matrix_peak);
      std::vector<LabelPlacer::At> m_at;
      for (double dx : {0.0, 60.0, 120.0, 180.0})
        for (double dy : {-5.0, -19.0, 15.0, -33.0, 29.0})
          m_at.push_back({f.right - 6 - dx, ax.y(*s.matrix_peak) + dy});
      if (auto a = labels.place(m_at, m_text, 11, "end"))
        label_layer += label_svg(*a, m_text, color, 11, "end");
    }
    const std::string b_text = "B " + format_bytes_per_s(s.roof.bandwidth);
    if (auto a =
            labels.place(along_slope(s.roof.bandwidth, s.roof.peak_flops), b_text, 11, "start"))
      label_layer += label_svg(*a, b_text, color, 11, "start");
  }
  for (std::size_t i = 0; i < series.size(); ++i) {
    const auto& s = series[i];
    const char* color = kColors[i % std::size(kColors)];
    svg += "<g>\n";
    for (const auto& lvl : s.levels) {
      svg += fmt::format(
          "<path d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"1.2\"{} opacity=\"0.8\"/>\n",
          roof_path(s.roof.peak_flops, lvl.bandwidth), color, dash_attr(level_dash(lvl.name)));
      const std::string text = lvl.name + " " + format_bytes_per_s(lvl.bandwidth);
      if (auto a = labels.place(along_slope(lvl.bandwidth, s.roof.peak_flops), text, 10, "start"))
        label_layer += label_svg(*a, text, color, 10, "start");
    }
    svg += fmt::format("<path d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2.5\"/>\n",
                       roof_path(s.roof.peak_flops, s.roof.bandwidth), color);
    if (s.matrix_peak) {
      svg += fmt::format(
          "<path class=\"matrix-roof\" d=\"{}\" fill=\"none\" stroke=\"{}\" "
          "stroke-width=\"2\"{}/>\n",
          roof_path(*s.matrix_peak, s.roof.bandwidth), color, dash_attr(kMatrixDash));
      const double mr = *s.matrix_peak / s.roof.bandwidth;
      if (mr > xl && mr < xr)
        svg += fmt::format(
            "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"5\" fill=\"white\" stroke=\"{}\" "
            "stroke-width=\"2\"/>\n",
            ax.x(mr), ax.y(*s.matrix_peak), color);
    }
    const double r = s.roof.ridge_point();
    if (r > xl && r < xr)
      svg += fmt::format(
          "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"5\" fill=\"white\" stroke=\"{}\" "
          "stroke-width=\"2\"/>\n",
          ax.x(r), ax.y(s.roof.peak_flops), color);
    for (const auto& p : s.points) {
      if (!(p.intensity >= xl && p.intensity <= xr && p.flops_per_s > 0)) continue;
      const double px = ax.x(p.intensity), py = ax.y(p.flops_per_s);
      if (p.library || p.kernel) {
        if (p.kernel)
          svg += fmt::format(
              "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"5\" fill=\"{}\" stroke=\"black\"/>\n", px,
              py, color);
        else
          svg += fmt::format(
              "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"8\" height=\"8\" fill=\"none\" "
              "stroke=\"{}\"/>\n",
              px - 4, py - 4, color);
        // Right of the square, or left of it where the frame's edge is near.
        const double w = 10 * text_width_em(p.name);
        if (!p.name.empty())
          if (auto a = labels.place({{px + 7, py + 4},
                                     {px - 7 - w, py + 4},
                                     {px + 7, py + 16},
                                     {px + 7, py - 8},
                                     {px - 7 - w, py + 16},
                                     {px - 7 - w, py - 8}},
                                    p.name, 10, "start"))
            label_layer += label_svg(*a, p.name, color, 10, "start");
      } else {
        svg += marker_svg(s.marker, px, py, color);
      }
    }
    svg += "</g>\n";
  }
  return svg + label_layer + legend + "</svg>\n";
}

}  // namespace ridgeline
