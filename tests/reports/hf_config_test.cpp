// A model's own Hugging Face config.json as a workload: each bundled profile and its published
// config.json (profiles/workloads/hf) give the same counts; quantization_config gives the
// bundled formats' bytes; what the schema cannot express is one line naming file and field.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "reports/workloads/phase_counts.hpp"
#include "reports/workloads/transformer_config.hpp"
#include "tests/reports/cli_test_support.hpp"

namespace ridgeline {
namespace {

using namespace test;
using nlohmann::json;

std::string hf_path(const std::string& id) {
  return workload_profiles_dir() + "/hf/" + id + "/config.json";
}

TransformerConfig bundled(const std::string& id) {
  return find_transformer_config(id, workload_profiles_dir());
}

std::vector<PhaseShape> counted_shapes() {
  std::vector<PhaseShape> out;
  for (int b : {1, 8, 64})
    for (int l : {1, 4096, 32768}) out.push_back({Phase::kDecode, b, l});
  for (int t : {1, 512, 8192}) out.push_back({Phase::kPrefill, t, 0});
  return out;
}

void expect_same_counts(const TransformerConfig& want, const WeightFormat& want_format,
                        const TransformerConfig& got, const WeightFormat& got_format,
                        const std::string& what) {
  EXPECT_EQ(stored_weight_bytes(got, got_format), stored_weight_bytes(want, want_format)) << what;
  for (const PhaseShape& s : counted_shapes()) {
    const PhaseCounts a = count_phase(want, want_format, want.kv_cache_dtype, s);
    const PhaseCounts b = count_phase(got, got_format, got.kv_cache_dtype, s);
    const std::string at = what + " " + phase_name(s.phase) + " " + std::to_string(s.tokens) + "/" +
                           std::to_string(s.context);
    EXPECT_EQ(b.flops, a.flops) << at;
    EXPECT_EQ(b.weight_bytes, a.weight_bytes) << at;
    EXPECT_EQ(b.kv_read_bytes, a.kv_read_bytes) << at;
    EXPECT_EQ(b.kv_write_bytes, a.kv_write_bytes) << at;
  }
}

TEST(HfConfig, EachBundledProfileGivesItsConfigsCounts) {
  for (const std::string id : {"qwen2.5-7b", "llama-3.1-8b", "mixtral-8x7b"}) {
    const TransformerConfig want = bundled(id);
    const TransformerConfig got = load_transformer_config(hf_path(id));
    EXPECT_EQ(got.name, id);
    EXPECT_EQ(got.layers, want.layers) << id;
    EXPECT_EQ(got.hidden, want.hidden) << id;
    EXPECT_EQ(got.heads, want.heads) << id;
    EXPECT_EQ(got.kv_heads, want.kv_heads) << id;
    EXPECT_EQ(got.head_dim, want.head_dim) << id;
    EXPECT_EQ(got.intermediate, want.intermediate) << id;
    EXPECT_EQ(got.vocabulary, want.vocabulary) << id;
    EXPECT_EQ(got.tied_embeddings, want.tied_embeddings) << id;
    EXPECT_EQ(got.qkv_bias, want.qkv_bias) << id;
    EXPECT_EQ(got.experts, want.experts) << id;
    EXPECT_EQ(got.active_experts, want.active_experts) << id;
    EXPECT_EQ(got.activation_dtype, want.activation_dtype) << id;
    EXPECT_EQ(got.kv_cache_dtype, want.kv_cache_dtype) << id;
    // The config states no count; the bundled file's stated one holds for the config's shapes.
    EXPECT_EQ(got.stated_parameters, 0) << id;
    EXPECT_NEAR(parameter_counts(got).total(), want.stated_parameters,
                0.01 * want.stated_parameters)
        << id;
    ASSERT_EQ(got.weight_formats.size(), 1u) << id;
    EXPECT_EQ(got.weight_formats[0].name, "bf16") << id;
    expect_same_counts(want, want.weight_format("bf16"), got, got.weight_formats[0], id);
  }
}

// Qwen2.5's config has no head_dim: transformers derives it, and the source line says so.
TEST(HfConfig, WhatTransformersDerivesIsStated) {
  const TransformerConfig qwen = load_transformer_config(hf_path("qwen2.5-7b"));
  EXPECT_EQ(qwen.head_dim, 3584 / 28);
  EXPECT_NE(qwen.source.find("head_dim = hidden_size / num_attention_heads"), std::string::npos)
      << qwen.source;
  EXPECT_NE(qwen.source.find("Qwen2ForCausalLM, transformers 4.43.1"), std::string::npos);
  // Llama-2-style: no num_key_value_heads (every head its own KV), no tie_word_embeddings.
  json j = json::parse(slurp(hf_path("llama-3.1-8b")));
  j.erase("num_key_value_heads");
  j.erase("tie_word_embeddings");
  TempDir dir;
  write_json(dir.path + "/config.json", j);
  const TransformerConfig mha = load_transformer_config(dir.path + "/config.json");
  EXPECT_EQ(mha.kv_heads, 32);
  EXPECT_FALSE(mha.tied_embeddings);
  EXPECT_NE(mha.source.find("num_key_value_heads = num_attention_heads"), std::string::npos);
  EXPECT_NE(mha.source.find("tie_word_embeddings false (LlamaForCausalLM's default)"),
            std::string::npos);
}

TransformerConfig with_quantization(const std::string& id, const json& q,
                                    const std::string& torch_dtype = "bfloat16") {
  json j = json::parse(slurp(hf_path(id)));
  j["quantization_config"] = q;
  j["torch_dtype"] = torch_dtype;
  static int n = 0;
  TempDir dir;
  const std::string file = dir.path + "/config" + std::to_string(n++) + ".json";
  write_json(file, j);
  return load_transformer_config(file);
}

// An AWQ or GPTQ checkpoint's config gives the bundled int4 format's bytes (fp16 scale and packed
// zero point per group of 128); an fp8 one the bundled fp8's.
TEST(HfConfig, QuantizationConfigGivesTheBundledFormats) {
  for (const std::string id : {"qwen2.5-7b", "mixtral-8x7b"}) {
    const TransformerConfig want = bundled(id);
    const json awq = {{"quant_method", "awq"}, {"bits", 4},
                      {"group_size", 128},     {"zero_point", true},
                      {"version", "gemm"},     {"modules_to_not_convert", json::array({"gate"})}};
    const TransformerConfig a = with_quantization(id, awq);
    EXPECT_EQ(a.weight_formats[0].name, "awq-int4");
    expect_same_counts(want, want.weight_format("int4"), a, a.weight_formats[0], id + " awq");
    const json gptq = {{"quant_method", "gptq"},
                       {"bits", 4},
                       {"group_size", 128},
                       {"desc_act", false},
                       {"sym", true}};
    const TransformerConfig g = with_quantization(id, gptq);
    expect_same_counts(want, want.weight_format("int4"), g, g.weight_formats[0], id + " gptq");
    const json fp8 = {{"quant_method", "fp8"}, {"activation_scheme", "dynamic"}};
    const TransformerConfig f = with_quantization(id, fp8);
    expect_same_counts(want, want.weight_format("fp8"), f, f.weight_formats[0], id + " fp8");
  }
  // AWQ without zero points: the scale alone per group; fp8 with 128x128 blocks: one fp32 scale
  // per block.
  const TransformerConfig scale_only = with_quantization(
      "qwen2.5-7b",
      {{"quant_method", "awq"}, {"bits", 4}, {"group_size", 64}, {"zero_point", false}}, "float16");
  EXPECT_EQ(scale_only.activation_dtype, "fp16");
  EXPECT_EQ(scale_only.weight_formats[0].bytes_per_weight(), 0.5 + 2.0 / 64);
  const TransformerConfig blocks = with_quantization(
      "qwen2.5-7b", {{"quant_method", "fp8"}, {"weight_block_size", json::array({128, 128})}});
  EXPECT_EQ(blocks.weight_formats[0].bytes_per_weight(), 1 + 4.0 / (128 * 128));
}

// The same table from the config as from the bundled profile, through the command line.
TEST(HfConfig, PlaceTakesAConfigJson) {
  const std::string h200 = kData + "/../../samples/h200/results.json";
  const std::string args = " --batch 1,8 --context 4096 --prompt 512";
  const auto from_profile = run_command(kBin + " place " + h200 + " --workload qwen2.5-7b" + args);
  const auto from_config =
      run_command(kBin + " place " + h200 + " --workload " + hf_path("qwen2.5-7b") + args);
  ASSERT_EQ(from_profile.exit_code, 0) << from_profile.err;
  ASSERT_EQ(from_config.exit_code, 0) << from_config.err;
  EXPECT_NE(from_config.out.find("# Workload: qwen2.5-7b (bf16 weights, bf16 KV cache)"),
            std::string::npos)
      << from_config.out;
  EXPECT_NE(from_config.out.find("(no count stated)"), std::string::npos);
  const auto table = [](const std::string& md) { return md.substr(md.find("\n| phase |")); };
  EXPECT_EQ(table(from_config.out), table(from_profile.out));
}

struct BadConfig {
  const char* base;   // the bundled config patched
  const char* patch;  // a JSON merge patch (null removes a field)
  const char* field;  // the field the one-line error must name
};

void PrintTo(const BadConfig& b, std::ostream* os) { *os << b.base << " + " << b.patch; }

class HfConfigBad : public ::testing::TestWithParam<BadConfig> {};

TEST_P(HfConfigBad, OneLineNamingFileAndField) {
  json j = json::parse(slurp(hf_path(GetParam().base)));
  j.merge_patch(json::parse(GetParam().patch));
  TempDir dir;
  const std::string file = dir.path + "/config.json";
  write_json(file, j);
  const auto r = run_command(kBin + " place " + kData + "/cpu_run_a.json --workload " + file +
                             " --batch 1 --context 8");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(file + ": " + GetParam().field + ":"), std::string::npos) << r.err;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, HfConfigBad,
    ::testing::Values(
        BadConfig{"qwen2.5-7b", R"({"model_type": "gemma"})", "model_type"},
        BadConfig{"qwen2.5-7b", R"({"model_type": null, "architectures": null})", "schema_version"},
        BadConfig{"qwen2.5-7b", R"({"architectures": ["LlamaForCausalLM"]})", "architectures"},
        BadConfig{"qwen2.5-7b", R"({"hidden_size": null})", "hidden_size"},
        BadConfig{"qwen2.5-7b", R"({"num_hidden_layers": 0})", "num_hidden_layers"},
        BadConfig{"qwen2.5-7b", R"({"num_key_value_heads": 5})", "num_key_value_heads"},
        BadConfig{"qwen2.5-7b", R"({"num_attention_heads": 24})", "head_dim"},
        BadConfig{"qwen2.5-7b", R"({"use_sliding_window": true})", "use_sliding_window"},
        BadConfig{"qwen2.5-7b", R"({"num_local_experts": 8})", "num_local_experts"},
        BadConfig{"qwen2.5-7b", R"({"torch_dtype": "int8"})", "torch_dtype"},
        BadConfig{"qwen2.5-7b", R"({"torch_dtype": null})", "torch_dtype"},
        BadConfig{"qwen2.5-7b", R"({"dtype": "float16"})", "dtype"},
        BadConfig{"qwen2.5-7b", R"({"tie_word_embeddings": "no"})", "tie_word_embeddings"},
        BadConfig{"llama-3.1-8b", R"({"attention_bias": true})", "attention_bias"},
        BadConfig{"llama-3.1-8b", R"({"mlp_bias": true})", "mlp_bias"},
        BadConfig{"mixtral-8x7b", R"({"sliding_window": 4096})", "sliding_window"},
        BadConfig{"mixtral-8x7b", R"({"num_experts_per_tok": 9})", "num_experts_per_tok"},
        BadConfig{"mixtral-8x7b", R"({"num_local_experts": null})", "num_local_experts"},
        BadConfig{"llama-3.1-8b", R"({"quantization_config": {"quant_method": "bitsandbytes"}})",
                  "quantization_config.quant_method"},
        BadConfig{
            "llama-3.1-8b",
            R"({"quantization_config": {"quant_method": "awq", "bits": 8, "group_size": 128}})",
            "quantization_config.bits"},
        BadConfig{
            "llama-3.1-8b",
            R"({"quantization_config": {"quant_method": "gptq", "bits": 4, "group_size": -1}})",
            "quantization_config.group_size"},
        BadConfig{"llama-3.1-8b",
                  R"({"quantization_config": {"quant_method": "awq", "bits": 4, "group_size": 128,
                      "modules_to_not_convert": ["mlp"]}})",
                  "quantization_config.modules_to_not_convert[0]"},
        BadConfig{"llama-3.1-8b",
                  R"({"quantization_config": {"quant_method": "fp8", "weight_block_size": [128]}})",
                  "quantization_config.weight_block_size"}));

}  // namespace
}  // namespace ridgeline
