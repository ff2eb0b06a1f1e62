#pragma once
// A transformer's public configuration and weight formats (profiles/workloads/*.json, schema.md
// there): what the decode and prefill counts (phase_counts.hpp) are computed from.
#include <optional>
#include <string>
#include <vector>

namespace ridgeline {

// How the layers' linear weights are stored. Embeddings, the output head, norms, biases and the
// router stay in the activation dtype (as in AWQ, GPTQ and FP8 checkpoints).
struct WeightFormat {
  std::string name;        // as --weights names it: "bf16", "fp8", "int4"
  std::string dtype;       // bf16 | fp16 | fp8 | int4
  double bits = 16;        // per weight, from the dtype
  int group_size = 0;      // weights sharing one scale; 0: per-tensor scales (not counted)
  double scale_bytes = 0;  // per group: the scale and any zero point
  std::string note;
  double bytes_per_weight() const {
    return bits / 8 + (group_size > 0 ? scale_bytes / group_size : 0.0);
  }
};

struct TransformerConfig {
  std::string id;  // file stem, e.g. "qwen2.5-7b"
  std::string file;
  std::string name, source;
  double stated_parameters = 0;         // the model card's figure, checked against the shapes
                                        // (0: not stated, as in a config.json)
  double stated_active_parameters = 0;  // mixture of experts only (0 when not stated)
  int layers = 0, hidden = 0, heads = 0, kv_heads = 0, head_dim = 0, intermediate = 0;
  int vocabulary = 0;
  bool tied_embeddings = false;
  bool qkv_bias = false;
  int experts = 1, active_experts = 1;  // a dense model: one expert, always active
  std::string activation_dtype;         // what the matmuls compute in
  std::string kv_cache_dtype;
  std::vector<WeightFormat> weight_formats;

  // The format named `name` (empty: the first); throws InputError naming --weights.
  const WeightFormat& weight_format(const std::string& name) const;
};

// Bytes per element of an activation or KV-cache dtype (bf16, fp16: 2; fp8: 1; fp32: 4); 0 for
// a dtype that is not one.
double dtype_bytes(const std::string& dtype);

// Reads and validates one workload file, or a Hugging Face config.json (workloads/hf_config.hpp:
// a JSON object with `model_type` and no `schema_version`); throws InputError naming the file and
// the field. A workload file's parameter count from the shapes must agree with its stated one
// within 1 % (a mistyped shape shows up there).
TransformerConfig load_transformer_config(const std::string& path);

// profiles/workloads (core/profiles_root.hpp).
std::string workload_profiles_dir();

// By id (file stem) or name, case-insensitive, or a path to a .json file; throws InputError
// naming --workload and listing the known ids.
TransformerConfig find_transformer_config(const std::string& id_name_or_path,
                                          const std::string& dir);

}  // namespace ridgeline
