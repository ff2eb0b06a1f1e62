#include "sweep/results_writer.hpp"

#include <algorithm>
#include <cmath>

#include "results/input_error.hpp"
#include "results/results_file.hpp"

namespace ridgeline {

using nlohmann::json;

namespace {

// NaN and infinity are not JSON; an unmeasurable number is null.
json finite_or_null(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

json point_json(const PointInfo& info, const std::vector<double>& samples,
                const Verification& verification, const std::string& skipped_reason,
                const json& measurement) {
  json p = {{"name", info.name},
            {"probe", info.probe},
            {"family", info.family},
            {"space", info.space},
            {"dtype", info.dtype},
            {"working_set_bytes", info.working_set_bytes},
            {"elements", info.elements},
            {"flops", info.flops},
            {"bytes", info.bytes},
            {"intensity", info.bytes > 0 ? json(info.flops / info.bytes) : json(nullptr)},
            {"params", info.params}};
  const bool measured = skipped_reason.empty() && !samples.empty();
  p["samples"] = json::array();
  for (double s : samples) p["samples"].push_back(finite_or_null(s));
  if (measured) {
    const double med = median(samples);
    p["median_s"] = finite_or_null(med);
    p["min_s"] = finite_or_null(*std::min_element(samples.begin(), samples.end()));
    p["max_s"] = finite_or_null(*std::max_element(samples.begin(), samples.end()));
    p["flops_per_s"] = info.flops > 0 ? finite_or_null(info.flops / med) : json(nullptr);
    p["bytes_per_s"] = info.bytes > 0 ? finite_or_null(info.bytes / med) : json(nullptr);
    p["verified"] = verification.ok;
    p["verify_error"] = verification.ok ? json(nullptr) : json(verification.error);
    p["skipped_reason"] = nullptr;
  } else {
    for (const char* k : {"median_s", "min_s", "max_s", "flops_per_s", "bytes_per_s"})
      p[k] = nullptr;
    p["verified"] = false;
    p["verify_error"] = nullptr;
    p["skipped_reason"] = skipped_reason.empty() ? "no samples" : skipped_reason;
  }
  const bool has_measurement = measured && measurement.is_object();
  p["timer"] = has_measurement ? measurement.value("timer", json(nullptr)) : json(nullptr);
  p["l2_flush_bytes"] = has_measurement ? measurement.value("l2_flush_bytes", json(0)) : json(0);
  p["telemetry"] = has_measurement ? measurement.value("telemetry", json(nullptr)) : json(nullptr);
  // How the device was held and flushed, and why telemetry is missing, where the backend says.
  if (has_measurement)
    for (const char* k : {"stream_hold", "hold_timeouts", "l2_flush", "telemetry_unavailable"})
      if (measurement.contains(k)) p[k] = measurement[k];
  return p;
}

ResultsWriter::ResultsWriter(std::string path, json profile, json context)
    : path_(std::move(path)) {
  doc_ = {{"schema_version", kSchemaVersion},
          {"complete", false},
          {"profile", std::move(profile)},
          {"context", std::move(context)},
          {"points", json::array()}};
}

std::set<std::string> ResultsWriter::resume_from(const std::string& path) {
  const json old = read_results_file(path);
  const std::string host = doc_["context"]["host"]["hostname"];
  if (old["context"].value("host", json::object()).value("hostname", "") != host)
    throw InputError(path, "context.host.hostname",
                     "was written on another host; --resume continues runs of this host only");
  if (!old.contains("profile") || old["profile"].value("name", "") != doc_["profile"]["name"])
    throw InputError(path, "profile.name",
                     "was written with another profile; resume with the same --profile");
  std::set<std::string> done;
  for (const auto& p : old["points"]) {
    if (!p.is_object() || !p.contains("name") || !p["name"].is_string())
      throw InputError(path, "points", "an entry has no name");
    // Only measured points carry over; skipped or failed ones are tried again.
    if (!p.value("skipped_reason", json(nullptr)).is_null()) continue;
    if (!p.value("verified", false)) continue;
    done.insert(p["name"].get<std::string>());
    doc_["points"].push_back(p);
  }
  flush();
  return done;
}

void ResultsWriter::add(json point) {
  doc_["points"].push_back(std::move(point));
  flush();
}

void ResultsWriter::finish() {
  doc_["complete"] = true;
  flush();
}

int ResultsWriter::failed_points() const {
  int n = 0;
  for (const auto& p : doc_["points"])
    if (p["skipped_reason"].is_null() && !p["verified"].get<bool>()) ++n;
  return n;
}

void ResultsWriter::flush() const { write_json_atomically(path_, doc_); }

}  // namespace ridgeline
