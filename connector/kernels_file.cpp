#include "connector/kernels_file.hpp"

#include <algorithm>
#include <ctime>
#include <optional>
#include <set>

#include "connector/device_id.hpp"

namespace ridgeline::kp {
namespace {

// The q-quantile of sorted values, interpolated between neighbours.
double quantile(const std::vector<double>& sorted, double q) {
  const double at = q * double(sorted.size() - 1);
  const std::size_t lo = std::size_t(at);
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (at - double(lo)) * (sorted[hi] - sorted[lo]);
}

// A kernel's counts from PAPI's events (papi_counters.hpp): FLOP of the dtype with more
// operations, bytes as 64-byte lines from memory (PAPI_L3_TCM); none without both.
std::optional<KernelCounts> papi_counts(const KernelRecord& r,
                                        const std::vector<std::string>& events) {
  long long dp = -1, sp = -1, lines = -1;
  for (std::size_t i = 0; i < events.size() && i < r.counter_totals.size(); ++i) {
    if (events[i] == "PAPI_DP_OPS") dp = r.counter_totals[i];
    if (events[i] == "PAPI_SP_OPS") sp = r.counter_totals[i];
    if (events[i] == "PAPI_L3_TCM") lines = r.counter_totals[i];
  }
  if (r.counted_calls == 0 || lines < 0 || (dp < 0 && sp < 0)) return std::nullopt;
  const bool fp64 = dp >= sp;
  const double n = double(r.counted_calls);
  KernelCounts c;
  c.flop_per_call = double(fp64 ? dp : sp) / n;
  c.bytes_per_call = 64.0 * double(lines) / n;
  c.dtype = fp64 ? "fp64" : "fp32";
  c.source = "papi";
  c.note = "PAPI_L3_TCM x 64 byte: lines read from memory, write-backs not counted; over " +
           std::to_string(r.counted_calls) + " calls";
  return c;
}

// Kokkos 3.x (interface 20210225 and before) launches a View's initialisation with devID 0 in
// whatever space the View lives (Kokkos_ViewMapping.hpp: beginParallelFor(..., 0, ...)); 4.x
// passes the space's own devID. 0 would read as Serial: say the space is not known instead.
bool space_unspecified(const KernelRecord& r, std::uint64_t interface_version) {
  static const std::string kViewInit = "Kokkos::View::initialization";
  return interface_version <= kLastInterfaceWithoutDeviceBits && r.dev_id == 0 &&
         r.label.compare(0, kViewInit.size(), kViewInit) == 0;
}

// The declared counts of a kernel: per call (the first call's exactly when every call carried
// the same, else the mean), over how many calls and their seconds, so that a reader divides sums
// by sums.
KernelCounts annotated_counts(const KernelRecord& r, const std::string& dtype) {
  const double n = double(r.annotated_calls);
  KernelCounts c;
  c.flop_per_call = r.counts_varied ? r.flop_total / n : r.first_flop;
  c.bytes_per_call = r.counts_varied ? r.bytes_total / n : r.first_bytes;
  c.dtype = dtype;
  c.source = "annotation";
  c.counted_calls = r.annotated_calls;
  c.counted_seconds = r.annotated_s;
  c.varied = r.counts_varied;
  return c;
}

}  // namespace

std::string utc_timestamp() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

KernelsFile kernels_file(const SessionFacts& facts, const std::vector<KernelRecord>& kernels,
                         const Annotations& annotations, bool complete) {
  const auto counts = annotations.counts();
  KernelsFile f;
  f.complete = complete;
  f.tool_name = "libridgeline-kp";
  f.tool_version = RIDGELINE_KP_VERSION;
  f.hostname = facts.hostname;
  f.pid = facts.pid;
  f.command = facts.command;
  f.host_threads = facts.threads.count;
  f.host_threads_from = facts.threads.from;
  f.started_utc = facts.started_utc;
  f.written_utc = utc_timestamp();
  f.interface_version = facts.interface_version;
  f.global_fencing = facts.global_fencing;
  f.metadata = annotations.metadata();
  if (facts.papi_requested)
    f.papi = PapiState{facts.papi_available,
                       facts.papi_available ? std::string() : facts.papi_error,
                       facts.papi_events,
                       {"Serial"}};
  std::set<std::string> ran;
  for (const KernelRecord& r : kernels) {
    if (r.calls == 0) continue;  // began but never ended (still running at a periodic write)
    if (r.annotated_calls > 0) ran.insert(r.label);  // a declaration after every launch: unused
    std::vector<double> sorted = r.kept_s;
    std::sort(sorted.begin(), sorted.end());
    ExecutionPlace where = decode_device_id(r.dev_id, facts.interface_version);
    if (space_unspecified(r, facts.interface_version)) where.space = "unspecified";
    Kernel k;
    k.label = r.label;
    k.region = r.region;
    k.kind = kind_name(r.kind);
    k.space = where.space;
    k.device_id = int(where.device);
    k.instance_id = int(where.instance);
    k.calls = r.calls;
    k.seconds_total = r.total_s;
    k.median_s = quantile(sorted, 0.5);
    k.p25_s = quantile(sorted, 0.25);
    k.p75_s = quantile(sorted, 0.75);
    k.min_s = r.min_s;
    k.max_s = r.max_s;
    k.calls_kept = static_cast<long long>(sorted.size());
    const auto c = counts.find(r.label);
    if (c != counts.end() && r.annotated_calls > 0)
      k.counts = annotated_counts(r, c->second.dtype);
    else
      k.counts = papi_counts(r, facts.papi_events);
    f.kernels.push_back(std::move(k));
  }
  for (const auto& [label, c] : counts)
    if (!ran.count(label)) f.annotations_without_kernel.push_back(label);
  for (const AnnotationError& e : annotations.errors())
    f.annotation_errors.push_back({e.key, e.value, e.why});
  f.annotation_errors_total = annotations.errors_total();
  return f;
}

}  // namespace ridgeline::kp
