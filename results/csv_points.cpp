#include "results/csv_points.hpp"

#include <cmath>
#include <cstdlib>

#include "core/input_error.hpp"
#include "results/results_file.hpp"

namespace ridgeline {
namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  const auto e = s.find_last_not_of(" \t\r");
  std::string t = s.substr(b, e - b + 1);
  // Spreadsheets quote header names; values with commas inside quotes are not supported.
  if (t.size() >= 2 && t.front() == '"' && t.back() == '"') t = t.substr(1, t.size() - 2);
  return t;
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> cells;
  std::size_t start = 0;
  while (true) {
    const auto comma = line.find(',', start);
    cells.push_back(trim(line.substr(start, comma == std::string::npos ? comma : comma - start)));
    if (comma == std::string::npos) return cells;
    start = comma + 1;
  }
}

}  // namespace

std::vector<CsvPoint> parse_csv_points(const std::string& text, const std::string& file) {
  if (text.find('\0') != std::string::npos) throw InputError(file, "", "binary data, not CSV");
  std::vector<std::string> lines;
  // Spreadsheets save UTF-8 with a byte order mark, which would hide the first column's name.
  const std::string bom = "\xEF\xBB\xBF";
  std::size_t start = text.compare(0, bom.size(), bom) == 0 ? bom.size() : 0;
  while (start < text.size()) {
    const auto nl = text.find('\n', start);
    lines.push_back(text.substr(start, nl == std::string::npos ? nl : nl - start));
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  std::size_t header_line = 0;
  while (header_line < lines.size() && trim(lines[header_line]).empty()) ++header_line;
  if (header_line == lines.size()) throw InputError(file, "", "empty CSV (no header row)");
  const auto header = split(lines[header_line]);
  int col_i = -1, col_g = -1;
  for (std::size_t c = 0; c < header.size(); ++c) {
    if (header[c] == "intensity") col_i = static_cast<int>(c);
    if (header[c] == "gflops") col_g = static_cast<int>(c);
  }
  if (col_i < 0) throw InputError(file, "header", "no 'intensity' column");
  if (col_g < 0) throw InputError(file, "header", "no 'gflops' column");

  std::vector<CsvPoint> points;
  for (std::size_t l = header_line + 1; l < lines.size(); ++l) {
    if (trim(lines[l]).empty()) continue;
    const auto cells = split(lines[l]);
    const std::string where = "line " + std::to_string(l + 1);
    if (cells.size() != header.size())
      throw InputError(file, where,
                       "has " + std::to_string(cells.size()) + " columns, the header has " +
                           std::to_string(header.size()) + " (truncated?)");
    double v[2];
    const int cols[2] = {col_i, col_g};
    for (int k = 0; k < 2; ++k) {
      const std::string& cell = cells[static_cast<std::size_t>(cols[k])];
      const std::string field = where + ", " + header[static_cast<std::size_t>(cols[k])];
      char* end = nullptr;
      v[k] = std::strtod(cell.c_str(), &end);
      if (cell.empty() || end != cell.c_str() + cell.size())
        throw InputError(file, field, "'" + cell + "' is not a number");
      if (!std::isfinite(v[k])) throw InputError(file, field, "'" + cell + "' is not finite");
      if (v[k] <= 0) throw InputError(file, field, "'" + cell + "' must be positive");
      if (!std::isnormal(v[k]))
        throw InputError(file, field,
                         "'" + cell + "' is too close to 0 to compute with (subnormal)");
    }
    if (!std::isfinite(v[1] * 1e9))
      throw InputError(file, where + ", gflops", "is too large to be a rate");
    // The fit divides FLOP/s by intensity (the bandwidth a point observes).
    if (!std::isnormal(v[1] * 1e9 / v[0]))
      throw InputError(file, where,
                       "gflops / intensity is not a finite positive number (values out of range)");
    points.push_back({v[0], v[1] * 1e9});
  }
  return points;
}

std::vector<CsvPoint> load_csv_points(const std::string& path) {
  return parse_csv_points(read_text_file(path, "CSV file"), path);
}

}  // namespace ridgeline
