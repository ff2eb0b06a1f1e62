#include "reports/workloads/hf_config.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <string>
#include <vector>

#include "core/field_reader.hpp"
#include "core/input_error.hpp"

namespace ridgeline {
namespace {

using nlohmann::json;

// The architectures whose layers are what phase_counts.hpp counts: pre-norm attention with
// grouped KV heads (q, k, v, o), a gated MLP (gate, up, down), per layer two norms.
struct Architecture {
  const char* model_type;
  const char* class_name;
  bool qkv_bias;          // q, k and v carry a bias (Qwen2Attention), o does not
  bool experts;           // num_local_experts experts, num_experts_per_tok active (Mixtral)
  const char* window;     // the field that turns on a sliding attention window, or nullptr
  bool window_is_switch;  // that field is a boolean (Qwen2) rather than a size or null (Mistral)
};

inline constexpr Architecture kArchitectures[] = {
    {"llama", "LlamaForCausalLM", false, false, nullptr, false},
    {"mistral", "MistralForCausalLM", false, false, "sliding_window", false},
    {"mixtral", "MixtralForCausalLM", false, true, "sliding_window", false},
    {"qwen2", "Qwen2ForCausalLM", true, false, "use_sliding_window", true},
};

inline constexpr long long kMaxConfigDimension = 1 << 20;

std::string covered_types() {
  std::string out;
  for (const auto& a : kArchitectures) out += (out.empty() ? "" : ", ") + std::string(a.model_type);
  return out;
}

const Architecture& architecture(const std::string& path, const FieldReader& f, const json& j) {
  const std::string type = f.text("model_type");
  const Architecture* arch = nullptr;
  for (const auto& a : kArchitectures)
    if (type == a.model_type) arch = &a;
  if (!arch)
    throw InputError(path, "model_type",
                     "'" + type + "' is not an architecture the workload schema covers (" +
                         covered_types() + ")");
  if (f.has("architectures")) {
    const json& list = j["architectures"];
    if (!list.is_array() || list.size() != 1 || !list[0].is_string() ||
        list[0].get<std::string>() != arch->class_name)
      throw InputError(path, "architectures",
                       fmt::format("{} contradicts model_type '{}' (expected [\"{}\"])",
                                   list.dump(), type, arch->class_name));
  }
  return *arch;
}

int dimension(const FieldReader& f, const std::string& key) {
  return static_cast<int>(f.integer(key, 1, kMaxConfigDimension));
}

// "bfloat16" -> "bf16"; transformers writes `torch_dtype` (and, from 4.56, `dtype`).
std::string activation_dtype(const std::string& path, const FieldReader& f) {
  const std::string torch = f.optional_text("torch_dtype"), plain = f.optional_text("dtype");
  if (!torch.empty() && !plain.empty() && torch != plain)
    throw InputError(path, "dtype",
                     "'" + plain + "' contradicts torch_dtype '" + torch + "' (one weight dtype)");
  const std::string name = torch.empty() ? plain : torch;
  const std::string field = torch.empty() && !plain.empty() ? "dtype" : "torch_dtype";
  if (name.empty())
    throw InputError(path, field, "missing: the dtype the weights and activations are stored in");
  if (name == "bfloat16") return "bf16";
  if (name == "float16") return "fp16";
  if (name == "float32") return "fp32";
  throw InputError(path, field,
                   "'" + name + "' is not an activation dtype (bfloat16, float16, float32)");
}

void require_false(const std::string& path, const FieldReader& f, const std::string& key,
                   const std::string& why) {
  if (f.has(key) && f.boolean(key)) throw InputError(path, key, "true: " + why);
}

// What an engine keeps unquantized beside the layers: the output head, the embedding and the
// router, which the schema counts in the activation dtype anyway.
void check_unconverted(const std::string& path, const json& q) {
  if (!q.contains("modules_to_not_convert") || q["modules_to_not_convert"].is_null()) return;
  const json& list = q["modules_to_not_convert"];
  const std::string at = "quantization_config.modules_to_not_convert";
  if (!list.is_array()) throw InputError(path, at, "must be an array of module names or null");
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string name = list[i].is_string() ? list[i].get<std::string>() : "";
    if (name != "lm_head" && name != "embed_tokens" && name != "gate")
      throw InputError(path, fmt::format("{}[{}]", at, i),
                       list[i].dump() +
                           " is not covered: only lm_head, embed_tokens and gate (the router) "
                           "stay unquantized in the schema's count");
  }
}

WeightFormat quantized_format(const std::string& path, const json& q) {
  if (!q.is_object()) throw InputError(path, "quantization_config", "must be an object");
  const FieldReader f(path, q, "quantization_config");
  const std::string method = f.text("quant_method");
  check_unconverted(path, q);
  WeightFormat w;
  if (method == "awq" || method == "gptq") {
    const long long bits = f.integer("bits", 1, 64);
    if (bits != 4)
      throw InputError(path, f.where("bits"),
                       fmt::format("{}-bit {} is not covered (4-bit only)", bits, method));
    const json& group = f.require("group_size");
    if (group.is_number_integer() && group.get<long long>() == -1)
      throw InputError(path, f.where("group_size"),
                       "-1 (one scale per output column) is not covered: groups of a fixed size");
    w.group_size = static_cast<int>(f.integer("group_size", 1, kMaxConfigDimension));
    // Per group and output column an fp16 scale, and a 4-bit zero point packed eight to an int32
    // (qzeros): GPTQ's packing stores it even when symmetric, AWQ only with zero_point.
    const bool zero = method == "gptq" || !f.has("zero_point") || f.boolean("zero_point");
    w.scale_bytes = 2 + (zero ? 0.5 : 0);
    w.dtype = "int4";
    w.bits = 4;
    w.name = method + "-int4";
    w.note = fmt::format("{} from quantization_config: per group of {} weights an fp16 scale{}{}",
                         method == "awq" ? "AWQ" : "GPTQ", w.group_size,
                         zero ? " and a packed 4-bit zero point" : "",
                         method == "gptq" ? " (g_idx, 4 bytes per input row, not counted)" : "");
    return w;
  }
  if (method == "fp8") {
    w.dtype = "fp8";
    w.bits = 8;
    w.name = "fp8";
    if (f.has("weight_block_size")) {
      const json& block = q["weight_block_size"];
      const std::string at = f.where("weight_block_size");
      if (!block.is_array() || block.size() != 2 || !block[0].is_number_integer() ||
          !block[1].is_number_integer() || block[0].get<long long>() < 1 ||
          block[1].get<long long>() < 1 || block[0].get<long long>() > 4096 ||
          block[1].get<long long>() > 4096)
        throw InputError(path, at, "must be [rows, columns], integers in [1, 4096]");
      // One fp32 scale (weight_scale_inv) per block.
      w.group_size = static_cast<int>(block[0].get<long long>() * block[1].get<long long>());
      w.scale_bytes = 4;
      w.note = fmt::format("fp8 from quantization_config: one fp32 scale per {}x{} block",
                           block[0].get<long long>(), block[1].get<long long>());
    } else {
      w.note = "fp8 from quantization_config: one scale per tensor (a few bytes, not counted)";
    }
    return w;
  }
  throw InputError(path, f.where("quant_method"),
                   "'" + method + "' is not covered (awq, gptq: 4-bit with groups; fp8)");
}

// The model's name: `_name_or_path` when the config keeps it, else the folder a config.json
// sits in (a download is a folder per model), else the file's stem.
std::string model_name(const std::string& path, const FieldReader& f) {
  namespace fs = std::filesystem;
  const std::string stored = f.optional_text("_name_or_path");
  if (!stored.empty() && stored != "." && stored != "./") return stored;
  const fs::path p(path);
  const std::string folder = p.parent_path().filename().string();
  return p.filename() == "config.json" && !folder.empty() ? folder : p.stem().string();
}

}  // namespace

