#include "results/results_model.hpp"

#include <algorithm>
#include <optional>
#include <unordered_map>

#include "core/field_reader.hpp"
#include "core/input_error.hpp"
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

// The machine a context describes (a results file's `context`, or `ridgeline info --json` whole):
// host, CPU and spaces; `prefix` begins the fields errors name ("context." in a results file).
void read_context(Results& res, const std::string& file, const std::string& prefix) {
  const json& ctx = res.context;
  if (ctx.contains("host") && ctx["host"].is_object())
    res.hostname = Reader(file, ctx["host"], prefix + "host").str("hostname", false);
  if (res.hostname.empty()) res.hostname = "unknown-host";
  if (ctx.contains("cpu") && ctx["cpu"].is_object()) {
    const Reader cpu(file, ctx["cpu"], prefix + "cpu");
    res.cpu_model = cpu.str("model", false);
    res.cpu_cores = to_count(cpu.number("cores", true), 0);
    res.cpu_threads = to_count(cpu.number("threads", true), 0);
    if (cpu.has("avx512")) res.cpu_avx512 = cpu.boolean("avx512");
    if (cpu.has("hypervisor")) res.cpu_hypervisor = cpu.boolean("hypervisor");
    res.caches_incomplete = cpu.str("caches_incomplete", false);
    if (cpu.has("measured_clock")) {
      if (!ctx["cpu"]["measured_clock"].is_object())
        throw InputError(file, prefix + "cpu.measured_clock", "must be an object or null");
      const Reader clock(file, ctx["cpu"]["measured_clock"], prefix + "cpu.measured_clock");
      const std::optional<double> mhz = clock.number("mhz", true);
      if (!mhz) throw InputError(file, clock.where("mhz"), "missing required field");
      if (*mhz > 1e5) throw InputError(file, clock.where("mhz"), "must be at most 100000 MHz");
      res.cpu_clock_mhz = *mhz;
    }
    if (ctx["cpu"].contains("caches") && ctx["cpu"]["caches"].is_array()) {
      const json& caches = ctx["cpu"]["caches"];
      if (caches.size() > kMaxContextEntries)
        throw InputError(file, prefix + "cpu.caches",
                         "has more than " + std::to_string(kMaxContextEntries) + " entries");
      for (std::size_t i = 0; i < caches.size(); ++i) {
        const std::string at = prefix + "cpu.caches[" + std::to_string(i) + "]";
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
      throw InputError(file, prefix + "spaces",
                       "has more than " + std::to_string(kMaxContextEntries) + " entries");
    for (std::size_t i = 0; i < spaces.size(); ++i) {
      const std::string at = prefix + "spaces[" + std::to_string(i) + "]";
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
      if (s.has("memory_plateau"))
        info.plateau =
            memory_plateau_from_json(spaces[i]["memory_plateau"], file, at + ".memory_plateau");
      res.spaces.push_back(info);
    }
  }
}

}  // namespace

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

const SpaceInfo* Results::measured_device() const {
  for (const SpaceInfo& s : spaces) {
    if (!s.device || s.device->name.empty()) continue;
    if (points.empty() || std::any_of(points.begin(), points.end(),
                                      [&s](const Point& p) { return p.space == s.name; }))
      return &s;
  }
  return nullptr;
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
        Point p = read_point_entry(file, parsed, index);
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
    res.dram_min_bytes = std::max(0.0, prof.number("dram_min_bytes", true).value_or(0));
  }
  if (j.contains("mpi") && !j["mpi"].is_null()) {
    if (!j["mpi"].is_object()) throw InputError(file, "mpi", "must be an object or null");
    const Reader mpi(file, j["mpi"], "mpi");
    res.mpi_size = to_count(mpi.number("size", true), 0);
    res.mpi_mode = mpi.str("mode", true);
    if (res.mpi_mode != "concurrent" && res.mpi_mode != "isolated")
      throw InputError(file, "mpi.mode", "must be \"concurrent\" or \"isolated\"");
  }
  read_context(res, file, "context.");
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

Results results_of_context(nlohmann::json context, const std::string& file) {
  if (!context.is_object()) throw InputError(file, "", "a machine context must be a JSON object");
  Results res;
  res.file = file;
  res.context = std::move(context);
  read_context(res, file, "");
  return res;
}

Results load_results(const std::string& path) {
  return parse_results(read_text_file(path, "results file"), path);
}

}  // namespace ridgeline
