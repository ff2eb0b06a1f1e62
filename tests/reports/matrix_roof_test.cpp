// P_matrix: the roof of the tensor/matrix units, from synthetic GEMM points on a GPU space. Its
// value is the envelope of the verified matrix-unit GEMMs, its interval comes from their
// repetitions, its ridges pair its replicates with B's and B_read's, a GEMM is held against it
// (not exempted), and tf32 (only a GEMM, fp32 arrays) takes its ridges from fp32's B.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "reports/fit/above_roof.hpp"
#include "reports/fit/analysis.hpp"
#include "reports/fit/gemm_shapes.hpp"
#include "reports/fit/roof_roles.hpp"
#include "reports/render/report_markdown.hpp"
#include "tests/reports/cli_test_support.hpp"
#include "tests/reports/gpu_test_context.hpp"
#include "tests/support/test_paths.hpp"

namespace ridgeline {
namespace {

using nlohmann::json;

using test::gpu_context, test::kL2, test::kWs, test::kN;

// A verified Cuda point of `dtype` whose samples take `seconds` × `spread` (one per entry).
json point(const std::string& name, const std::string& probe, const std::string& family,
           const std::string& dtype, double ws, double flops, double bytes, double seconds,
           json params = json::object(), std::vector<double> spread = {0.99, 1, 1.01}) {
  json samples = json::array();
  for (double s : spread) samples.push_back(seconds * s);
  return {{"name", probe + "/Cuda/" + dtype + "/" + name},
          {"probe", probe},
          {"family", family},
          {"space", "Cuda"},
          {"dtype", dtype},
          {"working_set_bytes", ws},
          {"flops", flops},
          {"bytes", bytes},
          {"params", params},
          {"samples", samples},
          {"median_s", seconds},
          {"verified", true}};
}

// The vector roofs of one dtype: B = 4 TB/s from two in-place rungs, B_read = 4.4 TB/s, P from
// one peak point at `peak` FLOP/s.
json vector_roofs(const std::string& dtype, double peak) {
  return {point("k:1", "fma", "fma", dtype, kWs, 2 * kN, 16 * kN, 16 * kN / 4e12,
                {{"k", 1}, {"form", "in_place"}}),
          point("k:2", "fma", "fma", dtype, kWs, 4 * kN, 16 * kN, 16 * kN / 4e12,
                {{"k", 2}, {"form", "in_place"}}),
          point("n:1", "read", "bandwidth", dtype, kWs, kN, 8 * kN, 8 * kN / 4.4e12),
          point("k:2048", "peak", "peak", dtype, 1e3, 1e12, 16, 1e12 / peak)};
}

// A GEMM of m × 8192 × 8192 on `unit` at `rate` FLOP/s, bytes compulsory (2-byte inputs, fp32 C).
json gemm(const std::string& dtype, double m, double rate, const std::string& unit = "tensor",
          std::vector<double> spread = {0.99, 1, 1.01}) {
  const double k = 8192, flops = 2 * m * k * k, bytes = 2 * (m * k + k * k) + 4 * m * k;
  return point("m:" + std::to_string(long(m)), "vendor_gemm", "library", dtype, bytes, flops, bytes,
               flops / rate,
               {{"unit", unit}, {"accumulate", "fp32"}, {"m", m}, {"n", 8192}, {"k", 8192}},
               spread);
}

Results results(const json& points) {
  const json doc = {{"schema_version", "1.1.0"}, {"context", gpu_context()}, {"points", points}};
  return parse_results(doc.dump(), "test.json");
}

TEST(MatrixRoof, IsTheEnvelopeOfTheMatrixUnitGemmsWithItsOwnRidges) {
  json pts = vector_roofs("bf16", 128e12);
  // The skinny shapes sit below the roof by design; the square one sets it.
  for (auto [m, rate] : {std::pair{16.0, 60e12}, {256.0, 500e12}, {8192.0, 785e12}})
    pts.push_back(gemm("bf16", m, rate));
  const FileAnalysis a = analyze(results(pts), 300);
  const GroupFit& g = a.groups.at(0).fit;
  ASSERT_TRUE(g.fit) << g.not_fitted;
  EXPECT_NEAR(g.fit->estimate.roof.peak_flops, 128e12, 1e12) << "P_vector is the FMA peak";
  ASSERT_TRUE(g.matrix);
  EXPECT_NEAR(g.matrix->peak.value, 785e12, 1e9);
  EXPECT_EQ(g.matrix->peak.points, 3);
  EXPECT_EQ(g.matrix->accumulate, "fp32");
  EXPECT_EQ(g.matrix->from, "vendor_gemm m:16, m:256, m:8192");
  // The interval comes from the square GEMM's ±1 % repetitions.
  EXPECT_TRUE(g.matrix->peak.ci.contains(785e12));
  EXPECT_GT(g.matrix->peak.ci.low, 0.98 * 785e12);
  EXPECT_LT(g.matrix->peak.ci.high, 1.02 * 785e12);
  ASSERT_TRUE(g.matrix->ridge && g.matrix->read_ridge);
  EXPECT_NEAR(*g.matrix->ridge, 785e12 / 4e12, 0.5);
  EXPECT_NEAR(*g.matrix->read_ridge, 785e12 / 4.4e12, 0.5);
  EXPECT_TRUE(g.matrix->ridge_ci.contains(*g.matrix->ridge));
  EXPECT_GT(g.matrix->ridge_ci.high, g.matrix->ridge_ci.low);
  EXPECT_LT(*g.matrix->read_ridge, *g.matrix->ridge);
  const auto roof = g.matrix_roof();
  ASSERT_TRUE(roof);
  EXPECT_NEAR(roof->ridge_point(), *g.matrix->ridge, 1e-9);
  EXPECT_TRUE(points_above_roof(a).empty());
}

TEST(MatrixRoof, ItsIntervalWidensWithTheRepetitionsOfTheBestGemm) {
  json pts = vector_roofs("fp16", 128e12);
  pts.push_back(gemm("fp16", 8192, 750e12, "tensor", {0.9, 0.95, 1, 1.05, 1.1}));
  const FileAnalysis a = analyze(results(pts), 300);
  const auto& m = a.groups.at(0).fit.matrix;
  ASSERT_TRUE(m);
  EXPECT_LT(m->peak.ci.low, 0.97 * m->peak.value);
  EXPECT_GT(m->peak.ci.high, 1.03 * m->peak.value);
}

// Only verified GEMMs on matrix units define it: a vector-unit GEMM (fp32, or fp64 on an sm_89)
// and a GEMM that failed its check do not.
TEST(MatrixRoof, OnlyVerifiedMatrixUnitGemmsDefineIt) {
  json pts = vector_roofs("fp64", 33e12);
  pts.push_back(gemm("fp64", 8192, 30e12, "vector"));
  const FileAnalysis vector_only = analyze(results(pts), 100);
  EXPECT_FALSE(vector_only.groups.at(0).fit.matrix);

  json failed = gemm("fp64", 8192, 55e12);
  failed["verified"] = false;
  pts.back() = failed;
  EXPECT_FALSE(analyze(results(pts), 100).groups.at(0).fit.matrix);
}

// A vector-unit GEMM above P is a broken roof (or a mislabelled unit), never "by design".
TEST(MatrixRoof, AVectorUnitGemmIsHeldAgainstP) {
  json pts = vector_roofs("fp64", 1.3e12);
  pts.push_back(gemm("fp64", 8192, 2.6e12, "vector"));
  const FileAnalysis a = analyze(results(pts), 100);
  const auto above = points_above_roof(a);
  ASSERT_EQ(above.size(), 1u);
  EXPECT_EQ(above[0].point->probe, "vendor_gemm");
  EXPECT_NEAR(above[0].ratio, 2.0, 0.05);
  EXPECT_TRUE(above[0].reason.empty());
}

// A matrix-unit GEMM is held against min(P_matrix, I·B): one that is memory-bound on the matrix
// roof (a skinny shape) yet runs faster than B allows is listed, not exempted.
TEST(MatrixRoof, AMatrixUnitGemmIsHeldAgainstTheMatrixRoof) {
  json pts = vector_roofs("bf16", 128e12);
  pts.push_back(gemm("bf16", 8192, 785e12));
  // m = 16: I ≈ 16 FLOP/byte, so the roof there is ≈ 16 × 4.4 TB/s ≈ 70 TFLOP/s; planted at 2×.
  json skinny = gemm("bf16", 16, 1);
  const double i = skinny["flops"].get<double>() / skinny["bytes"].get<double>();
  const double planted = 2 * i * 4.4e12;
  skinny = gemm("bf16", 16, planted);
  skinny["working_set_bytes"] = kWs;  // DRAM-sized: no cache explains it
  pts.push_back(skinny);
  const FileAnalysis a = analyze(results(pts), 100);
  const auto above = points_above_roof(a);
  ASSERT_EQ(above.size(), 1u);
  EXPECT_EQ(above[0].point->name, "vendor_gemm/Cuda/bf16/m:16");
  EXPECT_NEAR(above[0].ratio, 2.0, 0.05);
  EXPECT_TRUE(above[0].reason.empty()) << above[0].reason;
}

// fp16 and bf16 run no read kernel: B_read is the device's (fp64's read here), held by the bf16
// group itself, and the read ridge uses it.
TEST(MatrixRoof, WithoutItsOwnReadKernelTheDevicesBReadPlacesIt) {
  json pts = vector_roofs("fp64", 33e12);
  json bf16 = vector_roofs("bf16", 128e12);
  bf16.erase(2);  // no read kernel in bf16
  for (auto& p : bf16) pts.push_back(p);
  pts.push_back(gemm("bf16", 8192, 785e12));
  const FileAnalysis a = analyze(results(pts), 100);
  const GroupAnalysis* g = a.find("Cuda", "bf16");
  ASSERT_TRUE(g && g->fit.matrix && g->fit.matrix->read_ridge);
  ASSERT_TRUE(g->fit.read_bandwidth);
  EXPECT_EQ(g->fit.read_bandwidth->value, a.find("Cuda", "fp64")->fit.read_bandwidth->value);
  EXPECT_EQ(g->fit.read_bandwidth_from, "read fp64 n:1");
  EXPECT_EQ(g->fit.matrix->bandwidth_dtype, "bf16");
  EXPECT_EQ(g->fit.matrix->read_bandwidth_dtype, "bf16");
  EXPECT_NEAR(*g->fit.matrix->read_ridge, 785e12 / 4.4e12, 0.5);
}

TEST(MatrixRoof, Tf32TakesItsRidgesFromTheFp32Bandwidth) {
  json pts = vector_roofs("fp32", 64e12);
  pts.push_back(gemm("tf32", 8192, 400e12));
  const FileAnalysis a = analyze(results(pts), 100);
  const GroupAnalysis* tf32 = a.find("Cuda", "tf32");
  ASSERT_TRUE(tf32);
  EXPECT_FALSE(tf32->fit.fit);
  ASSERT_TRUE(tf32->fit.matrix);
  EXPECT_EQ(tf32->fit.matrix->bandwidth_dtype, "fp32");
  EXPECT_EQ(tf32->fit.matrix->read_bandwidth_dtype, "fp32");
  ASSERT_TRUE(tf32->fit.matrix->ridge);
  EXPECT_NEAR(*tf32->fit.matrix->ridge, 400e12 / 4e12, 0.5);
  EXPECT_NEAR(*tf32->fit.matrix->read_ridge, 400e12 / 4.4e12, 0.5);
}

// Results before `params.accumulate`: the type of C says it.
TEST(MatrixRoof, AccumulateFallsBackToTheTypeOfC) {
  json p = gemm("fp16", 8192, 750e12);
  p["params"].erase("accumulate");
  p["params"]["c_dtype"] = "fp32";
  const Results r = results(json::array({p}));
  EXPECT_EQ(point_accumulate(r.points[0]), "fp32");
}

// --- The committed H200 results (samples/h200): cuBLAS GEMMs on the tensor cores.

const std::string kH200 =
    std::string(ridgeline::test::paths::kSourceDir) + "/samples/h200/results.json";

// `place --unit matrix` prints calc's four-row table on the measured matrix roof: the bf16 GEMM's
// 785 TFLOP/s over the device's B (4.211 TB/s, set by the fp64 triad), a ridge near 186
// FLOP/byte where the vector one is 30.5.
TEST(MatrixRoof, PlaceOnTheMatrixRoofPrintsCalcsTable) {
  const auto r = test::run_command(test::kBin + " place " + kH200 +
                                   " --dtype bf16 --unit matrix --intensities 1,10,ridge,1000");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(test::line_count(r.out), 7) << r.out;  // header, blank, four rows, blank
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')),
            "NVIDIA H200 Cuda bf16 (fitted, matrix units): ridge point I* = 186 FLOP/byte");
  EXPECT_NE(r.out.find("I=   1000 FLOP/byte ->  784.8 TFLOP/s (100.0% of peak, compute-bound)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("I=     10 FLOP/byte ->   42.1 TFLOP/s (  5.4% of peak, memory-bound)"),
            std::string::npos)
      << r.out;
  const auto vector = test::run_command(test::kBin + " place " + kH200 +
                                        " --dtype bf16 --unit vector --intensities ridge");
  EXPECT_EQ(vector.out.substr(0, vector.out.find('\n')),
            "NVIDIA H200 Cuda bf16 (fitted): ridge point I* = 30.5 FLOP/byte");
}

TEST(MatrixRoof, PlaceSaysWhatIsMissing) {
  // fp32's GEMM runs on the vector units: no matrix roof, said in the table's place.
  const auto fp32 = test::run_command(test::kBin + " place " + kH200 +
                                      " --dtype fp32 --unit matrix --intensities 1");
  EXPECT_EQ(fp32.exit_code, 2) << fp32.out;
  EXPECT_NE(fp32.out.find("no matrix-unit roof"), std::string::npos) << fp32.out;
  EXPECT_EQ(test::line_count(fp32.err), 1) << fp32.err;
  EXPECT_NE(fp32.err.find("--dtype"), std::string::npos) << fp32.err;
  const auto unit =
      test::run_command(test::kBin + " place " + kH200 + " --unit tensor --intensities 1");
  EXPECT_EQ(unit.exit_code, 2);
  EXPECT_NE(unit.err.find("--unit"), std::string::npos) << unit.err;
}

// compare gates P_matrix like P: the same night is SAME, a 30 % slower bf16 GEMM fails the gate.
TEST(MatrixRoof, CompareGatesPMatrix) {
  test::TempDir dir;
  nlohmann::json night = nlohmann::json::parse(test::slurp(kH200));
  std::string history;
  for (int i = 0; i < 3; ++i) {
    const std::string f = dir.path + "/night-" + std::to_string(i) + ".json";
    test::write_json(f, night);
    history += f + " ";
  }
  auto verdict = [&](const nlohmann::json& current) {
    test::write_json(dir.path + "/current.json", current);
    const auto r = test::run_command(test::kBin + " compare " + history + dir.path +
                                     "/current.json --json " + dir.path + "/c.json");
    const auto j = nlohmann::json::parse(test::slurp(dir.path + "/c.json"));
    for (const auto& m : j["metrics"])
      if (m["metric"] == "P_matrix Cuda/bf16") {
        EXPECT_EQ(m["unit"], "FLOP/s");
        return std::make_pair(r.exit_code, m["verdict"].get<std::string>());
      }
    return std::make_pair(r.exit_code, std::string("absent"));
  };
  EXPECT_EQ(verdict(night), std::make_pair(0, std::string("SAME")));
  nlohmann::json* gemm = test::point_named(night, "vendor_gemm/Cuda/bf16/n:8192");
  ASSERT_TRUE(gemm);
  for (auto& t : (*gemm)["samples"]) t = t.get<double>() * 1.3;
  (*gemm)["median_s"] = (*gemm)["median_s"].get<double>() * 1.3;
  EXPECT_EQ(verdict(night), std::make_pair(1, std::string("SLOWER")));
}

// The skinny sweep: where the matrix units saturate in m, and where the roofs put the knee.
json shape_sweep(const std::vector<std::pair<double, double>>& m_rates) {
  json pts = vector_roofs("bf16", 128e12);
  for (const auto& [m, rate] : m_rates) pts.push_back(gemm("bf16", m, rate));
  return pts;
}

// The m at which gemm()'s shape reaches intensity `ridge`, by bisection on its own byte formula
// (the closed form under test solves the same equation by algebra).
double m_by_bisection(double ridge) {
  const double k = 8192;
  auto intensity = [k](double m) { return 2 * m * k * k / (2 * (m * k + k * k) + 4 * m * k); };
  double lo = 1, hi = 1e6;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (intensity(mid) < ridge ? lo : hi) = mid;
  }
  return lo;
}

TEST(GemmShapes, SaturationIsWhereEveryLargerMReachesNinetyPercentOfPMatrix) {
  const FileAnalysis a = analyze(
      results(
          shape_sweep({{16, 60e12}, {64, 230e12}, {256, 600e12}, {1024, 740e12}, {8192, 785e12}})),
      100);
  const auto sweeps = gemm_shape_sweeps(a);
  ASSERT_EQ(sweeps.size(), 1u);
  const GemmShapeSweep& s = sweeps[0];
  EXPECT_EQ(s.dtype, "bf16");
  EXPECT_EQ(s.n, 8192u);
  EXPECT_EQ(s.k, 8192u);
  ASSERT_EQ(s.rows.size(), 5u);
  EXPECT_EQ(s.rows.front().m, 16u);
  EXPECT_EQ(s.rows.back().m, 8192u);
  EXPECT_NEAR(s.peak, 785e12, 1e9);
  ASSERT_TRUE(s.saturated_m);
  EXPECT_EQ(*s.saturated_m, 1024u) << "740/785 = 0.94 and 785/785; 600/785 = 0.76 is below";
  // The knee on B_read (4.4 TB/s): P_matrix / B_read = 178 FLOP/byte.
  EXPECT_EQ(s.knee_ridge, "I*_matrix on B_read");
  ASSERT_TRUE(s.roof_knee_m);
  EXPECT_NEAR(*s.roof_knee_m, m_by_bisection(785e12 / 4.4e12), 0.01);
  EXPECT_GT(*s.roof_knee_m, 178) << "the weight's bytes put the knee above m = I*";
  // m = 16 is memory-bound on the roofs: min(P_matrix, I·B_read).
  const GemmShapeRow& r16 = s.rows.front();
  ASSERT_TRUE(r16.attainable);
  EXPECT_NEAR(r16.intensity, 2 * 16.0 * 8192 / (2 * (16 + 8192) + 4 * 16), 1e-9);
  EXPECT_NEAR(*r16.attainable, r16.intensity * 4.4e12, 1e-3 * *r16.attainable);
  EXPECT_NEAR(*s.rows.back().attainable, 785e12, 1e9) << "the square is compute-bound";
}

TEST(GemmShapes, ADipAboveTheKneeMovesSaturationUp) {
  const FileAnalysis a =
      analyze(results(shape_sweep(
                  {{256, 600e12}, {1024, 740e12}, {2048, 650e12}, {4096, 760e12}, {8192, 785e12}})),
              100);
  const auto sweeps = gemm_shape_sweeps(a);
  ASSERT_EQ(sweeps.size(), 1u);
  ASSERT_TRUE(sweeps[0].saturated_m);
  EXPECT_EQ(*sweeps[0].saturated_m, 4096u);
}

TEST(GemmShapes, NotSaturatedWhenTheLargestMFallsShort) {
  // The envelope is m = 1024's; the largest m runs at 0.8 of it.
  const FileAnalysis a =
      analyze(results(shape_sweep({{256, 600e12}, {1024, 785e12}, {8192, 630e12}})), 100);
  const auto sweeps = gemm_shape_sweeps(a);
  ASSERT_EQ(sweeps.size(), 1u);
  EXPECT_FALSE(sweeps[0].saturated_m);
}

// Unverified GEMMs and GEMMs on vector units are not the matrix units' shape sweep; one m alone
// is no sweep.
TEST(GemmShapes, OnlyVerifiedMatrixUnitPointsWithTwoShapesMakeASweep) {
  json pts = shape_sweep({{8192, 785e12}});
  json failed = gemm("bf16", 256, 600e12);
  failed["verified"] = false;
  failed["verify_error"] = "C(0,0) is 0, expected 1";
  pts.push_back(failed);
  pts.push_back(gemm("bf16", 1024, 100e12, "vector"));
  EXPECT_TRUE(gemm_shape_sweeps(analyze(results(pts), 100)).empty());
  pts.push_back(gemm("bf16", 512, 700e12));
  const auto sweeps = gemm_shape_sweeps(analyze(results(pts), 100));
  ASSERT_EQ(sweeps.size(), 1u);
  ASSERT_EQ(sweeps[0].rows.size(), 2u);
  EXPECT_EQ(sweeps[0].rows[0].m, 512u);
}

TEST(GemmShapes, NoKneeWhereTheShapeNeverReachesTheRidge) {
  // 2nk / (k·in + n·out) = 2·8192² / (6·8192) = 2731 FLOP/byte at most: a ridge above it has no m.
  EXPECT_FALSE(gemm_m_at_intensity(3000, 2.0 * 8192 * 8192, 6.0 * 8192, 2.0 * 8192 * 8192));
  const auto m = gemm_m_at_intensity(178, 2.0 * 8192 * 8192, 6.0 * 8192, 2.0 * 8192 * 8192);
  ASSERT_TRUE(m);
  EXPECT_NEAR(*m, m_by_bisection(178), 0.01);
  EXPECT_FALSE(gemm_m_at_intensity(0, 1, 1, 1));
}

TEST(GemmShapes, TheReportNamesTheSaturatedMAndTheKnee) {
  std::vector<FileAnalysis> files;
  files.push_back(analyze(
      results(shape_sweep({{16, 60e12}, {256, 600e12}, {1024, 740e12}, {8192, 785e12}})), 100));
  const std::string md = render_report_markdown(files, {}, {});
  ASSERT_NE(md.find("## Matrix units by GEMM shape"), std::string::npos) << md;
  EXPECT_NE(md.find("**Cuda bf16, n = 8192, k = 8192**: saturated from m = 1024"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find(fmt::format("knee at m ≈ {:.0f}", m_by_bisection(785e12 / 4.4e12))),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| 16 | 60.00 TFLOP/s | 7.6 % |"), std::string::npos) << md;
  // A file without a sweep has no such section.
  std::vector<FileAnalysis> square;
  square.push_back(analyze(results(shape_sweep({{8192, 785e12}})), 100));
  EXPECT_EQ(render_report_markdown(square, {}, {}).find("GEMM shape"), std::string::npos);
}

}  // namespace
}  // namespace ridgeline
