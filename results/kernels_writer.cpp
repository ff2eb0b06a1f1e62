#include <nlohmann/json.hpp>

#include "results/kernels_file.hpp"

// Compiled into libridgeline-kp.so as well as the reporter: nlohmann_json and the standard
// library only (the connector is loaded into users' applications).
namespace ridgeline {
namespace kernels_writer {

// ordered_json: the keys in the order kernels_schema.md lists them.
using json = nlohmann::ordered_json;

json counts_json(const KernelCounts& c) {
  json out = {{"flop_per_call", c.flop_per_call},
              {"bytes_per_call", c.bytes_per_call},
              {"dtype", c.dtype},
              {"source", c.source}};
  // Annotated counts say over which calls they were declared; PAPI's say how they were counted.
  if (c.counted_calls > 0) {
    out["calls"] = c.counted_calls;
    out["seconds"] = c.counted_seconds;
    out["varied"] = c.varied;
  }
  if (!c.note.empty()) out["note"] = c.note;
  return out;
}

json kernel_json(const Kernel& k) {
  return {{"label", k.label},
          {"region", k.region},
          {"kind", k.kind},
          {"space", k.space},
          {"device_id", k.device_id},
          {"instance_id", k.instance_id},
          {"calls", k.calls},
          {"seconds_total", k.seconds_total},
          {"seconds_per_call",
           {{"median", k.median_s},
            {"p25", k.p25_s},
            {"p75", k.p75_s},
            {"min", k.min_s},
            {"max", k.max_s},
            {"calls_kept", k.calls_kept}}},
          {"counts", k.counts ? counts_json(*k.counts) : json(nullptr)}};
}

}  // namespace kernels_writer

double KernelsFile::seconds_total() const {
  double s = 0;
  for (const Kernel& k : kernels) s += k.seconds_total;
  return s;
}

std::string kernels_json(const KernelsFile& f) {
  using kernels_writer::json;
  json doc = {{"schema", "ridgeline-kernels"},
              {"schema_version", kKernelsSchemaVersion},
              {"complete", f.complete},
              {"tool", {{"name", f.tool_name}, {"version", f.tool_version}}},
              {"host", {{"hostname", f.hostname}}},
              {"process", {{"pid", f.pid}, {"command", f.command}}},
              {"host_threads",
               {{"count", f.host_threads > 0 ? json(f.host_threads) : json(nullptr)},
                {"from", f.host_threads_from}}},
              {"started_utc", f.started_utc},
              {"written_utc", f.written_utc},
              {"kokkos",
               {{"interface_version", f.interface_version},
                {"global_fencing", f.global_fencing},
                {"metadata", f.metadata}}}};
  if (f.papi)
    doc["papi"] = {{"requested", true},
                   {"available", f.papi->available},
                   {"error", f.papi->available ? json(nullptr) : json(f.papi->error)},
                   {"events", f.papi->events},
                   {"counted_spaces", f.papi->counted_spaces}};
  json list = json::array();
  for (const Kernel& k : f.kernels) list.push_back(kernels_writer::kernel_json(k));
  doc["kernels"] = std::move(list);
  doc["annotations_without_kernel"] = f.annotations_without_kernel;
  json errors = json::array();
  for (const RejectedAnnotation& e : f.annotation_errors)
    errors.push_back({{"key", e.key}, {"value", e.value}, {"why", e.why}});
  doc["annotation_errors"] = std::move(errors);
  doc["annotation_errors_total"] = f.annotation_errors_total;
  return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace ridgeline
