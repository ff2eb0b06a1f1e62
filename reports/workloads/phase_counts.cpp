#include "reports/workloads/phase_counts.hpp"

#include <cmath>

namespace ridgeline {
namespace {

// Per layer, the shapes every count is made of.
struct LayerShapes {
  double q_width, kv_width;  // heads × head_dim, KV heads × head_dim
  double attention;          // Wq, Wk, Wv, Wo
  double expert;             // gate, up and down of one MLP expert
  double other;              // two norms, q/k/v biases, the router
};

LayerShapes layer_shapes(const TransformerConfig& c) {
  LayerShapes s;
  const double d = c.hidden;
  s.q_width = double(c.heads) * c.head_dim;
  s.kv_width = double(c.kv_heads) * c.head_dim;
  s.attention = 2 * d * s.q_width + 2 * d * s.kv_width;
  s.expert = 3 * d * c.intermediate;
  s.other =
      2 * d + (c.qkv_bias ? s.q_width + 2 * s.kv_width : 0) + (c.experts > 1 ? d * c.experts : 0);
  return s;
}

}  // namespace

ParameterCounts parameter_counts(const TransformerConfig& c) {
  const LayerShapes s = layer_shapes(c);
  ParameterCounts p;
  p.layer_linear = c.layers * (s.attention + c.experts * s.expert);
  p.active_linear = c.layers * (s.attention + c.active_experts * s.expert);
  p.embedding = double(c.vocabulary) * c.hidden;
  p.output_head = c.tied_embeddings ? 0 : p.embedding;
  p.other = c.layers * s.other + c.hidden;  // + the final norm
  return p;
}

double stored_weight_bytes(const TransformerConfig& c, const WeightFormat& w) {
  const ParameterCounts p = parameter_counts(c);
  return p.layer_linear * w.bytes_per_weight() +
         (p.embedding + p.output_head + p.other) * dtype_bytes(c.activation_dtype);
}

const char* phase_name(Phase p) { return p == Phase::kDecode ? "decode" : "prefill"; }

double expected_experts(const TransformerConfig& c, double tokens) {
  if (c.experts == 1) return 1;
  const double e = c.experts, k = c.active_experts;
  return e * (1 - std::pow(1 - k / e, tokens));
}

PhaseCounts count_phase(const TransformerConfig& c, const WeightFormat& w,
                        const std::string& kv_dtype, const PhaseShape& shape) {
  const LayerShapes s = layer_shapes(c);
  const bool decode = shape.phase == Phase::kDecode;
  const double n = shape.tokens, d = c.hidden, layers = c.layers;
  const double a = dtype_bytes(c.activation_dtype), kv = dtype_bytes(kv_dtype);
  // Query-key positions: decode b·L; prefill 1 + 2 + … + T.
  const double positions = decode ? n * shape.context : n * (n + 1) / 2;
  const double head_tokens = decode ? n : 1;
  const double router = c.experts > 1 ? d * c.experts : 0;

  PhaseCounts out;
  out.shape = shape;
  out.flops = 2 * n * layers * (s.attention + c.active_experts * s.expert + router) +
              2 * head_tokens * c.vocabulary * d + 2 * 2 * layers * s.q_width * positions;
  const double embedding_rows = c.tied_embeddings ? 0 : n * d;  // tied: the head reads the table
  out.weight_bytes =
      layers * (s.attention + expected_experts(c, n) * s.expert) * w.bytes_per_weight() +
      (layers * s.other + d + double(c.vocabulary) * d + embedding_rows) * a;
  const double kv_per_position = layers * 2 * s.kv_width * kv;
  out.kv_read_bytes = decode ? kv_per_position * positions : 0;
  out.kv_write_bytes = kv_per_position * n;
  return out;
}

}  // namespace ridgeline
