#include "backends/host/cpu_info.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <utility>

#include "core/text.hpp"

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

// Leaf 4 and 0x8000001D share one layout: a subleaf per cache until type 0.
std::vector<CacheLevel> deterministic_caches(Cpuid cpuid, std::uint32_t leaf, int threads) {
  std::vector<CacheLevel> out;
  for (std::uint32_t sub = 0; sub < 16; ++sub) {
    const CpuidRegs r = cpuid(leaf, sub);
    const std::uint32_t type = r.eax & 0x1f;
    if (type == 0) break;
    CacheLevel c;
    c.level = int((r.eax >> 5) & 0x7);
    c.type = type == 1 ? "data" : type == 2 ? "instruction" : "unified";
    const std::uint64_t ways = (r.ebx >> 22) + 1, partitions = ((r.ebx >> 12) & 0x3ff) + 1,
                        line = (r.ebx & 0xfff) + 1, sets = std::uint64_t(r.ecx) + 1;
    c.size_bytes = ways * partitions * line * sets;
    // The most logical processors that may share it: on a VM the host's count, so at most the
    // threads this machine has.
    const int sharing = int((r.eax >> 14) & 0xfff) + 1;
    c.shared_by_threads = std::max(1, std::min(sharing, std::max(threads, 1)));
    c.instances =
        std::max(1, (std::max(threads, 1) + c.shared_by_threads - 1) / c.shared_by_threads);
    if (c.level > 0 && c.size_bytes > 0) out.push_back(c);
  }
  return out;
}

}  // namespace

CpuidRegs machine_cpuid(std::uint32_t leaf, std::uint32_t subleaf) {
  CpuidRegs r;
#if defined(__x86_64__) || defined(__i386__)
  // Leaves beyond the highest one the CPU reports answer with another leaf's data: ask first.
  const std::uint32_t max = __get_cpuid_max(leaf & 0x80000000u, nullptr);
  if (max >= leaf) __cpuid_count(leaf, subleaf, r.eax, r.ebx, r.ecx, r.edx);
#else
  (void)leaf, (void)subleaf;
#endif
  return r;
}

CpuidCaches cpuid_caches(Cpuid cpuid, int threads, int cores) {
  CpuidCaches out;
  const CpuidRegs vendor = cpuid(0, 0);
  const bool intel = vendor.ebx == 0x756e6547 && vendor.edx == 0x49656e69 &&
                     vendor.ecx == 0x6c65746e;  // GenuineIntel
  const bool amd = vendor.ebx == 0x68747541 && vendor.edx == 0x69746e65 &&
                   vendor.ecx == 0x444d4163;  // AuthenticAMD
  if (intel && vendor.eax >= 4) {
    out.caches = deterministic_caches(cpuid, 4, threads);
    out.source = "cpuid leaf 4";
    return out;
  }
  if (!amd) return out;
  const std::uint32_t max_ext = cpuid(0x80000000u, 0).eax;
  const bool topology = max_ext >= 0x8000001du && (cpuid(0x80000001u, 0).ecx >> 22 & 1);
  if (topology) {
    out.caches = deterministic_caches(cpuid, 0x8000001du, threads);
    out.source = "cpuid leaf 0x8000001d";
    if (!out.caches.empty()) return out;
  }
  if (max_ext < 0x80000006u) return out;
  // Legacy leaves describe one core's caches in KiB: L1d ECX[31:24], L1i EDX[31:24], L2
  // ECX[31:16]. Each core has its own: the threads of one core share it.
  const CpuidRegs l1 = cpuid(0x80000005u, 0), l2 = cpuid(0x80000006u, 0);
  const int copies = std::max(cores > 0 ? cores : threads, 1);
  const int per_core = std::max(1, std::max(threads, 1) / copies);
  auto add = [&](int level, const char* type, std::uint64_t kib) {
    if (kib) out.caches.push_back({level, type, kib << 10, per_core, copies});
  };
  add(1, "data", l1.ecx >> 24);
  add(1, "instruction", l1.edx >> 24);
  add(2, "unified", l2.ecx >> 16);
  out.source = "cpuid legacy AMD leaves";
  const std::uint64_t l3_kib = std::uint64_t(l2.edx >> 18) * 512;
  if (l3_kib)
    out.incomplete = "L3 left out: the legacy leaf 0x80000006 gives " +
                     std::to_string(l3_kib >> 10) +
                     " MiB without saying which threads share it (on a VM, often the host "
                     "package's), and no topology leaf tells";
  return out;
}

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
    c.type = lower_ascii(read_line(e.path() / "type"));
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

CpuDescription describe_cpu(const std::string& sysfs_cpu, const std::string& cpuinfo, Cpuid cpuid) {
  CpuDescription description;
  nlohmann::json& j = description.recorded;
  j["model"] = nullptr;
  j["mhz"] = nullptr;
  std::set<std::pair<std::string, std::string>> cores;  // (physical id, core id)
  int threads = 0;
  bool avx512 = false;
  std::optional<bool> hypervisor;  // x86's "hypervisor" flag; unknown where no flags line is listed
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
    if (key == "flags") hypervisor = (" " + value + " ").find(" hypervisor ") != std::string::npos;
  }
  j["threads"] = threads > 0 ? nlohmann::json(threads) : nlohmann::json(nullptr);
  j["cores"] = !cores.empty() ? nlohmann::json(cores.size()) : j["threads"];
  j["avx512"] = avx512;
  // Under a hypervisor the topology is the VM's: a vCPU may share its physical core (its L1 and
  // L2) with an SMT sibling of another tenant that no cache list shows.
  j["hypervisor"] = hypervisor ? nlohmann::json(*hypervisor) : nlohmann::json(nullptr);
  nlohmann::json caches = nlohmann::json::array();
  std::vector<CacheLevel> levels = cpu_caches(sysfs_cpu);
  if (levels.empty() && cpuid) {
    const CpuidCaches from_cpuid = cpuid_caches(cpuid, threads, int(cores.size()));
    levels = from_cpuid.caches;
    if (!levels.empty()) j["caches_source"] = from_cpuid.source;
    if (!from_cpuid.incomplete.empty()) {
      j["caches_incomplete"] = from_cpuid.incomplete;
      description.caches_incomplete = true;
    }
  }
  for (const auto& c : levels)
    caches.push_back({{"level", c.level},
                      {"type", c.type},
                      {"size_bytes", c.size_bytes},
                      {"shared_by_threads", c.shared_by_threads},
                      {"instances", c.instances}});
  j["caches"] = caches;
  const std::string gov = read_line(fs::path(sysfs_cpu) / "cpu0" / "cpufreq" / "scaling_governor");
  j["governor"] = gov.empty() ? nlohmann::json(nullptr) : nlohmann::json(gov);
  description.caches = std::move(levels);
  return description;
}

}  // namespace ridgeline::host
