#pragma once
// Text from input files (point names, labels, reasons, host names) placed into markdown. Reports
// end up in CI job summaries, so no input may add a line, a heading, a table column or raw HTML.
// Each function also replaces bytes that are not valid UTF-8 with U+FFFD (core/utf8.hpp): a
// kernel name from a profiler's CSV must not make report.md invalid UTF-8.
#include <fmt/format.h>

#include <string>

namespace ridgeline {

// Prose and table cells: HTML specials become entities, inline markdown punctuation
// (\ ` * _ [ ] | ~) is backslash-escaped, control characters (newlines included) become spaces,
// so the text stays on its line (callers never place it at a line start).
std::string md_text(const std::string& s);

// An inline code span in a table cell: a fence longer than any run of backticks inside, pipes
// escaped (GitHub's tables split on them even inside code), control characters become spaces.
// Text holding <, > or & is returned as md_text instead, so no raw tag reaches the output.
std::string md_code(const std::string& s);

// Text inside HTML elements (<summary>, <code>): &, <, >, " and ' become entities.
std::string html_text(const std::string& s);

inline std::string pct(double v) { return fmt::format("{:.1f} %", 100 * v); }

}  // namespace ridgeline
