#pragma once
// How tables and charts name the files of one report: by machine (a GPU run by its GPU, a host
// run by its host), with the folder or file name where one machine has several files, and an MPI
// device by its rank.
#include <string>
#include <vector>

#include "reports/fit/analysis.hpp"

namespace ridgeline {

// The machine a file measured, as reports name it: a GPU run's GPU ("NVIDIA H100 80GB HBM3",
// Results::measured_device), since every borrowed GPU machine may be called "vm" and an H200's
// run must not merge with the development VM's; the hostname for a run on the host alone. The
// hostname stays in the report's file list and provenance.
std::string machine_name(const Results& r);

// Sets each file's `label`.
void label_by_machine(std::vector<FileAnalysis>& files);

}  // namespace ridgeline
