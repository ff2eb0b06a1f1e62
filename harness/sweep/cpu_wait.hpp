#pragma once
// How long this process's threads waited for a CPU while a sample ran (Linux schedstat: the time
// a thread was ready to run and the scheduler gave its CPU to something else). On a shared
// runner a 2-thread region whose second thread waits out another process's time slice takes
// 8 ms instead of 1.7 ms: the sample measured the machine's load, not the kernel, and the gate
// must be able to tell (reports/compare: "machine busy").
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ridgeline {

// Per thread id: nanoseconds on a CPU and waiting on a run queue, since the thread began.
struct ThreadTimes {
  std::map<long, std::pair<std::uint64_t, std::uint64_t>> by_tid;
};

// Every thread of this process; nullopt where /proc/self/task/*/schedstat cannot be read (not
// Linux, or a kernel without CONFIG_SCHED_INFO): `why` says so.
std::optional<ThreadTimes> read_thread_times(std::string* why = nullptr);

// One sample's wait: the threads that ran or waited between `before` and `after`, and their
// summed run-queue wait over (wall × those threads), at most 1. 0 threads: nobody ran.
struct CpuWait {
  double share = 0;
  int threads = 0;
};
CpuWait cpu_wait_between(const ThreadTimes& before, const ThreadTimes& after, double wall_s);

// A sample waited enough to count as taken on a busy machine.
inline constexpr double kBusySampleShare = 0.05;

// The results file's `cpu_wait` (schema.md): one share per sample, their median, and how many
// samples waited kBusySampleShare or more; null without samples.
nlohmann::json summarize_cpu_wait(const std::vector<CpuWait>& samples);

}  // namespace ridgeline
