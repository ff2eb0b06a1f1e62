#pragma once
// Measured points from a CSV file (one point per row; a header row naming at least `intensity`
// in FLOP/byte and `gflops` in GFLOP/s; other columns are ignored, column order is free).
#include <string>
#include <vector>

namespace ridgeline {

struct CsvPoint {
  double intensity;    // FLOP/byte
  double flops_per_s;  // FLOP/s (the file's GFLOP/s times 1e9)
};

// Throws InputError naming `file`, the line and the column.
std::vector<CsvPoint> parse_csv_points(const std::string& text, const std::string& file);
std::vector<CsvPoint> load_csv_points(const std::string& path);

}  // namespace ridgeline
