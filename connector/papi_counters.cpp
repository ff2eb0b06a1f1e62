#include "connector/papi_counters.hpp"

#include <dlfcn.h>

namespace ridgeline::kp {
namespace {

// From PAPI 7.0.0's papi.h.
constexpr int kPapiOk = 0;
constexpr int kPapiNull = -1;
constexpr int kPapiVerCurrent = 0x07000000;  // PAPI_VERSION_NUMBER(7,0,0,0) & 0xffff0000

constexpr const char* kEvents[] = {"PAPI_DP_OPS", "PAPI_SP_OPS", "PAPI_L3_TCM"};

}  // namespace

struct PapiCounters::Api {
  void* handle = nullptr;
  int (*library_init)(int) = nullptr;
  const char* (*strerror)(int) = nullptr;
  int (*create_eventset)(int*) = nullptr;
  int (*add_named_event)(int, const char*) = nullptr;
  int (*start)(int) = nullptr;
  int (*stop)(int, long long*) = nullptr;
  int (*read)(int, long long*) = nullptr;
  int (*cleanup_eventset)(int) = nullptr;
  int (*destroy_eventset)(int*) = nullptr;

  std::string error(const char* call, int code) const {
    const char* s = strerror ? strerror(code) : nullptr;
    return std::string(call) + ": " + (s ? s : "error " + std::to_string(code));
  }
};

namespace {

template <class F>
bool bind(void* handle, const char* name, F& into) {
  into = reinterpret_cast<F>(dlsym(handle, name));
  return into != nullptr;
}

}  // namespace

std::unique_ptr<PapiCounters> PapiCounters::open(std::string& why) {
  auto api = std::make_unique<Api>();
  for (const char* name : {"libpapi.so.7.0", "libpapi.so.7", "libpapi.so"})
    if ((api->handle = dlopen(name, RTLD_NOW | RTLD_LOCAL))) break;
  if (!api->handle) {
    const char* e = dlerror();
    why =
        std::string("cannot load libpapi (libpapi.so.7.0, libpapi.so.7): ") + (e ? e : "not found");
    return nullptr;
  }
  Api& a = *api;
  if (!bind(a.handle, "PAPI_library_init", a.library_init) ||
      !bind(a.handle, "PAPI_strerror", a.strerror) ||
      !bind(a.handle, "PAPI_create_eventset", a.create_eventset) ||
      !bind(a.handle, "PAPI_add_named_event", a.add_named_event) ||
      !bind(a.handle, "PAPI_start", a.start) || !bind(a.handle, "PAPI_stop", a.stop) ||
      !bind(a.handle, "PAPI_read", a.read) ||
      !bind(a.handle, "PAPI_cleanup_eventset", a.cleanup_eventset) ||
      !bind(a.handle, "PAPI_destroy_eventset", a.destroy_eventset)) {
    why = "libpapi.so.7 lacks a PAPI 7 entry point";
    dlclose(a.handle);
    return nullptr;
  }
  const int version = a.library_init(kPapiVerCurrent);
  if (version != kPapiVerCurrent) {
    why = version < 0 ? a.error("PAPI_library_init", version)
                      : "PAPI_library_init: version " + std::to_string(version) +
                            " is not the PAPI 7.0 this connector declares";
    dlclose(a.handle);
    return nullptr;
  }
  std::unique_ptr<PapiCounters> c(new PapiCounters);
  int set = kPapiNull;
  if (const int rc = a.create_eventset(&set); rc != kPapiOk) {
    why = a.error("PAPI_create_eventset", rc);
    return nullptr;
  }
  std::string refused;
  for (const char* event : kEvents) {
    if (const int rc = a.add_named_event(set, event); rc == kPapiOk)
      c->events_.push_back(event);
    else
      refused += (refused.empty() ? "" : "; ") + a.error(event, rc);
  }
  if (c->events_.empty()) {
    why = "no event could be counted (" + refused + ")";
    a.destroy_eventset(&set);
    return nullptr;
  }
  if (const int rc = a.start(set); rc != kPapiOk) {
    why = a.error("PAPI_start", rc);
    a.cleanup_eventset(set);
    a.destroy_eventset(&set);
    return nullptr;
  }
  c->event_set_ = set;
  c->api_ = std::move(api);
  return c;
}

PapiCounters::~PapiCounters() {
  if (!api_) return;
  std::vector<long long> last(events_.size());
  api_->stop(event_set_, last.data());
  api_->cleanup_eventset(event_set_);
  api_->destroy_eventset(&event_set_);
  // libpapi stays loaded: PAPI keeps thread hooks installed until the process ends.
}

bool PapiCounters::read(std::vector<long long>& values) const {
  values.assign(events_.size(), 0);
  return api_->read(event_set_, values.data()) == kPapiOk;
}

}  // namespace ridgeline::kp
