#pragma once
// `--counts` of `report` and `place`: profilers' counter files (Nsight Compute, rocprofv3)
// joined on the kernel's name with the kernels files of `--kernels` (kernels/counter_import.hpp).
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "results/kernels_file.hpp"

namespace ridgeline {

void add_counts_option(CLI::App* cmd, std::vector<std::string>& counts);

// --counts without --kernels: an InputError (nothing to join the counts with).
void check_counts_option(const std::vector<std::string>& kernels,
                         const std::vector<std::string>& counts);

// Every kernels file, with every counter file joined to it; all read before anything is written.
// Counter files without a kernels file are an InputError (--counts has nothing to join).
// `not_utf8`, where given, gets one line per counter file whose kernel names hold bytes that are
// not UTF-8 ("FILE: N kernel names hold ..."), for a command that writes markdown or SVG.
std::vector<KernelsFile> load_kernels_with_counts(const std::vector<std::string>& kernels,
                                                  const std::vector<std::string>& counts,
                                                  std::vector<std::string>* not_utf8 = nullptr);

}  // namespace ridgeline
