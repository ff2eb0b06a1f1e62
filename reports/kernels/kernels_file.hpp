#pragma once
// The kernels file libridgeline-kp.so writes (connector/schema.md), read into typed structs with
// every field the reporter uses checked once, errors naming the file and the field.
#include <optional>
#include <string>
#include <vector>

namespace ridgeline {

inline constexpr int kKernelsSchemaMajor = 1;

struct KernelCounts {
  double flop_per_call = 0, bytes_per_call = 0;  // FLOP of `dtype`; DRAM bytes
  std::string dtype;
  std::string source;  // where the counts came from: "annotation", "ncu", "rocprofv3", "papi"
  std::string file;    // the counter file they were imported from (empty: the kernels file)
  // What else is known about the counts, in words: the work the vector roof of `dtype` does not
  // see (other dtypes, tensor units), cache-level bytes, or an import's counts beside annotated
  // ones (annotations win: kernels/counter_import.hpp).
  std::string note;
};

struct Kernel {
  std::string label, region, kind, space;  // kind: for | reduce | scan
  int device_id = 0;
  long long calls = 0;
  double seconds_total = 0;
  double median_s = 0, p25_s = 0, p75_s = 0;  // per call, fenced
  std::optional<KernelCounts> counts;         // nullopt: nothing declared its counts
  // Why no hardware counter counted it (the kernels file's papi.error: PAPI's own message).
  std::string counter_error;
};

struct KernelsFile {
  std::string file, hostname, command;
  bool complete = false;        // written at finalize (false: a periodic write, the run went on)
  bool global_fencing = false;  // false: an asynchronous space's times are launch times only
  std::vector<Kernel> kernels;
  std::vector<std::string> annotations_without_kernel;
  // Names a counter import (--counts) counted that no kernel of this file had: "name (file)".
  std::vector<std::string> counts_without_kernel;
  double seconds_total() const;  // of all kernels
};

KernelsFile parse_kernels(const std::string& text, const std::string& file);
KernelsFile load_kernels(const std::string& path);

// Whether `path` holds a kernels file (its "schema"), so that a command taking results files
// can take kernels files instead; false for anything else, unreadable files included (the
// results reader then says why).
bool is_kernels_file(const std::string& path);

}  // namespace ridgeline
