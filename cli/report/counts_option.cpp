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
                                                  const std::vector<std::string>& counts,
                                                  std::vector<std::string>* not_utf8) {
  check_counts_option(kernels, counts);
  std::vector<CounterImport> imports;
  for (const auto& path : counts) {
    imports.push_back(load_counter_import(path));
    const std::size_t n = names_not_utf8(imports.back());
    if (not_utf8 && n > 0)
      not_utf8->push_back(path + ": " + std::to_string(n) + " kernel name" +
                          (n == 1 ? " holds" : "s hold") +
                          " bytes that are not UTF-8; the report shows each such byte as U+FFFD");
  }
  std::vector<KernelsFile> out;
  for (const auto& path : kernels) {
    out.push_back(load_kernels(path));
    join_counts(out.back(), imports);
  }
  return out;
}

}  // namespace ridgeline
