#include "cli/report/counts_option.hpp"

#include "core/input_error.hpp"
#include "reports/kernels/counter_import.hpp"

namespace ridgeline {

void add_counts_option(CLI::App* cmd, std::vector<std::string>& counts) {
  cmd->add_option("--counts", counts,
                  "Counter files of a profiler (ncu --csv --page raw; rocprofv3 "
                  "*_counter_collection.csv), joined with --kernels on the kernel's label; "
                  "annotated counts win");
}

void check_counts_option(const std::vector<std::string>& kernels,
                         const std::vector<std::string>& counts) {
  if (!counts.empty() && kernels.empty())
    throw InputError("", "--counts",
                     "joins the kernels of a kernels file: give --kernels (libridgeline-kp.so's "
                     "file of the same run) too");
}

std::vector<KernelsFile> load_kernels_with_counts(const std::vector<std::string>& kernels,
                                                  const std::vector<std::string>& counts) {
  check_counts_option(kernels, counts);
  std::vector<CounterImport> imports;
  for (const auto& path : counts) imports.push_back(load_counter_import(path));
  std::vector<KernelsFile> out;
  for (const auto& path : kernels) {
    out.push_back(load_kernels(path));
    join_counts(out.back(), imports);
  }
  return out;
}

}  // namespace ridgeline
