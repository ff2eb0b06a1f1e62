// LLM phases on measured roofs: the closed-form counts against an independent per-matmul,
// per-token tally; parameter counts against the published checkpoints; the speed of light
// against hand arithmetic; the roofs a host lends a workload; the CLI and its one-line errors.
#include <gtest/gtest.h>

#include <cmath>

#include "core/input_error.hpp"
#include "core/units.hpp"
#include "reports/fit/analysis.hpp"
#include "reports/workloads/phase_counts.hpp"
#include "reports/workloads/speed_of_light.hpp"
#include "reports/workloads/workload_request.hpp"
#include "tests/reports/cli_test_support.hpp"
#include "tests/support/test_paths.hpp"

namespace ridgeline {
namespace {

using namespace test;
using nlohmann::json;

TransformerConfig model(const std::string& id) {
  return find_transformer_config(id, workload_profiles_dir());
}

// The same phase counted another way: every layer as its list of matmuls, every expert by the
// chance that some token picks it, attention token by token and head by head.
struct Tally {
  double flops = 0, weight = 0, kv_read = 0, kv_write = 0;
};

Tally tally(const TransformerConfig& c, const WeightFormat& w, double kv_elem,
            const PhaseShape& s) {
  const bool decode = s.phase == Phase::kDecode;
  const int n = s.tokens;
  const double a = 2;  // the activation dtype of every workload file: bf16
  const double d = c.hidden, q = double(c.heads) * c.head_dim, kv = double(c.kv_heads) * c.head_dim;
  const double per_weight = w.bits / 8 + (w.group_size ? w.scale_bytes / w.group_size : 0);
  const double projections[4][2] = {{d, q}, {d, kv}, {d, kv}, {q, d}};  // Wq, Wk, Wv, Wo
  const double mlp[3][2] = {{d, double(c.intermediate)},
                            {d, double(c.intermediate)},
                            {double(c.intermediate), d}};  // gate, up, down
  // A token picks k of E experts: a given expert is missed by one token with chance
  // C(E-1, k)/C(E, k), by all n tokens with that chance to the n.
  double missed_by_one = 1;
  for (int i = 0; i < c.active_experts; ++i)
    missed_by_one *= double(c.experts - 1 - i) / (c.experts - i);
  const double picked = 1 - std::pow(missed_by_one, n);
  Tally t;
  for (int layer = 0; layer < c.layers; ++layer) {
    for (const auto& m : projections) {
      t.flops += 2.0 * n * m[0] * m[1];
      t.weight += m[0] * m[1] * per_weight;
    }
    t.weight += 2 * d * a;                         // two norms
    if (c.qkv_bias) t.weight += (q + 2 * kv) * a;  // q, k, v biases
    if (c.experts > 1) {                           // the router
      t.flops += 2.0 * n * d * c.experts;
      t.weight += d * c.experts * a;
    }
    for (int e = 0; e < c.experts; ++e)
      for (const auto& m : mlp) {
        t.flops += 2.0 * n * (double(c.active_experts) / c.experts) * m[0] * m[1];
        t.weight += picked * m[0] * m[1] * per_weight;
      }
    for (int token = 0; token < n; ++token) {
      const double positions = decode ? s.context : token + 1;  // causal in prefill
      for (int h = 0; h < c.heads; ++h) {
        t.flops += 2 * positions * c.head_dim;  // Q·K
        t.flops += 2 * positions * c.head_dim;  // P·V
      }
      if (decode) t.kv_read += positions * 2 * kv * kv_elem;
      t.kv_write += 2 * kv * kv_elem;
    }
  }
  t.weight += d * a;                         // final norm
  t.weight += double(c.vocabulary) * d * a;  // the output head, read whole
  t.flops +=
      2.0 * (decode ? n : 1) * d * c.vocabulary;  // logits: each decode token, last prompt token
  if (!c.tied_embeddings) t.weight += n * d * a;  // the embedding rows gathered
  return t;
}

void expect_close(double got, double want, const std::string& what) {
  EXPECT_NEAR(got, want, 1e-9 * want) << what;
}

TEST(WorkloadCounts, ClosedFormMatchesPerLayerTally) {
  for (const std::string id : {"qwen2.5-7b", "llama-3.1-8b", "mixtral-8x7b"}) {
    const TransformerConfig c = model(id);
    for (const WeightFormat& w : c.weight_formats)
      for (const std::string kv : {"bf16", "fp8"}) {
        std::vector<PhaseShape> shapes;
        for (int b : {1, 8, 64})
          for (int l : {1, 4096}) shapes.push_back({Phase::kDecode, b, l});
        for (int t : {1, 512, 4096}) shapes.push_back({Phase::kPrefill, t, 0});
        for (const PhaseShape& s : shapes) {
          const PhaseCounts got = count_phase(c, w, kv, s);
          const Tally want = tally(c, w, dtype_bytes(kv), s);
          const std::string what = id + " " + w.name + " kv " + kv + " " + phase_name(s.phase) +
                                   " " + std::to_string(s.tokens) + "/" + std::to_string(s.context);
          expect_close(got.flops, want.flops, what + " FLOP");
          expect_close(got.weight_bytes, want.weight, what + " weight bytes");
          if (s.phase == Phase::kDecode)
            expect_close(got.kv_read_bytes, want.kv_read, what + " KV read");
          else
            EXPECT_EQ(got.kv_read_bytes, 0) << what;
          expect_close(got.kv_write_bytes, want.kv_write, what + " KV write");
        }
      }
  }
}

// A model small enough to count by hand: 1 layer, hidden 2, one head of dim 2 (and one KV head),
// intermediate 4, vocabulary 3, untied, bf16. Linear weights: q, k, v, o 2×2 each (16) and
// gate, up, down 2×4 (24) = 40; norms 2·2 + final 2 = 6; embedding and head 3·2 each: 58.
TEST(WorkloadCounts, TinyModelByHand) {
  TempDir dir;
  const std::string file = dir.path + "/tiny.json";
  write_file(file, R"({"schema_version": "1.0", "name": "tiny", "source": "by hand",
    "parameters": 58, "layers": 1, "hidden_size": 2, "attention_heads": 1, "kv_heads": 1,
    "head_dim": 2, "intermediate_size": 4, "vocabulary": 3, "tied_embeddings": false,
    "qkv_bias": false, "activation_dtype": "bf16", "kv_cache_dtype": "bf16",
    "weight_formats": [{"name": "bf16", "dtype": "bf16"}]})");
  const TransformerConfig c = load_transformer_config(file);
  EXPECT_EQ(parameter_counts(c).total(), 58);
  // Decode, b = 1, L = 3: FLOP 2·40 (layer) + 2·3·2 (head) + 2·2·(1 head · dim 2 · 3 positions).
  const PhaseCounts d = count_phase(c, c.weight_formats[0], "bf16", {Phase::kDecode, 1, 3});
  EXPECT_EQ(d.flops, 80 + 12 + 24);
  // Bytes: 40 linear + 6 norm + 6 head weights + 2 of the embedding row, at 2 bytes each.
  EXPECT_EQ(d.weight_bytes, (40 + 6 + 6 + 2) * 2);
  EXPECT_EQ(d.kv_read_bytes, 3 * 2 * 2 * 2);  // 3 positions · K and V · width 2 · 2 bytes
  EXPECT_EQ(d.kv_write_bytes, 2 * 2 * 2);
  // Prefill, T = 2: layer 2·2·40, logits of the last token 12, attention 4·2·(1 + 2).
  const PhaseCounts p = count_phase(c, c.weight_formats[0], "bf16", {Phase::kPrefill, 2, 0});
  EXPECT_EQ(p.flops, 160 + 12 + 24);
  EXPECT_EQ(p.weight_bytes, (40 + 6 + 6 + 2 * 2) * 2);
  EXPECT_EQ(p.kv_read_bytes, 0);
  EXPECT_EQ(p.kv_write_bytes, 2 * (2 * 2 * 2));
}

TEST(WorkloadCounts, NotAnObjectIsOneLine) {
  TempDir dir;
  const std::string file = dir.path + "/list.json";
  write_file(file, "[]");
  const auto r =
      run_command(kBin + " place " + kData + "/cpu_run_a.json --workload " + file + " --prompt 8");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(file + ": a workload file must be a JSON object"), std::string::npos)
      << r.err;
}

