#include "harness/context/memory_limit.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

namespace ridgeline {
namespace {

// A number in a cgroup file; "max" (v2) and v1's "no limit" (about 2^63) are no limit.
std::optional<std::uint64_t> read_bytes(const std::string& path) {
  std::ifstream in(path);
  std::string text;
  if (!(in >> text) || text == "max") return std::nullopt;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
  if (end == text.c_str() || *end != '\0' || v >= (1ull << 62)) return std::nullopt;
  return v;
}

// The directories of a cgroup path and its ancestors, deepest first: "/a/b" -> a/b, a, "".
std::vector<std::string> up_to_root(std::string path) {
  std::vector<std::string> out;
  while (!path.empty() && path.front() == '/') path.erase(0, 1);
  while (true) {
    out.push_back(path);
    const auto slash = path.find_last_of('/');
    if (path.empty()) break;
    path = slash == std::string::npos ? "" : path.substr(0, slash);
  }
  return out;
}

void consider(const std::string& dir, const char* limit_file, const char* usage_file,
              std::optional<CgroupMemory>& best) {
  const auto limit = read_bytes(dir + "/" + limit_file);
  if (!limit) return;
  const std::uint64_t usage = read_bytes(dir + "/" + usage_file).value_or(0);
  const std::uint64_t available = *limit > usage ? *limit - usage : 0;
  if (!best) {
    best = CgroupMemory{*limit, available};
    return;
  }
  best->limit_bytes = std::min(best->limit_bytes, *limit);
  best->available_bytes = std::min(best->available_bytes, available);
}

}  // namespace

std::optional<CgroupMemory> cgroup_memory(const std::string& proc_self_cgroup,
                                          const std::string& root) {
  std::optional<CgroupMemory> best;
  std::istringstream lines(proc_self_cgroup);
  std::string line;
  while (std::getline(lines, line)) {
    // hierarchy-id:controllers:path; the path itself may contain ':'.
    const auto first = line.find(':');
    const auto second = first == std::string::npos ? first : line.find(':', first + 1);
    if (second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1);
    const std::string path = line.substr(second + 1);
    std::istringstream names(controllers);
    std::string name;
    bool memory = false;
    while (std::getline(names, name, ',')) memory |= name == "memory";
    for (const auto& dir : up_to_root(path)) {
      if (controllers.empty()) {  // v2, mounted at the root or under unified/ (hybrid)
        for (const char* mount : {"", "/unified"})
          consider(root + mount + "/" + dir, "memory.max", "memory.current", best);
      } else if (memory) {
        consider(root + "/memory/" + dir, "memory.limit_in_bytes", "memory.usage_in_bytes", best);
      }
    }
  }
  return best;
}

std::optional<CgroupMemory> own_cgroup_memory() {
  if (const char* test_root = std::getenv("RIDGELINE_TEST_CGROUP_ROOT"))
    return cgroup_memory("0::/\n", test_root);
  std::ifstream in("/proc/self/cgroup");
  std::stringstream text;
  text << in.rdbuf();
  return cgroup_memory(text.str(), "/sys/fs/cgroup");
}

}  // namespace ridgeline
