// libridgeline-kp.so: the Kokkos Tools entry points. Loaded by Kokkos (KOKKOS_TOOLS_LIBS in 4.x,
// KOKKOS_PROFILE_LIBRARY or --kokkos-tools-library in 3.4.01), never linked by the application,
// and it links no Kokkos itself.
//
// Timing is fenced: kokkosp_request_tool_settings asks for global fencing, and Kokkos then fences
// every execution space before it calls begin_parallel_* and again before end_parallel_*
// (Kokkos_Profiling.cpp, invoke_kokkosp_callback with MayRequireGlobalFencing::Yes). Kokkos
// 3.4.01 has the tool settings too (interface 20210225) and fences by default; the file records
// whether fencing was granted, and without it a kernel's time is only its launch on an
// asynchronous space.
//
// Environment: RIDGELINE_KP_OUT (the kernels file; default ridgeline-kernels-<pid>.json),
// RIDGELINE_KP_INTERVAL (seconds between periodic writes, default 5; 0: at finalize only),
// RIDGELINE_KP_PAPI=1 (hardware counters through PAPI where the machine has them:
// papi_counters.hpp).
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "connector/annotations.hpp"
#include "connector/kernel_table.hpp"
#include "connector/kernels_file.hpp"
#include "connector/kokkosp_abi.hpp"
#include "connector/papi_counters.hpp"
#include "core/file_io.hpp"
#include "core/input_error.hpp"

namespace ridgeline::kp {
namespace {

using Clock = std::chrono::steady_clock;

struct Session {
  SessionFacts facts;
  std::string out_path;
  double interval_s = 5;
  KernelTable table;
  Annotations annotations;
  std::mutex write_mutex;  // the periodic writer and finalize never write at once
  std::mutex wake_mutex;
  std::condition_variable wake;
  bool stopping = false;
  std::thread writer;
  // PAPI's event set counts the thread that started it: kernels of the Serial space launched
  // from that thread (where all of their work runs) are counted, nothing else.
  std::unique_ptr<PapiCounters> papi;
  std::thread::id papi_thread;
};

// Heap-allocated and only deleted at finalize: an application that exits without
// Kokkos::finalize must not run a joinable std::thread's destructor (std::terminate).
Session* g_session = nullptr;
std::atomic<std::uint64_t> g_next_kernel_id{1};

struct Running {
  std::uint64_t id;
  KernelRecord* record;
  Clock::time_point start;
  std::vector<long long> counters;  // at begin; empty when the kernel is not counted
};
// Kernels begun and not yet ended on this thread (Kokkos ends a kernel on the thread that
// began it).
thread_local std::vector<Running> t_running;

[[noreturn]] void bad_input(const std::string& field, const std::string& what) {
  std::fprintf(stderr, "ridgeline-kp: %s\n", InputError("", field, what).what());
  std::exit(kExitBadInput);
}

double interval_from_env() {
  const char* text = std::getenv("RIDGELINE_KP_INTERVAL");
  if (!text || !*text) return 5;
  char* end = nullptr;
  const double v = std::strtod(text, &end);
  if (*end != '\0' || !(v >= 0) || v > 86400)
    bad_input("RIDGELINE_KP_INTERVAL",
              std::string("'") + text + "' is not a number of seconds from 0 to 86400");
  return v;
}

std::string command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!raw.empty() && raw.back() == '\0') raw.pop_back();
  for (char& c : raw)
    if (c == '\0') c = ' ';
  return raw;
}

// Returns false (after one line on stderr) when the file cannot be written; the application
// keeps running: a periodic write may succeed later, and the tool must not end a run.
bool write_kernels_file(Session& s, bool complete) {
  std::lock_guard<std::mutex> lock(s.write_mutex);
  try {
    write_text_atomically(s.out_path,
                          kernels_json(s.facts, s.table.snapshot(), s.annotations, complete));
    return true;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ridgeline-kp: %s\n", e.what());
    return false;
  }
}

void periodic_writes(Session* s) {
  std::unique_lock<std::mutex> lock(s->wake_mutex);
  while (!s->stopping) {
    s->wake.wait_for(lock, std::chrono::duration<double>(s->interval_s));
    if (s->stopping) break;
    lock.unlock();
    write_kernels_file(*s, false);
    lock.lock();
  }
}

void begin_kernel(const char* label, std::uint32_t dev_id, std::uint64_t* kernel_id,
                  KernelKind kind) {
  if (!g_session) return;
  KernelRecord* r = g_session->table.find_or_add(label, dev_id, kind);
  const std::uint64_t id = g_next_kernel_id.fetch_add(1, std::memory_order_relaxed);
  *kernel_id = id;
  std::vector<long long> counters;
  constexpr std::uint32_t kSerialType = 0;  // the devID's top 8 bits (device_id.hpp)
  if (g_session->papi && (dev_id >> 24) == kSerialType &&
      std::this_thread::get_id() == g_session->papi_thread)
    if (!g_session->papi->read(counters)) counters.clear();
  t_running.push_back({id, r, {}, std::move(counters)});
  t_running.back().start = Clock::now();  // the clock last: the lookup is not timed
}