// The checkpoints' parameter totals (their safetensors metadata), from the shapes alone.
TEST(WorkloadCounts, ParametersMatchThePublishedCheckpoints) {
  EXPECT_EQ(parameter_counts(model("qwen2.5-7b")).total(), 7615616512.0);
  EXPECT_EQ(parameter_counts(model("llama-3.1-8b")).total(), 8030261248.0);
  EXPECT_EQ(parameter_counts(model("mixtral-8x7b")).total(), 46702792704.0);
  // Mixtral: "12.9B" active per token (two of eight experts), rounded to 0.1B.
  EXPECT_NEAR(parameter_counts(model("mixtral-8x7b")).active(), 12.9e9, 0.05e9);
}

TEST(WorkloadCounts, WeightBytesAreParametersTimesBytesPerWeight) {
  const TransformerConfig c = model("qwen2.5-7b");
  const double parameters = 7615616512.0;
  EXPECT_EQ(stored_weight_bytes(c, c.weight_format("bf16")), parameters * 2);
  // Quantized: the 28 layers' q, k, v, o, gate, up and down matrices; the rest stays bf16.
  const double linear = 28.0 * (2 * 3584.0 * 3584 + 2 * 3584.0 * 512 + 3 * 3584.0 * 18944);
  EXPECT_EQ(stored_weight_bytes(c, c.weight_format("fp8")), linear * 1 + (parameters - linear) * 2);
  // int4, groups of 128 with 2.5 bytes of scale and zero point each.
  expect_close(stored_weight_bytes(c, c.weight_format("int4")),
               linear / 2 + linear / 128 * 2.5 + (parameters - linear) * 2, "int4 bytes");
}

