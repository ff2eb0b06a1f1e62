#pragma once
// A serving engine's own benchmark output, read and mapped to the decode and prefill shapes the
// speed of light is computed for (speed_of_light.hpp).
//
// Read: the JSON of vLLM's `vllm bench serve --save-result` (vllm/benchmarks/serve.py, read at
// vllm-project/vllm 009e6d4a) and of its predecessor `benchmarks/benchmark_serving.py
// --save-result` (read at 0049e29c): the two write the same fields used here; and the JSON lines
// SGLang's `python3 -m sglang.bench_serving` appends (python/sglang/bench_serving.py, read at
// sgl-project/sglang 0033168f): the last run of the file is read. Neither file names the
// engine's version; the field set is what is checked (SGLang's: dataset_name, random_input_len
// and concurrency without vLLM's burstiness).
//
// Mapped:
// - decode: TPOT (time per output token after the first, per request) is the time of one decode
//   step of the batch the request shared: b = max_concurrency (the cap the client kept; without
//   one the engine's batch is unknown and decode is not mapped), context L = the mean input plus
//   half the mean output (the positions a decode step attends to, on average over the output);
// - prefill: TTFT of a prompt of the mean input length T. At a concurrency above 1 TTFT also
//   holds waiting for other requests' steps, so its share of the speed of light is a lower one.
// The medians are held against the bound (the p99 is shown beside them).
#include <optional>
#include <string>
#include <vector>

#include "reports/workloads/phase_counts.hpp"

namespace ridgeline {

struct EngineRun {
  std::string file;
  std::string engine;  // "vLLM bench serve", "SGLang bench_serving (the last of 3 runs …)"
  std::string model_id, backend;
  int num_prompts = 0;  // requests sent; 0 where the file does not say (SGLang)
  int completed = 0;
  std::optional<int> max_concurrency;
  std::string request_rate;                // as written: a number or "inf"
  double mean_input = 0, mean_output = 0;  // tokens per completed request
  double median_ttft_s = 0, median_tpot_s = 0;
  std::optional<double> p99_ttft_s, p99_tpot_s;
};

// A measured time mapped to the phase shape whose speed of light it is held against.
struct MeasuredPhase {
  PhaseShape shape;
  const char* metric = "";  // "TPOT" (decode, per step) or "TTFT" (prefill, per prompt)
  double median_s = 0;
  std::optional<double> p99_s;
};

struct EngineShapes {
  std::vector<MeasuredPhase> mapped;
  std::vector<std::string> not_mapped;  // each: the phase and why, in words
};

// Throws InputError naming the file and the field: another engine's or version's file, missing
// or non-finite fields, no completed request, lengths no model can have.
EngineRun read_engine_benchmark(const std::string& path);

EngineShapes map_engine_run(const EngineRun& run);

}  // namespace ridgeline
