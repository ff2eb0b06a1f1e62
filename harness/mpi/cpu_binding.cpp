#include "harness/mpi/cpu_binding.hpp"

#include <sched.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace ridgeline {

std::vector<int> allowed_cpus() {
  if (const char* recorded = std::getenv(kProcessCpusVariable)) {
    try {
      if (auto cpus = parse_cpu_list(recorded); !cpus.empty()) return cpus;
    } catch (const std::exception&) {  // not ours to trust: fall back to the mask
    }
  }
  return thread_cpus();
}

std::vector<int> thread_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  return cpus;
}

std::vector<int> cpu_share(const std::vector<int>& cpus, int local_rank, int local_size) {
  if (cpus.empty() || local_size <= 1 || local_rank < 0) return cpus;
  const std::size_t n = cpus.size(), ranks = static_cast<std::size_t>(local_size),
                    r = static_cast<std::size_t>(local_rank) % ranks;
  if (n < ranks) return {cpus[r % n]};
  // The first n % ranks ranks take one CPU more, so no CPU is left idle.
  const std::size_t base = n / ranks, extra = n % ranks;
  const std::size_t begin = r * base + std::min(r, extra);
  const std::size_t count = base + (r < extra ? 1 : 0);
  return {cpus.begin() + static_cast<std::ptrdiff_t>(begin),
          cpus.begin() + static_cast<std::ptrdiff_t>(begin + count)};
}

std::string cpu_list_text(const std::vector<int>& cpus) {
  std::string s;
  for (std::size_t i = 0; i < cpus.size();) {
    std::size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    s += (s.empty() ? "" : ",") + std::to_string(cpus[i]);
    if (j > i) s += "-" + std::to_string(cpus[j]);
    i = j + 1;
  }
  return s;
}

std::vector<int> parse_cpu_list(const std::string& text) {
  std::vector<int> cpus;
  std::size_t pos = 0;
  const auto number = [&](std::size_t& p) {
    std::size_t used = 0;
    const int v = std::stoi(text.substr(p), &used);
    if (v < 0) throw std::invalid_argument("negative CPU in '" + text + "'");
    p += used;
    return v;
  };
  std::string trimmed = text;
  while (!trimmed.empty() && (trimmed.back() == '\n' || trimmed.back() == ' ')) trimmed.pop_back();
  if (trimmed.empty()) return cpus;
  while (pos < trimmed.size()) {
    const int first = number(pos);
    int last = first;
    if (pos < trimmed.size() && trimmed[pos] == '-') last = number(++pos);
    if (last < first) throw std::invalid_argument("bad CPU range in '" + text + "'");
    for (int c = first; c <= last; ++c) cpus.push_back(c);
    if (pos < trimmed.size() && trimmed[pos++] != ',')
      throw std::invalid_argument("bad CPU list '" + text + "'");
  }
  return cpus;
}

std::vector<int> numa_nodes_of(const std::vector<int>& cpus) {
  std::vector<int> nodes;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/sys/devices/system/node", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("node", 0) != 0 || name.size() == 4 ||
        name.find_first_not_of("0123456789", 4) != std::string::npos)
      continue;
    std::ifstream in(entry.path() / "cpulist");
    std::string list;
    std::getline(in, list);
    try {
      for (int c : parse_cpu_list(list))
        if (std::find(cpus.begin(), cpus.end(), c) != cpus.end()) {
          nodes.push_back(std::stoi(name.substr(4)));
          break;
        }
    } catch (const std::exception&) {  // an unreadable node says nothing about ours
    }
  }
  std::sort(nodes.begin(), nodes.end());
  return nodes;
}

bool bind_to_cpus(const std::vector<int>& cpus) {
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int c : cpus)
    if (c >= 0 && c < CPU_SETSIZE) CPU_SET(c, &set);
  return sched_setaffinity(0, sizeof set, &set) == 0;
}

}  // namespace ridgeline