// The textbook picture: a batch-1 bf16 decode step does about one FLOP per byte (2 FLOP per
// 2-byte weight; attention and the head add ~10 %, the embedding rows not read take some); the
// batch multiplies it until the KV cache dominates; a long prefill does thousands.
TEST(WorkloadCounts, DecodeIsNearOneFlopPerByteAndPrefillFarAbove) {
  const TransformerConfig c = model("llama-3.1-8b");
  const WeightFormat& w = c.weight_format("bf16");
  const double b1 = count_phase(c, w, "bf16", {Phase::kDecode, 1, 4096}).intensity();
  EXPECT_GT(b1, 0.9);
  EXPECT_LT(b1, 1.2);
  EXPECT_GT(count_phase(c, w, "bf16", {Phase::kDecode, 8, 512}).intensity(), 7 * b1);
  EXPECT_GT(count_phase(c, w, "bf16", {Phase::kPrefill, 4096, 0}).intensity(), 1000);
}

PhaseRoofs synthetic_roofs() {
  PhaseRoofs r;
  r.space = "Cuda";
  r.dtype = "bf16";
  r.p_vector = {100e12, {99e12, 101e12}};
  r.b = {4e12, {3.9e12, 4.1e12}};
  return r;
}

TEST(SpeedOfLight, MemoryBoundDecodeIsBandwidthOverBytes) {
  const TransformerConfig c = model("qwen2.5-7b");
  const PhaseCounts decode =
      count_phase(c, c.weight_format("bf16"), "bf16", {Phase::kDecode, 8, 4096});
  const PhasePlacement p = place_phase(decode, synthetic_roofs());
  EXPECT_TRUE(p.memory_bound);
  // Neither direction has a roof of its own here: reads and writes both meet B.
  EXPECT_STREQ(p.read_roof, "B");
  EXPECT_STREQ(p.write_roof, "B");
  EXPECT_EQ(p.memory_roofs(decode), "B");
  EXPECT_DOUBLE_EQ(p.tokens_per_s_on_b, p.tokens_per_s.value);
  EXPECT_DOUBLE_EQ(p.ridge, 25);
  EXPECT_DOUBLE_EQ(p.attainable, decode.intensity() * 4e12);
  EXPECT_DOUBLE_EQ(p.tokens_per_s.value, 8 * 4e12 / decode.bytes());
  EXPECT_DOUBLE_EQ(p.tokens_per_s.ci.low, 8 * 3.9e12 / decode.bytes());
  EXPECT_DOUBLE_EQ(p.tokens_per_s.ci.high, 8 * 4.1e12 / decode.bytes());
}

