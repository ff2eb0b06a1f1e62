// compare.json, one typed component (reports/compare/compare_json.hpp): what the reader reads
// back the writer writes again byte for byte (results, kernels and an unreadable baseline's
// file), `ridgeline compare --json` writes exactly the writer's text, the reader's errors are one
// line naming the file and the field, and schema.md describes every field the writer writes.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <regex>
#include <set>

#include "reports/compare/compare_json.hpp"
#include "reports/compare/gate_driver.hpp"
#include "tests/reports/cli_test_support.hpp"

namespace ridgeline {
namespace {

using namespace test;
using nlohmann::json;

std::string night_file(int n) {
  return kData + "/gate-history/night-0" + std::to_string(n) + ".json";
}

// Three history nights and tonight, recorded on one host: a comparison with every kind of metric
// (the machine-wide factor needs three history nights).
GateResult recorded_gate() {
  GateRequest g;
  g.files = {night_file(1), night_file(2), night_file(3), night_file(4)};
  return run_gate(g);
}

// The same with tonight's `read` point 3 × slower and night 5 as its re-measure, which is not:
// the slowdown not reproduced (compare/remeasure.hpp). `dir` holds the planted file.
GateResult remeasured_gate(const std::string& dir,
                           const std::vector<std::string>& confirm = {night_file(5)}) {
  json tonight = json::parse(slurp(night_file(4)));
  for (auto& p : tonight["points"])
    if (p["name"] == "read/Serial/fp64/n:32768") {
      for (auto& t : p["samples"]) t = 3 * t.get<double>();
      p["median_s"] = 3 * p["median_s"].get<double>();
    }
  write_json(dir + "/tonight.json", tonight);
  GateRequest g;
  g.files = {night_file(1), night_file(2), night_file(3), dir + "/tonight.json"};
  g.confirm = confirm;
  return run_gate(g);
}

// What the reader gives for `text`, or its error.
std::string read_error(const std::string& text) {
  try {
    parse_compare_json(text, "c.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(CompareJson, ResultsFileReadsBackToTheSameText) {
  const GateResult run = recorded_gate();
  ASSERT_FALSE(run.kernels);
  const std::string text = write_compare_json(run.file);
  const CompareFile back = parse_compare_json(text, "c.json");
  EXPECT_EQ(write_compare_json(back), text);
  EXPECT_EQ(back.schema_version, kCompareSchemaVersion);
  EXPECT_EQ(back.kind, "results");
  EXPECT_EQ(back.history.size(), 3u);
  EXPECT_EQ(back.metrics.size(), run.comparison.points.size() + run.comparison.roofs.size() +
                                     run.comparison.levels.size() +
                                     (run.comparison.machine ? 1 : 0));
  bool roof = false, machine = false;
  int levels = 0;
  for (const CompareMetric& m : back.metrics) {
    roof |= m.kind == "roof" && m.relative_change == m.change;
    machine |= m.kind == "machine" && m.unit == "ratio";
    // The Serial L2 points together (1.8.0).
    if (m.kind == "level") {
      EXPECT_EQ(m.unit, "ratio");
      EXPECT_EQ(m.level, std::optional<std::string>("L2")) << m.metric;
      ++levels;
    }
  }
  EXPECT_TRUE(roof);
  EXPECT_TRUE(machine);
  EXPECT_EQ(levels, 1);
}

TEST(CompareJson, ARemeasuredComparisonReadsBackToTheSameText) {
  TempDir dir;
  const GateResult run = remeasured_gate(dir.path);
  const std::string text = write_compare_json(run.file);
  const CompareFile back = parse_compare_json(text, "c.json");
  EXPECT_EQ(write_compare_json(back), text);
  EXPECT_EQ(back.options.remeasured, 1);
  EXPECT_EQ(back.remeasures, std::vector<std::string>{night_file(5)});
  EXPECT_EQ(back.not_reproduced, 1);
  EXPECT_EQ(back.regressions, 0);
  bool held = false;
  for (const CompareMetric& m : back.metrics)
    if (m.metric == "read/Serial/fp64/n:32768") {
      held = true;
      EXPECT_EQ(m.verdict, "AMBIGUOUS");
      EXPECT_EQ(m.remeasure_verdict, std::optional<std::string>("SAME"));
      ASSERT_TRUE(m.remeasure_change);
      EXPECT_GT(*m.remeasure_change, -0.05);
    } else {
      EXPECT_FALSE(m.remeasure_verdict) << m.metric;  // only tonight's slowdowns are held
    }
  EXPECT_TRUE(held);
  // A file of 1.4.0, before the re-measure, reads as having none.
  json old = json::parse(text);
  old["schema_version"] = "1.4.0";
  for (const char* k : {"remeasure", "remeasures", "not_reproduced"}) old.erase(k);
  old["options"].erase("remeasured");
  for (auto& m : old["metrics"]) {
    m.erase("remeasure"), m.erase("remeasures");
    m.erase("host_clock_mhz"), m.erase("history_host_clock_mhz");  // 1.9.0's
  }
  const CompareFile before = parse_compare_json(old.dump(), "c.json");
  EXPECT_TRUE(before.remeasures.empty());
  EXPECT_EQ(before.options.remeasured, 0);
}

// 1.5.0 wrote `remeasured` as true or false and one re-measure: read as a count of 1 or 0, and
// the one re-measure as the list, each held metric's reading under its label.
TEST(CompareJson, AFileOf150ReadsItsRemeasureAsOne) {
  TempDir dir;
  json v150 = json::parse(write_compare_json(remeasured_gate(dir.path).file));
  v150["schema_version"] = "1.5.0";
  v150["options"]["remeasured"] = true;
  v150.erase("remeasures");
  for (auto& m : v150["metrics"]) m.erase("remeasures");
  const CompareFile back = parse_compare_json(v150.dump(), "c.json");
  EXPECT_EQ(back.options.remeasured, 1);
  EXPECT_EQ(back.remeasures, std::vector<std::string>{night_file(5)});
  bool held = false;
  for (const CompareMetric& m : back.metrics)
    if (m.remeasure_verdict) {
      held = true;
      ASSERT_EQ(m.remeasures.size(), 1u) << m.metric;
      EXPECT_EQ(m.remeasures[0].label, night_file(5));
      EXPECT_EQ(m.remeasures[0].verdict, *m.remeasure_verdict);
      EXPECT_EQ(m.remeasures[0].change, m.remeasure_change);
    } else {
      EXPECT_TRUE(m.remeasures.empty()) << m.metric;
    }
  EXPECT_TRUE(held);
  v150["options"]["remeasured"] = false;
  v150["remeasure"] = nullptr;
  for (auto& m : v150["metrics"]) m["remeasure"] = nullptr;
  EXPECT_EQ(parse_compare_json(v150.dump(), "c.json").options.remeasured, 0);
}

// Two re-measures (1.6.0): the count, both labels in order, and every held metric's readings,
// which read back to the same text.
TEST(CompareJson, TwoRemeasuresReadBackToTheSameText) {
  TempDir dir;
  const GateResult run = remeasured_gate(dir.path, {night_file(5), night_file(6)});
  const std::string text = write_compare_json(run.file);
  const CompareFile back = parse_compare_json(text, "c.json");
  EXPECT_EQ(write_compare_json(back), text);
  EXPECT_EQ(back.options.remeasured, 2);
  EXPECT_EQ(back.remeasures, (std::vector<std::string>{night_file(5), night_file(6)}));
  EXPECT_EQ(json::parse(text)["remeasure"], night_file(5));  // the first, for 1.5.0 readers
  bool held = false;
  for (const CompareMetric& m : back.metrics)
    if (m.metric == "read/Serial/fp64/n:32768") {
      held = true;
      EXPECT_EQ(m.verdict, "AMBIGUOUS");
      ASSERT_EQ(m.remeasures.size(), 2u);
      EXPECT_EQ(m.remeasures[0].label, night_file(5));
      EXPECT_EQ(m.remeasures[1].label, night_file(6));
    }
  EXPECT_TRUE(held);
}

// Each point says where tonight's working set lives (1.7.0, point_level): the recorded nights'
// Serial sets of 61-256 KiB are in the L2 (one thread's 48 KiB L1, 2 MiB L2), the peak point has
// none. The field reads back to the same text; a file of 1.6.0, without it, reads as no level.
TEST(CompareJson, EachPointSaysItsLevel) {
  const std::string text = write_compare_json(recorded_gate().file);
  const CompareFile back = parse_compare_json(text, "c.json");
  EXPECT_EQ(write_compare_json(back), text);
  int points = 0;
  for (const CompareMetric& m : back.metrics) {
    if (m.kind != "point") {
      EXPECT_EQ(bool(m.level), m.kind == "level") << m.metric;
      continue;
    }
    ++points;
    if (m.metric == "peak/Serial/fp64/k:32")
      EXPECT_FALSE(m.level);
    else
      EXPECT_EQ(m.level, std::optional<std::string>("L2")) << m.metric;
  }
  EXPECT_EQ(points, 11);
  json j = json::parse(text);
  for (const auto& m : j["metrics"])
    EXPECT_EQ(m.contains("level"), m["kind"] == "point" || m["kind"] == "level") << m;
  j["schema_version"] = "1.6.0";
  json before = json::array();  // a file of 1.6.0: no level, no metric of kind "level"
  for (auto& m : j["metrics"])
    if (m["kind"] != "level") {
      m.erase("level");
      before.push_back(m);
    }
  j["metrics"] = before;
  for (const CompareMetric& m : parse_compare_json(j.dump(), "c.json").metrics)
    EXPECT_FALSE(m.level) << m.metric;
}

TEST(CompareJson, CompareCommandWritesTheWritersText) {
  TempDir dir;
  const std::string out = dir.path + "/c.json";
  const auto r = run_command(kBin + " compare " + night_file(1) + " " + night_file(2) + " " +
                             night_file(3) + " " + night_file(4) + " --json " + out);
  ASSERT_LE(r.exit_code, 1) << r.err;
  EXPECT_EQ(slurp(out), write_compare_json(recorded_gate().file));
  EXPECT_EQ(read_compare_json(out).schema_version, "1.9.2");
}

TEST(CompareJson, KernelsFileReadsBackToTheSameText) {
  TempDir dir;
  std::vector<std::string> files;
  for (double f : {1.0, 1.004, 0.997, 1.002, 1.5}) {
    const json doc = {{"schema", "ridgeline-kernels"},
                      {"schema_version", "1.0.0"},
                      {"complete", true},
                      {"host", {{"hostname", "devbox"}}},
                      {"kokkos", {{"global_fencing", true}}},
                      {"kernels", json::array({kernel_entry("app::stream", 0.004 * f)})}};
    files.push_back(dir.path + "/k" + std::to_string(files.size()) + ".json");
    write_json(files.back(), doc);
  }
  GateRequest g;
  g.files = files;
  const GateResult run = run_gate(g);
  ASSERT_TRUE(run.kernels);
  const std::string text = write_compare_json(run.file);
  const CompareFile back = parse_compare_json(text, "k.json");
  EXPECT_EQ(back.kind, "kernels");
  ASSERT_EQ(back.metrics.size(), 1u);
  EXPECT_EQ(back.metrics[0].verdict, "SLOWER");
  EXPECT_EQ(back.metrics[0].cause, std::optional<std::string>("unknown"));  // no roofs given
  EXPECT_EQ(write_compare_json(back), text);
  EXPECT_EQ(json::parse(text).count("history_decision"), 0u);  // results files only
}

TEST(CompareJson, UnreadableBaselineFileReadsBack) {
  TempDir dir;
  const std::string broken = dir.path + "/base.json";
  write_file(broken, "{\"points\": [");
  GateRequest g;
  g.files = {broken, night_file(2)};
  g.skip_unreadable_history = true;
  try {
    run_gate(g);
    FAIL() << "an unreadable baseline ends the gate";
  } catch (const BaselineUnreadable& e) {
    EXPECT_EQ(e.unreadable.file, broken);
    EXPECT_EQ(e.unreadable.role, "baseline");
    const std::string text = write_compare_json(unreadable_baseline_file(e.unreadable));
    const CompareFile back = parse_compare_json(text, "c.json");
    EXPECT_FALSE(back.has_comparison());
    EXPECT_FALSE(back.verdict);
    EXPECT_EQ(write_compare_json(back), text);
    EXPECT_EQ(json::parse(text).size(),
              4u);  // schema_version, verdict, history_decision, unreadable
  }
}

TEST(CompareJson, ReaderErrorsNameTheFileAndTheField) {
  const json good = json::parse(write_compare_json(recorded_gate().file));
  const auto with = [&good](const std::function<void(json&)>& change) {
    json j = good;
    change(j);
    return read_error(j.dump());
  };
  EXPECT_EQ(read_error(good.dump()), "");
  EXPECT_EQ(read_error("{\"metrics\": ["), "c.json: not valid JSON (is it a compare.json?)");
  EXPECT_EQ(with([](json& j) { j.erase("gates_speed"); }),
            "c.json: gates_speed: missing required field");
  EXPECT_EQ(with([](json& j) { j["metrics"][1]["verdict"] = 3; }),
            "c.json: metrics[1].verdict: must be a string");
  EXPECT_EQ(with([](json& j) { j["metrics"][0]["change"] = "-3 %"; }),
            "c.json: metrics[0].change: must be a number or null");
  EXPECT_EQ(with([](json& j) { j["options"]["min_history"] = -1; }),
            "c.json: options.min_history: must be a whole number >= 0");
  EXPECT_EQ(with([](json& j) {
              j["unreadable"] = {{{"file", "a"}, {"role", "history"}}};
            }),
            "c.json: unreadable[0].error: missing required field");
  EXPECT_NE(with([](json& j) { j["schema_version"] = "2.0.0"; }).find("c.json: schema_version: "),
            std::string::npos);
  EXPECT_NE(with([](json& j) { j["metrics"][0]["kind"] = "roofs"; }).find("metrics[0].kind: "),
            std::string::npos);
  EXPECT_EQ(with([](json& j) { j["counts"]["SLOWER"] = "1"; }),
            "c.json: counts.SLOWER: must be a whole number >= 0");
}

// Any field of a written file replaced by a value of another type: the reader reads it or
// answers one line naming the file and that field, never another exception.
std::string reader_path(const std::string& pointer) {  // "/metrics/0/note" -> "metrics[0].note"
  std::string out;
  std::size_t at = 1;
  while (at <= pointer.size()) {
    const std::size_t end = std::min(pointer.find('/', at), pointer.size());
    const std::string part = pointer.substr(at, end - at);
    const bool index = !part.empty() && part.find_first_not_of("0123456789") == std::string::npos;
    out += index ? "[" + part + "]" : (out.empty() ? "" : ".") + part;
    at = end + 1;
  }
  return out;
}

TEST(CompareJson, EveryFieldOfTheWrongTypeIsOneLineNamingIt) {
  const json good = json::parse(write_compare_json(recorded_gate().file));
  int errors = 0;
  const json flat = good.flatten();  // named: a range-for over a temporary's items() dangles
  for (const auto& item : flat.items()) {
    const std::string pointer = item.key();
    // The top level, and the first two metrics in full (the others have the same fields).
    if (pointer.rfind("/metrics/", 0) == 0 && pointer.rfind("/metrics/0/", 0) != 0 &&
        pointer.rfind("/metrics/1/", 0) != 0)
      continue;
    const json::json_pointer at(pointer);
    for (const json& wrong : {json(nullptr), json("x"), json(1.5), json(-1), json(true),
                              json::array(), json::object()}) {
      json j = good;
      j[at] = wrong;
      try {
        parse_compare_json(j.dump(), "c.json");
      } catch (const InputError& e) {
        ++errors;
        const std::string what = e.what();
        EXPECT_EQ(what.rfind("c.json: " + reader_path(pointer.substr(0, pointer.rfind('/'))), 0),
                  0u)
            << pointer << " = " << wrong << ": " << what;
        EXPECT_EQ(what.find('\n'), std::string::npos) << what;
      } catch (const std::exception& e) {
        ADD_FAILURE() << pointer << " = " << wrong << ": " << e.what();
      }
    }
  }
  EXPECT_GT(errors, 100);
}

// Every key the writer writes, at any depth (array entries and the kernels' fraction_of_roof
// included), is described in schema.md as `key`.
void collect_keys(const json& j, std::set<std::string>& keys) {
  if (j.is_object())
    for (const auto& item : j.items()) {
      keys.insert(item.key());
      collect_keys(item.value(), keys);
    }
  if (j.is_array())
    for (const auto& v : j) collect_keys(v, keys);
}

TEST(CompareJson, SchemaDescribesEveryField) {
  const std::string schema =
      slurp(std::string(ridgeline::test::paths::kSourceDir) + "/reports/compare/schema.md");
  ASSERT_FALSE(schema.empty());
  std::set<std::string> keys;
  collect_keys(json::parse(write_compare_json(recorded_gate().file)), keys);
  TempDir dir;
  collect_keys(json::parse(write_compare_json(remeasured_gate(dir.path).file)), keys);
  CompareFile kernels;
  kernels.kind = "kernels";
  kernels.verdict = "no regression";
  CompareMetric k;
  k.kind = "kernel";
  k.fraction_of_roof.push_back(CompareMetric{});
  kernels.metrics.push_back(k);
  collect_keys(json::parse(write_compare_json(kernels)), keys);
  for (const std::string& key : keys) {
    if (std::regex_search(key, std::regex("^[A-Z]|[ ,]"))) continue;  // verdicts and outcomes
    EXPECT_NE(schema.find("`" + key + "`"), std::string::npos) << key;
  }
  EXPECT_NE(schema.find(std::string("`") + kCompareSchemaVersion + "`"), std::string::npos);
}

}  // namespace
}  // namespace ridgeline
