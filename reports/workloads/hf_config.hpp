#pragma once
// A model's own Hugging Face config.json read as a workload, for the architectures the workload
// schema covers (profiles/workloads/schema.md): Llama, Mistral, Mixtral and Qwen2. Every field
// that would change a count and that the schema cannot express (a bias on o_proj, a sliding
// attention window, another architecture, a quantization it has no layout for) is one line
// naming the file and the field, never an approximation.
#include <nlohmann/json.hpp>

#include <string>

#include "reports/workloads/transformer_config.hpp"

namespace ridgeline {

// A JSON object that is a Hugging Face model config (it names its `model_type`) rather than a
// workload file (which carries `schema_version`).
bool is_hf_config(const nlohmann::json& j);

// The workload the config describes; `path` names the file in errors. transformers' own rules
// fill what a config may leave out (num_key_value_heads: the attention heads; head_dim:
// hidden_size / num_attention_heads; tie_word_embeddings: false, the four classes' default), and
// the source line says which were used. One weight format, the checkpoint's: its
// `quantization_config` (AWQ or GPTQ int4 with group scales, fp8 with per-tensor or block
// scales), else `torch_dtype`. The KV cache is in `torch_dtype` (an engine's "auto"). A config
// states no parameter count: nothing is checked against one.
TransformerConfig hf_transformer_config(const std::string& path, const nlohmann::json& j);

}  // namespace ridgeline
