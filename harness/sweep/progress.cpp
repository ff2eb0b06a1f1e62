#include "harness/sweep/progress.hpp"

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <iostream>

#include "core/terminal.hpp"
#include "core/units.hpp"
#include "results/probe_catalog.hpp"

namespace ridgeline {
namespace {

int terminal_columns(int fd) {
  winsize w{};
  return ioctl(fd, TIOCGWINSZ, &w) == 0 && w.ws_col > 0 ? w.ws_col : 100;
}

}  // namespace

std::string rate_text(const PointEntry& p, const std::vector<double>& samples) {
  std::vector<std::string> parts;
  const PointFigures f = point_figures(p);
  if (f.intensity) parts.push_back("I=" + format_sig(*f.intensity));
  if (f.flops_per_s && *f.flops_per_s > 0) parts.push_back(format_flops(*f.flops_per_s));
  // The peak probe stores one value per work item: its byte/s says nothing.
  if (f.bytes_per_s && *f.bytes_per_s > 0 && !defines_peak(p.info.family))
    parts.push_back(format_bytes_per_s(*f.bytes_per_s));
  if (samples.size() > 1) {
    double mean = 0, var = 0;
    for (double x : samples) mean += x / double(samples.size());
    for (double x : samples) var += (x - mean) * (x - mean) / double(samples.size() - 1);
    if (mean > 0) parts.push_back(fmt::format("±{:.1f} %", 100 * std::sqrt(var) / mean));
  }
  std::string s;
  for (const auto& part : parts) s += (s.empty() ? "" : ", ") + part;
  return s;
}

Progress::Progress(bool in_place)
    : in_place_(in_place && isatty(STDERR_FILENO)), color_(color_enabled(STDERR_FILENO)) {}

void Progress::line(std::size_t done, std::size_t total, const std::string& text, double elapsed,
                    double left, bool keep) {
  if (!in_place_) {
    std::cerr << fmt::format("[{}/{}] {} ({:.0f} s elapsed, ~{:.0f} s left)\n", done, total, text,
                             elapsed, left);
    return;
  }
  const std::string full = fmt::format("[{}/{}, ~{:.0f} s left] {}", done, total, left, text);
  // A line wider than the terminal wraps, and \r would rewrite only its last row.
  const std::size_t width = std::size_t(std::max(20, terminal_columns(STDERR_FILENO) - 1));
  std::cerr << "\r\033[K" << (keep || full.size() <= width ? full : full.substr(0, width))
            << (keep ? "\n" : "") << std::flush;
  pending_ = !keep;
}

void Progress::clear() {
  if (pending_) std::cerr << "\r\033[K" << std::flush;
  pending_ = false;
}

}  // namespace ridgeline
