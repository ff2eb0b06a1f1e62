#include "harness/context/context.hpp"

#include <fmt/format.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <Kokkos_Core.hpp>

#include <chrono>
#include <cstdint>
#include <ctime>
#include <fstream>
#include <optional>
#include <sstream>
#include <utility>

#include "backends/host/cpu_info.hpp"
#include "backends/host/host_clock.hpp"
#include "backends/spaces.hpp"
#include "core/profiles_root.hpp"
#include "core/units.hpp"
#include "harness/compat/kokkos_compat.hpp"
#include "harness/compat/kokkos_kernels_compat.hpp"
#include "harness/context/memory_limit.hpp"
#include "harness/mpi/cpu_binding.hpp"
#include "provenance.hpp"

namespace ridgeline {
namespace {

using nlohmann::json;

json env_or_null(const char* name) {
  const char* v = std::getenv(name);
  return v ? json(v) : json(nullptr);
}

// available_bytes is what the planner may use: MemAvailable, or less where a memory cgroup
// (a container's limit) leaves less; also set in `available_bytes` (0: unknown).
json meminfo(std::uint64_t& available_bytes) {
  std::ifstream in("/proc/meminfo");
  std::string key;
  long long kb = 0;
  std::string unit;
  json j = {{"total_bytes", nullptr},
            {"available_bytes", nullptr},
            {"cgroup_limit_bytes", nullptr},
            {"cgroup_available_bytes", nullptr}};
  while (in >> key >> kb) {
    std::getline(in, unit);
    if (key == "MemTotal:") j["total_bytes"] = kb * 1024;
    if (key == "MemAvailable:") {
      j["available_bytes"] = kb * 1024;
      available_bytes = static_cast<std::uint64_t>(kb) * 1024;
    }
  }
  if (const auto cg = own_cgroup_memory()) {
    j["cgroup_limit_bytes"] = cg->limit_bytes;
    j["cgroup_available_bytes"] = cg->available_bytes;
    if (j["available_bytes"].is_null() ||
        cg->available_bytes < j["available_bytes"].get<double>()) {
      j["available_bytes"] = cg->available_bytes;
      available_bytes = cg->available_bytes;
    }
  }
  return j;
}

// The capacities in a backend's description of its GPU (backends/cuda/cuda_info.hpp,
// backends/hip/hip_info.hpp): the GPU backends describe their device as JSON alone, so these are
// taken from that description here, where it is made, and nowhere downstream.
std::optional<DeviceCapacities> capacities_in(const json& device) {
  if (!device.is_object()) return std::nullopt;
  const auto bytes = [&device](const char* key) -> std::uint64_t {
    const auto it = device.find(key);
    return it != device.end() && it->is_number() && it->get<double>() > 0
               ? static_cast<std::uint64_t>(it->get<double>())
               : 0;
  };
  DeviceCapacities c{
      bytes("memory_bytes"), bytes("l1_per_unit_bytes"), bytes("l2_bytes"), bytes("llc_bytes"), {}};
  c.residency.compute_units = int(bytes("compute_units"));
  c.residency.shared_per_unit_bytes = bytes("shared_per_unit_bytes");
  c.residency.reserved_shared_per_block_bytes = bytes("reserved_shared_per_block_bytes");
  c.residency.max_threads_per_unit = int(bytes("max_threads_per_unit"));
  c.residency.max_blocks_per_unit = int(bytes("max_blocks_per_unit"));
  return c;
}

std::string bytes_text(double b) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (b >= 1024 && u < 4) {
    b /= 1024;
    ++u;
  }
  return format_sig(b) + " " + units[u];
}

// A toolkit field as info prints it: the text, a number as recorded, or "unknown" (null).
std::string shown_or_unknown(const json& t, const char* key) {
  const json v = t.value(key, json(nullptr));
  return v.is_string() ? v.get<std::string>() : v.is_null() ? "unknown" : v.dump();
}

}  // namespace

std::string version_line() {
  return fmt::format("ridgeline {} (git {}), Kokkos {}, Google Benchmark {}", RIDGELINE_VERSION,
                     RIDGELINE_GIT_REVISION, compat::kokkos_version(), RIDGELINE_BENCHMARK_VERSION);
}

