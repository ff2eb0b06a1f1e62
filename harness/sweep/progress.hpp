#pragma once
// The sweep's progress on stderr: a line per measured point, and the text that says what the
// point measured.
#include <cstddef>
#include <string>
#include <vector>

#include "results/point_entry.hpp"

namespace ridgeline {

// "I=0.0833, 2.21 GFLOP/s, 26.4 GB/s, ±1.2 %": what the point measured, three digits each.
std::string rate_text(const PointEntry& p, const std::vector<double>& samples);

// Progress on stderr: one line per point in logs and pipes; on a terminal one line that updates
// in place, with failed and skipped points kept above it.
class Progress {
 public:
  explicit Progress(bool in_place);
  ~Progress() { clear(); }
  Progress(const Progress&) = delete;  // owns the terminal line
  Progress& operator=(const Progress&) = delete;

  bool color() const { return color_; }
  // `text` is "name: status". Logs get one line per point with the times at the end; the
  // terminal line starts with the time left, so a narrow terminal cuts the status, not the ETA.
  void line(std::size_t done, std::size_t total, const std::string& text, double elapsed,
            double left, bool keep);
  void clear();

 private:
  bool in_place_, color_;
  bool pending_ = false;
};

}  // namespace ridgeline
