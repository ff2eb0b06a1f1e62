#include "reports/kernels/csv_table.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>

#include "core/input_error.hpp"

namespace ridgeline {
namespace {

// A profiler's file holds one row per kernel launch and counter; a bound keeps a hostile file
// from becoming millions of rows in memory (real ones: thousands).
constexpr std::size_t kMaxRows = 2000000;

// Splits the text into rows of cells, each with the line it starts on.
std::vector<CsvRow> split_rows(const std::string& text, const std::string& file,
                               const std::string& skip_prefix) {
  std::vector<CsvRow> rows;
  CsvRow row;
  std::string cell;
  bool quoted = false, in_quotes = false, any = false;
  std::size_t line = 1, quote_line = 0;
  row.line = 1;
  auto end_cell = [&] {
    row.cells.push_back(cell);
    cell.clear();
    quoted = false;
  };
  auto end_row = [&] {
    end_cell();
    const bool blank = row.cells.size() == 1 && row.cells[0].empty() && !any;
    if (!blank) rows.push_back(std::move(row));
    if (rows.size() > kMaxRows)
      throw InputError(file, "", "more than " + std::to_string(kMaxRows) + " rows");
    row = CsvRow{};
    row.line = line;
    any = false;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const bool row_start = !any && cell.empty() && row.cells.empty() && !in_quotes;
    if (row_start && !skip_prefix.empty() &&
        text.compare(i, skip_prefix.size(), skip_prefix) == 0) {
      const auto nl = text.find('\n', i);  // the profiler's own log line: not the table's
      if (nl == std::string::npos) break;
      i = nl;
      row.line = ++line;
      continue;
    }
    const char c = text[i];
    if (in_quotes) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        cell += '"';
        ++i;
      } else if (c == '"') {
        in_quotes = false;
      } else {
        if (c == '\n') ++line;
        cell += c;
      }
      continue;
    }
    if (c == '"') {
      if (!cell.empty())
        throw InputError(file, "line " + std::to_string(line), "a quote inside an unquoted cell");
      in_quotes = quoted = any = true;
      quote_line = line;
    } else if (c == ',') {
      end_cell();
      any = true;
    } else if (c == '\n') {
      ++line;
      end_row();
    } else if (c == '\r') {
      // CRLF line ends: the \n ends the row.
    } else {
      if (quoted)
        throw InputError(file, "line " + std::to_string(line),
                         "text after a quoted cell's closing quote");
      cell += c;
      any = true;
    }
  }
  if (in_quotes)
    throw InputError(file, "line " + std::to_string(quote_line),
                     "a quoted cell is not closed (truncated file?)");
  if (any || !cell.empty()) end_row();
  return rows;
}

}  // namespace

std::optional<std::size_t> CsvTable::column(const std::string& name) const {
  for (std::size_t c = 0; c < header.size(); ++c)
    if (header[c] == name) return c;
  return std::nullopt;
}

std::size_t CsvTable::require_column(const std::string& name) const {
  if (const auto c = column(name)) return *c;
  throw InputError(file, "header", "no '" + name + "' column");
}

std::string CsvTable::where(const CsvRow& row, std::size_t column) const {
  return "line " + std::to_string(row.line) + ", column '" + header.at(column) + "'";
}

CsvTable parse_csv_table(const std::string& text, const std::string& file,
                         const std::string& skip_prefix) {
  if (text.find('\0') != std::string::npos) throw InputError(file, "", "binary data, not CSV");
  const std::string bom = "\xEF\xBB\xBF";
  const std::size_t start = text.compare(0, bom.size(), bom) == 0 ? bom.size() : 0;
  std::vector<CsvRow> rows = split_rows(text.substr(start), file, skip_prefix);
  if (rows.empty()) throw InputError(file, "", "empty CSV (no header row)");
  CsvTable t;
  t.file = file;
  t.header = std::move(rows.front().cells);
  for (std::size_t i = 1; i < rows.size(); ++i) {
    if (rows[i].cells.size() != t.header.size())
      throw InputError(file, "line " + std::to_string(rows[i].line),
                       "has " + std::to_string(rows[i].cells.size()) + " columns, the header has " +
                           std::to_string(t.header.size()) + " (truncated?)");
    t.rows.push_back(std::move(rows[i]));
  }
  return t;
}

namespace {

// The length of the run of ASCII digits at `i`.
std::size_t digit_run(const std::string& s, std::size_t i) {
  std::size_t n = 0;
  while (i + n < s.size() && std::isdigit(static_cast<unsigned char>(s[i + n]))) ++n;
  return n;
}

// `cell` without its thousands separators when it is a decimal count: digits, or 1-3 digits and
// groups of ",ddd"; an optional fraction ".d+" and exponent "e[+-]d+". Empty for anything else:
// "1.234,5" (a decimal comma), "0x10" (hex, which strtod would take), "1,2", "inf", "-1".
std::string decimal_count(const std::string& cell) {
  std::string out;
  std::size_t i = 0, run = digit_run(cell, 0);
  if (run == 0) return "";
  out.append(cell, 0, run);
  i = run;
  if (i < cell.size() && cell[i] == ',') {
    if (run > 3) return "";
    while (i < cell.size() && cell[i] == ',') {
      if (digit_run(cell, i + 1) != 3) return "";
      out.append(cell, i + 1, 3);
      i += 4;
    }
  }
  if (i < cell.size() && cell[i] == '.') {
    run = digit_run(cell, i + 1);
    if (run == 0) return "";
    out.append(cell, i, run + 1);
    i += run + 1;
  }
  if (i < cell.size() && (cell[i] == 'e' || cell[i] == 'E')) {
    std::size_t j = i + 1;
    if (j < cell.size() && (cell[j] == '+' || cell[j] == '-')) ++j;
    run = digit_run(cell, j);
    if (run == 0) return "";
    out.append(cell, i, j + run - i);
    i = j + run;
  }
  return i == cell.size() ? out : "";
}

}  // namespace

double parse_count(const std::string& cell, const std::string& file, const std::string& where) {
  const std::string digits = decimal_count(cell);
  if (digits.empty())
    throw InputError(file, where,
                     "'" + cell +
                         "' is not a count (decimal digits, thousands separated by ',' in groups "
                         "of three, a '.' fraction, an exponent)");
  const double v = std::strtod(digits.c_str(), nullptr);
  if (!std::isfinite(v)) throw InputError(file, where, "'" + cell + "' is beyond a double's range");
  return v;
}

}  // namespace ridgeline
