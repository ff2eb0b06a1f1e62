// libridgeline-kp-tee.so: a Kokkos Tools library that loads two others and forwards every kernel
// and region callback to both, so that the connector and kokkos-tools' simple kernel timer time
// the same launches in one process (Kokkos 3.4 loads one tool; per-process kernel times on this
// VM swing ±15 % from run to run, more than the 5 % the two are to agree within).
//
//   RIDGELINE_KP_TEE="first.so;second.so"   the two tools; "first" begins first and ends last,
//                                           so its interval holds the second's callbacks
//
// scripts/kp-overhead --kernel-timer swaps the order every round, so neither tool's totals hold
// the other's callbacks in the median.
#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>

#include "connector/kokkosp_abi.hpp"

namespace {

using InitFn = void (*)(int, std::uint64_t, std::uint32_t, Kokkos_Profiling_KokkosPDeviceInfo*);
using VoidFn = void (*)();
using BeginFn = void (*)(const char*, std::uint32_t, std::uint64_t*);
using EndFn = void (*)(std::uint64_t);
using RegionFn = void (*)(const char*);
using MetadataFn = void (*)(const char*, const char*);
using SettingsFn = void (*)(std::uint32_t, Kokkos_Tools_ToolSettings*);

struct Tool {
  InitFn init = nullptr;
  VoidFn finalize = nullptr, pop_region = nullptr;
  BeginFn begin[3] = {};  // for, reduce, scan
  EndFn end[3] = {};
  RegionFn push_region = nullptr;
  MetadataFn metadata = nullptr;
  SettingsFn settings = nullptr;
};

template <class Fn>
Fn symbol(void* lib, const char* name) {
  return reinterpret_cast<Fn>(dlsym(lib, name));
}

Tool load(const std::string& path) {
  void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    std::fprintf(stderr, "ridgeline-kp-tee: %s: %s\n", path.c_str(), dlerror());
    std::exit(2);
  }
  Tool t;
  t.init = symbol<InitFn>(lib, "kokkosp_init_library");
  t.finalize = symbol<VoidFn>(lib, "kokkosp_finalize_library");
  const char* kinds[3] = {"for", "reduce", "scan"};
  for (int k = 0; k < 3; ++k) {
    t.begin[k] = symbol<BeginFn>(lib, ("kokkosp_begin_parallel_" + std::string(kinds[k])).c_str());
    t.end[k] = symbol<EndFn>(lib, ("kokkosp_end_parallel_" + std::string(kinds[k])).c_str());
  }
  t.push_region = symbol<RegionFn>(lib, "kokkosp_push_profile_region");
  t.pop_region = symbol<VoidFn>(lib, "kokkosp_pop_profile_region");
  t.metadata = symbol<MetadataFn>(lib, "kokkosp_declare_metadata");
  t.settings = symbol<SettingsFn>(lib, "kokkosp_request_tool_settings");
  return t;
}

Tool g_tools[2];
std::mutex g_ids_mutex;
std::uint64_t g_next_id = 0;
std::unordered_map<std::uint64_t, std::pair<std::uint64_t, std::uint64_t>> g_ids;

void begin(int kind, const char* name, std::uint32_t dev, std::uint64_t* id) {
  std::pair<std::uint64_t, std::uint64_t> inner{0, 0};
  if (g_tools[0].begin[kind]) g_tools[0].begin[kind](name, dev, &inner.first);
  if (g_tools[1].begin[kind]) g_tools[1].begin[kind](name, dev, &inner.second);
  std::lock_guard<std::mutex> lock(g_ids_mutex);
  *id = g_next_id++;
  g_ids.emplace(*id, inner);
}

void end(int kind, std::uint64_t id) {
  std::pair<std::uint64_t, std::uint64_t> inner;
  {
    std::lock_guard<std::mutex> lock(g_ids_mutex);
    const auto it = g_ids.find(id);
    if (it == g_ids.end()) return;
    inner = it->second;
    g_ids.erase(it);
  }
  if (g_tools[1].end[kind]) g_tools[1].end[kind](inner.second);
  if (g_tools[0].end[kind]) g_tools[0].end[kind](inner.first);
}

}  // namespace

extern "C" {
void kokkosp_init_library(const int load_seq, const std::uint64_t version, const std::uint32_t n,
                          Kokkos_Profiling_KokkosPDeviceInfo* info) {
  const char* env = std::getenv("RIDGELINE_KP_TEE");
  const std::string list = env ? env : "";
  const auto semicolon = list.find(';');
  if (semicolon == std::string::npos) {
    std::fprintf(stderr, "ridgeline-kp-tee: RIDGELINE_KP_TEE: want \"first.so;second.so\"\n");
    std::exit(2);
  }
  g_tools[0] = load(list.substr(0, semicolon));
  g_tools[1] = load(list.substr(semicolon + 1));
  for (Tool& t : g_tools)
    if (t.init) t.init(load_seq, version, n, info);
}
void kokkosp_finalize_library() {
  for (Tool& t : g_tools)
    if (t.finalize) t.finalize();
}
void kokkosp_request_tool_settings(const std::uint32_t n, Kokkos_Tools_ToolSettings* settings) {
  for (Tool& t : g_tools)
    if (t.settings) t.settings(n, settings);  // a tool asks for fencing: the other gets it too
}
void kokkosp_begin_parallel_for(const char* name, const std::uint32_t dev, std::uint64_t* id) {
  begin(0, name, dev, id);
}
void kokkosp_end_parallel_for(const std::uint64_t id) { end(0, id); }
void kokkosp_begin_parallel_reduce(const char* name, const std::uint32_t dev, std::uint64_t* id) {
  begin(1, name, dev, id);
}
void kokkosp_end_parallel_reduce(const std::uint64_t id) { end(1, id); }
void kokkosp_begin_parallel_scan(const char* name, const std::uint32_t dev, std::uint64_t* id) {
  begin(2, name, dev, id);
}
void kokkosp_end_parallel_scan(const std::uint64_t id) { end(2, id); }
void kokkosp_push_profile_region(const char* name) {
  for (Tool& t : g_tools)
    if (t.push_region) t.push_region(name);
}
void kokkosp_pop_profile_region() {
  for (Tool& t : g_tools)
    if (t.pop_region) t.pop_region();
}
void kokkosp_declare_metadata(const char* key, const char* value) {
  for (Tool& t : g_tools)
    if (t.metadata) t.metadata(key, value);
}
}
