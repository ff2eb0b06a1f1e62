#pragma once
// FLOP and byte counts of an LLM's inference phases, in closed form (FLOP = 2 per multiply-add).
//
// Decode step: `tokens` sequences (the batch) each add one token that attends to `context`
// positions, its own included. The layers' weights are read once per step (a mixture of experts
// reads the experts its tokens route to: E·(1 − (1 − k/E)^n) of E for n tokens, routing uniform
// and independent), the output head once, each sequence's KV cache (context positions), and one
// position of new K and V is written per sequence.
// Prefill: one prompt of `tokens` tokens, causal (token t attends to t positions); weights read
// once, the K and V of every token written once; attention reads its K and V from on-chip tiles
// (flash-style), so no KV read is counted; logits of the last token only (what a server samples).
//
// Not counted, so the bound stays an upper one: activations between kernels, softmax, norms, RoPE,
// bias adds and the embedding gather's FLOPs (none are within a few % of the matmuls).
#include <string>

#include "reports/workloads/transformer_config.hpp"

namespace ridgeline {

// Parameters by where they live: the layers' linear weights are stored in the weight format, the
// rest in the activation dtype.
struct ParameterCounts {
  double layer_linear = 0;   // attention projections and MLP experts of all layers
  double active_linear = 0;  // of them, what one token multiplies by (k of E experts)
  double embedding = 0;      // input table (the output head too when tied)
  double output_head = 0;    // 0 when tied to the embedding
  double other = 0;          // norms, q/k/v biases, routers
  double total() const { return layer_linear + embedding + output_head + other; }
  double active() const { return active_linear + embedding + output_head + other; }
};
ParameterCounts parameter_counts(const TransformerConfig& c);

// The checkpoint's size in bytes: layer_linear in the format (group scales counted), the rest in
// the activation dtype.
double stored_weight_bytes(const TransformerConfig& c, const WeightFormat& w);

enum class Phase { kDecode, kPrefill };
const char* phase_name(Phase p);  // "decode", "prefill"

struct PhaseShape {
  Phase phase = Phase::kDecode;
  int tokens = 1;   // decode: the batch b; prefill: the prompt T
  int context = 0;  // decode: positions each new token attends to (L); prefill: unused
};

struct PhaseCounts {
  PhaseShape shape;
  double flops = 0;
  double weight_bytes = 0;                        // read
  double kv_read_bytes = 0;                       // read
  double kv_write_bytes = 0;                      // written
  double tokens() const { return shape.tokens; }  // produced (decode) or consumed (prefill)
  double bytes() const { return weight_bytes + kv_read_bytes + kv_write_bytes; }
  double intensity() const { return flops / bytes(); }
};

// The closed form (see the header comment); `kv_dtype` is the KV cache's element dtype.
PhaseCounts count_phase(const TransformerConfig& c, const WeightFormat& w,
                        const std::string& kv_dtype, const PhaseShape& shape);

// Expected distinct experts that `tokens` tokens route to (uniform, independent top-k routing).
double expected_experts(const TransformerConfig& c, double tokens);

}  // namespace ridgeline
