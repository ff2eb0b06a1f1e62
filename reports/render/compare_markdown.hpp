#pragma once
// Markdown for $GITHUB_STEP_SUMMARY: a headline, the regressions, then the ambiguous and faster
// metrics, and what the history lets the gate catch; the SAME rows and the method in <details>.
#include <string>

#include "reports/compare/compare.hpp"

namespace ridgeline {

std::string render_compare_markdown(const std::string& current, const Comparison& c,
                                    const CompareOptions& o);

}  // namespace ridgeline
