#include "results/kernels_file.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>

#include "core/field_reader.hpp"
#include "core/file_io.hpp"
#include "core/input_error.hpp"
#include "results/results_file.hpp"

namespace ridgeline {
namespace kernels_reader {

using nlohmann::json;

// A kernel file holds one entry per label × region × space × kind; a bound keeps a hostile file
// from turning one table into millions of rows.
constexpr std::size_t kMaxKernels = 100000;

void check_header(const json& j, const std::string& file) {
  if (!j.is_object()) throw InputError(file, "", "must be a JSON object");
  if (!j.contains("schema") || j["schema"] != "ridgeline-kernels")
    throw InputError(file, "schema",
                     "not \"ridgeline-kernels\" (not a kernels file of libridgeline-kp?)");
  if (!j.contains("schema_version") || !j["schema_version"].is_string())
    throw InputError(file, "schema_version", "missing or not a string");
  const std::string v = j["schema_version"].get<std::string>();
  if (v.substr(0, v.find('.')) != std::to_string(kKernelsSchemaMajor))
    throw InputError(file, "schema_version",
                     "'" + v + "' is not a version " + std::to_string(kKernelsSchemaMajor) +
                         ".x this reporter reads");
  if (!j.contains("kernels") || !j["kernels"].is_array())
    throw InputError(file, "kernels", "missing or not an array");
}

// Provenance no report shows (the tool, the process id, the times of writing, Kokkos' metadata,
// PAPI's events): taken where it has its documented type, else left empty, never an error: a
// file the reporter read before these were taken reads the same.
std::string provenance_text(const json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : "";
}
double provenance_number(const json& j, const char* key) {
  if (!j.is_object() || !j.contains(key) || !j[key].is_number()) return 0;
  const double v = j[key].get<double>();
  return std::isfinite(v) && v > 0 ? v : 0;
}
std::vector<std::string> provenance_texts(const json& j, const char* key) {
  std::vector<std::string> out;
  if (j.is_object() && j.contains(key) && j[key].is_array())
    for (const json& v : j[key])
      if (v.is_string()) out.push_back(v.get<std::string>());
  return out;
}

Kernel read_kernel(const std::string& file, const json& k, std::size_t i) {
  const std::string at = "kernels[" + std::to_string(i) + "]";
  if (!k.is_object()) throw InputError(file, at, "must be an object");
  const FieldReader r(file, k, at);
  Kernel out;
  out.label = r.str("label", true);
  out.region = r.str("region", false);
  out.kind = r.str("kind", true);
  if (out.kind != "for" && out.kind != "reduce" && out.kind != "scan")
    throw InputError(file, r.where("kind"), "must be \"for\", \"reduce\" or \"scan\"");
  out.space = r.str("space", true);
  out.device_id = int(std::min(r.number("device_id", false).value_or(0), 1e6));
  out.instance_id = int(std::min(provenance_number(k, "instance_id"), 1e6));
  const std::optional<double> calls = r.number("calls", true);
  if (!calls) throw InputError(file, r.where("calls"), "missing required field");
  out.calls = static_cast<long long>(std::min(*calls, 9e18));
  const std::optional<double> total = r.number("seconds_total", false);
  if (!total) throw InputError(file, r.where("seconds_total"), "missing required field");
  out.seconds_total = *total;
  if (!k.contains("seconds_per_call") || !k["seconds_per_call"].is_object())
    throw InputError(file, r.where("seconds_per_call"), "missing or not an object");
  const FieldReader t(file, k["seconds_per_call"], r.where("seconds_per_call"));
  for (auto [key, into] : {std::pair{"median", &out.median_s}, std::pair{"p25", &out.p25_s},
                           std::pair{"p75", &out.p75_s}}) {
    const std::optional<double> v = t.number(key, false);
    if (!v) throw InputError(file, t.where(key), "missing required field");
    *into = *v;
  }
  out.max_s = t.number("max", false).value_or(0);
  out.min_s = provenance_number(k["seconds_per_call"], "min");
  out.calls_kept = static_cast<long long>(
      std::min(provenance_number(k["seconds_per_call"], "calls_kept"), 9e18));
  if (!(out.p25_s <= out.median_s && out.median_s <= out.p75_s))
    throw InputError(file, t.where("median"), "must lie between p25 and p75");
  if (r.has("counts")) {
    if (!k["counts"].is_object())
      throw InputError(file, r.where("counts"), "must be an object or null");
    const FieldReader c(file, k["counts"], r.where("counts"));
    KernelCounts kc;
    const auto flop = c.number("flop_per_call", false), bytes = c.number("bytes_per_call", false);
    if (!flop) throw InputError(file, c.where("flop_per_call"), "missing required field");
    if (!bytes) throw InputError(file, c.where("bytes_per_call"), "missing required field");
    kc.flop_per_call = *flop;
    kc.bytes_per_call = *bytes;
    kc.dtype = c.str("dtype", true);
    kc.source = c.str("source", true);
    kc.note = c.str("note", false);
    if (c.has("calls")) {
      const double n = *c.number("calls", false);
      if (n < 1 || n > double(out.calls) || n != std::floor(n))
        throw InputError(file, c.where("calls"),
                         "must be a whole number from 1 to the kernel's calls (" +
                             std::to_string(out.calls) + ")");
      const std::optional<double> s = c.number("seconds", false);
      if (!s) throw InputError(file, c.where("seconds"), "missing (it goes with calls)");
      // The counted calls are some of the kernel's calls: their seconds cannot exceed its total
      // (beyond rounding), else the rates would come from time the kernel never ran.
      if (*s > out.seconds_total * (1 + 1e-9))
        throw InputError(file, c.where("seconds"),
                         fmt::format("{:g} s is more than the kernel's seconds_total ({:g} s)", *s,
                                     out.seconds_total));
      kc.counted_calls = static_cast<long long>(n);
      kc.counted_seconds = *s;
    }
    kc.varied = c.has("varied") && c.boolean("varied");
    // Finite counts over a finite time can still overflow (1e300 FLOP in 1e-10 s): an error
    // naming the field, not an "inf" in the report.
    const double per_call = kc.seconds_per_call(out.mean_s());
    if (per_call > 0)
      for (auto [key, count] : {std::pair{"flop_per_call", kc.flop_per_call},
                                std::pair{"bytes_per_call", kc.bytes_per_call}})
        if (!std::isfinite(count / per_call))
          throw InputError(file, c.where(key),
                           "over the time per call gives a rate beyond a double's range");
    if (kc.bytes_per_call > 0) {
      const double intensity = kc.flop_per_call / kc.bytes_per_call;
      if (!std::isfinite(intensity) || (intensity != 0 && !std::isnormal(intensity)))
        throw InputError(file, c.where("flop_per_call"),
                         "over bytes_per_call gives an intensity beyond a double's range");
    }
    out.counts = kc;
  }
  return out;
}

}  // namespace kernels_reader

KernelsFile parse_kernels(const std::string& text, const std::string& file) {
  using namespace kernels_reader;
  check_json_nesting(text, file);
  const json j = parse_json_text(text, file);
  check_header(j, file);
  KernelsFile out;
  out.file = file;
  const FieldReader top(file, j, "");
  out.complete = top.has("complete") && top.boolean("complete");
  out.command = j.contains("process") && j["process"].is_object()
                    ? FieldReader(file, j["process"], "process").str("command", false)
                    : "";
  if (j.contains("host") && j["host"].is_object())
    out.hostname = FieldReader(file, j["host"], "host").str("hostname", false);
  if (out.hostname.empty()) out.hostname = "unknown-host";
  if (j.contains("kokkos") && j["kokkos"].is_object()) {
    const FieldReader kk(file, j["kokkos"], "kokkos");
    out.global_fencing = kk.has("global_fencing") && kk.boolean("global_fencing");
    const json& kokkos = j["kokkos"];
    if (kokkos.contains("interface_version") && kokkos["interface_version"].is_number_unsigned())
      out.interface_version = kokkos["interface_version"].get<std::uint64_t>();
    if (kokkos.contains("metadata") && kokkos["metadata"].is_object())
      for (const auto& item : kokkos["metadata"].items())
        if (item.value().is_string()) out.metadata[item.key()] = item.value().get<std::string>();
  }
  if (j.contains("tool")) {
    out.tool_name = provenance_text(j["tool"], "name");
    out.tool_version = provenance_text(j["tool"], "version");
  }
  if (j.contains("process") && j["process"].is_object() && j["process"].contains("pid") &&
      j["process"]["pid"].is_number_integer())
    out.pid = j["process"]["pid"].get<long long>();
  out.started_utc = provenance_text(j, "started_utc");
  out.written_utc = provenance_text(j, "written_utc");
  // The connector's PAPI request (RIDGELINE_KP_PAPI=1): every kernel it counted nothing for says
  // why, in PAPI's words where PAPI could not count at all.
  std::string papi_error, papi_spaces_error;
  std::vector<std::string> papi_spaces;
  if (j.contains("papi") && j["papi"].is_object()) {
    const FieldReader p(file, j["papi"], "papi");
    PapiState state;
    state.events = provenance_texts(j["papi"], "events");
    state.counted_spaces = provenance_texts(j["papi"], "counted_spaces");
    state.available = !(p.has("available") && !p.boolean("available"));
    if (!state.available) {
      state.error = p.str("error", true);
      papi_error = "PAPI unavailable (" + state.error + ")";
    } else {
      papi_spaces = state.counted_spaces;
      papi_error = "PAPI counted no FLOP or no memory-traffic event for it";
      papi_spaces_error = "PAPI counts the kernels of the thread that started it only (spaces:";
      for (const auto& space : papi_spaces) papi_spaces_error += " " + space;
      papi_spaces_error += ")";
    }
    out.papi = state;
  }
  const json& list = j["kernels"];
  if (list.size() > kMaxKernels)
    throw InputError(file, "kernels", "more than " + std::to_string(kMaxKernels) + " entries");
  for (std::size_t i = 0; i < list.size(); ++i)
    out.kernels.push_back(read_kernel(file, list[i], i));
  for (Kernel& k : out.kernels)
    if (!k.counts && !papi_error.empty())
      k.counter_error =
          papi_spaces_error.empty() ||
                  std::find(papi_spaces.begin(), papi_spaces.end(), k.space) != papi_spaces.end()
              ? papi_error
              : papi_spaces_error;
  if (j.contains("host_threads") && j["host_threads"].is_object()) {
    const FieldReader h(file, j["host_threads"], "host_threads");
    if (const auto n = h.number("count", true)) {
      if (*n > 1 << 20 || *n != std::floor(*n))
        throw InputError(file, h.where("count"), "must be a whole number of threads");
      out.host_threads = int(*n);
      out.host_threads_from = h.str("from", false);
    }
  }
  if (j.contains("annotation_errors") && j["annotation_errors"].is_array()) {
    const json& errors = j["annotation_errors"];
    for (std::size_t i = 0; i < errors.size() && i < 100; ++i) {
      const std::string at = "annotation_errors[" + std::to_string(i) + "]";
      if (!errors[i].is_object()) throw InputError(file, at, "must be an object");
      const FieldReader e(file, errors[i], at);
      out.annotation_errors.push_back(
          {e.str("key", false), provenance_text(errors[i], "value"), e.str("why", false)});
    }
    out.annotation_errors_total = static_cast<long long>(errors.size());
    if (const auto total = top.number("annotation_errors_total", false))
      out.annotation_errors_total =
          std::max(out.annotation_errors_total, static_cast<long long>(std::min(*total, 9e18)));
  }
  if (j.contains("annotations_without_kernel") && j["annotations_without_kernel"].is_array())
    for (const json& label : j["annotations_without_kernel"])
      if (label.is_string()) out.annotations_without_kernel.push_back(label.get<std::string>());
  return out;
}

KernelsFile load_kernels(const std::string& path) {
  return parse_kernels(read_text_file(path, "kernels file"), path);
}

bool is_kernels_file(const std::string& path) {
  // A pipe (`compare <(cat a.json) ...`) read here would be empty for the results reader.
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return false;
  try {
    const nlohmann::json j =
        nlohmann::json::parse(read_text_file(path, "kernels file"), nullptr, false);
    return j.is_object() && j.contains("schema") && j["schema"] == "ridgeline-kernels";
  } catch (const InputError&) {
    return false;
  }
}

}  // namespace ridgeline
