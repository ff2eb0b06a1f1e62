#pragma once
// What `place --workload` and `report --workload` are asked: a model, its weight and KV formats,
// and the decode and prefill shapes to place on each host's roofs.
#include <optional>
#include <string>
#include <vector>

#include "reports/workloads/engine_benchmark.hpp"
#include "reports/workloads/phase_counts.hpp"
#include "reports/workloads/transformer_config.hpp"

namespace ridgeline {

struct WorkloadRequest {
  TransformerConfig model;
  WeightFormat weights;
  std::string kv_dtype;
  std::vector<int> batches, contexts, prompts;
  std::string space;                  // empty: each host's best (phase_roofs.hpp)
  std::string compute_dtype;          // empty: from the weights and activations
  std::optional<EngineRun> measured;  // --measured: an engine's benchmark of this model
  EngineShapes measured_shapes;       // its phases mapped to shapes, and what was not
  // Decode for every batch × context, then prefill for every prompt, then the measured run's
  // shapes not among them.
  std::vector<PhaseShape> shapes() const;
};

// The command line's words for a request (CLI options of the same names).
struct WorkloadOptions {
  std::string workload, weights, kv_dtype, batch, context, prompt, space, compute_dtype;
  std::string measured;  // an engine's benchmark file
  // The shape a vllm bench latency run had (its JSON records none), as the engine's flags.
  std::string batch_size, input_len, output_len;
};

// Loads the model (profiles/workloads, or a .json path) and checks the lists; throws InputError
// naming the option.
WorkloadRequest make_workload_request(const WorkloadOptions& o);

// "1,8,64" -> {1, 8, 64}: integers in [1, max]; throws InputError naming `field`.
std::vector<int> parse_counts(const std::string& list, const std::string& field, int max);

}  // namespace ridgeline
