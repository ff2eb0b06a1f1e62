#pragma once
// The --workload options `place` and `report` share (workloads/workload_request.hpp).
#include <CLI/CLI.hpp>

#include "core/input_error.hpp"
#include "reports/workloads/workload_request.hpp"

namespace ridgeline {

inline void add_workload_options(CLI::App* app, WorkloadOptions& o) {
  app->add_option("--workload", o.workload,
                  "Place an LLM's decode and prefill on the roofs: a model of profiles/workloads "
                  "(e.g. qwen2.5-7b), a workload .json file, or a model's Hugging Face config.json "
                  "(Llama, Mistral, Mixtral, Qwen2)");
  app->add_option("--batch", o.batch, "Decode: comma-separated batch sizes (sequences per step)");
  app->add_option("--context", o.context,
                  "Decode: comma-separated context lengths (positions each new token attends to)");
  app->add_option("--prompt", o.prompt, "Prefill: comma-separated prompt lengths (tokens)");
  app->add_option("--weights", o.weights,
                  "Weight format of the workload file (default: its first, e.g. bf16, fp8, int4)");
  app->add_option("--kv-dtype", o.kv_dtype, "KV-cache dtype (default: the workload file's)");
  app->add_option("--space", o.space,
                  "Execution space whose roofs to use (default: each host's "
                  "device space, else the one with the highest P)");
  app->add_option("--measured", o.measured,
                  "An engine's benchmark of this model (vLLM bench serve --save-result JSON, "
                  "vLLM bench latency --output-json JSON, SGLang bench_serving or bench_one_batch "
                  "JSON lines): its times beside the speed of light of the same shapes");
  // vllm bench latency's JSON records no shape: the run's own flags, under the engine's names.
  app->add_option("--batch-size", o.batch_size,
                  "With --measured vllm bench latency JSON: the --batch-size it was run with");
  app->add_option("--input-len", o.input_len,
                  "With --measured vllm bench latency JSON: the --input-len it was run with");
  app->add_option("--output-len", o.output_len,
                  "With --measured vllm bench latency JSON: the --output-len it was run with");
  app->add_option("--compute-dtype", o.compute_dtype,
                  "Place the phases on this dtype's roofs (default: the weights', else the "
                  "activations'; stated either way)");
}

// A shape option without --workload would be ignored: say so instead.
inline void check_workload_options(const WorkloadOptions& o) {
  if (!o.workload.empty()) return;
  const std::pair<const char*, const std::string*> shape[] = {{"--batch", &o.batch},
                                                              {"--context", &o.context},
                                                              {"--prompt", &o.prompt},
                                                              {"--weights", &o.weights},
                                                              {"--kv-dtype", &o.kv_dtype},
                                                              {"--space", &o.space},
                                                              {"--compute-dtype", &o.compute_dtype},
                                                              {"--measured", &o.measured},
                                                              {"--batch-size", &o.batch_size},
                                                              {"--input-len", &o.input_len},
                                                              {"--output-len", &o.output_len}};
  for (const auto& [name, value] : shape)
    if (!value->empty()) throw InputError("", name, "places a workload: give --workload too");
}

}  // namespace ridgeline
