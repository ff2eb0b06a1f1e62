#include "results/point_entry_reader.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "core/field_reader.hpp"
#include "core/input_error.hpp"
#include "core/stats.hpp"

namespace ridgeline {
namespace {

using nlohmann::json;

using Reader = FieldReader;

// Counts in JSON are doubles; clamp before converting so absurd values cannot overflow an int.
int to_count(std::optional<double> v, int fallback) {
  return v ? static_cast<int>(std::min(*v, 1e9)) : fallback;
}

// A point's `key` that is an object or null: nullopt when absent or null, a reader of it when an
// object, an error otherwise.
std::optional<Reader> object_or_null(const std::string& file, const json& j, const std::string& at,
                                     const std::string& key) {
  if (!j.contains(key) || j[key].is_null()) return std::nullopt;
  const std::string here = at + "." + key;
  if (!j[key].is_object()) throw InputError(file, here, "must be an object or null");
  return Reader(file, j[key], here);
}

// `telemetry` of a measured point: null, or an object whose fields have the documented types.
std::optional<PointTelemetry> read_telemetry(const std::string& file, const json& j,
                                             const std::string& at) {
  const std::optional<Reader> read = object_or_null(file, j, at, "telemetry");
  if (!read) return std::nullopt;
  const Reader& r = *read;
  const json& t = j["telemetry"];
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
  const std::optional<Reader> read = object_or_null(file, j, at, "cpu_wait");
  if (!read) return;
  const Reader& r = *read;
  const std::optional<double> share = r.number("median_share", false);
  if (!share) throw InputError(file, r.where("median_share"), "missing required field");
  if (*share > 1) throw InputError(file, r.where("median_share"), "must be at most 1");
  p.cpu_wait_share = *share;
  p.busy_samples = to_count(r.number("busy_samples", false), 0);
  p.cpu_wait_threads = to_count(r.number("threads", false), 1);
}

// `host_clock` of a measured point: null, or {median_mhz > 0, readings_mhz: [...]}.
void read_host_clock(const std::string& file, const json& j, const std::string& at, Point& p) {
  if (const std::optional<Reader> r = object_or_null(file, j, at, "host_clock"))
    p.host_clock_mhz = r->bounded("median_mhz", 1e5);
}

// The fields of a measured point: its verification, samples and timing.
void read_measured(const std::string& file, const json& j, const std::string& at, Point& p) {
  const Reader r(file, j, at);
  r.boolean("verified");
  r.str("verify_error", false);
  if (!j.contains("samples") || !j["samples"].is_array() || j["samples"].empty())
    throw InputError(file, r.where("samples"), "a measured point needs a non-empty array");
  std::vector<double> samples;
  for (std::size_t i = 0; i < j["samples"].size(); ++i)
    samples.push_back(
        r.check(j["samples"][i], r.where("samples[" + std::to_string(i) + "]"), true));
  if (j.contains("sample_rounds")) {
    const json& rounds = j["sample_rounds"];
    if (!rounds.is_array() || rounds.size() != samples.size())
      throw InputError(
          file, r.where("sample_rounds"),
          "must be an array with one round per sample (" + std::to_string(samples.size()) + ")");
    for (std::size_t i = 0; i < rounds.size(); ++i)
      if (!rounds[i].is_number_integer() || rounds[i].get<std::int64_t>() < 0 ||
          rounds[i].get<std::int64_t>() > 1000000)
        throw InputError(file, r.where("sample_rounds[" + std::to_string(i) + "]"),
                         "must be a round number (0 to 1000000)");
  }
  p.median_s = r.number("median_s", true).value_or(median(samples));
  const double flops = r.number("flops", false).value_or(0);
  const double bytes = r.number("bytes", false).value_or(0);
  if (flops <= 0 && bytes <= 0)
    throw InputError(file, r.where("flops"), "a measured point needs flops or bytes above 0");
  // Rates and intensity follow from the counts; recomputing them keeps one source of truth.
  if (flops > 0) p.flops_per_s = flops / p.median_s;
  if (bytes > 0) p.bytes_per_s = bytes / p.median_s;
  if (bytes > 0 && flops > 0) p.intensity = flops / bytes;
  for (const auto& rate : {p.flops_per_s, p.bytes_per_s})
    if (rate && !std::isnormal(*rate))
      throw InputError(file, r.where("median_s"),
                       "gives a rate (counts / median_s) that is not a finite positive number");
  if (p.intensity && !std::isnormal(*p.intensity))
    throw InputError(file, r.where("bytes"),
                     "gives an intensity (flops / bytes) that is not a finite positive number");
  r.number("intensity", false);  // checked for sanity (copy/fill: 0), not used
  p.telemetry = read_telemetry(file, j, at);
  if (j.contains("observed") && j["observed"].is_object()) {
    const Reader observed(file, j["observed"], r.where("observed"));
    if (const std::optional<double> mhz = observed.number("sm_clock_mhz", true)) {
      if (*mhz > 1e5)
        throw InputError(file, observed.where("sm_clock_mhz"), "must be at most 100000 MHz");
      p.kernel_clock_mhz = *mhz;
    }
  }
  read_cpu_wait(file, j, at, p);
  read_host_clock(file, j, at, p);
}

// An MPI job's point: its rank and placement (both or neither).
void read_placement(const std::string& file, const json& j, const std::string& at, Point& p) {
  const Reader r(file, j, at);
  if (!r.has("rank") && !r.has("placement")) return;
  const auto rank = r.number("rank", false);
  if (!rank || *rank != std::floor(*rank) || *rank > 1e6)
    throw InputError(file, r.where("rank"), "must be a rank number (0 to 1000000)");
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

Point read_point_entry(const std::string& file, const json& j, std::size_t index) {
  const std::string at = "points[" + std::to_string(index) + "]";
  if (!j.is_object()) throw InputError(file, at, "must be an object");
  const Reader r(file, j, at);
  for (const char* key : {"name", "probe", "family", "space", "dtype"}) r.str(key, true);
  const bool measured = r.str("skipped_reason", false).empty();
  Point p;
  p.working_set_bytes = r.number("working_set_bytes", false).value_or(0);
  r.number("flops", false);
  r.number("bytes", false);
  if (measured) read_measured(file, j, at, p);
  read_placement(file, j, at, p);
  // Checked: every field read above has its type, so the decoder reads what was checked (a
  // measured entry has samples, and the rank is an integer). The entry's identity, counts and
  // samples are the point's; its measurement and observations stay in the file (the reporter
  // takes of them what is read above).
  PointEntry e = point_entry_from_json(j);
  p.name = std::move(e.info.name);
  p.probe = std::move(e.info.probe);
  p.family = std::move(e.info.family);
  p.space = std::move(e.info.space);
  p.dtype = std::move(e.info.dtype);
  p.skipped_reason = std::move(e.skipped_reason);
  p.params = std::move(e.info.params);
  p.elements = double(e.info.elements);
  p.flops = e.info.flops;
  p.bytes = e.info.bytes;
  if (p.measured()) {
    p.verified = e.verification.ok;
    p.verify_error = std::move(e.verification.error);
    p.samples = std::move(e.samples);
    p.sample_rounds = std::move(e.sample_rounds);
  }
  if (e.mpi) p.rank = e.mpi->rank;
  return p;
}

}  // namespace ridgeline
