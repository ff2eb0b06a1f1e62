#pragma once
// A serving engine's own benchmark output, read and mapped to the decode and prefill shapes the
// speed of light is computed for (speed_of_light.hpp).
//
// Read: the JSON of vLLM's `vllm bench serve --save-result` (vllm/benchmarks/serve.py, read at
// vllm-project/vllm 009e6d4a) and of its predecessor `benchmarks/benchmark_serving.py
// --save-result` (read at 0049e29c): the two write the same fields used here; the JSON lines
// SGLang's `python3 -m sglang.bench_serving` appends (python/sglang/bench_serving.py, read at
// sgl-project/sglang 0033168f): the last run of the file is read; the JSON `vllm bench latency
// --output-json` writes (vllm/benchmarks/latency.py, read at vllm-project/vllm 00cae075:
// avg_latency, std_latency, latencies, percentiles, in seconds, and no request shape: the shape the
// engine was run with is given again as its own flags, --batch-size, --input-len, --output-len);
// and the JSON lines SGLang's `python3 -m sglang.bench_one_batch` appends
// (python/sglang/bench_one_batch.py, read at sgl-project/sglang 00944150: one line per batch_size ×
// input_len × output_len of the sweep, every line read). No file names the engine's version; the
// field set is what is checked.
//
// Mapped (serving benchmarks):
// - decode: TPOT (time per output token after the first, per request) is the time of one decode
//   step of the batch the request shared: b = max_concurrency (the cap the client kept; without
//   one the engine's batch is unknown and decode is not mapped), context L = the mean input plus
//   half the mean output (the positions a decode step attends to, on average over the output);
// - prefill: TTFT of a prompt of the mean input length T. At a concurrency above 1 TTFT also
//   holds waiting for other requests' steps, so its share of the speed of light is a lower one.
// The medians are held against the bound (the p99 is shown beside them).
// Mapped (offline benchmarks of one static batch of b prompts of I tokens, O output tokens each):
// - vllm bench latency: the median latency of one whole batch is held against the prefill of
//   one prompt of I tokens (a lower bound for b > 1: the batch's prompts take longer) plus O - 1
//   decode steps of b at the context floor(I + O/2), the mean of the steps' I + 1 … I + O - 1
//   (a step's time grows linearly with L, its bound is the maximum of two such lines, so O - 1
//   steps at the mean context take no longer than the steps themselves: still a lower bound).
//   n = 1 and no beam search assumed (the file records neither);
// - bench_one_batch: median_decode_latency is one decode step of b at the median step's context
//   floor(I + O/2); prefill_latency (one sample) the prefill of the batch, placed at b = 1 only
//   (the model counts one prompt's prefill; a batch of them is named, not placed).
#include <optional>
#include <string>
#include <vector>

#include "reports/workloads/phase_counts.hpp"

namespace ridgeline {

// The request shape given on the command line for a file that records none (vllm bench latency),
// under the engine's own flag names.
struct StatedShape {
  std::optional<int> batch_size, input_len, output_len;
  bool any() const { return batch_size || input_len || output_len; }
};

enum class EngineFormat { kVllmServe, kSglangServing, kVllmLatency, kSglangOneBatch };

// One static batch of an offline benchmark: `batch` prompts of `input` tokens, `output` tokens
// generated for each.
struct StaticBatch {
  std::string run_name;  // bench_one_batch's --run-name; empty for vLLM
  int batch = 0, input = 0, output = 0;
  int line = 0;                         // of a JSON lines file (1-based); 0 for one document
  std::optional<double> prefill_s;      // bench_one_batch: prefill_latency (one sample)
  std::optional<double> decode_step_s;  // bench_one_batch: median_decode_latency
  std::optional<double> latency_s;      // vllm bench latency: percentiles["50"]
  std::optional<double> p99_latency_s;  // vllm bench latency: percentiles["99"]
  int iterations = 0;                   // vllm bench latency: entries of `latencies`
};

struct EngineRun {
  std::string file;
  EngineFormat format = EngineFormat::kVllmServe;
  std::string engine;  // "vLLM bench serve", "SGLang bench_serving (the last of 3 runs …)"
  std::string model_id, backend;
  int num_prompts = 0;  // requests sent; 0 where the file does not say (SGLang)
  int completed = 0;
  std::optional<int> max_concurrency;
  std::string request_rate;                // as written: a number or "inf"
  double mean_input = 0, mean_output = 0;  // tokens per completed request
  double median_ttft_s = 0, median_tpot_s = 0;
  std::optional<double> p99_ttft_s, p99_tpot_s;
  std::vector<StaticBatch> batches;  // the offline formats' batches; empty for serving ones
};

// A measured time mapped to the phase shape whose speed of light it is held against.
// A whole request of an offline benchmark is `steps` decode steps of `shape` after the prefill
// `first`; one phase is steps = 1 without `first`.
struct MeasuredPhase {
  PhaseShape shape;
  const char* metric = "";  // "TPOT", "TTFT", "decode step", "prefill", "latency"
  std::string field;        // the file's field the time came from, as errors name it
  double median_s = 0;
  std::optional<double> p99_s;
  int steps = 1;
  std::optional<PhaseShape> first;
};

struct EngineShapes {
  std::vector<MeasuredPhase> mapped;
  std::vector<std::string> not_mapped;  // each: the phase and why, in words
};

// Throws InputError naming the file and the field: another engine's or version's file, missing
// or non-finite fields, no completed request, lengths no model can have; for vllm bench latency
// a shape not stated (naming the flag), and a stated shape for a file that records its own.
EngineRun read_engine_benchmark(const std::string& path, const StatedShape& stated = {});

// The same on text already in memory; `path` only names the source in errors.
EngineRun parse_engine_benchmark(const std::string& text, const std::string& path,
                                 const StatedShape& stated = {});

EngineShapes map_engine_run(const EngineRun& run);

}  // namespace ridgeline