MachineContext machine_context() {
  MachineContext context;
  json& j = context.recorded;
  MachineFacts& facts = context.facts;
  j["ridgeline"] = {{"version", RIDGELINE_VERSION}, {"git_revision", RIDGELINE_GIT_REVISION}};
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  utsname u{};
  uname(&u);
  j["host"] = {{"hostname", host},
               {"os", fmt::format("{} {} {}", u.sysname, u.release, u.machine)}};
  j["build"] = {{"compiler", RIDGELINE_COMPILER},
                {"flags", RIDGELINE_CXX_FLAGS},
                {"build_type", RIDGELINE_BUILD_TYPE},
                {"native_arch", RIDGELINE_NATIVE_ARCH_ON != 0}};
  // Device code goes through the vendor compiler; its version matters as much as the host's.
#if defined(KOKKOS_ENABLE_CUDA) && defined(CUDART_VERSION)
  j["build"]["cuda_runtime"] =
      fmt::format("{}.{}", CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10);
#endif
#if defined(KOKKOS_ENABLE_HIP) && defined(HIP_VERSION_MAJOR)
  j["build"]["hip_runtime"] = fmt::format("{}.{}", HIP_VERSION_MAJOR, HIP_VERSION_MINOR);
#endif
  json backends = json::array();
  for_each_space([&](auto* s) { backends.push_back(std::decay_t<decltype(*s)>::name()); });
  std::ostringstream config;
  Kokkos::print_configuration(config, false);
  j["kokkos"] = {{"version", compat::kokkos_version()},
                 {"backends", backends},
                 {"kokkos_kernels", compat::kokkos_kernels_version()},
                 {"configuration", config.str()}};
  host::CpuDescription cpu = host::describe_cpu();
  j["cpu"] = std::move(cpu.recorded);
  // The CPUs this process owns (an MPI rank's share), as main() found them before the OpenMP
  // runtime pinned the main thread.
  host::record_measured_clock(j["cpu"], allowed_cpus());
  facts.cpu_caches = std::move(cpu.caches);
  facts.cpu_caches_incomplete = cpu.caches_incomplete;
  j["memory"] = meminfo(facts.available_memory_bytes);
  json spaces = json::array();
  for_each_space([&](auto* s) {
    using Space = std::decay_t<decltype(*s)>;
    spaces.push_back(describe_space<Space>());
    facts.spaces.push_back({Space::name(), capacities_in(spaces.back()["device"])});
  });
  j["spaces"] = spaces;
  const ProfilesRoot profiles = find_profiles_root();
  j["profiles"] = {{"path", profiles.path.empty() ? json(nullptr) : json(profiles.path)},
                   {"found_by", profiles.path.empty() ? json(nullptr) : json(profiles.how)}};
  return context;
}

MachineContext run_context(const std::vector<std::string>& benchmark_args) {
  MachineContext context = machine_context();
  json& j = context.recorded;
  const auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  j["run"] = {{"start_time", stamp},
              {"google_benchmark", RIDGELINE_BENCHMARK_VERSION},
              {"omp_proc_bind", env_or_null("OMP_PROC_BIND")},
              {"omp_places", env_or_null("OMP_PLACES")},
              {"omp_num_threads", env_or_null("OMP_NUM_THREADS")},
              {"governor", j["cpu"]["governor"]},
              {"benchmark_args", benchmark_args}};
  return context;
}

