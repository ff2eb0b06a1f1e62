#pragma once
// Markdown for $GITHUB_STEP_SUMMARY: a headline and the table of roofs and changed points first,
// every point and the method in <details> blocks.
#include <string>

#include "compare/compare.hpp"

namespace ridgeline {

std::string render_compare_markdown(const std::string& baseline, const std::string& current,
                                    const Comparison& c, const CompareOptions& o);

}  // namespace ridgeline
