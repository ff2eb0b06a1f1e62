#pragma once
// Counts of an application's kernels from a vendor profiler's counter output, joined on the
// kernel's name with the kernels file of libridgeline-kp.so (which has the calls and the fenced
// time per call; the profiler's replayed, serialised launches do not). One reader per format:
// ncu_csv.hpp (Nsight Compute), rocprofv3_csv.hpp (rocprofv3).
//
// The join: a profiler's kernel name must equal the Kokkos label. That is what a profiler gives
// when the Kokkos NVTX / ROCTX connector (or rocprofv3's own Kokkos tracing) names a range by the
// label and the profiler renames each kernel by its innermost range: `ncu --nvtx
// --print-nvtx-rename kernel`, `rocprofv3 --kokkos-trace --kernel-rename`. Without renaming, a
// Kokkos kernel's name is Kokkos' launch template around the functor's type
// ("void Kokkos::Impl::cuda_parallel_launch_local_memory<Kokkos::Impl::ParallelFor<...>>(...)"),
// which holds no label: nothing joins, and the report lists those names as counted but unmatched.
// ncu counts join kernels of the Cuda space, rocprofv3 counts those of the HIP space.
//
// Rule: annotations win. Counts declared with ridgeline/annotate.hpp are exact by construction
// (the code's own formula); a counter import of the same label is shown beside them as a
// cross-check, never in their place.
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "results/kernels_file.hpp"

namespace ridgeline {

// One kernel name's counts summed over the profiled launches of that name.
struct CountedKernel {
  std::string name;
  long long launches = 0;                     // profiled launches (ncu rows, rocprofv3 dispatches)
  std::map<std::string, double> vector_flop;  // per dtype ("fp64", "fp32", "fp16"), FMA = 2
  // Work on tensor or matrix units, which the vector roofs do not bound: ncu's tensor-pipe
  // instructions (no FLOP count without the instruction's shape), rocprofv3's MFMA FLOP.
  double tensor_instructions = 0, matrix_flop = 0;
  std::optional<double> dram_bytes, l2_bytes, l1_bytes;
  std::optional<double> seconds;   // the profiler's own duration (replayed: not the app's time)
  std::vector<std::string> notes;  // what the reader could not count, in words
};

struct CounterImport {
  std::string file;
  std::string source;  // "ncu" or "rocprofv3": what a kernel's counts then say they came from
  std::string space;   // the execution space whose kernels it counts: "Cuda" or "HIP"
  std::vector<CountedKernel> kernels;  // in the order of first appearance
  // The kernel of that name, added on first use (files hold a row per launch or counter:
  // an index, not a scan of `kernels` per row).
  CountedKernel& kernel_named(const std::string& name);
  std::unordered_map<std::string, std::size_t> index;  // name -> position in `kernels`
};

// Reads a counter file, telling the format from its header: Nsight Compute's raw page
// (`ncu --csv --page raw`) or rocprofv3's counter collection (`*_counter_collection.csv`).
CounterImport load_counter_import(const std::string& path);
CounterImport parse_counter_import(const std::string& text, const std::string& file);

// The per-call counts of a counted kernel as the placement reads them: the dtype with the most
// vector FLOP (fp64 when every FLOP counter read 0) and its FLOP, the DRAM bytes, and a note
// naming what the vector roof does not see (other dtypes' FLOP, tensor or matrix work). nullopt,
// with `why`, when the import counted no FLOP or no DRAM bytes at all (not collected: placing
// it would assume them zero).
std::optional<KernelCounts> counts_per_call(const CountedKernel& k, const CounterImport& from,
                                            std::string& why);

// How many of its kernel names hold bytes that are not UTF-8 (a profiler writes the names it was
// given): markdown and SVG show each such byte as U+FFFD, which a report says once per file.
std::size_t names_not_utf8(const CounterImport& im);

// Gives every kernel of `kernels` without annotated counts the counts of the import that names its
// label (and counts its space); annotated kernels keep theirs, with the import's noted. A label
// counted by two imports is an InputError naming both files. Names no kernel had are listed in
// kernels.counts_without_kernel.
void join_counts(KernelsFile& kernels, const std::vector<CounterImport>& imports);

}  // namespace ridgeline
