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
  // Annotations (schema 1.2): the calls that carried the counts and their seconds, so that rates
  // are sums over sums; 0 when the file does not say (all calls, at the mean time per call).
  long long counted_calls = 0;
  double counted_seconds = 0;
  bool varied = false;  // launches of the label declared different counts
  // Seconds per call the rates use: the counted calls' mean, else the kernel's mean.
  double seconds_per_call(double kernel_mean_s) const {
    return counted_calls > 0 ? counted_seconds / double(counted_calls) : kernel_mean_s;
  }
};

struct Kernel {
  std::string label, region, kind, space;  // kind: for | reduce | scan
  int device_id = 0;
  long long calls = 0;
  double seconds_total = 0;
  double median_s = 0, p25_s = 0, p75_s = 0;  // per call, fenced
  double max_s = 0;                           // the slowest call (0: not in the file)
  // seconds_total / calls: the statistic the share of time and the placed rates use.
  double mean_s() const { return calls > 0 ? seconds_total / double(calls) : 0; }
  std::optional<KernelCounts> counts;  // nullopt: nothing declared its counts
  // Why no hardware counter counted it (the kernels file's papi.error: PAPI's own message).
  std::string counter_error;
};

struct KernelsFile {
  std::string file, hostname, command;
  bool complete = false;        // written at finalize (false: a periodic write, the run went on)
  bool global_fencing = false;  // false: an asynchronous space's times are launch times only
  std::vector<Kernel> kernels;
  std::vector<std::string> annotations_without_kernel;
  // Declarations the connector could not use: "key: why" (the first ones), and how many in all.
  std::vector<std::string> annotation_errors;
  long long annotation_errors_total = 0;
  // Host threads of its OpenMP/Threads kernels as the connector could tell (0: unknown, files
  // before 1.2), and what that rests on ("OMP_NUM_THREADS", "--kokkos-threads=1", ...).
  int host_threads = 0;
  std::string host_threads_from;
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
