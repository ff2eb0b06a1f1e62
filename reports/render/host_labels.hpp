#pragma once
// How tables and charts name the files of one report: by host, with the folder or file name where
// one host has several files, and an MPI device by its rank.
#include <vector>

#include "reports/fit/analysis.hpp"

namespace ridgeline {

// Sets each file's `label`.
void label_by_host(std::vector<FileAnalysis>& files);

}  // namespace ridgeline