void end_kernel(std::uint64_t kernel_id) {
  const Clock::time_point end = Clock::now();  // the clock first
  if (!g_session) return;
  for (auto it = t_running.rbegin(); it != t_running.rend(); ++it)
    if (it->id == kernel_id) {
      g_session->table.add_call(it->record, std::chrono::duration<double>(end - it->start).count());
      std::vector<long long> now;
      if (!it->counters.empty() && g_session->papi->read(now)) {
        for (std::size_t i = 0; i < now.size(); ++i) now[i] -= it->counters[i];
        g_session->table.add_counts(it->record, now);
      }
      t_running.erase(std::next(it).base());
      return;
    }
}

}  // namespace
}  // namespace ridgeline::kp

using namespace ridgeline::kp;

extern "C" {

void kokkosp_init_library(const int /*load_seq*/, const std::uint64_t interface_version,
                          const std::uint32_t /*device_info_count*/,
                          Kokkos_Profiling_KokkosPDeviceInfo* /*device_info*/) {
  if (g_session) return;
  auto* s = new Session;
  s->facts.interface_version = interface_version;
  s->facts.pid = static_cast<long long>(::getpid());
  s->facts.command = command_line();
  s->facts.started_utc = utc_timestamp();
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) == 0) s->facts.hostname = host;
  const char* out = std::getenv("RIDGELINE_KP_OUT");
  s->out_path = out && *out ? out : "ridgeline-kernels-" + std::to_string(s->facts.pid) + ".json";
  s->interval_s = interval_from_env();
  if (const char* papi = std::getenv("RIDGELINE_KP_PAPI"); papi && std::string(papi) == "1") {
    s->facts.papi_requested = true;
    s->papi = PapiCounters::open(s->facts.papi_error);
    s->papi_thread = std::this_thread::get_id();
    if (s->papi) {
      s->facts.papi_available = true;
      s->facts.papi_events = s->papi->events();
    } else {
      std::fprintf(stderr, "ridgeline-kp: no hardware counters: %s\n", s->facts.papi_error.c_str());
    }
  }
  g_session = s;
  if (s->interval_s > 0) s->writer = std::thread(periodic_writes, s);
}

void kokkosp_request_tool_settings(const std::uint32_t /*num_settings*/,
                                   Kokkos_Tools_ToolSettings* settings) {
  settings->requires_global_fencing = true;
  if (g_session) g_session->facts.global_fencing = true;
}

void kokkosp_finalize_library() {
  Session* s = g_session;
  if (!s) return;
  {
    std::lock_guard<std::mutex> lock(s->wake_mutex);
    s->stopping = true;
  }
  s->wake.notify_all();
  if (s->writer.joinable()) s->writer.join();
  if (write_kernels_file(*s, true))
    std::fprintf(stderr, "ridgeline-kp: wrote %s\n", s->out_path.c_str());
  g_session = nullptr;
  delete s;
}

void kokkosp_begin_parallel_for(const char* name, const std::uint32_t dev_id,
                                std::uint64_t* kernel_id) {
  begin_kernel(name, dev_id, kernel_id, KernelKind::parallel_for);
}
void kokkosp_end_parallel_for(const std::uint64_t kernel_id) { end_kernel(kernel_id); }

void kokkosp_begin_parallel_reduce(const char* name, const std::uint32_t dev_id,
                                   std::uint64_t* kernel_id) {
  begin_kernel(name, dev_id, kernel_id, KernelKind::parallel_reduce);
}
void kokkosp_end_parallel_reduce(const std::uint64_t kernel_id) { end_kernel(kernel_id); }

void kokkosp_begin_parallel_scan(const char* name, const std::uint32_t dev_id,
                                 std::uint64_t* kernel_id) {
  begin_kernel(name, dev_id, kernel_id, KernelKind::parallel_scan);
}
void kokkosp_end_parallel_scan(const std::uint64_t kernel_id) { end_kernel(kernel_id); }

void kokkosp_push_profile_region(const char* name) {
  if (g_session) g_session->table.push_region(name);
}
void kokkosp_pop_profile_region() {
  if (g_session) g_session->table.pop_region();
}

void kokkosp_declare_metadata(const char* key, const char* value) {
  if (!g_session) return;
  std::string why;
  if (!g_session->annotations.declare(key, value, why)) bad_input(key, why);
}

}  // extern "C"
