// `ridgeline export`: golden files for every format from one committed results file, and each
// written file read back by a reader of its format, written here from the format's description
// (not from the exporter's code), checking every field's type and value against `fit --json`.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "reports/fit/analysis.hpp"
#include "tests/reports/cli_test_support.hpp"

namespace ridgeline {
namespace {

using namespace test;
using nlohmann::json;

const std::string kGpuRun = kData + "/gpu_run.json";

// The roofs as `ridgeline fit --json` gives them, by "SPACE DTYPE".
std::map<std::string, json> fit_groups(const std::string& file) {
  const auto r = run_command(kBin + " fit --json " + file);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::map<std::string, json> groups;
  for (const auto& g : json::parse(r.out))
    groups[g["space"].get<std::string>() + " " + g["dtype"].get<std::string>()] = g;
  return groups;
}

std::string exported(const std::string& args, int want_exit = 0) {
  const auto r = run_command(kBin + " export " + args);
  EXPECT_EQ(r.exit_code, want_exit) << r.err;
  return r.out;
}

// Values are scaled (G-units) or printed in shortest round-trip form, so they match to the last
// bits; a range printed with 6 digits matches to 6 digits.
void expect_near_rel(double got, double want, double rel, const std::string& what) {
  EXPECT_LE(std::fabs(got - want), rel * std::fabs(want)) << what << ": " << got << " vs " << want;
}

TEST(Export, GoldenFilesForEveryFormat) {
  expect_golden(exported(kGpuRun + " --format github-action-benchmark"),
                "export_gpu_run.github-action-benchmark.json");
  expect_golden(exported(kGpuRun + " --format bencher"), "export_gpu_run.bencher.json");
  expect_golden(exported(kGpuRun + " --format rocprof-roofline"),
                "export_gpu_run.rocprof-roofline.csv");
  expect_golden(exported(kGpuRun + " --format ert --space Cuda --dtype fp32"),
                "export_gpu_run.ert.json");
}

// github-action-benchmark's customBiggerIsBetter: an array of {name: string, unit: string,
// value: number, range?: string, extra?: string} and nothing else.
TEST(Export, GithubActionBenchmarkReadsBackAsTheFit) {
  const auto fit = fit_groups(kGpuRun);
  const json entries = json::parse(exported(kGpuRun + " --format github-action-benchmark"));
  ASSERT_TRUE(entries.is_array());
  std::map<std::string, json> by_name;
  for (const auto& e : entries) {
    ASSERT_TRUE(e.is_object());
    for (const auto& [key, v] : e.items()) {
      EXPECT_TRUE(key == "name" || key == "unit" || key == "value" || key == "range" ||
                  key == "extra")
          << key;
      if (key == "value")
        EXPECT_TRUE(v.is_number()) << e;
      else
        EXPECT_TRUE(v.is_string()) << e;
    }
    ASSERT_TRUE(e.contains("name") && e.contains("unit") && e.contains("value")) << e;
    EXPECT_TRUE(by_name.emplace(e["name"].get<std::string>(), e).second) << "twice: " << e;
  }
  int roofs = 0;
  for (const auto& [group, g] : fit) {
    if (g.contains("error")) {
      EXPECT_EQ(by_name.count(group + " P"), 0u) << group << " was not fitted";
      continue;
    }
    struct Want {
      const char* roof;
      const char* unit;
      double value, low, high;
    };
    std::vector<Want> wants = {
        {"P", "GFLOP/s", g["peak_flops"].get<double>() / 1e9,
         g["peak_flops_ci"][0].get<double>() / 1e9, g["peak_flops_ci"][1].get<double>() / 1e9},
        {"B", "GB/s", g["bandwidth"].get<double>() / 1e9, g["bandwidth_ci"][0].get<double>() / 1e9,
         g["bandwidth_ci"][1].get<double>() / 1e9},
        {"I*", "FLOP/byte", g["ridge_point"].get<double>(), g["ridge_point_ci"][0].get<double>(),
         g["ridge_point_ci"][1].get<double>()}};
    if (g.contains("read_bandwidth"))
      wants.push_back({"B_read", "GB/s", g["read_bandwidth"]["value"].get<double>() / 1e9,
                       g["read_bandwidth"]["ci"][0].get<double>() / 1e9,
                       g["read_bandwidth"]["ci"][1].get<double>() / 1e9});
    for (const auto& w : wants) {
      const std::string name = group + " " + w.roof;
      ASSERT_EQ(by_name.count(name), 1u) << name;
      const json& e = by_name[name];
      EXPECT_EQ(e["unit"], w.unit) << name;
      expect_near_rel(e["value"].get<double>(), w.value, 1e-12, name);
      double low = 0, high = 0;
      std::string dots;
      std::istringstream(e["range"].get<std::string>()) >> low >> dots >> high;
      EXPECT_EQ(dots, "..") << e["range"];
      expect_near_rel(low, w.low, 1e-5, name + " range low");
      expect_near_rel(high, w.high, 1e-5, name + " range high");
      EXPECT_NE(e["extra"].get<std::string>().find("95% interval from repetitions"),
                std::string::npos)
          << e["extra"];
      ++roofs;
    }
  }
  EXPECT_EQ(roofs, 8);  // Cuda fp32 and fp64, each P, B, B_read and I*; bf16 was not measured
  // The memory levels, one entry per plateau of each cache sweep, no range.
  const FileAnalysis a = analyze(load_results(kGpuRun));
  int levels = 0;
  for (const auto& ga : a.groups)
    for (const auto& sweep : ga.levels)
      for (const auto& l : sweep.levels) {
        const std::string name =
            ga.fit.space + " " + ga.fit.dtype + " B " + l.name + " (" + sweep.probe + ")";
        ASSERT_EQ(by_name.count(name), 1u) << name;
        EXPECT_EQ(by_name[name]["unit"], "GB/s");
        expect_near_rel(by_name[name]["value"].get<double>(), l.bandwidth / 1e9, 1e-12, name);
        EXPECT_FALSE(by_name[name].contains("range")) << "a plateau has no interval";
        ++levels;
      }
  EXPECT_GE(levels, 2);  // the fixture's fp32 sweep has an L2 and an HBM plateau
  EXPECT_EQ(entries.size(), std::size_t(roofs + levels)) << "nothing else is exported";
}

// Bencher Metric Format: {benchmark: {measure: {value: number, lower_value?: number,
// upper_value?: number}}}, what Bencher's published schema (bencher.dev/bmf.json) requires.
TEST(Export, BencherMetricFormatReadsBackAsTheFit) {
  const auto fit = fit_groups(kGpuRun);
  const json bmf = json::parse(exported(kGpuRun + " --format bencher"));
  ASSERT_TRUE(bmf.is_object());
  for (const auto& [benchmark, measures] : bmf.items()) {
    ASSERT_TRUE(measures.is_object()) << benchmark;
    for (const auto& [measure, m] : measures.items()) {
      ASSERT_TRUE(m.is_object()) << benchmark << " " << measure;
      for (const auto& [key, v] : m.items()) {
        EXPECT_TRUE(key == "value" || key == "lower_value" || key == "upper_value") << key;
        EXPECT_TRUE(v.is_number()) << benchmark << " " << measure << " " << key;
      }
      EXPECT_TRUE(m.contains("value")) << benchmark << " " << measure;
    }
  }
  const json& fp64 = bmf.at("Cuda fp64");
  const json& g = fit.at("Cuda fp64");
  expect_near_rel(fp64["p-gflops"]["value"].get<double>(), g["peak_flops"].get<double>() / 1e9,
                  1e-12, "P");
  expect_near_rel(fp64["p-gflops"]["lower_value"].get<double>(),
                  g["peak_flops_ci"][0].get<double>() / 1e9, 1e-12, "P low");
  expect_near_rel(fp64["p-gflops"]["upper_value"].get<double>(),
                  g["peak_flops_ci"][1].get<double>() / 1e9, 1e-12, "P high");
  expect_near_rel(fp64["b-gbps"]["value"].get<double>(), g["bandwidth"].get<double>() / 1e9, 1e-12,
                  "B");
  expect_near_rel(fp64["b-gbps"]["upper_value"].get<double>(),
                  g["bandwidth_ci"][1].get<double>() / 1e9, 1e-12, "B high");
  expect_near_rel(fp64["b-read-gbps"]["value"].get<double>(),
                  g["read_bandwidth"]["value"].get<double>() / 1e9, 1e-12, "B_read");
  expect_near_rel(fp64["i-star-flop-per-byte"]["lower_value"].get<double>(),
                  g["ridge_point_ci"][0].get<double>(), 1e-12, "I* low");
  EXPECT_FALSE(bmf.contains("Cuda bf16")) << "bf16 was not measured: nothing to write";
  EXPECT_TRUE(bmf.contains("Cuda fp32 L2 (cache_read)")) << bmf.dump(1);
  EXPECT_FALSE(bmf["Cuda fp32 L2 (cache_read)"]["b-gbps"].contains("lower_value"));
}

// rocprof-compute's reader (roofline_calc.py, constuct_roof): a comma-separated file whose first
// column (the device) is dropped, every other column looked up by its header name, one row per
// device; it reads the cells it plots as floats, in GB/s and GFLOP/s.
TEST(Export, RocprofRooflineCsvReadsBackAsTheFit) {
  const auto fit = fit_groups(kGpuRun);
  const std::string csv = exported(kGpuRun + " --format rocprof-roofline");
  std::vector<std::vector<std::string>> rows;
  std::istringstream lines(csv);
  for (std::string line; std::getline(lines, line);) {
    std::vector<std::string> cells;
    std::string cell;
    std::istringstream in(line);
    while (std::getline(in, cell, ',')) cells.push_back(cell);
    if (!line.empty() && line.back() == ',') cells.push_back("");
    rows.push_back(cells);
  }
  ASSERT_EQ(rows.size(), 2u) << csv;  // the header and the one space, Cuda
  // The header exactly as rocm-amdgpu-bench 1.1.0's roofline writes it (roofline.cpp, 07b2ae5).
  const std::string header =
      "device,HBMBw,HBMBwLow,hbmBwHigh,MALLBw,MALLBwLow,MALLBwHigh,"
      "L2Bw,L2BwLow,L2BwHigh,L1Bw,L1BwLow,L1BwHigh,LDSBw,LDSBwLow,LDSBwHigh,"
      "FP8Flops,FP8FlopsLow,FP8FlopsHigh,"
      "FP16Flops,FP16FlopsLow,FP16FlopsHigh,BF16Flops,BF16FlopsLow,BF16FlopsHigh,"
      "FP32Flops,FP32FlopsLow,FP32FlopsHigh,FP64Flops,FP64FlopsLow,FP64FlopsHigh,"
      "I8Ops,I8OpsLow,I8OpsHigh,I32Ops,I32OpsLow,I32OpsHigh,I64Ops,I64OpsLow,I64OpsHigh,"
      "MFMAF4Flops,MFMAF4FlopsLow,MFMAF4FlopsHigh,MFMAF6Flops,MFMAF6FlopsLow,MFMAF6FlopsHigh,"
      "MFMAF8Flops,MFMAF8FlopsLow,MFMAF8FlopsHigh,MFMAF16Flops,MFMAF16FlopsLow,MFMAF16FlopsHigh,"
      "MFMABF16Flops,MFMABF16FlopsLow,MFMABF16FlopsHigh,"
      "MFMAF32Flops,MFMAF32FlopsLow,MFMAF32FlopsHigh,"
      "MFMAF64Flops,MFMAF64FlopsLow,MFMAF64FlopsHigh,MFMAI8Ops,MFMAI8OpsLow,MFMAI8OpsHigh";
  EXPECT_EQ(csv.substr(0, csv.find('\n')), header);
  ASSERT_EQ(rows[1].size(), rows[0].size());
  std::map<std::string, std::string> cell;
  for (std::size_t i = 1; i < rows[0].size(); ++i) cell[rows[0][i]] = rows[1][i];
  EXPECT_EQ(rows[1][0], "0");
  const auto number = [&](const std::string& column) {
    std::size_t used = 0;
    const double v = std::stod(cell.at(column), &used);
    EXPECT_EQ(used, cell.at(column).size()) << column << " = " << cell.at(column);
    return v;
  };
  const json& fp64 = fit.at("Cuda fp64");
  const json& fp32 = fit.at("Cuda fp32");
  expect_near_rel(number("HBMBw"), fp64["bandwidth"].get<double>() / 1e9, 1e-12, "HBMBw");
  expect_near_rel(number("HBMBwLow"), fp64["bandwidth_ci"][0].get<double>() / 1e9, 1e-12, "low");
  expect_near_rel(number("hbmBwHigh"), fp64["bandwidth_ci"][1].get<double>() / 1e9, 1e-12, "hi");
  expect_near_rel(number("FP64Flops"), fp64["peak_flops"].get<double>() / 1e9, 1e-12, "FP64");
  expect_near_rel(number("FP64FlopsLow"), fp64["peak_flops_ci"][0].get<double>() / 1e9, 1e-12,
                  "FP64 low");
  expect_near_rel(number("FP32Flops"), fp32["peak_flops"].get<double>() / 1e9, 1e-12, "FP32");
  expect_near_rel(number("FP32FlopsHigh"), fp32["peak_flops_ci"][1].get<double>() / 1e9, 1e-12,
                  "FP32 high");
  // L2Bw: the fp32 cache_read sweep's L2 plateau (the tool's cache kernels read floats), which
  // has no interval.
  const FileAnalysis a = analyze(load_results(kGpuRun));
  double l2 = 0;
  for (const auto& sweep : a.find("Cuda", "fp32")->levels)
    if (sweep.probe == "cache_read")
      for (const auto& l : sweep.levels)
        if (l.name == "L2") l2 = l.bandwidth;
  ASSERT_GT(l2, 0);
  expect_near_rel(number("L2Bw"), l2 / 1e9, 1e-12, "L2Bw");
  // Everything else was not measured: empty, never a made-up 0.
  for (const auto& [column, value] : cell) {
    const bool measured = column == "HBMBw" || column == "HBMBwLow" || column == "hbmBwHigh" ||
                          column == "L2Bw" || column.rfind("FP32Flops", 0) == 0 ||
                          column.rfind("FP64Flops", 0) == 0;
    EXPECT_EQ(value.empty(), !measured) << column << " = '" << value << "'";
  }
}

// ERT 1.1.0's roofline.json, read as ERT's own plotting reads it: empirical.gflops.data[0] is
// ["GFLOPs", value]; empirical.gbytes.data is [[level, GB/s], ...] fastest first, main memory
// last; spec holds the same two keys, empty here.
TEST(Export, ErtRooflineJsonReadsBackAsTheFit) {
  const auto fit = fit_groups(kGpuRun);
  // fp32: the fixture's cache sweep ran in fp32.
  const json ert = json::parse(exported(kGpuRun + " --format ert --space Cuda --dtype fp32"));
  const json& g = fit.at("Cuda fp32");
  const json& gflops = ert.at("empirical").at("gflops").at("data");
  ASSERT_EQ(gflops.size(), 1u);
  ASSERT_TRUE(gflops[0].is_array() && gflops[0].size() == 2);
  EXPECT_EQ(gflops[0][0], "GFLOPs");
  expect_near_rel(gflops[0][1].get<double>(), g["peak_flops"].get<double>() / 1e9, 1e-12, "P");
  const json& gbytes = ert["empirical"]["gbytes"]["data"];
  ASSERT_GE(gbytes.size(), 2u) << gbytes;
  for (std::size_t i = 0; i < gbytes.size(); ++i) {
    ASSERT_TRUE(gbytes[i].is_array() && gbytes[i].size() == 2) << gbytes[i];
    EXPECT_TRUE(gbytes[i][0].is_string() && gbytes[i][1].is_number()) << gbytes[i];
    if (i > 0) {
      EXPECT_GT(gbytes[i - 1][1].get<double>(), gbytes[i][1].get<double>()) << gbytes;
    }
  }
  EXPECT_EQ(gbytes.back()[0], "DRAM");
  expect_near_rel(gbytes.back()[1].get<double>(), g["bandwidth"].get<double>() / 1e9, 1e-12, "B");
  EXPECT_EQ(gbytes[0][0], "L2");
  EXPECT_TRUE(ert["empirical"]["metadata"].is_object());
  EXPECT_EQ(ert["empirical"]["metadata"]["SPACE"], "Cuda");
  expect_near_rel(ert["empirical"]["gflops"]["metadata"]["CI_95_GFLOPS"][0].get<double>(),
                  g["peak_flops_ci"][0].get<double>() / 1e9, 1e-12, "P low");
  EXPECT_EQ(ert["spec"], json::parse(R"({"gflops": {"data": []}, "gbytes": {"data": []}})"));
}

TEST(Export, OutFileIsWhatStdoutShowsAndNotesGoToStderr) {
  TempDir dir;
  const std::string out = dir.path + "/bench.json";
  write_file(out, "old");
  const auto r =
      run_command(kBin + " export " + kGpuRun + " --format github-action-benchmark --out " + out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_EQ(slurp(out), exported(kGpuRun + " --format github-action-benchmark"));
  EXPECT_EQ(dir.file_count(), 1) << "no temporary file is left beside it";
  EXPECT_NE(r.err.find("ridgeline export: note: Cuda bf16: P, B and I* not exported: not measured"),
            std::string::npos)
      << r.err;
}

// Bad input: one line naming the file and the field, exit 2; nothing is written.
TEST(Export, BadInputIsOneLineAndWritesNothing) {
  TempDir dir;
  const std::string out = dir.path + "/x.json";
  const struct {
    std::string args, says;
  } cases[] = {
      {kGpuRun + " --format excel", "--format: excel not in"},
      {dir.path + "/missing.json --format bencher", "missing.json"},
      {kGpuRun + " --format bencher --space HIP",
       "gpu_run.json: space: no group HIP * in the file"},
      {kGpuRun + " --format ert", "gpu_run.json: format ert: one roofline per file"},
      {kGpuRun + " --format ert --space Cuda --dtype bf16",
       "gpu_run.json: Cuda/bf16: no roof was fitted"},
      {kGpuRun + " --format bencher --out " + dir.path, dir.path},
  };
  for (const auto& c : cases) {
    const auto r = run_command(kBin + " export " + c.args +
                               (c.args.find("--out") == std::string::npos ? " --out " + out : ""));
    EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.err;
    EXPECT_EQ(line_count(r.err), 1) << c.args << "\n" << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << c.args << "\n" << r.err;
  }
  EXPECT_EQ(dir.file_count(), 0);
}

}  // namespace
}  // namespace ridgeline