TEST(SpeedOfLight, ComputeBoundPrefillMeetsTheMatrixRoofWhenMeasured) {
  const TransformerConfig c = model("qwen2.5-7b");
  const PhaseCounts prefill =
      count_phase(c, c.weight_format("bf16"), "bf16", {Phase::kPrefill, 4096, 0});
  PhaseRoofs r = synthetic_roofs();
  PhasePlacement p = place_phase(prefill, r);
  EXPECT_FALSE(p.memory_bound);
  EXPECT_STREQ(p.compute_roof, "P_vector");
  EXPECT_DOUBLE_EQ(p.tokens_per_s.value, 4096 * 100e12 / prefill.flops);
  r.p_matrix = RoofValue{800e12, {790e12, 810e12}};
  p = place_phase(prefill, r);
  EXPECT_STREQ(p.compute_roof, "P_matrix");
  EXPECT_DOUBLE_EQ(p.ridge, 200);
  EXPECT_DOUBLE_EQ(p.tokens_per_s.value, 4096 * 800e12 / prefill.flops);
  EXPECT_DOUBLE_EQ(p.tokens_per_s.ci.low, 4096 * 790e12 / prefill.flops);
}

// Weights and KV reads meet B_read, KV appends B_write, the two times added; the answer on B
// alone is kept beside it.
TEST(SpeedOfLight, ReadsMeetBReadAndWritesMeetBWrite) {
  const TransformerConfig c = model("qwen2.5-7b");
  const PhaseCounts decode =
      count_phase(c, c.weight_format("bf16"), "bf16", {Phase::kDecode, 8, 4096});
  const double reads = decode.weight_bytes + decode.kv_read_bytes;
  ASSERT_GT(decode.kv_write_bytes, 0);
  PhaseRoofs r = synthetic_roofs();
  r.b_read = RoofValue{4.4e12, {4.3e12, 4.5e12}};
  r.b_write = RoofValue{2e12, {1.9e12, 2.1e12}};
  PhasePlacement p = place_phase(decode, r);
  EXPECT_TRUE(p.memory_bound);
  EXPECT_EQ(p.memory_roofs(decode), "B_read + B_write");
  const double seconds = reads / 4.4e12 + decode.kv_write_bytes / 2e12;
  EXPECT_DOUBLE_EQ(p.memory_s, seconds);
  EXPECT_DOUBLE_EQ(p.tokens_per_s.value, 8 / seconds);
  EXPECT_DOUBLE_EQ(p.tokens_per_s.ci.low, 8 / (reads / 4.3e12 + decode.kv_write_bytes / 1.9e12));
  EXPECT_DOUBLE_EQ(p.ridge, 100e12 / (decode.bytes() / seconds));
  EXPECT_DOUBLE_EQ(p.tokens_per_s_on_b, 8 * 4e12 / decode.bytes());
  EXPECT_DOUBLE_EQ(p.other_side_share(), (decode.flops / 100e12) / seconds);
  // No write roof measured: the appends meet B, and the bound says so.
  r.b_write.reset();
  p = place_phase(decode, r);
  EXPECT_EQ(p.memory_roofs(decode), "B_read + B");
  EXPECT_DOUBLE_EQ(p.tokens_per_s.value, 8 / (reads / 4.4e12 + decode.kv_write_bytes / 4e12));
}

// A phase that writes nothing is held against the read roof alone, named so.
TEST(SpeedOfLight, APhaseWithoutWritesNamesOneRoof) {
  PhaseCounts reads_only;
  reads_only.shape = {Phase::kDecode, 1, 1};
  reads_only.flops = 1e9;
  reads_only.weight_bytes = 1e9;
  PhaseRoofs r = synthetic_roofs();
  r.b_read = RoofValue{5e12, {4.9e12, 5.1e12}};
  r.b_write = RoofValue{2e12, {1.9e12, 2.1e12}};
  const PhasePlacement p = place_phase(reads_only, r);
  EXPECT_EQ(p.memory_roofs(reads_only), "B_read");
  EXPECT_DOUBLE_EQ(p.tokens_per_s.value, 5e12 / 1e9);
}

