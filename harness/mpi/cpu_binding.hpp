#pragma once
// Host ranks on one node share its cores: each gets its own slice, so OpenMP threads of two
// ranks never run on one core, and a rank's CPU set is what its report names.
#include <string>
#include <vector>

namespace ridgeline {

// The CPUs this process may run on, ascending: as main() found them before the OpenMP runtime
// pinned the main thread to its first place (kProcessCpusVariable, set before main re-executes
// the program), else this thread's mask (sched_getaffinity).
std::vector<int> allowed_cpus();
inline constexpr const char* kProcessCpusVariable = "RIDGELINE_PROCESS_CPUS";
// This thread's mask, whatever the variable says.
std::vector<int> thread_cpus();

// Rank `local_rank`'s contiguous share of `cpus` among `local_size` ranks; with more ranks than
// CPUs (an oversubscribed test job) ranks take one CPU each, round robin.
std::vector<int> cpu_share(const std::vector<int>& cpus, int local_rank, int local_size);

// "0-3,8,10-11".
std::string cpu_list_text(const std::vector<int>& cpus);
// Parses that form (sysfs cpulist); throws std::invalid_argument on anything else.
std::vector<int> parse_cpu_list(const std::string& text);

// NUMA nodes (from /sys/devices/system/node) holding any of `cpus`; empty where sysfs has none.
std::vector<int> numa_nodes_of(const std::vector<int>& cpus);

// Restricts this process to `cpus`; false (and errno set) when the kernel refuses.
bool bind_to_cpus(const std::vector<int>& cpus);

}  // namespace ridgeline
