#pragma once
// The report's section on where DRAM begins (results/memory_plateau.hpp): per file and search,
// what the plateau search measured set by set, where the plateau began and on what evidence, or
// why none was reached, so a reader sees the cache levels above it as levels and not as memory.
#include <string>
#include <vector>

#include "reports/fit/analysis.hpp"

namespace ridgeline {

void memory_plateau_section(std::string& md, const std::vector<FileAnalysis>& files);

}  // namespace ridgeline