bool is_hf_config(const json& j) {
  return j.is_object() && j.contains("model_type") && !j.contains("schema_version");
}

TransformerConfig hf_transformer_config(const std::string& path, const json& j) {
  const FieldReader f(path, j, "");
  const Architecture& arch = architecture(path, f, j);
  std::vector<std::string> defaults;  // what transformers' rules filled in, for the source line
  TransformerConfig c;
  c.file = path;
  c.name = model_name(path, f);
  c.id = c.name;
  c.layers = dimension(f, "num_hidden_layers");
  c.hidden = dimension(f, "hidden_size");
  c.heads = dimension(f, "num_attention_heads");
  c.intermediate = dimension(f, "intermediate_size");
  c.vocabulary = dimension(f, "vocab_size");
  if (f.has("num_key_value_heads")) {
    c.kv_heads = dimension(f, "num_key_value_heads");
  } else {
    c.kv_heads = c.heads;
    defaults.push_back("num_key_value_heads = num_attention_heads");
  }
  if (c.heads % c.kv_heads != 0)
    throw InputError(
        path, "num_key_value_heads",
        fmt::format("{} attention heads do not share {} KV heads evenly", c.heads, c.kv_heads));
  if (f.has("head_dim")) {
    c.head_dim = dimension(f, "head_dim");
  } else {
    if (c.hidden % c.heads != 0)
      throw InputError(path, "head_dim",
                       fmt::format("missing, and hidden_size {} is not a multiple of "
                                   "num_attention_heads {} to derive it from",
                                   c.hidden, c.heads));
    c.head_dim = c.hidden / c.heads;
    defaults.push_back("head_dim = hidden_size / num_attention_heads");
  }
  if (f.has("tie_word_embeddings")) {
    c.tied_embeddings = f.boolean("tie_word_embeddings");
  } else {
    defaults.push_back(std::string("tie_word_embeddings false (") + arch.class_name +
                       "'s default)");
  }
  c.qkv_bias = arch.qkv_bias;
  require_false(path, f, "attention_bias",
                "a bias on o_proj as well as q, k and v is not covered (the schema counts q/k/v "
                "biases, Qwen2's)");
  require_false(path, f, "mlp_bias", "biases on the MLP's projections are not covered");
  if (arch.window) {
    const bool windowed =
        arch.window_is_switch ? f.has(arch.window) && f.boolean(arch.window) : f.has(arch.window);
    if (windowed)
      throw InputError(path, arch.window,
                       "a sliding attention window is not covered (decode would read only the "
                       "window's KV cache): " +
                           j[arch.window].dump());
  }
  const bool has_experts = f.has("num_local_experts") || f.has("num_experts_per_tok");
  if (arch.experts) {
    c.experts = static_cast<int>(f.integer("num_local_experts", 1, 1024));
    c.active_experts = static_cast<int>(f.integer("num_experts_per_tok", 1, 1024));
    if (c.active_experts > c.experts)
      throw InputError(path, "num_experts_per_tok",
                       fmt::format("{} active of {} experts", c.active_experts, c.experts));
  } else if (has_experts) {
    throw InputError(path, f.has("num_local_experts") ? "num_local_experts" : "num_experts_per_tok",
                     std::string("contradicts model_type '") + arch.model_type +
                         "' (a dense model; Mixtral is 'mixtral')");
  }
  c.activation_dtype = activation_dtype(path, f);
  c.kv_cache_dtype = c.activation_dtype;
  if (f.has("quantization_config")) {
    c.weight_formats.push_back(quantized_format(path, j["quantization_config"]));
  } else {
    WeightFormat w;
    w.name = w.dtype = c.activation_dtype;
    w.bits = 8 * dtype_bytes(c.activation_dtype);
    c.weight_formats.push_back(w);
  }
  const std::string version = f.optional_text("transformers_version");
  c.source = fmt::format("Hugging Face config.json ({}{}){}", arch.class_name,
                         version.empty() ? "" : ", transformers " + version,
                         defaults.empty() ? "" : "; by transformers' rules: ");
  for (std::size_t i = 0; i < defaults.size(); ++i) c.source += (i ? ", " : "") + defaults[i];
  return c;
}

}  // namespace ridgeline
