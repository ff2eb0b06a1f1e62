#include "reports/workloads/transformer_config.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "core/field_reader.hpp"
#include "core/input_error.hpp"
#include "core/profiles_root.hpp"
#include "core/text.hpp"
#include "reports/workloads/hf_config.hpp"
#include "reports/workloads/phase_counts.hpp"
#include "results/results_file.hpp"

namespace ridgeline {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

inline constexpr int kWorkloadSchemaMajor = 1;
// Shapes beyond any published model by far, small enough that products of them stay exact in a
// double (2^53) and no count overflows.
inline constexpr long long kMaxDimension = 1 << 20;
inline constexpr double kMaxParameters = 1e14;
// The stated parameter count is rounded on model cards (7.61B); a shape typo moves it by more.
inline constexpr double kParameterTolerance = 0.01;

// A count: an integer in [1, max] (a dimension of the model, or an expert count).
int positive_count(const FieldReader& f, const std::string& key, long long max = kMaxDimension) {
  return static_cast<int>(f.integer(key, 1, max));
}

// Bits per stored weight of a weight format's dtype; 0 for one we do not know.
double weight_bits(const std::string& dtype) {
  if (dtype == "int4") return 4;
  return 8 * dtype_bytes(dtype);
}

WeightFormat read_weight_format(const std::string& file, const json& j, const std::string& at) {
  if (!j.is_object()) throw InputError(file, at, "must be an object");
  const FieldReader f(file, j, at);
  f.only({"name", "dtype", "group_size", "scale_bytes", "note"});
  WeightFormat w;
  w.name = f.text("name");
  w.dtype = f.text("dtype");
  w.bits = weight_bits(w.dtype);
  if (w.bits == 0 || w.dtype == "fp32")
    throw InputError(file, f.where("dtype"),
                     "'" + w.dtype + "' is not a weight dtype (bf16, fp16, fp8, int4)");
  w.note = f.optional_text("note");
  if (f.has("group_size") != f.has("scale_bytes"))
    throw InputError(file, f.where(f.has("group_size") ? "scale_bytes" : "group_size"),
                     "group_size and scale_bytes come together (bytes of scale per group)");
  if (f.has("group_size")) {
    w.group_size = positive_count(f, "group_size");
    w.scale_bytes = f.bounded("scale_bytes", 64);
  }
  return w;
}

void check_stated(const std::string& file, const std::string& field, double stated,
                  double counted) {
  if (std::abs(counted - stated) > kParameterTolerance * stated)
    throw InputError(file, field,
                     fmt::format("states {:.4g} parameters, the shapes give {:.4g} (more than {:g} "
                                 "% apart: a shape is wrong)",
                                 stated, counted, 100 * kParameterTolerance));
}

}  // namespace

double dtype_bytes(const std::string& dtype) {
  if (dtype == "bf16" || dtype == "fp16") return 2;
  if (dtype == "fp8") return 1;
  if (dtype == "fp32") return 4;
  return 0;
}

const WeightFormat& TransformerConfig::weight_format(const std::string& format_name) const {
  if (format_name.empty()) return weight_formats.front();
  std::string known;
  for (const auto& w : weight_formats) {
    if (lower_ascii(w.name) == lower_ascii(format_name)) return w;
    known += (known.empty() ? "" : ", ") + w.name;
  }
  throw InputError("", "--weights",
                   "'" + format_name + "' is not a weight format of " + name + " (" + file +
                       " has: " + known + ")");
}

