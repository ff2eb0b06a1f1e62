#include "connector/thread_count.hpp"

#include <sched.h>

#include <cstdlib>
#include <sstream>

namespace ridgeline::kp {
namespace {

// A positive count at the start of `text` up to `end` (a ',' ends an OMP_NUM_THREADS list's
// first level); 0 when it is not one.
int positive(const std::string& text) {
  char* end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (end == text.c_str() || (*end != '\0' && *end != ',') || v <= 0 || v > 1 << 20) return 0;
  return int(v);
}

}  // namespace

ThreadCount host_thread_count(const std::string& command) {
  // Kokkos 4's spelling, Kokkos 3's, and 3's deprecated one.
  static const char* const kArgs[] = {"--kokkos-num-threads=", "--kokkos-threads=", "--threads="};
  std::istringstream words(command);
  std::string word;
  while (words >> word)
    for (const char* arg : kArgs) {
      const std::string a = arg;
      if (word.compare(0, a.size(), a) == 0)
        if (const int n = positive(word.substr(a.size()))) return {n, word};
    }
  for (const char* var : {"KOKKOS_NUM_THREADS", "OMP_NUM_THREADS"})
    if (const char* v = std::getenv(var))
      if (const int n = positive(v)) return {n, var};
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return {CPU_COUNT(&set), "CPUs allowed"};
  return {};
}

}  // namespace ridgeline::kp
