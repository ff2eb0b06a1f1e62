#include "reports/compare/compare_json.hpp"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "core/file_io.hpp"
#include "core/input_error.hpp"
#include "reports/compare/history.hpp"

namespace ridgeline {
namespace cjson {

using nlohmann::json;

// A value the file writes as null where it is not finite (or not known).
std::optional<double> finite(double v) {
  return std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

const char* unit_of(const MetricComparison& m, const std::string& kind) {
  // Roofs in FLOP/s or byte/s, points as median seconds per call, the machine-wide factor as
  // throughput relative to the history, as is a level's points together.
  if (m.roof)
    return m.metric.rfind("P ", 0) == 0 || m.metric.rfind("P_matrix ", 0) == 0 ? "FLOP/s"
                                                                               : "byte/s";
  return kind == "machine" || kind == "level" ? "ratio" : "s";
}

CompareMetric metric_record(const MetricComparison& m, const std::string& kind) {
  CompareMetric r;
  r.metric = m.metric;
  r.kind = kind;
  r.unit = unit_of(m, kind);
  r.baseline = finite(m.baseline_value);
  if (m.verdict != Verdict::kMissing) r.current = finite(m.current_value);
  r.change = finite(m.change);
  r.tolerance = finite(m.tolerance);
  if (m.min_detectable >= 0) r.min_detectable_change = finite(m.min_detectable);
  if (m.spread >= 0) r.spread = finite(m.spread);
  r.history_nights = m.nights;
  r.p_value = finite(m.p_value);
  r.q_value = finite(m.q_value);
  r.verdict = verdict_name(m.verdict);
  r.note = m.note;
  r.clock_limited = m.clock_limited;
  if (m.sm_clock_mhz > 0) r.sm_clock_mhz = m.sm_clock_mhz;
  if (m.history_sm_clock_mhz > 0) r.history_sm_clock_mhz = m.history_sm_clock_mhz;
  if (m.host_clock_mhz > 0) r.host_clock_mhz = m.host_clock_mhz;
  if (m.history_host_clock_mhz > 0) r.history_host_clock_mhz = m.history_host_clock_mhz;
  r.new_throttle_reasons = m.new_throttle_reasons;
  r.throttled_samples = m.throttled_samples;
  if (m.change_per_cycle) r.change_per_cycle = finite(*m.change_per_cycle);
  r.machine_busy = m.machine_busy;
  if (m.cpu_wait_share >= 0) r.cpu_wait_share = finite(m.cpu_wait_share);
  if (m.history_cpu_wait_share >= 0) r.history_cpu_wait_share = finite(m.history_cpu_wait_share);
  if (m.shared) {
    const SharedLevel& s = *m.shared;
    r.shared_level = SharedLevelRecord{s.reason, finite(s.lowest), finite(s.highest),
                                       s.dram_floor ? finite(*s.dram_floor) : std::nullopt,
                                       range_outcome_name(s.outcome)};
  }
  if (m.remeasure) {
    r.remeasure_change = finite(m.remeasure->change);
    r.remeasure_verdict = verdict_name(m.remeasure->verdict);
  }
  for (const Remeasure& again : m.remeasures)
    r.remeasures.push_back({again.label, finite(again.change), verdict_name(again.verdict)});
  if (kind == "point" || kind == "level") r.level = m.level;
  if (kind == "roof") {
    // Both ways: `baseline`/`change` relative to the night's machine-wide factor (what the
    // verdict judges), `absolute_*` as measured.
    r.relative_change = r.change;
    r.absolute_baseline = finite(m.absolute_baseline_value);
    if (m.absolute_change) r.absolute_change = finite(*m.absolute_change);
    if (m.absolute_tolerance > 0) r.absolute_tolerance = finite(m.absolute_tolerance);
  }
  return r;
}

json number(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }
json text(const std::optional<std::string>& v) { return v ? json(*v) : json(nullptr); }

json metric_to_json(const CompareMetric& r) {
  json j = json::object();
  j["metric"] = r.metric;
  j["kind"] = r.kind;
  j["unit"] = r.unit;
  j["baseline"] = number(r.baseline);
  j["current"] = number(r.current);
  j["change"] = number(r.change);
  j["tolerance"] = number(r.tolerance);
  j["min_detectable_change"] = number(r.min_detectable_change);
  j["spread"] = number(r.spread);
  j["history_nights"] = r.history_nights;
  j["p_value"] = number(r.p_value);
  j["q_value"] = number(r.q_value);
  j["verdict"] = r.verdict;
  j["note"] = r.note;
  j["clock_limited"] = r.clock_limited;
  j["sm_clock_mhz"] = number(r.sm_clock_mhz);
  j["history_sm_clock_mhz"] = number(r.history_sm_clock_mhz);
  j["host_clock_mhz"] = number(r.host_clock_mhz);
  j["history_host_clock_mhz"] = number(r.history_host_clock_mhz);
  j["new_throttle_reasons"] = r.new_throttle_reasons;
  j["throttled_samples"] = r.throttled_samples;
  j["change_per_cycle"] = number(r.change_per_cycle);
  j["machine_busy"] = r.machine_busy;
  j["cpu_wait_share"] = number(r.cpu_wait_share);
  j["history_cpu_wait_share"] = number(r.history_cpu_wait_share);
  j["shared_level"] = nullptr;
  if (r.shared_level)
    j["shared_level"] = {{"reason", r.shared_level->reason},
                         {"history_lowest", number(r.shared_level->history_lowest)},
                         {"history_highest", number(r.shared_level->history_highest)},
                         {"dram_floor", number(r.shared_level->dram_floor)},
                         {"outcome", r.shared_level->outcome}};
  if (r.kind == "machine" || r.kind == "level" || r.kind == "roof" || r.kind == "point") {
    j["remeasure"] = r.remeasure_verdict ? json{{"change", number(r.remeasure_change)},
                                                {"verdict", *r.remeasure_verdict}}
                                         : json(nullptr);
    j["remeasures"] = json::array();
    for (const RemeasureRecord& again : r.remeasures)
      j["remeasures"].push_back(
          {{"label", again.label}, {"change", number(again.change)}, {"verdict", again.verdict}});
  }
  if (r.kind == "point" || r.kind == "level") j["level"] = text(r.level);
  if (r.kind == "roof") {
    j["relative_change"] = number(r.relative_change);
    j["absolute_baseline"] = number(r.absolute_baseline);
    j["absolute_change"] = number(r.absolute_change);
    j["absolute_tolerance"] = number(r.absolute_tolerance);
  }
  if (r.kind == "kernel") {
    j["fraction_of_roof"] =
        r.fraction_of_roof.empty() ? json(nullptr) : metric_to_json(r.fraction_of_roof.front());
    j["roof_change"] = number(r.roof_change);
    j["cause"] = text(r.cause);
    j["explanation"] = r.explanation;
  }
  return j;
}

json unreadable_json(const std::vector<UnreadableFile>& unreadable) {
  json j = json::array();
  for (const auto& u : unreadable)
    j.push_back({{"file", u.file}, {"role", u.role}, {"error", u.error}});
  return j;
}

// ---- reading --------------------------------------------------------------------------------

// One object of the file and its JSON path, for errors that name the exact field.
class Fields {
 public:
  Fields(const std::string& file, const json& j, std::string path)
      : file_(file), j_(j), path_(std::move(path)) {
    if (!j_.is_object()) throw InputError(file_, path_, "must be an object");
  }
  std::string at(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }
  const json& get(const std::string& key) const {
    if (!j_.contains(key)) throw InputError(file_, at(key), "missing required field");
    return j_[key];
  }
  bool has(const std::string& key) const { return j_.contains(key); }
  std::string str(const std::string& key) const {
    const json& v = get(key);
    if (!v.is_string()) throw InputError(file_, at(key), "must be a string");
    return v.get<std::string>();
  }
  std::optional<std::string> str_or_null(const std::string& key) const {
    const json& v = get(key);
    if (v.is_null()) return std::nullopt;
    if (!v.is_string()) throw InputError(file_, at(key), "must be a string or null");
    return v.get<std::string>();
  }
  // Any finite number (changes are negative), or null.
  std::optional<double> num_or_null(const std::string& key) const {
    const json& v = get(key);
    if (v.is_null()) return std::nullopt;
    if (!v.is_number()) throw InputError(file_, at(key), "must be a number or null");
    return v.get<double>();
  }
  double num(const std::string& key) const {
    const std::optional<double> v = num_or_null(key);
    if (!v) throw InputError(file_, at(key), "must be a number");
    return *v;
  }
  int integer(const std::string& key) const {
    const json& v = get(key);
    if (!v.is_number_integer() || v.get<long long>() < 0 || v.get<long long>() > 1000000000)
      throw InputError(file_, at(key), "must be a whole number >= 0");
    return int(v.get<long long>());
  }
  bool boolean(const std::string& key) const {
    const json& v = get(key);
    if (!v.is_boolean()) throw InputError(file_, at(key), "must be true or false");
    return v.get<bool>();
  }
  std::vector<std::string> strings(const std::string& key) const {
    const json& v = get(key);
    if (!v.is_array()) throw InputError(file_, at(key), "must be an array of strings");
    std::vector<std::string> out;
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (!v[i].is_string())
        throw InputError(file_, fmt::format("{}[{}]", at(key), i), "must be a string");
      out.push_back(v[i].get<std::string>());
    }
    return out;
  }
  std::map<std::string, int> counts(const std::string& key) const {
    const Fields c(file_, get(key), at(key));
    std::map<std::string, int> out;
    for (const auto& item : c.j_.items()) out[item.key()] = c.integer(item.key());
    return out;
  }
  const json& array(const std::string& key) const {
    const json& v = get(key);
    if (!v.is_array()) throw InputError(file_, at(key), "must be an array");
    return v;
  }
  const std::string& file() const { return file_; }

 private:
  const std::string& file_;
  const json& j_;
  std::string path_;
};

CompareMetric metric_from(const Fields& f) {
  CompareMetric r;
  r.metric = f.str("metric");
  r.kind = f.str("kind");
  if (r.kind != "machine" && r.kind != "level" && r.kind != "roof" && r.kind != "point" &&
      r.kind != "kernel" && r.kind != "fraction")
    throw InputError(f.file(), f.at("kind"),
                     "'" + r.kind + "' is none of machine, level, roof, point, kernel, fraction");
  r.unit = f.str("unit");
  r.baseline = f.num_or_null("baseline");
  r.current = f.num_or_null("current");
  r.change = f.num_or_null("change");
  r.tolerance = f.num_or_null("tolerance");
  r.min_detectable_change = f.num_or_null("min_detectable_change");
  r.spread = f.num_or_null("spread");
  r.history_nights = f.integer("history_nights");
  r.p_value = f.num_or_null("p_value");
  r.q_value = f.num_or_null("q_value");
  r.verdict = f.str("verdict");
  r.note = f.str("note");
  r.clock_limited = f.boolean("clock_limited");
  r.sm_clock_mhz = f.num_or_null("sm_clock_mhz");
  r.history_sm_clock_mhz = f.num_or_null("history_sm_clock_mhz");
  // Since 1.9.0; older files have no host clock.
  if (f.has("host_clock_mhz")) r.host_clock_mhz = f.num_or_null("host_clock_mhz");
  if (f.has("history_host_clock_mhz"))
    r.history_host_clock_mhz = f.num_or_null("history_host_clock_mhz");
  r.new_throttle_reasons = f.strings("new_throttle_reasons");
  r.throttled_samples = f.integer("throttled_samples");
  r.change_per_cycle = f.num_or_null("change_per_cycle");
  r.machine_busy = f.boolean("machine_busy");
  r.cpu_wait_share = f.num_or_null("cpu_wait_share");
  r.history_cpu_wait_share = f.num_or_null("history_cpu_wait_share");
  if (!f.get("shared_level").is_null()) {
    const Fields s(f.file(), f.get("shared_level"), f.at("shared_level"));
    r.shared_level = SharedLevelRecord{s.str("reason"), s.num_or_null("history_lowest"),
                                       s.num_or_null("history_highest"),
                                       s.num_or_null("dram_floor"), s.str("outcome")};
  }
  // 1.5.0 and later; files of 1.4 have no re-measure.
  if ((r.kind == "machine" || r.kind == "level" || r.kind == "roof" || r.kind == "point") &&
      f.has("remeasure") && !f.get("remeasure").is_null()) {
    const Fields m(f.file(), f.get("remeasure"), f.at("remeasure"));
    r.remeasure_change = m.num_or_null("change");
    r.remeasure_verdict = m.str("verdict");
  }
  // 1.6.0 and later; a file of 1.5.0 gets its one re-measure's reading from parse_compare_json.
  if ((r.kind == "machine" || r.kind == "level" || r.kind == "roof" || r.kind == "point") &&
      f.has("remeasures")) {
    const json& list = f.array("remeasures");
    for (std::size_t i = 0; i < list.size(); ++i) {
      const Fields a(f.file(), list[i], fmt::format("{}[{}]", f.at("remeasures"), i));
      r.remeasures.push_back({a.str("label"), a.num_or_null("change"), a.str("verdict")});
    }
  }
  // 1.7.0 and later; older files name no level.
  if ((r.kind == "point" || r.kind == "level") && f.has("level")) r.level = f.str_or_null("level");
  if (r.kind == "roof") {
    r.relative_change = f.num_or_null("relative_change");
    r.absolute_baseline = f.num_or_null("absolute_baseline");
    r.absolute_change = f.num_or_null("absolute_change");
    r.absolute_tolerance = f.num_or_null("absolute_tolerance");
  }
  if (r.kind == "kernel") {
    if (!f.get("fraction_of_roof").is_null())
      r.fraction_of_roof.push_back(
          metric_from(Fields(f.file(), f.get("fraction_of_roof"), f.at("fraction_of_roof"))));
    r.roof_change = f.num_or_null("roof_change");
    r.cause = f.str_or_null("cause");
    r.explanation = f.str("explanation");
  }
  return r;
}

CompareOptions options_from(const Fields& f, bool kernels) {
  CompareOptions o;
  o.threshold_pct = f.num("threshold_pct");
  o.alpha = f.num("alpha");
  o.k = f.num("k");
  o.min_history = f.integer("min_history");
  if (kernels) return o;
  o.machine_k = f.num("machine_k");
  o.machine_threshold_pct = f.num("machine_threshold_pct");
  o.clock_limited_ambiguous = f.boolean("clock_limited_ambiguous");
  // 1.6.0: how many re-measures; 1.5.0: whether there was one (true: 1); 1.4.0: none.
  if (f.has("remeasured"))
    o.remeasured =
        f.get("remeasured").is_boolean() ? int(f.boolean("remeasured")) : f.integer("remeasured");
  return o;
}

}  // namespace cjson

CompareFile compare_file(const std::string& label, const Comparison& c, const CompareOptions& o,
                         const std::vector<UnreadableFile>& unreadable) {
  CompareFile f;
  f.kind = "results";
  f.verdict = c.regressions() ? "REGRESSION" : "no regression";
  f.history_decision = history_decision_name(history_decision(c, o.min_history));
  f.unreadable = unreadable;
  f.regressions = c.regressions();
  f.gates_speed = c.gates_speed;
  if (c.machine) f.machine_verdict = verdict_name(c.machine->verdict);
  f.machine_roofs = c.machine_roofs;
  f.history = c.history;
  f.busy_history = c.busy_history;
  f.quiet_history_nights = c.quiet_history_nights;
  if (c.night_cpu_wait >= 0) f.night_cpu_wait_share = c.night_cpu_wait;
  f.busy_night = c.busy_night();
  f.current = label;
  f.options = o;
  for (Verdict v : {Verdict::kSlower, Verdict::kFailed, Verdict::kMissing, Verdict::kFaster,
                    Verdict::kAmbiguous, Verdict::kSame})
    f.counts[verdict_name(v)] = c.count(v);
  // Points judged against their history's range, by what that range made of them.
  f.shared_levels["points"] = 0;
  for (RangeOutcome r :
       {RangeOutcome::kWithinTolerance, RangeOutcome::kVariedWithNeighbours,
        RangeOutcome::kAboveHistory, RangeOutcome::kBelowHistory, RangeOutcome::kBelowDram})
    f.shared_levels[range_outcome_name(r)] = 0;
  for (const auto& m : c.points)
    if (m.shared) {
      ++f.shared_levels["points"];
      ++f.shared_levels[range_outcome_name(m.shared->outcome)];
    }
  if (c.machine) f.metrics.push_back(cjson::metric_record(*c.machine, "machine"));
  for (const auto& m : c.levels) f.metrics.push_back(cjson::metric_record(m, "level"));
  for (const auto& m : c.roofs) f.metrics.push_back(cjson::metric_record(m, "roof"));
  for (const auto& m : c.points) f.metrics.push_back(cjson::metric_record(m, "point"));
  f.not_compared = c.not_compared;
  f.remeasures = c.remeasures;
  f.not_reproduced = c.not_reproduced;
  return f;
}

CompareFile kernels_compare_file(const std::string& label, const KernelsComparison& c,
                                 const CompareOptions& o,
                                 const std::vector<UnreadableFile>& unreadable) {
  CompareFile f;
  f.kind = "kernels";
  f.verdict = c.regressions() ? "REGRESSION" : "no regression";
  f.regressions = c.regressions();
  f.gates_speed = c.gates_speed;
  f.unreadable = unreadable;
  f.history = c.history;
  f.current = label;
  f.options = o;
  for (Verdict v :
       {Verdict::kSlower, Verdict::kMissing, Verdict::kFaster, Verdict::kAmbiguous, Verdict::kSame})
    f.counts[verdict_name(v)] = c.count(v);
  for (const KernelComparison& k : c.kernels) {
    CompareMetric r = cjson::metric_record(k.time, "kernel");
    if (k.fraction) {
      r.fraction_of_roof.push_back(cjson::metric_record(*k.fraction, "fraction"));
      r.fraction_of_roof.front().unit = "ratio";
    }
    if (k.roof_change) r.roof_change = cjson::finite(*k.roof_change);
    // "machine": the roof moved with it; "code": the roof held; "both"; "unknown": no roofs or
    // an unclear fraction; null: not slower.
    if (k.cause != SlowdownCause::kNone) r.cause = slowdown_cause_name(k.cause);
    r.explanation = k.explanation;
    f.metrics.push_back(std::move(r));
  }
  f.not_compared = c.not_compared;
  return f;
}

CompareFile unreadable_baseline_file(const UnreadableFile& baseline) {
  CompareFile f;
  f.kind = "unreadable_baseline";
  f.unreadable = {baseline};
  return f;
}

std::string write_compare_json(const CompareFile& f) {
  nlohmann::json j = nlohmann::json::object();
  j["schema_version"] = f.schema_version;
  j["verdict"] = cjson::text(f.verdict);
  j["unreadable"] = cjson::unreadable_json(f.unreadable);
  if (f.kind == "unreadable_baseline") {
    j["history_decision"] = nullptr;
    return j.dump(1) + "\n";
  }
  j["regressions"] = f.regressions;
  j["gates_speed"] = f.gates_speed;
  j["history"] = f.history;
  j["current"] = f.current;
  j["options"] = {{"threshold_pct", f.options.threshold_pct},
                  {"alpha", f.options.alpha},
                  {"k", f.options.k},
                  {"min_history", f.options.min_history}};
  j["counts"] = f.counts;
  j["not_compared"] = f.not_compared;
  nlohmann::json metrics = nlohmann::json::array();
  for (const auto& m : f.metrics) metrics.push_back(cjson::metric_to_json(m));
  if (f.kind == "kernels") {
    j["kind"] = "kernels";
    j["kernels"] = std::move(metrics);
    return j.dump(1) + "\n";
  }
  j["metrics"] = std::move(metrics);
  // Whether tonight may join the history (if its run verified too), and the history files left
  // out as unreadable (--skip-unreadable-history): what scripts act on.
  j["history_decision"] = cjson::text(f.history_decision);
  // The machine-wide verdict (null: fewer than 3 history nights or 5 points, not judged) and,
  // when it is a slowdown, the roofs that lost as much in absolute terms.
  j["machine_verdict"] = cjson::text(f.machine_verdict);
  j["machine_roofs"] = f.machine_roofs;
  // Nights left out of the history as measured on a busy machine, and tonight's median CPU wait
  // share (null: not recorded).
  j["busy_history"] = f.busy_history;
  j["quiet_history_nights"] = f.quiet_history_nights;
  j["night_cpu_wait_share"] = cjson::number(f.night_cpu_wait_share);
  j["busy_night"] = f.busy_night;
  j["options"]["machine_k"] = f.options.machine_k;
  j["options"]["machine_threshold_pct"] = f.options.machine_threshold_pct;
  j["options"]["clock_limited_ambiguous"] = f.options.clock_limited_ambiguous;
  j["shared_levels"] = f.shared_levels;
  // The re-measures tonight's slowdowns were held to (remeasure: the first, null: none; as 1.5.0
  // wrote it) and how many slowdowns they did not reproduce.
  j["options"]["remeasured"] = f.options.remeasured;
  j["remeasure"] = f.remeasures.empty() ? nlohmann::json(nullptr) : nlohmann::json(f.remeasures[0]);
  j["remeasures"] = f.remeasures;
  j["not_reproduced"] = f.not_reproduced;
  return j.dump(1) + "\n";
}

CompareFile parse_compare_json(const std::string& text_in, const std::string& file) {
  const nlohmann::json j = nlohmann::json::parse(text_in, nullptr, false);
  if (j.is_discarded()) throw InputError(file, "", "not valid JSON (is it a compare.json?)");
  const cjson::Fields f(file, j, "");
  CompareFile out;
  out.schema_version = f.str("schema_version");
  if (out.schema_version.rfind("1.", 0) != 0)
    throw InputError(
        file, "schema_version",
        "'" + out.schema_version + "' is not 1.x; this reader knows " + kCompareSchemaVersion);
  out.verdict = f.str_or_null("verdict");
  const nlohmann::json& unreadable = f.array("unreadable");
  for (std::size_t i = 0; i < unreadable.size(); ++i) {
    const cjson::Fields u(file, unreadable[i], fmt::format("unreadable[{}]", i));
    out.unreadable.push_back({u.str("file"), u.str("role"), u.str("error")});
  }
  if (!out.verdict) {
    out.kind = "unreadable_baseline";
    return out;
  }
  out.kind = f.has("kind") ? f.str("kind") : "results";
  if (out.kind != "results" && out.kind != "kernels")
    throw InputError(file, "kind", "'" + out.kind + "' is neither absent nor \"kernels\"");
  const bool kernels = out.kind == "kernels";
  out.regressions = f.integer("regressions");
  out.gates_speed = f.boolean("gates_speed");
  out.history = f.strings("history");
  out.current = f.str("current");
  out.options = cjson::options_from(cjson::Fields(file, f.get("options"), "options"), kernels);
  out.counts = f.counts("counts");
  out.not_compared = f.strings("not_compared");
  const std::string list = kernels ? "kernels" : "metrics";
  const nlohmann::json& metrics = f.array(list);
  for (std::size_t i = 0; i < metrics.size(); ++i)
    out.metrics.push_back(
        cjson::metric_from(cjson::Fields(file, metrics[i], fmt::format("{}[{}]", list, i))));
  if (kernels) return out;
  out.history_decision = f.str_or_null("history_decision");
  out.machine_verdict = f.str_or_null("machine_verdict");
  out.machine_roofs = f.strings("machine_roofs");
  out.busy_history = f.strings("busy_history");
  out.quiet_history_nights = f.integer("quiet_history_nights");
  out.night_cpu_wait_share = f.num_or_null("night_cpu_wait_share");
  out.busy_night = f.boolean("busy_night");
  out.shared_levels = f.counts("shared_levels");
  if (f.has("remeasures")) {  // 1.6.0 and later
    out.remeasures = f.strings("remeasures");
  } else if (f.has("remeasure")) {  // 1.5.0: one re-measure, each held metric's its reading
    if (const std::optional<std::string> label = f.str_or_null("remeasure")) {
      out.remeasures = {*label};
      for (CompareMetric& m : out.metrics)
        if (m.remeasure_verdict && m.remeasures.empty())
          m.remeasures.push_back({*label, m.remeasure_change, *m.remeasure_verdict});
    }
  }
  if (f.has("remeasure")) out.not_reproduced = f.integer("not_reproduced");  // 1.5.0 and later
  return out;
}

CompareFile read_compare_json(const std::string& path) {
  return parse_compare_json(read_text_file(path, "compare JSON"), path);
}

int busy_slowdowns(const CompareFile& f) {
  int n = 0;
  for (const auto& m : f.metrics) n += m.machine_busy;
  return n;
}

}  // namespace ridgeline