TEST(HostRoofs, TheWorkloadDtypeOrTheActivationsStatedOrNotMeasured) {
  const FileAnalysis h200 = analyze(load_results(std::string(ridgeline::test::paths::kTestData) +
                                                 "/../../samples/h200/results.json"));
  HostRoofs bf16 = host_roofs(h200, "bf16", "bf16", "", "");
  ASSERT_TRUE(bf16.roofs);
  EXPECT_EQ(bf16.roofs->dtype, "bf16");
  EXPECT_EQ(bf16.roofs->p_vector.value,
            h200.find("Cuda", "bf16")->fit.fit->estimate.roof.peak_flops);
  // The matmuls run on the tensor cores: the cuBLAS bf16 GEMM's roof bounds the compute.
  ASSERT_TRUE(bf16.roofs->p_matrix);
  EXPECT_EQ(bf16.roofs->p_matrix->value, h200.find("Cuda", "bf16")->fit.matrix->peak.value);
  EXPECT_STREQ(bf16.roofs->compute_name(), "P_matrix");
  // The H200 ran the fill kernel: its write roof is the device's write-only envelope.
  const MixRoof* fill = h200.find("Cuda", "bf16")->fit.mix_roof(TrafficMix::kWriteOnly);
  ASSERT_TRUE(fill && bf16.roofs->b_write);
  EXPECT_EQ(bf16.roofs->b_write->value, fill->roof.value);
  const HostRoofs fp8 = host_roofs(h200, "fp8", "bf16", "", "");
  ASSERT_TRUE(fp8.roofs);
  EXPECT_EQ(fp8.compute_dtype, "bf16");
  EXPECT_NE(fp8.why.find("no fp8 roofs measured"), std::string::npos) << fp8.why;
  const HostRoofs int4 = host_roofs(h200, "int4", "bf16", "", "");
  EXPECT_NE(int4.why.find("widened to the activation dtype"), std::string::npos) << int4.why;

  // The CPU fixture has fitted fp64 and fp32 roofs only: bf16 is not measured, never borrowed.
  const FileAnalysis cpu = analyze(load_results(kData + "/cpu_run_a.json"));
  const HostRoofs none = host_roofs(cpu, "bf16", "bf16", "", "");
  EXPECT_FALSE(none.roofs);
  EXPECT_NE(none.why.find("not measured"), std::string::npos) << none.why;
  const HostRoofs asked = host_roofs(cpu, "bf16", "bf16", "fp32", "");
  ASSERT_TRUE(asked.roofs);
  EXPECT_EQ(asked.roofs->dtype, "fp32");
  EXPECT_NE(asked.why.find("--compute-dtype"), std::string::npos);
}

const std::string kH200Sample =
    std::string(ridgeline::test::paths::kTestData) + "/../../samples/h200/results.json";

