#pragma once
// The kernels file libridgeline-kp.so writes (connector/schema.md), read into typed structs with
// every field the reporter uses checked once, errors naming the file and the field.
#include <optional>
#include <string>
#include <vector>

namespace ridgeline {

inline constexpr int kKernelsSchemaMajor = 1;

struct KernelCounts {
  double flop_per_call = 0, bytes_per_call = 0;
  std::string dtype;
  std::string source;  // where the counts came from: "annotation"
};

struct Kernel {
  std::string label, region, kind, space;  // kind: for | reduce | scan
  int device_id = 0;
  long long calls = 0;
  double seconds_total = 0;
  double median_s = 0, p25_s = 0, p75_s = 0;  // per call, fenced
  std::optional<KernelCounts> counts;         // nullopt: nothing declared its counts
};

struct KernelsFile {
  std::string file, hostname, command;
  bool complete = false;        // written at finalize (false: a periodic write, the run went on)
  bool global_fencing = false;  // false: an asynchronous space's times are launch times only
  std::vector<Kernel> kernels;
  std::vector<std::string> annotations_without_kernel;
  double seconds_total() const;  // of all kernels
};

KernelsFile parse_kernels(const std::string& text, const std::string& file);
KernelsFile load_kernels(const std::string& path);

}  // namespace ridgeline
