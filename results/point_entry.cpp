#include "results/point_entry.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>

#include "core/stats.hpp"

namespace ridgeline {

using nlohmann::json;

namespace {

// NaN and infinity are not JSON; an unmeasurable number is null.
std::optional<double> finite(double v) {
  return std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}
json or_null(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }
json finite_or_null(double v) { return or_null(finite(v)); }

// The decoder's reads: the value when it has the type, else the empty one.
std::string text_at(const json& j, const char* key) {
  return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
}
double number_at(const json& j, const char* key) {
  return j.contains(key) && j[key].is_number() ? j[key].get<double>() : 0;
}
std::uint64_t count_at(const json& j, const char* key) {
  return j.contains(key) && j[key].is_number_unsigned() ? j[key].get<std::uint64_t>() : 0;
}
// A round number; nullopt for anything that is not an int (it is never converted out of range).
std::optional<int> round_of(const json& r) {
  if (r.is_number_unsigned() && r.get<std::uint64_t>() <= std::uint64_t(INT_MAX))
    return static_cast<int>(r.get<std::uint64_t>());
  if (r.is_number_integer() && !r.is_number_unsigned() && r.get<std::int64_t>() >= INT_MIN &&
      r.get<std::int64_t>() <= INT_MAX)
    return static_cast<int>(r.get<std::int64_t>());
  return std::nullopt;
}

}  // namespace

PointFigures point_figures(const PointEntry& e) {
  PointFigures f;
  const PointInfo& info = e.info;
  if (info.bytes > 0) f.intensity = info.flops / info.bytes;
  if (!e.measured()) return f;
  const double med = median(e.samples);
  f.median_s = finite(med);
  f.min_s = finite(*std::min_element(e.samples.begin(), e.samples.end()));
  f.max_s = finite(*std::max_element(e.samples.begin(), e.samples.end()));
  if (info.flops > 0) f.flops_per_s = finite(info.flops / med);
  if (info.bytes > 0) f.bytes_per_s = finite(info.bytes / med);
  return f;
}

json to_json(const PointEntry& e) {
  const PointInfo& info = e.info;
  const PointFigures f = point_figures(e);
  json p = {{"name", info.name},
            {"probe", info.probe},
            {"family", info.family},
            {"space", info.space},
            {"dtype", info.dtype},
            {"working_set_bytes", info.working_set_bytes},
            {"elements", info.elements},
            {"flops", info.flops},
            {"bytes", info.bytes},
            {"intensity", or_null(f.intensity)},
            {"params", info.params},
            {"median_s", or_null(f.median_s)},
            {"min_s", or_null(f.min_s)},
            {"max_s", or_null(f.max_s)},
            {"flops_per_s", or_null(f.flops_per_s)},
            {"bytes_per_s", or_null(f.bytes_per_s)},
            {"sample_rounds", e.sample_rounds}};
  p["samples"] = json::array();
  for (double s : e.samples) p["samples"].push_back(finite_or_null(s));
  const bool measured = e.measured();
  p["verified"] = measured && e.verification.ok;
  p["verify_error"] = measured && !e.verification.ok ? json(e.verification.error) : json(nullptr);
  p["skipped_reason"] = measured                   ? json(nullptr)
                        : e.skipped_reason.empty() ? json("no samples")
                                                   : json(e.skipped_reason);
  // How the point was timed: null (l2_flush_bytes 0) for points that were not measured.
  const PointMeasurement* m = measured && e.measurement ? &*e.measurement : nullptr;
  p["timer"] = m ? json(m->timer) : json(nullptr);
  p["l2_flush_bytes"] = m ? m->l2_flush_bytes : 0;
  p["telemetry"] = m ? m->telemetry : json(nullptr);
  p["cpu_wait"] = m ? m->cpu_wait : json(nullptr);
  p["host_clock"] = m ? m->host_clock : json(nullptr);
  // How the device was held and flushed, and why telemetry or the CPU wait is missing, where
  // known.
  if (m && m->stream_hold) p["stream_hold"] = *m->stream_hold;
  if (m && m->hold_timeouts) p["hold_timeouts"] = *m->hold_timeouts;
  if (m && m->l2_flush) p["l2_flush"] = *m->l2_flush;
  if (m && m->telemetry.is_null() && !m->telemetry_unavailable.empty())
    p["telemetry_unavailable"] = m->telemetry_unavailable;
  if (m && m->cpu_wait.is_null() && !m->cpu_wait_unavailable.empty())
    p["cpu_wait_unavailable"] = m->cpu_wait_unavailable;
  if (m && m->host_clock.is_null() && !m->host_clock_unavailable.empty())
    p["host_clock_unavailable"] = m->host_clock_unavailable;
  if (e.observed) p["observed"] = *e.observed;
  if (e.mpi) {
    p["rank"] = e.mpi->rank;
    p["placement"] = e.mpi->placement;
    p["mpi_wall_s"] = e.mpi->wall_s;
  }
  return p;
}

PointEntry point_entry_from_json(const json& j) {
  PointEntry e;
  if (!j.is_object()) return e;
  PointInfo& info = e.info;
  info.name = text_at(j, "name");
  info.probe = text_at(j, "probe");
  info.family = text_at(j, "family");
  info.space = text_at(j, "space");
  info.dtype = text_at(j, "dtype");
  info.working_set_bytes = count_at(j, "working_set_bytes");
  info.elements = count_at(j, "elements");
  info.flops = number_at(j, "flops");
  info.bytes = number_at(j, "bytes");
  if (j.contains("params") && j["params"].is_object()) info.params = j["params"];
  if (j.contains("samples") && j["samples"].is_array())
    for (const json& s : j["samples"])
      e.samples.push_back(s.is_number() ? s.get<double>()
                                        : std::numeric_limits<double>::quiet_NaN());
  if (j.contains("sample_rounds") && j["sample_rounds"].is_array())
    for (const json& r : j["sample_rounds"])
      if (const std::optional<int> round = round_of(r)) e.sample_rounds.push_back(*round);
  e.skipped_reason = text_at(j, "skipped_reason");
  if (e.measured()) {
    e.verification.ok =
        j.contains("verified") && j["verified"].is_boolean() && j["verified"].get<bool>();
    e.verification.error = text_at(j, "verify_error");
  }
  // to_json writes a timer for every measurement it has.
  if (e.measured() && j.contains("timer") && j["timer"].is_string()) {
    PointMeasurement m;
    m.timer = j["timer"].get<std::string>();
    if (j.contains("stream_hold") && j["stream_hold"].is_boolean())
      m.stream_hold = j["stream_hold"].get<bool>();
    if (j.contains("hold_timeouts") && j["hold_timeouts"].is_number_unsigned())
      m.hold_timeouts = j["hold_timeouts"].get<std::uint64_t>();
    m.l2_flush_bytes = count_at(j, "l2_flush_bytes");
    if (j.contains("l2_flush") && j["l2_flush"].is_string())
      m.l2_flush = j["l2_flush"].get<std::string>();
    m.telemetry = j.value("telemetry", json(nullptr));
    m.telemetry_unavailable = text_at(j, "telemetry_unavailable");
    m.cpu_wait = j.value("cpu_wait", json(nullptr));
    m.cpu_wait_unavailable = text_at(j, "cpu_wait_unavailable");
    m.host_clock = j.value("host_clock", json(nullptr));
    m.host_clock_unavailable = text_at(j, "host_clock_unavailable");
    e.measurement = std::move(m);
  }
  if (j.contains("observed")) e.observed = j["observed"];
  if (j.contains("rank") && j["rank"].is_number()) {
    // Clamped: a rank number outside int must not overflow here (the reader rejects it).
    const double rank = j["rank"].get<double>();
    PointRank r;
    r.rank = std::isfinite(rank) ? static_cast<int>(std::clamp(rank, -1.0, 1e9)) : -1;
    r.placement = j.value("placement", json(nullptr));
    r.wall_s = number_at(j, "mpi_wall_s");
    e.mpi = std::move(r);
  }
  return e;
}

}  // namespace ridgeline
