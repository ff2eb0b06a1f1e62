#pragma once
// Markdown of the application kernels' gate (compare/kernel_compare.hpp): a headline, one row
// per kernel with its time per call and its fraction of the night's roof, and why it got slower.
#include <string>

#include "reports/compare/kernel_compare.hpp"

namespace ridgeline {

std::string render_kernel_compare_markdown(const std::string& current, const KernelsComparison& c,
                                           const CompareOptions& o);

}  // namespace ridgeline
