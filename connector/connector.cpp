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
// RIDGELINE_KP_INTERVAL (seconds between periodic writes, default 5, at least 0.1; 0: at
// finalize only), RIDGELINE_KP_PAPI=1 (hardware counters through PAPI where the machine has them:
// papi_counters.hpp).
//
// The connector never ends the application: a bad environment value is one line at init and a
// default; a bad annotation is one line (the first) and a record in the kernels file; a file that
// cannot be written is one line per distinct reason, not one per periodic write.
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
#include "connector/thread_count.hpp"
#include "core/file_io.hpp"

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
  std::string last_write_error;  // said once; said again only when the reason changes
  bool said_bad_annotation = false;
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
  bool annotated = false;           // the application declared this launch's counts
  Counts counts;
};
// Kernels begun and not yet ended on this thread (Kokkos ends a kernel on the thread that
// began it).
thread_local std::vector<Running> t_running;

constexpr double kDefaultInterval = 5, kMinInterval = 0.1, kMaxInterval = 86400;

// A bad value is one line and the default, never an exit: the application's run comes first.
// Intervals below kMinInterval are raised to it (1e-300 would rewrite the file without pause).
double interval_from_env() {
  const char* text = std::getenv("RIDGELINE_KP_INTERVAL");
  if (!text || !*text) return kDefaultInterval;
  char* end = nullptr;
  const double v = std::strtod(text, &end);
  if (*end != '\0' || !(v >= 0) || v > kMaxInterval) {
    std::fprintf(stderr,
                 "ridgeline-kp: RIDGELINE_KP_INTERVAL: '%s' is not a number of seconds from 0 to "
                 "%g; using %g\n",
                 text, kMaxInterval, kDefaultInterval);
    return kDefaultInterval;
  }
  if (v > 0 && v < kMinInterval) {
    std::fprintf(stderr,
                 "ridgeline-kp: RIDGELINE_KP_INTERVAL: %s s is below the shortest interval; "
                 "using %g s (0 writes at finalize only)\n",
                 text, kMinInterval);
    return kMinInterval;
  }
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

// Returns false when the file cannot be written; the application keeps running: a periodic
// write may succeed later, and the tool must not end a run. The reason is one line on stderr the
// first time it occurs (a missing folder at init, say), not once per periodic write.
bool write_kernels_file(Session& s, bool complete) {
  std::lock_guard<std::mutex> lock(s.write_mutex);
  try {
    write_text_atomically(s.out_path, kernels_json(kernels_file(s.facts, s.table.snapshot(),
                                                                s.annotations, complete)));
    s.last_write_error.clear();
    return true;
  } catch (const std::exception& e) {
    if (s.last_write_error != e.what())
      std::fprintf(stderr, "ridgeline-kp: %s (no kernels file until this is fixed)\n", e.what());
    s.last_write_error = e.what();
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
  t_running.push_back({id, r, {}, std::move(counters), false, {}});
  if (g_session->annotations.any_counts())
    t_running.back().annotated = g_session->annotations.current(label, t_running.back().counts);
  t_running.back().start = Clock::now();  // the clock last: the lookup is not timed
}

void end_kernel(std::uint64_t kernel_id) {
  const Clock::time_point end = Clock::now();  // the clock first
  if (!g_session) return;
  for (auto it = t_running.rbegin(); it != t_running.rend(); ++it)
    if (it->id == kernel_id) {
      g_session->table.add_call(it->record, std::chrono::duration<double>(end - it->start).count(),
                                it->annotated ? &it->counts : nullptr);
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
  s->facts.threads = host_thread_count(s->facts.command);
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
  // A first write now: an output path that cannot be written is said at start, before the
  // application has spent its run (the file says complete: false until finalize).
  write_kernels_file(*s, false);
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
  if (g_session->annotations.declare(key, value, why)) return;
  // The first bad annotation is said; every one is in the kernels file (annotation_errors).
  std::lock_guard<std::mutex> lock(g_session->wake_mutex);
  if (g_session->said_bad_annotation) return;
  g_session->said_bad_annotation = true;
  std::fprintf(stderr, "ridgeline-kp: %s: %s (recorded in the kernels file; later ones too)\n", key,
               why.c_str());
}

}  // extern "C"
