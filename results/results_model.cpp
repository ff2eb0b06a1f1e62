#include "results/results_model.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <unordered_map>

#include "core/field_reader.hpp"
#include "core/input_error.hpp"
#include "core/stats.hpp"
#include "results/results_file.hpp"

namespace ridgeline {
namespace {

using nlohmann::json;

using Reader = FieldReader;

// A machine has a handful of caches and execution spaces; every group of points is matched
// against them, so their number is bounded.
constexpr std::size_t kMaxContextEntries = 64;

// Counts in JSON are doubles; clamp before converting so absurd values cannot overflow an int.
int to_count(std::optional<double> v, int fallback) {
  return v ? static_cast<int>(std::min(*v, 1e9)) : fallback;
}

// `telemetry` of a measured point: null, or an object whose fields have the documented types.
std::optional<PointTelemetry> read_telemetry(const std::string& file, const json& j,
                                             const std::string& at) {
  if (!j.contains("telemetry") || j["telemetry"].is_null()) return std::nullopt;
  const json& t = j["telemetry"];
  const std::string here = at + ".telemetry";
  if (!t.is_object()) throw InputError(file, here, "must be an object or null");
  const Reader r(file, t, here);
  PointTelemetry out;
  out.sm_clock_mhz = r.number("sm_clock_mhz", false).value_or(0);
  out.reference_sm_clock_mhz = r.number("reference_sm_clock_mhz", false).value_or(0);
  if (r.has("throttled")) out.throttled = r.boolean("throttled");
  if (r.has("throttle_reasons")) {
    if (!t["throttle_reasons"].is_array())
      throw InputError(file, r.where("throttle_reasons"), "must be an array of strings");
    for (std::size_t i = 0; i < t["throttle_reasons"].size(); ++i) {
      if (!t["throttle_reasons"][i].is_string())
        throw InputError(file, r.where("throttle_reasons[" + std::to_string(i) + "]"),
                         "must be a string");
      out.throttle_reasons.push_back(t["throttle_reasons"][i].get<std::string>());
    }
  }
  if (r.has("throttled_samples")) {
    if (!t["throttled_samples"].is_array())
      throw InputError(file, r.where("throttled_samples"), "must be an array of true or false");
    for (std::size_t i = 0; i < t["throttled_samples"].size(); ++i) {
      if (!t["throttled_samples"][i].is_boolean())
        throw InputError(file, r.where("throttled_samples[" + std::to_string(i) + "]"),
                         "must be true or false");
      out.throttled_samples.push_back(t["throttled_samples"][i].get<bool>());
    }
  }
  return out;
}

// `cpu_wait` of a measured point: null, or {median_share in [0, 1], busy_samples, …}.
void read_cpu_wait(const std::string& file, const json& j, const std::string& at, Point& p) {
  if (!j.contains("cpu_wait") || j["cpu_wait"].is_null()) return;
  const std::string here = at + ".cpu_wait";
  if (!j["cpu_wait"].is_object()) throw InputError(file, here, "must be an object or null");
  const Reader r(file, j["cpu_wait"], here);
  const std::optional<double> share = r.number("median_share", false);
  if (!share) throw InputError(file, r.where("median_share"), "missing required field");
  if (*share > 1) throw InputError(file, r.where("median_share"), "must be at most 1");
  p.cpu_wait_share = *share;
  p.busy_samples = to_count(r.number("busy_samples", false), 0);
  p.cpu_wait_threads = to_count(r.number("threads", false), 1);
}

Point read_point(const std::string& file, const json& j, std::size_t index) {
  const std::string at = "points[" + std::to_string(index) + "]";
  if (!j.is_object()) throw InputError(file, at, "must be an object");
  const Reader r(file, j, at);
  Point p;
  p.name = r.str("name", true);
  p.probe = r.str("probe", true);
  p.family = r.str("family", true);
  p.space = r.str("space", true);
  p.dtype = r.str("dtype", true);
  p.skipped_reason = r.str("skipped_reason", false);
  if (j.contains("params") && j["params"].is_object()) p.params = j["params"];
  p.working_set_bytes = r.number("working_set_bytes", false).value_or(0);
  p.flops = r.number("flops", false).value_or(0);
  p.bytes = r.number("bytes", false).value_or(0);
  if (!p.measured()) return p;

  p.verified = r.boolean("verified");
  p.verify_error = r.str("verify_error", false);
  if (!j.contains("samples") || !j["samples"].is_array() || j["samples"].empty())
    throw InputError(file, r.where("samples"), "a measured point needs a non-empty array");
  for (std::size_t i = 0; i < j["samples"].size(); ++i)
    p.samples.push_back(
        r.check(j["samples"][i], r.where("samples[" + std::to_string(i) + "]"), true));
  p.median_s = r.number("median_s", true).value_or(median(p.samples));
  if (p.flops <= 0 && p.bytes <= 0)
    throw InputError(file, r.where("flops"), "a measured point needs flops or bytes above 0");
  // Rates and intensity follow from the counts; recomputing them keeps one source of truth.
  if (p.flops > 0) p.flops_per_s = p.flops / p.median_s;
  if (p.bytes > 0) p.bytes_per_s = p.bytes / p.median_s;
  if (p.bytes > 0 && p.flops > 0) p.intensity = p.flops / p.bytes;
  for (const auto& rate : {p.flops_per_s, p.bytes_per_s})
    if (rate && !std::isnormal(*rate))
      throw InputError(file, r.where("median_s"),
                       "gives a rate (counts / median_s) that is not a finite positive number");
  if (p.intensity && !std::isnormal(*p.intensity))
    throw InputError(file, r.where("bytes"),
                     "gives an intensity (flops / bytes) that is not a finite positive number");
  r.number("intensity", false);  // checked for sanity (copy/fill: 0), not used
  p.telemetry = read_telemetry(file, j, at);
  read_cpu_wait(file, j, at, p);
  return p;
}

// An MPI job's point: its rank and placement (both or neither).
void read_placement(const std::string& file, const json& j, std::size_t index, Point& p) {
  const std::string at = "points[" + std::to_string(index) + "]";
  const Reader r(file, j, at);
  if (!r.has("rank") && !r.has("placement")) return;
  const auto rank = r.number("rank", false);
  if (!rank || *rank != std::floor(*rank) || *rank > 1e6)
    throw InputError(file, r.where("rank"), "must be a rank number (0 to 1000000)");
  p.rank = static_cast<int>(*rank);
  if (!r.has("placement") || !j["placement"].is_object())
    throw InputError(file, r.where("placement"), "must be an object with the rank's host");
  const Reader place(file, j["placement"], r.where("placement"));
  p.host = place.str("host", true);
  p.device = place.str("device", false);
  p.device_key = place.str("key", true);
  const std::string bus = place.str("pci_bus_id", false), cpus = place.str("cpu_set", false);
  p.where = !bus.empty() ? "GPU " + bus : !cpus.empty() ? "CPUs " + cpus : "";
}

}  // namespace

int PointTelemetry::throttled_count() const {
  return int(std::count(throttled_samples.begin(), throttled_samples.end(), true));
}

std::string Point::param(const std::string& key) const {
  const auto it = params.find(key);
  return it != params.end() && it->is_string() ? it->get<std::string>() : std::string();
}

const SpaceInfo* Results::find_space(const std::string& name) const {
  for (const auto& s : spaces)
    if (s.name == name) return &s;
  return nullptr;
}

std::string Results::device_name(const std::string& space) const {
  const SpaceInfo* s = find_space(space);
  if (s && s->device && !s->device->name.empty()) return s->device->name;
  return cpu_model;
}

Results parse_results(const std::string& text, const std::string& file) {
  Results res;
  res.file = file;
  // Points are read as the parser completes each one and then dropped from the document, so a
  // file of 200k points never exists as a JSON tree (several times the size of the points).
  std::optional<InputError> point_error;  // reported after the header and context checks
  std::unordered_map<std::string, std::size_t> first_index;
  std::size_t index = 0;
  int points_arrays = 0;
  bool in_points = false;
  const auto take_point = [&](int depth, json::parse_event_t event, json& parsed) {
    using E = json::parse_event_t;
    if (depth == 1 && event == E::key) {
      in_points = parsed == "points";
      if (in_points && ++points_arrays > 1 && !point_error)
        point_error = InputError(file, "points", "appears twice");
    }
    if (!in_points || depth != 2 ||
        !(event == E::object_end || event == E::array_end || event == E::value))
      return true;
    if (!point_error) {
      try {
        Point p = read_point(file, parsed, index);
        read_placement(file, parsed, index, p);
        // An MPI job measures each point once per rank.
        const auto [it, fresh] = first_index.emplace(p.name + '\n' + std::to_string(p.rank), index);
        if (!fresh)
          throw InputError(file, "points[" + std::to_string(index) + "].name",
                           "'" + p.name + "' is also points[" + std::to_string(it->second) +
                               "]; point names must be unique (per rank)");
        res.points.push_back(std::move(p));
      } catch (const InputError& e) {
        point_error = e;
      }
    }
    ++index;
    return false;
  };
  json j = parse_json_text(text, file, take_point);
  check_results_header(j, file);
  res.context = std::move(j["context"]);
  if (j.contains("complete") && j["complete"].is_boolean()) res.complete = j["complete"];
  if (j.contains("profile") && j["profile"].is_object()) {
    const Reader prof(file, j["profile"], "profile");
    res.profile_name = prof.str("name", false);
    res.repetitions = to_count(prof.number("repetitions", true), 0);
  }
  if (j.contains("mpi") && !j["mpi"].is_null()) {
    if (!j["mpi"].is_object()) throw InputError(file, "mpi", "must be an object or null");
    const Reader mpi(file, j["mpi"], "mpi");
    res.mpi_size = to_count(mpi.number("size", true), 0);
    res.mpi_mode = mpi.str("mode", true);
    if (res.mpi_mode != "concurrent" && res.mpi_mode != "isolated")
      throw InputError(file, "mpi.mode", "must be \"concurrent\" or \"isolated\"");
  }
  const json& ctx = res.context;
  if (ctx.contains("host") && ctx["host"].is_object())
    res.hostname = Reader(file, ctx["host"], "context.host").str("hostname", false);
  if (res.hostname.empty()) res.hostname = "unknown-host";
  if (ctx.contains("cpu") && ctx["cpu"].is_object()) {
    const Reader cpu(file, ctx["cpu"], "context.cpu");
    res.cpu_model = cpu.str("model", false);
    res.cpu_cores = to_count(cpu.number("cores", true), 0);
    res.cpu_threads = to_count(cpu.number("threads", true), 0);
    if (cpu.has("avx512")) res.cpu_avx512 = cpu.boolean("avx512");
    res.caches_incomplete = cpu.str("caches_incomplete", false);
    if (ctx["cpu"].contains("caches") && ctx["cpu"]["caches"].is_array()) {
      const json& caches = ctx["cpu"]["caches"];
      if (caches.size() > kMaxContextEntries)
        throw InputError(file, "context.cpu.caches",
                         "has more than " + std::to_string(kMaxContextEntries) + " entries");
      for (std::size_t i = 0; i < caches.size(); ++i) {
        const std::string at = "context.cpu.caches[" + std::to_string(i) + "]";
        if (!caches[i].is_object()) throw InputError(file, at, "must be an object");
        const Reader c(file, caches[i], at);
        CacheInfo info;
        info.level = to_count(c.number("level", true), 0);
        info.type = c.str("type", false);
        info.size_bytes = c.number("size_bytes", true).value_or(0);
        info.shared_by_threads = std::max(1, to_count(c.number("shared_by_threads", true), 1));
        info.instances = to_count(c.number("instances", false), 0);
        if (info.level > 0 && info.size_bytes > 0 && info.type != "instruction")
          res.caches.push_back(info);
      }
    }
  }
  if (ctx.contains("spaces") && ctx["spaces"].is_array()) {
    const json& spaces = ctx["spaces"];
    if (spaces.size() > kMaxContextEntries)
      throw InputError(file, "context.spaces",
                       "has more than " + std::to_string(kMaxContextEntries) + " entries");
    for (std::size_t i = 0; i < spaces.size(); ++i) {
      const std::string at = "context.spaces[" + std::to_string(i) + "]";
      if (!spaces[i].is_object()) throw InputError(file, at, "must be an object");
      const Reader s(file, spaces[i], at);
      SpaceInfo info;
      info.name = s.str("name", true);
      info.kind = s.str("kind", false);
      info.concurrency = std::max(1, to_count(s.number("concurrency", true), 1));
      if (s.has("device")) {
        if (!spaces[i]["device"].is_object())
          throw InputError(file, at + ".device", "must be an object or null");
        const Reader d(file, spaces[i]["device"], at + ".device");
        DeviceInfo dev;
        dev.name = d.str("name", false);
        dev.l2_bytes = d.number("l2_bytes", false).value_or(0);
        dev.l1_per_unit_bytes = d.number("l1_per_unit_bytes", false).value_or(0);
        dev.llc_bytes = d.number("llc_bytes", false).value_or(0);
        dev.units = to_count(d.number("compute_units", false), 0);
        info.device = dev;
      }
      res.spaces.push_back(info);
    }
  }
  if (point_error) throw *point_error;
  for (std::size_t i = 0; i < res.points.size(); ++i)
    if ((res.points[i].rank >= 0) != (res.mpi_size > 0) ||
        res.points[i].rank >= std::max(res.mpi_size, 1))
      throw InputError(file, "points[" + std::to_string(i) + "].rank",
                       res.mpi_size > 0
                           ? "an MPI job's point needs a rank below mpi.size"
                           : "only an MPI job's points (with an mpi block) have ranks");
  return res;
}

Results load_results(const std::string& path) {
  return parse_results(read_text_file(path, "results file"), path);
}

}  // namespace ridgeline
