#pragma once
// The kernels file (results/kernels_schema.md): what an application's kernels did under
// libridgeline-kp.so — where they ran, how often, how long, with the counts declared or counted.
// One set of types for both sides: the connector fills them and writes them (kernels_writer.cpp,
// nlohmann_json only, so the connector gains none of the reporter's dependencies); the reporter
// reads them back checked (kernels_reader.cpp), every error one line naming the file and field.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ridgeline {

// The version written; readers take every file of the same major version.
inline constexpr const char* kKernelsSchemaVersion = "1.2.0";
inline constexpr int kKernelsSchemaMajor = 1;

struct KernelCounts {
  double flop_per_call = 0, bytes_per_call = 0;  // FLOP of `dtype`; DRAM bytes
  std::string dtype;
  std::string source;  // where the counts came from: "annotation", "ncu", "rocprofv3", "papi"
  // Not in the file: the counter file a reader imported them from (empty: the kernels file).
  std::string file;
  // What else is known about the counts, in words: how PAPI counted (in the file), or, added by
  // a reader, the work the vector roof of `dtype` does not see (other dtypes, tensor units),
  // cache-level bytes, or an import's counts beside annotated ones (annotations win:
  // reports/kernels/counter_import.hpp).
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
  int device_id = 0, instance_id = 0;
  long long calls = 0;
  double seconds_total = 0;
  double median_s = 0, p25_s = 0, p75_s = 0;  // per call, fenced
  double min_s = 0, max_s = 0;                // the fastest and slowest call (0: not in the file)
  long long calls_kept = 0;                   // the calls the quantiles are of
  // seconds_total / calls: the statistic the share of time and the placed rates use.
  double mean_s() const { return calls > 0 ? seconds_total / double(calls) : 0; }
  std::optional<KernelCounts> counts;  // nullopt: nothing declared or counted its counts
  // Not in the file: why no hardware counter counted it (from the file's papi block, PAPI's own
  // message, or a counter import's reason).
  std::string counter_error;
};

// A declaration the connector could not use, with its reason.
struct RejectedAnnotation {
  std::string key, value, why;
};

// RIDGELINE_KP_PAPI=1: whether PAPI counted, which events, in which spaces, or why not.
struct PapiState {
  bool available = false;
  std::string error;  // PAPI's own words; empty when available
  std::vector<std::string> events, counted_spaces;
};

struct KernelsFile {
  std::string file;       // not in the file: the path it was read from
  bool complete = false;  // written at finalize (false: a periodic write, the run went on)
  std::string tool_name, tool_version;
  std::string hostname, command;
  long long pid = 0;
  // Host threads of its OpenMP/Threads kernels as the connector could tell (0: unknown, files
  // before 1.2), and what that rests on ("OMP_NUM_THREADS", "--kokkos-threads=1", ...).
  int host_threads = 0;
  std::string host_threads_from;
  std::string started_utc, written_utc;
  std::uint64_t interface_version = 0;  // KOKKOSP_INTERFACE_VERSION of the application's Kokkos
  bool global_fencing = false;  // false: an asynchronous space's times are launch times only
  std::map<std::string, std::string> metadata;  // what Kokkos declared through the tools
  std::optional<PapiState> papi;                // only when PAPI was requested
  std::vector<Kernel> kernels;
  std::vector<std::string> annotations_without_kernel;
  // Declarations the connector could not use (the first ones), and how many in all.
  std::vector<RejectedAnnotation> annotation_errors;
  long long annotation_errors_total = 0;
  // Not in the file: names a counter import (--counts) counted that no kernel of this file had,
  // "name (file)".
  std::vector<std::string> counts_without_kernel;
  double seconds_total() const;  // of all kernels
};

// The file's text (ordered as kernels_schema.md lists the keys). Labels are the application's
// bytes: invalid UTF-8 is replaced (U+FFFD), not a failed write.
std::string kernels_json(const KernelsFile& file);

// Reads and checks a kernels file; `file` names it in errors (InputError).
KernelsFile parse_kernels(const std::string& text, const std::string& file);
KernelsFile load_kernels(const std::string& path);

// Whether `path` holds a kernels file (its "schema"), so that a command taking results files
// can take kernels files instead; false for anything else, unreadable files included (the
// results reader then says why).
bool is_kernels_file(const std::string& path);

}  // namespace ridgeline