TEST(PlaceWorkload, HostsSideBySideWithTheBoundStated) {
  const auto r = run_command(kBin + " place " + kH200Sample + " " + kData +
                             "/cpu_run_a.json --workload qwen2.5-7b --batch 1,8,64 --context 4096 "
                             "--prompt 512,4096");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("upper bound"), std::string::npos);
  EXPECT_NE(r.out.find("No attention kernel, scheduler, launch"), std::string::npos);
  EXPECT_NE(r.out.find("`NVIDIA H200` bound (I*) | `NVIDIA H200` attainable | `NVIDIA H200` "
                       "tokens/s (95 % CI) | `NVIDIA H200` the other roofs | `devbox` bound (I*)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("- `devbox`: not measured: no fitted bf16 roofs"), std::string::npos)
      << r.out;
  // Batch-1 decode on the H200 is memory-bound: its reads meet B_read, its KV appends B_write
  // (bf16 runs no read or fill kernel of its own: both are the device's).
  const FileAnalysis h200 = analyze(load_results(kH200Sample));
  const auto& group = h200.find("Cuda", "bf16")->fit;
  const TransformerConfig c = model("qwen2.5-7b");
  const PhaseCounts step =
      count_phase(c, c.weight_format("bf16"), "bf16", {Phase::kDecode, 1, 4096});
  const std::string row = "| decode | b = 1 | 4096 |";
  const auto at = r.out.find(row);
  ASSERT_NE(at, std::string::npos) << r.out;
  const std::string line = r.out.substr(at, r.out.find('\n', at) - at);
  // The ridge that splits the phases is the matrix roof's: P_matrix / B_read.
  ASSERT_TRUE(group.matrix && group.matrix->read_ridge && group.read_bandwidth);
  const double b_read = group.read_bandwidth->value;
  for (const auto& g : h200.groups) {
    if (g.fit.space == "Cuda" && g.fit.read_bandwidth) {
      EXPECT_EQ(g.fit.read_bandwidth->value, b_read) << g.fit.dtype;
    }
  }
  const MixRoof* fill = group.mix_roof(TrafficMix::kWriteOnly);
  ASSERT_TRUE(fill);
  const double seconds =
      (step.weight_bytes + step.kv_read_bytes) / b_read + step.kv_write_bytes / fill->roof.value;
  const double mixed = step.bytes() / seconds;
  EXPECT_NE(
      line.find("memory B_read + B_write (" + format_sig(group.matrix->peak.value / mixed) + ")"),
      std::string::npos)
      << line;
  EXPECT_NE(line.find(" " + format_sig(1 / seconds) + " ["), std::string::npos) << line;
  // Beside it, the one-roof answer: every byte on B, the read-write envelope (lower on HBM).
  const double on_b = group.fit->estimate.roof.bandwidth / step.bytes();
  EXPECT_LT(on_b, 1 / seconds);
  EXPECT_NE(line.find("all bytes on B: " + format_sig(on_b) + " ("), std::string::npos) << line;
  EXPECT_NE(line.find("| not measured | – | – | – |"), std::string::npos) << line;
  EXPECT_NE(r.out.find("| prefill | T = 4096 | – |"), std::string::npos);
  // A 512-token prefill is compute-bound on the tensor cores, not on the vector FMAs.
  const auto prefill = r.out.find("| prefill | T = 512 |");
  ASSERT_NE(prefill, std::string::npos) << r.out;
  EXPECT_NE(r.out.substr(prefill, r.out.find('\n', prefill) - prefill).find("compute P_matrix ("),
            std::string::npos)
      << r.out;
}

TEST(PlaceWorkload, ComputeDtypeFillsTheCpuColumn) {
  const auto r = run_command(kBin + " place " + kData +
                             "/cpu_run_a.json --workload llama-3.1-8b --weights int4 --batch 1 "
                             "--context 1024 --compute-dtype fp32");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("(int4 weights, bf16 KV cache)"), std::string::npos);
  EXPECT_NE(r.out.find("OpenMP fp32 (fp32 roofs, as --compute-dtype asks)"), std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("not measured"), std::string::npos) << r.out;
}

TEST(ReportWorkload, SectionWhenAsked) {
  TempDir out;
  const auto r = run_command(kBin + " report " + kH200Sample + " --out " + out.path +
                             " --workload mixtral-8x7b --batch 1,64 --context 4096 --prompt 512");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string md = slurp(out.path + "/report.md");
  EXPECT_NE(md.find("## Workload: Mixtral-8x7B-v0.1 (bf16 weights, bf16 KV cache)"),
            std::string::npos);
  EXPECT_NE(md.find("2 of 8 experts"), std::string::npos);
  EXPECT_NE(md.find("| decode | b = 64 | 4096 |"), std::string::npos);
  TempDir plain;
  ASSERT_EQ(run_command(kBin + " report " + kH200Sample + " --out " + plain.path).exit_code, 0);
  EXPECT_EQ(slurp(plain.path + "/report.md").find("Workload"), std::string::npos);
}

struct BadWorkload {
  const char* edit;  // text of qwen2.5-7b.json to replace (its first occurrence)
  const char* replace;
  const char* field;  // the field the one-line error must name
};

void PrintTo(const BadWorkload& b, std::ostream* os) { *os << b.edit << " -> " << b.replace; }

class WorkloadBadFile : public ::testing::TestWithParam<BadWorkload> {};