std::string format_context(const json& c) {
  std::string s;
  s += fmt::format("ridgeline {} ({})\n", c["ridgeline"]["version"].get<std::string>(),
                   c["ridgeline"]["git_revision"].get<std::string>());
  std::string backends;
  for (const auto& b : c["kokkos"]["backends"])
    backends += (backends.empty() ? "" : ", ") + b.get<std::string>();
  s += fmt::format("Kokkos {} [{}], Kokkos Kernels {}\n", c["kokkos"]["version"].get<std::string>(),
                   backends, c["kokkos"]["kokkos_kernels"].get<std::string>());
  s += fmt::format("Compiler: {} ({}), flags: {}\n", c["build"]["compiler"].get<std::string>(),
                   c["build"]["build_type"].get<std::string>(),
                   c["build"]["flags"].get<std::string>());
  s += fmt::format("Host: {} ({})\n", c["host"]["hostname"].get<std::string>(),
                   c["host"]["os"].get<std::string>());
  const json& cpu = c["cpu"];
  s += fmt::format("CPU: {}, {} cores / {} threads{}\n",
                   cpu["model"].is_null() ? "unknown" : cpu["model"].get<std::string>(),
                   cpu["cores"].dump(), cpu["threads"].dump(),
                   cpu["avx512"].get<bool>() ? ", AVX-512" : "");
  for (const auto& cache : cpu["caches"])
    s +=
        fmt::format("  L{} {:<11} {:>9}  shared by {} thread(s)\n", cache["level"].get<int>(),
                    cache["type"].get<std::string>(), bytes_text(cache["size_bytes"].get<double>()),
                    cache["shared_by_threads"].get<int>());
  if (cpu.contains("measured_clock") && cpu["measured_clock"].is_object())
    s += fmt::format("  clock {:.0f} MHz measured (threads {:.0f}-{:.0f} MHz)\n",
                     cpu["measured_clock"]["mhz"].get<double>(),
                     cpu["measured_clock"]["low_mhz"].get<double>(),
                     cpu["measured_clock"]["high_mhz"].get<double>());
  else if (cpu.contains("measured_clock_unavailable"))
    s += "  clock not measured: " + cpu["measured_clock_unavailable"].get<std::string>() + "\n";
  if (cpu.contains("caches_source"))
    s += fmt::format("  (caches from {}{})\n", cpu["caches_source"].get<std::string>(),
                     cpu.contains("caches_incomplete")
                         ? "; " + cpu["caches_incomplete"].get<std::string>()
                         : std::string());
  if (!c["memory"]["total_bytes"].is_null())
    s += fmt::format("Memory: {} total, {} available{}\n",
                     bytes_text(c["memory"]["total_bytes"].get<double>()),
                     bytes_text(c["memory"]["available_bytes"].get<double>()),
                     c["memory"]["cgroup_limit_bytes"].is_null()
                         ? ""
                         : " (cgroup limit " +
                               bytes_text(c["memory"]["cgroup_limit_bytes"].get<double>()) + ")");
  const json& profiles = c["profiles"];
  if (profiles.is_object() && profiles["path"].is_string())
    s += fmt::format("Profiles: {} ({})\n", profiles["path"].get<std::string>(),
                     profiles["found_by"].get<std::string>());
  else
    s +=
        "Profiles: none found (set RIDGELINE_PROFILES to a folder holding sweeps/ and machines/)\n";
  s += "Execution spaces:\n";
  for (const auto& sp : c["spaces"]) {
    s += fmt::format("  {:<8} {:<6} concurrency {}\n", sp["name"].get<std::string>(),
                     sp["kind"].get<std::string>(), sp["concurrency"].dump());
    const json& d = sp["device"];
    if (d.is_object()) {
      s += fmt::format("           {}: {}", d.value("name", "?"), d.value("arch", "?"));
      for (const char* key : {"compute_units", "warp_size"})
        if (d.contains(key) && !d[key].is_null()) s += fmt::format(", {} {}", key, d[key].dump());
      for (const char* key : {"memory_bytes", "l2_bytes"})
        if (d.contains(key) && !d[key].is_null())
          s += fmt::format(", {} {}", key, bytes_text(d[key].get<double>()));
      for (const char* key : {"sm_clock_mhz", "mem_clock_mhz"})
        if (d.contains(key) && !d[key].is_null()) s += fmt::format(", {} {}", key, d[key].dump());
      s += "\n";
      // The toolkit the binary was built for beside the runtime and driver it found.
      const json t = d.value("toolkit", json(nullptr));
      if (t.is_object() && t.value("built_for", json(nullptr)).is_string())
        s += fmt::format("           built for {}; runtime {}, driver {}\n",
                         t["built_for"].get<std::string>(), shown_or_unknown(t, "runtime"),
                         shown_or_unknown(t, "driver"));
    }
  }
  return s;
}

}  // namespace ridgeline
