#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "reports/render/svg_chart.hpp"
#include "tests/reports/cli_test_support.hpp"

namespace ridgeline {
namespace {

using namespace test;
using nlohmann::json;

TEST(Report, MarkdownMatchesGoldenForTwoRuns) {
  TempDir out;
  const auto r = run_command(kBin + " report " + kData + "/cpu_run_a.json " + kData +
                             "/cpu_run_b.json --out " + out.path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_golden(slurp(out.path + "/report.md"), "report_two_cpu_runs.md");
}

TEST(Report, SummaryStatesWhatWasNotMeasuredAndTheSpecSheet) {
  TempDir out;
  const auto r = run_command(kBin + " report " + kData + "/gpu_run.json --out " + out.path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string md = slurp(out.path + "/report.md");
  EXPECT_NE(md.find("Cuda bf16: not measured: no bf16 probe on this backend yet"),
            std::string::npos);
  EXPECT_NE(md.find("`H200 SXM`): 66.91 TFLOP/s dense, vector unit (132 SMs x 128 FP32 FMAs "
                    "per clock x 2 FLOPs x 1980 MHz"),
            std::string::npos);
  EXPECT_NE(md.find("clock assumed: boost (1980 MHz)"), std::string::npos);
  EXPECT_NE(md.find("| cache_read | device memory | 64 MiB – 1 GiB |"), std::string::npos) << md;
  EXPECT_NE(md.find("| cache_read | L2 | 1 MiB – 32 MiB |"), std::string::npos);
  // Named by its GPU, not by its host (gpu-node), which the file list still gives.
  EXPECT_NE(md.find("![roofline of NVIDIA H200](roofline-NVIDIA_H200.svg)"), std::string::npos);
  EXPECT_NE(md.find("- `NVIDIA H200`: host `gpu-node`, "), std::string::npos);
}

// The roofs say what defined them, the ceilings how their bytes are counted, and the points
// above a roof are listed; a file from before the in-place ladder still reports, with a caveat.
TEST(Report, RoofsNameTheirPointsAndCeilingsTheirBytes) {
  TempDir out;
  const auto r = run_command(kBin + " report " + kData + "/cpu_run_a.json " + kData +
                             "/cpu_run_schema_1_0.json --out " + out.path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string md = slurp(out.path + "/report.md");
  // Memory roofs are the device's: the envelope over fp64's and fp32's points, each named with
  // its dtype (fp64's own B was 50.27 GB/s, fp32's 50.46).
  EXPECT_NE(md.find("| **B** (DRAM, working sets ≥ 128 MiB; reads and writes) | 50.46 GB/s |"),
            std::string::npos)
      << md;
  EXPECT_NE(
      md.find("| the envelope, set by the 1:1 mix: **fma fp32 k:2** (of triad fp64 n:5592405; "
              "fma fp64 k:1, k:2, k:4; copy fp64 n:8388608; triad fp32 n:11184810; fma fp32 "
              "k:1, k:2; copy fp32 n:16777216) | moved |"),
      std::string::npos);
  EXPECT_NE(md.find("| **B_2:1** (reads : writes 2:1, 0.74 × B) | 37.18 GB/s |"),
            std::string::npos);
  EXPECT_NE(md.find("| **B_read** (read-only, 1.02 × B) | 51.26 GB/s |"), std::string::npos);
  EXPECT_NE(md.find("| counted: a lower bound of moved (write-allocate) |"), std::string::npos);
  EXPECT_NE(md.find("so it moves 3/2 of what it counts"), std::string::npos);  // deep_copy
  EXPECT_NE(md.find("| OpenBLAS (fixture), 2 threads |"), std::string::npos);
  EXPECT_NE(md.find("## Points above their roof"), std::string::npos);
  EXPECT_NE(md.find("| `cache_read/OpenMP/fp64/ws:16384` |"), std::string::npos);
  // Named from the context's capacities: 2 cores × 48 KiB of L1.
  EXPECT_NE(md.find("working set fits in the 96 KiB L1: cache-resident |"), std::string::npos);
  // The 1.0 file's B is set by its fp32 triad, which stores into lines it never read: B is a
  // lower bound there, and says so.
  EXPECT_NE(md.find("> B is set by triad fp32 n:16777216, whose stores allocate lines on this CPU"),
            std::string::npos);
}

TEST(Report, ChartsAreWellFormedXmlWithLabelledDecadesAndRidge) {
  TempDir out;
  const auto r = run_command(kBin + " report " + kData + "/cpu_run_a.json " + kData +
                             "/gpu_run.json --out " + out.path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* svg : {"roofline-devbox.svg", "roofline-NVIDIA_H200.svg", "roofline-all.svg"}) {
    const std::string path = out.path + "/" + svg;
    const auto x = run_command(
        "python3 -c \"import sys, xml.etree.ElementTree as E; "
        "E.parse(sys.argv[1])\" " +
        path);
    EXPECT_EQ(x.exit_code, 0) << svg << ": " << x.err;
    const std::string text = slurp(path);
    EXPECT_NE(text.find(">I* "), std::string::npos) << svg;
    EXPECT_NE(text.find(">100 GFLOP/s<"), std::string::npos) << svg;
  }
  // A deliberately broken document fails the same check, so the check can fail.
  write_file(out.path + "/broken.svg", "<svg><g></svg>");
  EXPECT_NE(run_command("python3 -c \"import sys, xml.etree.ElementTree as E; "
                        "E.parse(sys.argv[1])\" " +
                        out.path + "/broken.svg")
                .exit_code,
            0);
}

// Issue 43: a borrowed GPU machine and the development VM are both called "vm"; an H200's run
// and the VM's CPU run are two machines, two charts and two labels, each with its host listed.
TEST(Report, GpuAndCpuRunsOfOneHostnameAreTwoMachines) {
  TempDir out;
  const std::string samples = std::string(paths::kSourceDir) + "/samples";
  const auto r = run_command(kBin + " report " + samples + "/h200/results.json " + samples +
                             "/dev-vm/results.json --out " + out.path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string md = slurp(out.path + "/report.md");
  EXPECT_NE(md.find("- `NVIDIA H200`: host `vm`, 131 points\n- `vm`: host `vm`, "),
            std::string::npos)
      << md.substr(0, 300);
  EXPECT_NE(md.find("![roofline of NVIDIA H200](roofline-NVIDIA_H200.svg)"), std::string::npos);
  EXPECT_NE(md.find("![roofline of vm](roofline-vm.svg)"), std::string::npos);
  EXPECT_NE(md.find("![roofline of all hosts](roofline-all.svg)"), std::string::npos);
  // Each machine's chart holds its own runs only.
  const std::string vm = slurp(out.path + "/roofline-vm.svg");
  EXPECT_EQ(vm.find("Cuda"), std::string::npos);
  EXPECT_NE(vm.find("OpenMP"), std::string::npos);
  const std::string h200 = slurp(out.path + "/roofline-NVIDIA_H200.svg");
  EXPECT_NE(h200.find("Cuda"), std::string::npos);
  EXPECT_EQ(h200.find("OpenMP"), std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(out.path + "/roofline-NVIDIA_H200-Cuda-fp64.svg"));
  EXPECT_TRUE(std::filesystem::exists(out.path + "/roofline-vm-OpenMP-fp64.svg"));
}

// Dashes meant both "memory roof" and "second file": now colour and marker tell series apart and
// line style tells roofs apart, and each space × dtype has a small chart with its levels.
TEST(Report, LineStyleIsTheRoofAndSmallChartsShowLevels) {
  TempDir one, two;
  ASSERT_EQ(run_command(kBin + " report " + kData + "/cpu_run_a.json --out " + one.path).exit_code,
            0);
  const std::string small = slurp(one.path + "/roofline-devbox-OpenMP-fp64.svg");
  EXPECT_NE(small.find(">line style: roof<"), std::string::npos);
  EXPECT_NE(small.find(">DRAM (memory level)<"), std::string::npos) << small;
  EXPECT_NE(small.find(">B_read: read-only kernels<"), std::string::npos);
  EXPECT_NE(slurp(one.path + "/report.md").find("](roofline-devbox-OpenMP-fp32.svg)"),
            std::string::npos);
  ASSERT_EQ(run_command(kBin + " report " + kData + "/cpu_run_a.json " + kData +
                        "/cpu_run_b.json --out " + two.path)
                .exit_code,
            0);
  const std::string overview = slurp(two.path + "/roofline-devbox.svg");
  int fitted_roofs = 0;
  for (auto at = overview.find("stroke-width=\"2.5\""); at != std::string::npos;
       at = overview.find("stroke-width=\"2.5\"", at + 1)) {
    const auto end = overview.find('>', at);
    ++fitted_roofs;
    EXPECT_EQ(overview.substr(at, end - at).find("dasharray"), std::string::npos)
        << "a fitted roof is dashed: " << overview.substr(at, end - at);
  }
  EXPECT_GE(fitted_roofs, 4);  // two files × two dtypes, and their legend swatches
  EXPECT_NE(overview.find(">colour, marker: file · space · dtype<"), std::string::npos);
  EXPECT_NE(overview.find("<path d=\"M"), std::string::npos);
}

// "AMD EPYC" matches every EPYC: a 96-core host was graded against the 2-vCPU sheet (~1,500 %).
TEST(Report, SpecSheetHoldsOnlyTheMachineItDescribes) {
  TempDir dir;
  json doc = fixture("cpu_run_a.json");
  doc["context"]["cpu"]["model"] = "AMD EPYC 9654 96-Core Processor";
  doc["context"]["cpu"]["cores"] = 96;
  doc["context"]["cpu"]["threads"] = 192;
  write_json(dir.path + "/big.json", doc);
  const auto r = run_command(kBin + " report " + dir.path + "/big.json --out " + dir.path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string md = slurp(dir.path + "/report.md");
  EXPECT_NE(md.find("| OpenMP | fp64 | no sheet | no sheet |"), std::string::npos) << md;
  EXPECT_NE(md.find("- no machine sheet matches this host (AMD, avx512, 512-bit, 96 cores, 192 "
                    "threads; `epyc-zen3-2vcpu` needs avx2, 256-bit vectors, 2 cores, 2 "
                    "threads; `epyc-zen5-2vcpu` needs 2 cores, 2 threads)\n"),
            std::string::npos)
      << md;
  EXPECT_EQ(md.find("100.8 %"), std::string::npos) << md;
  EXPECT_EQ(md.find("Spec sheets (profiles/machines)"), std::string::npos) << md;
}

// The host probes' points as a build for `isa` records them (params.isa, vector_bytes).
void set_host_isa(json& doc, const std::string& isa, int vector_bytes) {
  for (auto& p : doc["points"])
    if (p["family"] != "library")
      p["params"].update({{"isa", isa}, {"vector_bytes", vector_bytes}});
}

// Issue 23: a 2-vCPU Zen 3 VM (AVX2) reports its model as just "AMD EPYC", and its P was graded
// against the Zen 5 sheet's 2 x 512-bit FMA pipes ("16.9 % of sheet"). Same name, same core
// count, another ISA: the Zen 3 sheet (2 x 256-bit pipes), never the Zen 5 one.
TEST(Report, Zen3HostWithAvx2GetsTheZen3SheetNotTheZen5One) {
  TempDir dir;
  json doc = fixture("cpu_run_a.json");
  doc["context"]["cpu"]["model"] = "AMD EPYC";
  doc["context"]["cpu"]["avx512"] = false;
  set_host_isa(doc, "avx2", 32);
  write_json(dir.path + "/zen3.json", doc);
  const auto r = run_command(kBin + " report " + dir.path + "/zen3.json --out " + dir.path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string md = slurp(dir.path + "/report.md");
  EXPECT_NE(md.find("(`AMD EPYC Zen 3 (2 vCPU)`, illustrative): 100.8 GFLOP/s dense, vector "
                    "unit, memory 44.00 GB/s, host: AMD, avx2, 256-bit vectors, 2 cores, 2 "
                    "threads;"),
            std::string::npos)
      << md;
  EXPECT_EQ(md.find("Zen 5 (2 vCPU)"), std::string::npos) << md;
  EXPECT_EQ(md.find("no machine sheet matches"), std::string::npos) << md;
}

// The Zen 5 VM this sheet describes (AVX-512, 2 cores, 2 threads) is graded against it, whether
// the file knows AVX-512 from the CPU's flags, from the points' ISA or from both.
TEST(Report, Zen5HostWithAvx512GetsTheZen5Sheet) {
  for (const bool flag_recorded : {true, false}) {
    TempDir dir;
    json doc = fixture("cpu_run_a.json");
    doc["context"]["cpu"]["model"] = "AMD EPYC";
    if (!flag_recorded) doc["context"]["cpu"].erase("avx512");
    set_host_isa(doc, "avx512", 64);
    write_json(dir.path + "/zen5.json", doc);
    const auto r = run_command(kBin + " report " + dir.path + "/zen5.json --out " + dir.path);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string md = slurp(dir.path + "/report.md");
    EXPECT_NE(md.find("| OpenMP | fp64 | 100.8 % |"), std::string::npos) << flag_recorded << md;
    EXPECT_NE(md.find("(`AMD EPYC Zen 5 (2 vCPU)`, illustrative): 198.4 GFLOP/s dense, vector "
                      "unit, memory 58.00 GB/s, host: AMD, avx512, 512-bit vectors, 2 cores, 2 "
                      "threads;"),
              std::string::npos)
        << md;
    EXPECT_EQ(md.find("no machine sheet matches"), std::string::npos) << md;
  }
}

// A fact the sheet requires and the file does not record: the sheet is not used, and the line
// names the missing fact rather than guessing it.
TEST(Report, SheetFactTheFileLacksIsNamedNotGuessed) {
  TempDir dir;
  json doc = fixture("cpu_run_a.json");
  doc["context"]["cpu"].erase("cores");
  doc["context"]["cpu"].erase("avx512");  // and no point records an ISA
  write_json(dir.path + "/old.json", doc);
  const auto r = run_command(kBin + " report " + dir.path + "/old.json --out " + dir.path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string md = slurp(dir.path + "/report.md");
  EXPECT_NE(md.find("- no machine sheet matches this host (AMD, ISA unknown, 2 threads; "
                    "`epyc-zen3-2vcpu` needs avx2 (not in the file), 256-bit vectors (not in "
                    "the file), 2 cores (not in the file); `epyc-zen5-2vcpu` needs avx512 (not "
                    "in the file), 512-bit vectors (not in the file), 2 cores (not in the "
                    "file))\n"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| OpenMP | fp64 | no sheet | no sheet |"), std::string::npos) << md;
}

// One thread of a 2-unit sheet: P against half the sheet, B without a sheet figure.
TEST(Report, SpaceWithFewerThreadsGetsItsShareOfTheSheet) {
  TempDir dir;
  json doc = fixture("cpu_run_a.json");
  doc["context"]["spaces"][0]["concurrency"] = 1;
  write_json(dir.path + "/one.json", doc);
  const auto r = run_command(kBin + " report " + dir.path + "/one.json --out " + dir.path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string md = slurp(dir.path + "/report.md");
  EXPECT_NE(md.find("| OpenMP | fp64 | 201.6 % of 99.20 GFLOP/s **above the sheet** | – (1 of 2 "
                    "units: no sheet figure) |"),
            std::string::npos)
      << md;
}

// `run --probe triad` gave no report at all: now the points, and what is missing.
TEST(Report, PartialRunReportsWhatWasMeasured) {
  TempDir dir;
  json doc = fixture("cpu_run_a.json");
  json kept = json::array();
  for (const auto& p : doc["points"])
    if (p["probe"] == "triad") kept.push_back(p);
  doc["points"] = kept;
  write_json(dir.path + "/triad.json", doc);
  const auto r = run_command(kBin + " report " + dir.path + "/triad.json --out " + dir.path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("OpenMP/fp64 has no roofs"), std::string::npos) << r.err;
  const std::string md = slurp(dir.path + "/report.md");
  EXPECT_NE(md.find("No execution space × dtype could be fitted"), std::string::npos) << md;
  EXPECT_NE(md.find("- not in this file: the FMA ladder, which defines B; the peak probe, which "
                    "defines P;"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| `triad/OpenMP/fp64/n:5592405` | 128 MiB | 0.0833 |"), std::string::npos)
      << md;
}

// The nightly layout: results.json in dated folders of one host.
TEST(Report, FilesOfOneHostAreToldApartByFolder) {
  TempDir dir;
  std::filesystem::create_directories(dir.path + "/2026-11-30");
  std::filesystem::create_directories(dir.path + "/2026-12-01");
  write_json(dir.path + "/2026-11-30/results.json", fixture("cpu_run_a.json"));
  write_json(dir.path + "/2026-12-01/results.json", fixture("cpu_run_b.json"));
  const auto r = run_command(kBin + " report " + dir.path + "/2026-11-30/results.json " + dir.path +
                             "/2026-12-01/results.json --out " + dir.path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string md = slurp(dir.path + "/report.md");
  EXPECT_NE(md.find("| devbox (2026-11-30/results.json) | OpenMP | fp64 |"), std::string::npos)
      << md;
  EXPECT_NE(md.find("| devbox (2026-12-01/results.json) | OpenMP | fp64 |"), std::string::npos);
}

// Text boxes of a chart, estimated as the chart estimates them (text_width_em; the browser's own
// boxes are checked by chart_browser_test.py): x, y, font size and anchor from each <text>,
// rotated ones left out.
struct TextBox {
  std::string text;
  double x0, y0, x1, y1;
};

// The number in attribute `name="…"` of a tag's attributes, or `fallback`.
double attribute(const std::string& attrs, const std::string& name, double fallback) {
  const auto at = attrs.find(" " + name + "=\"");
  return at == std::string::npos ? fallback : std::stod(attrs.substr(at + name.size() + 3));
}

std::vector<TextBox> text_boxes(const std::string& svg) {
  std::vector<TextBox> out;
  for (auto open = svg.find("<text"); open != std::string::npos;
       open = svg.find("<text", open + 1)) {
    const auto body_at = svg.find('>', open) + 1;
    const std::string attrs = " " + svg.substr(open + 5, body_at - 1 - (open + 5));
    const std::string body = svg.substr(body_at, svg.find("</text>", body_at) - body_at);
    if (attrs.find("rotate") != std::string::npos) continue;
    const double x = attribute(attrs, "x", 0), y = attribute(attrs, "y", 0);
    const double size = attribute(attrs, "font-size", 12);
    const double w = size * text_width_em(body);
    const double left = attrs.find("text-anchor=\"end\"") != std::string::npos      ? x - w
                        : attrs.find("text-anchor=\"middle\"") != std::string::npos ? x - w / 2
                                                                                    : x;
    out.push_back({body, left, y - 0.95 * size, left + w, y + 0.25 * size});
  }
  return out;
}

bool overlap(const TextBox& a, const TextBox& b) {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

// Ridge labels ran together ("I*=4I*=46.61") and level labels stacked at the left edge.
TEST(Report, ChartLabelsDoNotOverlap) {
  TempDir out;
  const auto r =
      run_command(kBin + " report " + kData + "/cpu_run_a.json " + kData + "/cpu_run_b.json " +
                  kData + "/gpu_run.json " + kData + "/cpu_other_host.json --out " + out.path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  int charts = 0;
  for (const auto& e : std::filesystem::directory_iterator(out.path)) {
    if (e.path().extension() != ".svg") continue;
    ++charts;
    const std::string svg = slurp(e.path().string());
    const auto boxes = text_boxes(svg);
    int ridge_labels = 0, roof_labels = 0;
    for (const auto& b : boxes) {
      ridge_labels += b.text.rfind("I* ", 0) == 0;
      roof_labels += b.text.rfind("P ", 0) == 0 || b.text.rfind("B ", 0) == 0;
    }
    EXPECT_GT(ridge_labels, 0) << e.path();
    EXPECT_GT(roof_labels, 0) << e.path();
    for (std::size_t i = 0; i < boxes.size(); ++i)
      for (std::size_t j = i + 1; j < boxes.size(); ++j) {
        EXPECT_FALSE(overlap(boxes[i], boxes[j])) << e.path().filename() << ": '" << boxes[i].text
                                                  << "' overlaps '" << boxes[j].text << "'";
      }
  }
  EXPECT_EQ(charts, 10);  // per host (3), per host × space × dtype (2 each), all hosts
  // The check can fail: the old ridge labels, 2 px apart, overlap.
  const auto old = text_boxes(
      "<text x=\"10\" y=\"10\" text-anchor=\"middle\">I*=4.46</text>"
      "<text x=\"12\" y=\"10\" text-anchor=\"middle\">I*=6.61</text>");
  ASSERT_EQ(old.size(), 2u);
  EXPECT_TRUE(overlap(old[0], old[1]));
}

// The Kokkos-free reporter answers like ridgeline itself.
TEST(ReporterCli, VersionUsageAndDidYouMean) {
  const auto v = run_command(kBin + " --version");
  EXPECT_EQ(v.exit_code, 0) << v.err;
  EXPECT_EQ(v.out.rfind("ridgeline-report ", 0), 0u) << v.out;
  const auto bare = run_command(kBin);
  EXPECT_EQ(bare.exit_code, 2);
  EXPECT_NE(bare.err.find("Usage:"), std::string::npos) << bare.err;
  const auto typo = run_command(kBin + " reprot x.json");
  EXPECT_EQ(typo.exit_code, 2);
  EXPECT_NE(typo.err.find("unknown command 'reprot' (did you mean 'report'?)"), std::string::npos)
      << typo.err;
}

TEST(Fit, CsvTextAndJson) {
  const auto t = run_command(kBin + " fit --csv " + kData + "/roofline.csv");
  ASSERT_EQ(t.exit_code, 0) << t.err;
  EXPECT_NE(t.out.find("  P  = "), std::string::npos);
  EXPECT_NE(t.out.find("95% CI ["), std::string::npos);
  const auto j = run_command(kBin + " fit --json --csv " + kData + "/roofline.csv");
  ASSERT_EQ(j.exit_code, 0) << j.err;
  for (const char* key : {"\"peak_flops\"", "\"bandwidth\"", "\"ridge_point\"", "\"peak_flops_ci\"",
                          "\"bandwidth_ci\"", "\"ridge_point_ci\""})
    EXPECT_NE(j.out.find(key), std::string::npos) << key;
}

TEST(Fit, ResultsFilePerSpaceAndDtype) {
  const auto r = run_command(kBin + " fit --json " + kData + "/cpu_run_a.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"dtype\": \"fp32\""), std::string::npos);
  EXPECT_NE(r.out.find("not measured: fp16 arithmetic"), std::string::npos);
}

TEST(Place, UsesFittedRoofs) {
  const auto r = run_command(kBin + " place " + kData + "/cpu_run_a.json --intensities 1,1000");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("devbox OpenMP fp64 (fitted): ridge point I* = "), std::string::npos);
  EXPECT_NE(r.out.find("I=      1 FLOP/byte ->   50.5 GFLOP/s ( 25.2% of peak, memory-bound)"),
            std::string::npos)
      << r.out;
}

}  // namespace
}  // namespace ridgeline