TEST_P(WorkloadBadFile, OneLineNamingFileAndField) {
  std::string text = slurp(workload_profiles_dir() + "/qwen2.5-7b.json");
  const auto at = text.find(GetParam().edit);
  ASSERT_NE(at, std::string::npos) << GetParam().edit;
  text.replace(at, std::string(GetParam().edit).size(), GetParam().replace);
  TempDir dir;
  const std::string file = dir.path + "/bad.json";
  write_file(file, text);
  const auto r = run_command(kBin + " place " + kData + "/cpu_run_a.json --workload " + file +
                             " --batch 1 --context 8");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(file + ": " + GetParam().field + ":"), std::string::npos) << r.err;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, WorkloadBadFile,
    ::testing::Values(
        BadWorkload{"\"layers\": 28", "\"layers\": 0", "layers"},
        BadWorkload{"\"layers\": 28,", "", "layers"},
        BadWorkload{"\"hidden_size\": 3584", "\"hidden_size\": \"3584\"", "hidden_size"},
        BadWorkload{"\"intermediate_size\": 18944", "\"intermediate_size\": 18000", "parameters"},
        BadWorkload{"\"kv_heads\": 4", "\"kv_heads\": 5", "kv_heads"},
        BadWorkload{"\"tied_embeddings\": false", "\"tied_embeddings\": 0", "tied_embeddings"},
        BadWorkload{"\"kv_cache_dtype\": \"bf16\"", "\"kv_cache_dtype\": \"int3\"",
                    "kv_cache_dtype"},
        BadWorkload{"\"dtype\": \"fp8\"", "\"dtype\": \"fp4\"", "weight_formats[1].dtype"},
        BadWorkload{", \"scale_bytes\": 2.5", "", "weight_formats[2].scale_bytes"},
        BadWorkload{"\"name\": \"fp8\"", "\"name\": \"bf16\"", "weight_formats[1].name"},
        BadWorkload{"\"schema_version\": \"1.0\"", "\"schema_version\": \"2.0\"", "schema_version"},
        BadWorkload{"\"layers\": 28,", "\"layers\": 28, \"experts\": 3,", "experts"},
        // Misspelt fields: refused with the likely one, not ignored.
        BadWorkload{"\"layers\": 28,", "\"layers\": 28, \"layer\": 3,", "layer"},
        BadWorkload{"\"name\": \"fp8\", \"dtype\": \"fp8\"",
                    "\"name\": \"fp8\", \"dtype\": \"fp8\", \"groupsize\": 64",
                    "weight_formats[1].groupsize"}));

struct BadPlace {
  const char* args;
  const char* needle;
};

void PrintTo(const BadPlace& b, std::ostream* os) { *os << b.args; }

class PlaceWorkloadBadInput : public ::testing::TestWithParam<BadPlace> {};

TEST_P(PlaceWorkloadBadInput, OneLineErrorAndExitTwo) {
  const auto r = run_command(kBin + " place " + kData + "/cpu_run_a.json " + GetParam().args);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(GetParam().needle), std::string::npos) << r.err;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, PlaceWorkloadBadInput,
    ::testing::Values(BadPlace{"--workload qwen2.5-7b --batch 1", "--context"},
                      BadPlace{"--workload qwen2.5-7b", "--batch"},
                      BadPlace{"--workload qwen2.5-7b --batch 0 --context 8", "--batch"},
                      BadPlace{"--workload qwen2.5-7b --batch 1,x --context 8", "--batch"},
                      BadPlace{"--workload qwen2.5-7b --prompt 99999999999", "--prompt"},
                      BadPlace{"--workload gpt-17 --prompt 8", "unknown workload 'gpt-17'"},
                      BadPlace{"--workload qwen2.5-7b --prompt 8 --weights int2", "--weights"},
                      BadPlace{"--workload qwen2.5-7b --prompt 8 --kv-dtype int2", "--kv-dtype"},
                      BadPlace{"--batch 1 --context 8 --intensities 1", "--batch"},
                      BadPlace{"--workload qwen2.5-7b --prompt 8 --intensities 1", "--intensities"},
                      BadPlace{"", "--intensities"},
                      // Names the results do not hold: refused, not a "not measured" table.
                      BadPlace{"--workload qwen2.5-7b --prompt 8 --space openmp",
                               "--space: 'openmp' is not a space of these results (OpenMP) "
                               "(did you mean 'OpenMP'?)"},
                      BadPlace{"--workload qwen2.5-7b --prompt 8 --compute-dtype fp46",
                               "--compute-dtype: 'fp46' is not a dtype of these results"},
                      BadPlace{"--workload qwen2.5-7b --prompt 8 --space OpenMP --compute-dtype "
                               "bf16",
                               "--compute-dtype: 'bf16' is not a dtype of these results in "
                               "OpenMP"}));

}  // namespace
}  // namespace ridgeline