TransformerConfig load_transformer_config(const std::string& path) {
  const json j = read_json_file(path, "workload");
  if (!j.is_object()) throw InputError(path, "", "a workload file must be a JSON object");
  if (is_hf_config(j)) return hf_transformer_config(path, j);
  if (!j.contains("schema_version"))
    throw InputError(path, "schema_version",
                     "missing: neither a workload file (schema_version) nor a Hugging Face "
                     "config.json (model_type)");
  const FieldReader f(path, j, "");
  const std::string version = f.text("schema_version");
  if (version.substr(0, version.find('.')) != std::to_string(kWorkloadSchemaMajor))
    throw InputError(
        path, "schema_version",
        fmt::format("'{}' is not a version {}.x workload file", version, kWorkloadSchemaMajor));
  // A misspelt field ("layer") must not leave its value out of the counts unsaid.
  f.only({"schema_version", "name", "source", "parameters", "active_parameters", "layers",
          "hidden_size", "attention_heads", "kv_heads", "head_dim", "intermediate_size",
          "vocabulary", "tied_embeddings", "qkv_bias", "experts", "activation_dtype",
          "kv_cache_dtype", "weight_formats"});
  TransformerConfig c;
  c.file = path;
  c.id = fs::path(path).stem().string();
  c.name = f.text("name");
  c.source = f.text("source");
  c.stated_parameters = f.bounded("parameters", kMaxParameters);
  c.layers = positive_count(f, "layers");
  c.hidden = positive_count(f, "hidden_size");
  c.heads = positive_count(f, "attention_heads");
  c.kv_heads = positive_count(f, "kv_heads");
  c.head_dim = positive_count(f, "head_dim");
  c.intermediate = positive_count(f, "intermediate_size");
  c.vocabulary = positive_count(f, "vocabulary");
  c.tied_embeddings = f.boolean("tied_embeddings");
  c.qkv_bias = f.boolean("qkv_bias");
  if (c.heads % c.kv_heads != 0)
    throw InputError(
        path, "kv_heads",
        fmt::format("{} attention heads do not share {} KV heads evenly", c.heads, c.kv_heads));
  if (f.has("experts")) {
    const json& e = j["experts"];
    if (!e.is_object()) throw InputError(path, "experts", "must be an object {count, active}");
    const FieldReader ef(path, e, "experts");
    ef.only({"count", "active"});
    c.experts = positive_count(ef, "count", 1024);
    c.active_experts = positive_count(ef, "active", 1024);
    if (c.active_experts > c.experts)
      throw InputError(path, "experts.active",
                       fmt::format("{} active of {} experts", c.active_experts, c.experts));
  }
  c.activation_dtype = f.text("activation_dtype");
  if (dtype_bytes(c.activation_dtype) < 2)
    throw InputError(path, "activation_dtype",
                     "'" + c.activation_dtype + "' is not an activation dtype (bf16, fp16, fp32)");
  c.kv_cache_dtype = f.text("kv_cache_dtype");
  if (dtype_bytes(c.kv_cache_dtype) == 0)
    throw InputError(path, "kv_cache_dtype",
                     "'" + c.kv_cache_dtype + "' is not a KV-cache dtype (bf16, fp16, fp8, fp32)");
  const json& formats = f.require("weight_formats");
  if (!formats.is_array() || formats.empty())
    throw InputError(path, "weight_formats", "must be a non-empty array");
  for (std::size_t i = 0; i < formats.size(); ++i) {
    const std::string at = "weight_formats[" + std::to_string(i) + "]";
    c.weight_formats.push_back(read_weight_format(path, formats[i], at));
    for (std::size_t k = 0; k + 1 < c.weight_formats.size(); ++k)
      if (lower_ascii(c.weight_formats[k].name) == lower_ascii(c.weight_formats.back().name))
        throw InputError(path, at + ".name", "'" + c.weight_formats.back().name + "' twice");
  }
  const ParameterCounts counted = parameter_counts(c);
  check_stated(path, "parameters", c.stated_parameters, counted.total());
  if (f.has("active_parameters")) {
    if (c.experts == 1)
      throw InputError(path, "active_parameters", "only a mixture of experts has fewer active");
    c.stated_active_parameters = f.bounded("active_parameters", kMaxParameters);
    check_stated(path, "active_parameters", c.stated_active_parameters, counted.active());
  }
  return c;
}

std::string workload_profiles_dir() { return profiles_subdir("workloads"); }

TransformerConfig find_transformer_config(const std::string& id_name_or_path,
                                          const std::string& dir) {
  if (id_name_or_path.size() > 5 &&
      id_name_or_path.compare(id_name_or_path.size() - 5, 5, ".json") == 0)
    return load_transformer_config(id_name_or_path);
  const std::string want = lower_ascii(id_name_or_path);
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".json") files.push_back(e.path().string());
  if (ec) throw InputError(dir, "--workload", "cannot read the workload folder: " + ec.message());
  std::sort(files.begin(), files.end());
  std::string known;
  for (const auto& file : files) {
    const std::string id = fs::path(file).stem().string();
    if (lower_ascii(id) == want) return load_transformer_config(file);
    known += (known.empty() ? "" : ", ") + id;
  }
  // Names need the files parsed; a broken unrelated file must not hide a match by id above.
  for (const auto& file : files) {
    TransformerConfig c = load_transformer_config(file);
    if (lower_ascii(c.name) == want) return c;
  }
  throw InputError("", "--workload",
                   "unknown workload '" + id_name_or_path + "' (known: " + known + ")");
}

}  // namespace ridgeline
