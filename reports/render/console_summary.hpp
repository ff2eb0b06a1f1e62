#pragma once
// The answer a run ends with on the terminal: one aligned row per execution space × dtype with
// the point counts and P, B, B_read and I* with their 95 % intervals.
#include <string>

#include "reports/fit/analysis.hpp"

namespace ridgeline {

// Plain text, columns padded to the widest cell; groups that were not fitted say why.
std::string console_summary(const FileAnalysis& a);

}  // namespace ridgeline
