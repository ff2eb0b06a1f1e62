#pragma once
// How much memory this process may still take: a container's memory cgroup kills it long before
// /proc/meminfo's MemAvailable runs out (a 1 GiB working set in a 256 MiB cgroup was OOM-killed).
#include <cstdint>
#include <optional>
#include <string>

namespace ridgeline {

struct CgroupMemory {
  std::uint64_t limit_bytes = 0;      // the tightest limit on the way to the root
  std::uint64_t available_bytes = 0;  // limit − usage at that level, the least over all levels
};

// `proc_self_cgroup`: the text of /proc/self/cgroup. `root`: where the cgroup file systems are
// mounted (/sys/fs/cgroup). Reads cgroup v2 (memory.max, memory.current; also under unified/ in
// a hybrid layout) and v1 (memory/…/memory.limit_in_bytes, memory.usage_in_bytes), from the
// process's own cgroup up to the root. nullopt when no level sets a limit.
std::optional<CgroupMemory> cgroup_memory(const std::string& proc_self_cgroup,
                                          const std::string& root);

// cgroup_memory() of this process ($RIDGELINE_TEST_CGROUP_ROOT replaces /sys/fs/cgroup, with the
// process at its top: a test hook).
std::optional<CgroupMemory> own_cgroup_memory();

}  // namespace ridgeline
