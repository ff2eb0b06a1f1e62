// Inputs built to crash or mislead the reader: deep nesting, subnormal and overflowing numbers,
// duplicate point ids, wrongly typed machine sheets, a byte order mark. Each gets one line and
// exit 2 (or is read correctly), never an abort, a hang or inf/nan in the output.
#include <gtest/gtest.h>

#include <tuple>

#include "core/input_error.hpp"
#include "results/results_model.hpp"
#include "tests/reports/cli_test_support.hpp"
#include "tests/support/test_paths.hpp"

namespace ridgeline {
namespace {

using namespace test;
using nlohmann::json;

struct Outcome {
  CommandResult r;
  std::string file;
};

// Writes `doc` into a fresh directory and runs `fit` on it.
Outcome fit_of(const TempDir& dir, const std::string& text, const std::string& name = "r.json") {
  const std::string file = dir.path + "/" + name;
  write_file(file, text);
  return {run_command(kBin + " fit " + file), file};
}

void expect_one_line(const Outcome& o, const std::string& needle) {
  EXPECT_EQ(o.r.exit_code, 2) << o.r.out;
  EXPECT_EQ(line_count(o.r.err), 1) << o.r.err;
  EXPECT_NE(o.r.err.find(o.file + ": "), std::string::npos) << o.r.err;
  EXPECT_NE(o.r.err.find(needle), std::string::npos) << o.r.err;
}

// A number that overflows a double (1e999) is named by its field, for every command that reads
// results; it was "malformed JSON" with no field (and, before that, read as infinity).
TEST(HostileInput, OverflowingNumberNamesItsField) {
  TempDir dir;
  const json doc = fixture("cpu_run_a.json");
  std::string text = doc.dump();
  const std::string samples = "\"samples\":[";
  const auto at = text.find(samples);
  ASSERT_NE(at, std::string::npos);
  text.insert(at + samples.size(), "1e999,");
  const Outcome o = fit_of(dir, text);
  expect_one_line(o, "points[0].samples[0]: a number out of a double's range");
  for (const std::string& command : {" report " + o.file + " --out " + dir.path + "/out",
                                     " compare " + kData + "/cpu_run_a.json " + o.file}) {
    const auto r = run_command(kBin + command);
    EXPECT_EQ(r.exit_code, 2) << command << "\n" << r.out;
    EXPECT_EQ(line_count(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(o.file + ": points[0].samples[0]: "), std::string::npos) << r.err;
  }
}

TEST(HostileInput, DeepNestingIsOneLineNotAStackOverflow) {
  TempDir dir;
  std::string text = slurp(kData + "/cpu_run_a.json");
  const std::string deep = std::string(200000, '[') + std::string(200000, ']');
  text.replace(text.find("\"context\":{"), 11, "\"context\":{\"junk\":" + deep + ",");
  expect_one_line(fit_of(dir, text), "nested deeper than 64 levels");
  // Brackets inside strings are text, not nesting.
  std::string in_string = slurp(kData + "/cpu_run_a.json");
  in_string.replace(in_string.find("\"context\":{"), 11,
                    "\"context\":{\"junk\":\"" + std::string(1000, '[') + "\\\"[\",");
  const auto ok = fit_of(dir, in_string, "ok.json");
  EXPECT_EQ(ok.r.exit_code, 0) << ok.r.err;
}

TEST(HostileInput, DeepNestingInASweepProfileOrMachineSheetIsOneLine) {
  TempDir dir;
  std::filesystem::create_directories(dir.path + "/machines");
  write_file(dir.path + "/machines/deep.json", std::string(100000, '[') + std::string(100000, ']'));
  const auto r = run_command("RIDGELINE_PROFILES=" + dir.path + " " + kBin +
                             " calc --machine deep --intensities 1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("deep.json: malformed JSON: nested deeper than 64"), std::string::npos)
      << r.err;
}

TEST(HostileInput, SubnormalTimesAreRejectedNotPrintedAsInfinity) {
  TempDir dir;
  json doc = fixture("cpu_run_a.json");
  doc["points"][1]["samples"] = {1e-310, 1e-310, 1e-310};
  doc["points"][1]["median_s"] = 1e-310;
  expect_one_line(fit_of(dir, doc.dump()), "points[1].samples[0]: is too close to 0");
  json huge = fixture("cpu_run_a.json");
  huge["points"][1]["flops"] = 1e300;
  huge["points"][1]["samples"] = {1e-300, 1e-300, 1e-300};
  huge["points"][1]["median_s"] = 1e-300;
  const auto o = fit_of(dir, huge.dump(), "huge.json");
  expect_one_line(o, "points[1].median_s: gives a rate (counts / median_s) that is not a finite");
  json tiny_bytes = fixture("cpu_run_a.json");  // finite rates, but flops / bytes overflows
  tiny_bytes["points"][1]["flops"] = 1e300;
  tiny_bytes["points"][1]["bytes"] = 1e-10;
  tiny_bytes["points"][1]["samples"] = {1e10};
  tiny_bytes["points"][1]["median_s"] = 1e10;
  expect_one_line(fit_of(dir, tiny_bytes.dump(), "tiny.json"),
                  "points[1].bytes: gives an intensity");
}

TEST(HostileInput, CsvSubnormalAndOverflowingValuesNeverReachTheFit) {
  TempDir dir;
  const std::string csv = dir.path + "/p.csv";
  for (const auto& [text, needle] : std::vector<std::pair<std::string, std::string>>{
           {"intensity,gflops\n1e-310,5\n1,50\n10,200\n",
            "line 2, intensity: '1e-310' is too close to 0"},
           {"intensity,gflops\n1e-300,1e200\n1,50\n10,200\n", "line 2: gflops / intensity"},
           // Finite observations whose roofs overflow: P ~ 1e299, B ~ 1e-121, I* ~ 1e420.
           {"intensity,gflops\n1e-150,1e-280\n2e-150,2e-280\n1e150,1e290\n2e150,1e290\n",
            "the fitted roofs are not finite"}}) {
    write_file(csv, text);
    for (const char* json_flag : {"", " --json"}) {
      const auto r = run_command(kBin + " fit" + json_flag + " --csv " + csv);
      EXPECT_EQ(r.exit_code, 2) << text << r.out;
      EXPECT_EQ(line_count(r.err), 1) << r.err;
      EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
      EXPECT_EQ(r.out.find("inf"), std::string::npos) << r.out;
      EXPECT_EQ(r.out.find("nan"), std::string::npos) << r.out;
    }
  }
}

TEST(HostileInput, CsvWithByteOrderMarkReadsItsHeader) {
  TempDir dir;
  const std::string plain = slurp(kData + "/roofline.csv");
  write_file(dir.path + "/bom.csv", "\xEF\xBB\xBF" + plain);
  const auto with_bom = run_command(kBin + " fit --json --csv " + dir.path + "/bom.csv");
  const auto without = run_command(kBin + " fit --json --csv " + kData + "/roofline.csv");
  ASSERT_EQ(with_bom.exit_code, 0) << with_bom.err;
  EXPECT_EQ(with_bom.out, without.out);
}

TEST(HostileInput, DuplicatePointIdsAreRejected) {
  TempDir dir;
  json doc = fixture("cpu_run_a.json");
  json copy = doc["points"][1];
  copy["samples"] = {1.0, 1.0, 1.0};  // a 100x slower twin that "last wins" used to keep
  doc["points"].push_back(copy);
  const std::string name = doc["points"][1]["name"];
  expect_one_line(fit_of(dir, doc.dump()), "points[" + std::to_string(doc["points"].size() - 1) +
                                               "].name: '" + name +
                                               "' is also points[1]; point names must be unique");
  EXPECT_THROW(parse_results(doc.dump(), "x.json"), InputError);
}

TEST(HostileInput, TwoPointsArraysAreRejected) {
  TempDir dir;
  std::string text = slurp(kData + "/cpu_run_a.json");
  text.insert(text.rfind('}'), ",\"points\":[]");
  expect_one_line(fit_of(dir, text), "points: appears twice");
}

TEST(HostileInput, MachineDescriptionsAreBounded) {
  TempDir dir;
  json doc = fixture("cpu_run_a.json");
  for (int i = 0; i < 65; ++i) doc["context"]["spaces"].push_back(doc["context"]["spaces"][0]);
  expect_one_line(fit_of(dir, doc.dump()), "context.spaces: has more than 64 entries");
}

// A sheet with "vendor": null aborted every report (an uncaught type error); then it was taken as
// a sheet of no vendor. The vendor is required; a null accumulate mode still means "not stated".
TEST(HostileInput, MachineSheetWithNullOrWronglyTypedFields) {
  TempDir dir;
  std::filesystem::create_directories(dir.path + "/machines");
  json sheet = json::parse(slurp(std::string(ridgeline::test::paths::kSourceDir) +
                                 "/profiles/machines/epyc-zen5-2vcpu.json"));
  sheet["peaks"][0]["accumulate"] = nullptr;
  write_json(dir.path + "/machines/vm.json", sheet);
  const std::string env = "RIDGELINE_PROFILES=" + dir.path + " ";
  const auto ok =
      run_command(env + kBin + " report " + kData + "/cpu_run_a.json --out " + dir.path + "/out");
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(ok.err, "");
  EXPECT_NE(slurp(dir.path + "/out/report.md").find("% of sheet"), std::string::npos);

  // A JSON pointer into the sheet, the value put there, and the field the error must name.
  for (const auto& [pointer, value, field] :
       std::vector<std::tuple<std::string, json, std::string>>{
           {"/vendor", 5, "vendor"},
           {"/vendor", nullptr, "vendor"},
           {"/vendor", "", "vendor"},
           {"/illustrative", "yes", "illustrative"},
           {"/match", json::array({""}), "match"},
           {"/memory/bandwidth", 1e300, "memory.bandwidth"},
           {"/peaks/0/flops", 1e300, "peaks[0].flops"},
           {"/compute_units", 0, "compute_units"},
           {"/compute_units", "2", "compute_units"},
           {"/compute_units", 2, "compute_units"},  // a CPU sheet's size is cpu.cores/threads
           {"/cpu/isa", 5, "cpu.isa"},
           {"/cpu/isa", "avx-512", "cpu.isa"},
           {"/cpu/cores", "2", "cpu.cores"},
           {"/cpu/vector_bits", 512.5, "cpu.vector_bits"}}) {
    json bad = sheet;
    bad[json::json_pointer(pointer)] = value;
    write_json(dir.path + "/machines/vm.json", bad);
    const auto r =
        run_command(env + kBin + " report " + kData + "/cpu_run_a.json --out " + dir.path + "/out");
    EXPECT_EQ(r.exit_code, 0) << field << ": " << r.err;  // the report goes on without sheets
    EXPECT_NE(r.err.find("warning: no spec-sheet comparison: " + dir.path +
                         "/machines/vm.json: " + field + ": must be"),
              std::string::npos)
        << r.err;
    const auto calc = run_command(env + kBin + " calc --machine vm --intensities 1");
    EXPECT_EQ(calc.exit_code, 2) << field;
    EXPECT_EQ(line_count(calc.err), 1) << calc.err;
    EXPECT_NE(calc.err.find("vm.json: " + field + ": must be"), std::string::npos) << calc.err;
  }
}

}  // namespace
}  // namespace ridgeline
