#pragma once
// A quoted CSV file (RFC 4180: fields in double quotes may hold commas, newlines and "" for a
// quote), as the profilers write it: Nsight Compute quotes every cell and puts commas inside
// kernel names ("void f<int, 2>(double*, int)") and thousands separators inside numbers.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace ridgeline {

struct CsvRow {
  std::size_t line = 0;  // 1-based line of the file where the row starts
  std::vector<std::string> cells;
};

struct CsvTable {
  std::string file;
  std::vector<std::string> header;
  std::vector<CsvRow> rows;  // after the header, blank lines left out
  // The column of that header name; nullopt when absent.
  std::optional<std::size_t> column(const std::string& name) const;
  // Throws InputError naming the file and the header when absent.
  std::size_t require_column(const std::string& name) const;
  // "line 7, column 'dram__bytes_read.sum'": the field of an error.
  std::string where(const CsvRow& row, std::size_t column) const;
};

// Lines that start with `skip_prefix` are left out (ncu's "==PROF==" log lines before and after
// the table when its CSV went to stdout). Every row must have the header's number of cells. Throws
// InputError naming the file and the line.
CsvTable parse_csv_table(const std::string& text, const std::string& file,
                         const std::string& skip_prefix = "");

// A count in a cell: digits with an optional fraction and exponent; commas are thousands
// separators only in groups of three before the fraction ("33,554,432", "1,073.80"). Throws
// InputError (field `where`) for anything else: a negative count, a decimal comma ("1.234,5"),
// hex ("0x10"), "inf", a value beyond a double.
double parse_count(const std::string& cell, const std::string& file, const std::string& where);

}  // namespace ridgeline
