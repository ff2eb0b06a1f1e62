#include "harness/sweep/cpu_wait.hpp"

#include <dirent.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/stats.hpp"

namespace ridgeline {

std::optional<ThreadTimes> read_thread_times(std::string* why) {
  DIR* dir = opendir("/proc/self/task");
  if (!dir) {
    if (why) *why = "/proc/self/task is not readable (not Linux?)";
    return std::nullopt;
  }
  ThreadTimes t;
  bool unreadable = false;
  while (const dirent* e = readdir(dir)) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    const std::string path = std::string("/proc/self/task/") + e->d_name + "/schedstat";
    std::FILE* f = std::fopen(path.c_str(), "r");
    // A thread may end between readdir and fopen; only a kernel without schedstat fails all.
    if (!f) {
      unreadable = true;
      continue;
    }
    unsigned long long on_cpu = 0, waited = 0;
    if (std::fscanf(f, "%llu %llu", &on_cpu, &waited) == 2)
      t.by_tid[std::strtol(e->d_name, nullptr, 10)] = {on_cpu, waited};
    std::fclose(f);
  }
  closedir(dir);
  if (t.by_tid.empty()) {
    if (why)
      *why = unreadable ? "/proc/self/task/*/schedstat missing (kernel without CONFIG_SCHED_INFO)"
                        : "/proc/self/task/*/schedstat unreadable";
    return std::nullopt;
  }
  return t;
}

CpuWait cpu_wait_between(const ThreadTimes& before, const ThreadTimes& after, double wall_s) {
  CpuWait w;
  double waited_ns = 0;
  for (const auto& [tid, now] : after.by_tid) {
    const auto it = before.by_tid.find(tid);
    // A thread started during the sample counts from 0.
    const auto then =
        it == before.by_tid.end() ? std::pair<std::uint64_t, std::uint64_t>{0, 0} : it->second;
    const double ran = double(now.first - std::min(now.first, then.first));
    const double wait = double(now.second - std::min(now.second, then.second));
    if (ran <= 0 && wait <= 0) continue;  // asleep the whole sample: not part of the work
    ++w.threads;
    waited_ns += wait;
  }
  if (w.threads > 0 && wall_s > 0)
    w.share = std::min(1.0, waited_ns * 1e-9 / (wall_s * double(w.threads)));
  return w;
}

nlohmann::json summarize_cpu_wait(const std::vector<CpuWait>& samples) {
  if (samples.empty()) return nullptr;
  std::vector<double> shares;
  int busy = 0, threads = 0;
  for (const CpuWait& w : samples) {
    // Rounded to 0.1 ‰: the file stays readable and nothing below that matters to a verdict.
    shares.push_back(std::round(w.share * 1e4) / 1e4);
    busy += w.share >= kBusySampleShare;
    threads = std::max(threads, w.threads);
  }
  const double median_share = std::round(median(shares) * 1e5) / 1e5;
  return {{"shares", shares},
          {"median_share", median_share},
          {"busy_samples", busy},
          {"threads", threads}};
}

}  // namespace ridgeline
