#include "connector/kernels_file.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <ctime>
#include <set>

#include "connector/device_id.hpp"

namespace ridgeline::kp {
namespace {

using json = nlohmann::ordered_json;

// The q-quantile of sorted values, interpolated between neighbours.
double quantile(const std::vector<double>& sorted, double q) {
  const double at = q * double(sorted.size() - 1);
  const std::size_t lo = std::size_t(at);
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (at - double(lo)) * (sorted[hi] - sorted[lo]);
}

// A kernel's counts from PAPI's events (papi_counters.hpp): FLOP of the dtype with more
// operations, bytes as 64-byte lines from memory (PAPI_L3_TCM); null without both.
json papi_counts(const KernelRecord& r, const std::vector<std::string>& events) {
  long long dp = -1, sp = -1, lines = -1;
  for (std::size_t i = 0; i < events.size() && i < r.counter_totals.size(); ++i) {
    if (events[i] == "PAPI_DP_OPS") dp = r.counter_totals[i];
    if (events[i] == "PAPI_SP_OPS") sp = r.counter_totals[i];
    if (events[i] == "PAPI_L3_TCM") lines = r.counter_totals[i];
  }
  if (r.counted_calls == 0 || lines < 0 || (dp < 0 && sp < 0)) return nullptr;
  const bool fp64 = dp >= sp;
  const double n = double(r.counted_calls);
  return {{"flop_per_call", double(fp64 ? dp : sp) / n},
          {"bytes_per_call", 64.0 * double(lines) / n},
          {"dtype", fp64 ? "fp64" : "fp32"},
          {"source", "papi"},
          {"note", "PAPI_L3_TCM x 64 byte: lines read from memory, write-backs not counted; over " +
                       std::to_string(r.counted_calls) + " calls"}};
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
json annotated_counts(const KernelRecord& r, const std::string& dtype) {
  const double n = double(r.annotated_calls);
  return {{"flop_per_call", r.counts_varied ? r.flop_total / n : r.first_flop},
          {"bytes_per_call", r.counts_varied ? r.bytes_total / n : r.first_bytes},
          {"dtype", dtype},
          {"source", "annotation"},
          {"calls", r.annotated_calls},
          {"seconds", r.annotated_s},
          {"varied", r.counts_varied}};
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

std::string kernels_json(const SessionFacts& facts, const std::vector<KernelRecord>& kernels,
                         const Annotations& annotations, bool complete) {
  // ordered_json: the keys in the order schema.md lists them.
  const auto counts = annotations.counts();
  json doc = {{"schema", "ridgeline-kernels"},
              {"schema_version", kKernelsSchemaVersion},
              {"complete", complete},
              {"tool", {{"name", "libridgeline-kp"}, {"version", RIDGELINE_KP_VERSION}}},
              {"host", {{"hostname", facts.hostname}}},
              {"process", {{"pid", facts.pid}, {"command", facts.command}}},
              {"host_threads",
               {{"count", facts.threads.count > 0 ? json(facts.threads.count) : json(nullptr)},
                {"from", facts.threads.from}}},
              {"started_utc", facts.started_utc},
              {"written_utc", utc_timestamp()},
              {"kokkos",
               {{"interface_version", facts.interface_version},
                {"global_fencing", facts.global_fencing},
                {"metadata", annotations.metadata()}}}};
  if (facts.papi_requested)
    doc["papi"] = {{"requested", true},
                   {"available", facts.papi_available},
                   {"error", facts.papi_available ? json(nullptr) : json(facts.papi_error)},
                   {"events", facts.papi_events},
                   {"counted_spaces", json::array({"Serial"})}};
  json list = json::array();
  std::set<std::string> ran;
  for (const KernelRecord& r : kernels) {
    if (r.calls == 0) continue;  // began but never ended (still running at a periodic write)
    if (r.annotated_calls > 0) ran.insert(r.label);  // a declaration after every launch: unused
    std::vector<double> sorted = r.kept_s;
    std::sort(sorted.begin(), sorted.end());
    ExecutionPlace where = decode_device_id(r.dev_id, facts.interface_version);
    if (space_unspecified(r, facts.interface_version)) where.space = "unspecified";
    json k = {{"label", r.label},
              {"region", r.region},
              {"kind", kind_name(r.kind)},
              {"space", where.space},
              {"device_id", where.device},
              {"instance_id", where.instance},
              {"calls", r.calls},
              {"seconds_total", r.total_s},
              {"seconds_per_call",
               {{"median", quantile(sorted, 0.5)},
                {"p25", quantile(sorted, 0.25)},
                {"p75", quantile(sorted, 0.75)},
                {"min", r.min_s},
                {"max", r.max_s},
                {"calls_kept", sorted.size()}}}};
    const auto c = counts.find(r.label);
    if (c != counts.end() && r.annotated_calls > 0)
      k["counts"] = annotated_counts(r, c->second.dtype);
    else
      k["counts"] = papi_counts(r, facts.papi_events);
    list.push_back(std::move(k));
  }
  doc["kernels"] = std::move(list);
  json unmatched = json::array();
  for (const auto& [label, c] : counts)
    if (!ran.count(label)) unmatched.push_back(label);
  doc["annotations_without_kernel"] = std::move(unmatched);
  json errors = json::array();
  for (const AnnotationError& e : annotations.errors())
    errors.push_back({{"key", e.key}, {"value", e.value}, {"why", e.why}});
  doc["annotation_errors"] = std::move(errors);
  doc["annotation_errors_total"] = annotations.errors_total();
  // Labels are the application's bytes: invalid UTF-8 is replaced (U+FFFD), not a failed write.
  return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace ridgeline::kp
