#include "host/cpu_info.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace ridgeline::host {
namespace {

namespace fs = std::filesystem;

std::string read_line(const fs::path& p) {
  std::ifstream in(p);
  std::string s;
  std::getline(in, s);
  return s;
}

// "0-3,8" -> 5 CPUs.
int count_cpu_list(const std::string& list) {
  int n = 0;
  std::stringstream ss(list);
  std::string part;
  while (std::getline(ss, part, ',')) {
    const auto dash = part.find('-');
    if (part.empty()) continue;
    if (dash == std::string::npos) {
      ++n;
    } else {
      n += std::stoi(part.substr(dash + 1)) - std::stoi(part.substr(0, dash)) + 1;
    }
  }
  return n;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

// Distinct shared_cpu_list values of cache `index` over every cpuN: how many copies exist.
int count_instances(const fs::path& sysfs_cpu, const std::string& index) {
  std::set<std::string> lists;
  std::error_code ec;
  for (const auto& cpu : fs::directory_iterator(sysfs_cpu, ec)) {
    const std::string name = cpu.path().filename().string();
    if (name.size() < 4 || name.rfind("cpu", 0) != 0 ||
        !std::all_of(name.begin() + 3, name.end(), [](unsigned char c) { return std::isdigit(c); }))
      continue;
    const std::string list = read_line(cpu.path() / "cache" / index / "shared_cpu_list");
    if (!list.empty()) lists.insert(list);
  }
  return std::max<int>(1, static_cast<int>(lists.size()));
}

}  // namespace

std::uint64_t parse_cache_size(const std::string& text) {
  std::size_t pos = 0;
  std::uint64_t v = 0;
  try {
    v = std::stoull(text, &pos);
  } catch (...) {
    return 0;
  }
  const char unit = pos < text.size() ? text[pos] : ' ';
  if (unit == 'K') return v << 10;
  if (unit == 'M') return v << 20;
  if (unit == 'G') return v << 30;
  return v;
}

std::vector<CacheLevel> cpu_caches(const std::string& sysfs_cpu) {
  std::vector<CacheLevel> out;
  const fs::path dir = fs::path(sysfs_cpu) / "cpu0" / "cache";
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string index = e.path().filename().string();
    if (index.rfind("index", 0) != 0) continue;
    CacheLevel c;
    try {
      c.level = std::stoi(read_line(e.path() / "level"));
    } catch (...) {
      continue;
    }
    c.type = lower(read_line(e.path() / "type"));
    c.size_bytes = parse_cache_size(read_line(e.path() / "size"));
    const std::string shared = read_line(e.path() / "shared_cpu_list");
    c.shared_by_threads = shared.empty() ? 1 : count_cpu_list(shared);
    c.instances = count_instances(sysfs_cpu, index);
    if (c.size_bytes > 0) out.push_back(c);
  }
  std::sort(out.begin(), out.end(), [](const CacheLevel& a, const CacheLevel& b) {
    return a.level != b.level ? a.level < b.level : a.type < b.type;
  });
  return out;
}

std::uint64_t last_level_cache_bytes(const std::vector<CacheLevel>& caches) {
  std::uint64_t llc = 0;
  int level = 0;
  for (const auto& c : caches)
    if (c.type != "instruction" && c.level >= level) {
      level = c.level;
      llc = c.size_bytes;
    }
  return llc;
}

std::uint64_t machine_last_level_cache_bytes(const std::vector<CacheLevel>& caches) {
  std::uint64_t llc = 0;
  int level = 0;
  for (const auto& c : caches)
    if (c.type != "instruction" && c.level >= level) {
      level = c.level;
      llc = c.size_bytes * static_cast<std::uint64_t>(std::max(1, c.instances));
    }
  return llc;
}

nlohmann::json describe_cpu(const std::string& sysfs_cpu, const std::string& cpuinfo) {
  nlohmann::json j;
  j["model"] = nullptr;
  j["mhz"] = nullptr;
  std::set<std::pair<std::string, std::string>> cores;  // (physical id, core id)
  int threads = 0;
  bool avx512 = false;
  std::ifstream in(cpuinfo);
  std::string line, physical;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = line.substr(0, colon);
    key.erase(key.find_last_not_of(" \t") + 1);
    const std::string value = colon + 2 <= line.size() ? line.substr(colon + 2) : "";
    if (key == "processor") ++threads;
    if (key == "model name" && j["model"].is_null()) j["model"] = value;
    if (key == "cpu MHz" && j["mhz"].is_null()) j["mhz"] = std::atof(value.c_str());
    if (key == "physical id") physical = value;
    if (key == "core id") cores.insert({physical, value});
    if (key == "flags" && value.find("avx512f") != std::string::npos) avx512 = true;
  }
  j["threads"] = threads > 0 ? nlohmann::json(threads) : nlohmann::json(nullptr);
  j["cores"] = !cores.empty() ? nlohmann::json(cores.size()) : j["threads"];
  j["avx512"] = avx512;
  nlohmann::json caches = nlohmann::json::array();
  for (const auto& c : cpu_caches(sysfs_cpu))
    caches.push_back({{"level", c.level},
                      {"type", c.type},
                      {"size_bytes", c.size_bytes},
                      {"shared_by_threads", c.shared_by_threads},
                      {"instances", c.instances}});
  j["caches"] = caches;
  const std::string gov = read_line(fs::path(sysfs_cpu) / "cpu0" / "cpufreq" / "scaling_governor");
  j["governor"] = gov.empty() ? nlohmann::json(nullptr) : nlohmann::json(gov);
  return j;
}

}  // namespace ridgeline::host
