#include "reports/workloads/engine_benchmark.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>
#include <vector>

#include "core/field_reader.hpp"
#include "core/file_io.hpp"
#include "core/input_error.hpp"
#include "results/results_file.hpp"

namespace ridgeline {
namespace {

using nlohmann::json;

// Longer than any served context, small enough for every count to stay exact.
inline constexpr double kMaxRequestTokens = 1 << 24;
inline constexpr double kMaxTotalTokens = 1e15;
inline constexpr double kMaxMilliseconds = 1e9;
inline constexpr double kMaxSeconds = kMaxMilliseconds / 1000;
inline constexpr int kMaxStaticTokens = 1 << 24;
inline constexpr int kMaxStaticBatch = 1 << 20;

// Fields every vLLM bench serve result carries; a file without them is another tool's.
inline constexpr const char* kVllmServeFields[] = {
    "backend",   "num_prompts",        "burstiness",
    "completed", "total_input_tokens", "total_output_tokens"};

// A time in ms, at least a nanosecond: a subnormal one would make every share infinite.
double seconds(const std::string& path, const FieldReader& f, const std::string& key) {
  const double ms = f.bounded(key, kMaxMilliseconds);
  if (ms < 1e-6)
    throw InputError(path, f.where(key), fmt::format("{:g} ms is below a nanosecond", ms));
  return ms / 1000;
}

std::optional<double> optional_seconds(const std::string& path, const FieldReader& f,
                                       const std::string& key) {
  if (!f.has(key)) return std::nullopt;
  return seconds(path, f, key);
}

struct TextLine {
  int number = 0;  // 1-based
  std::string text;
};

// The non-blank lines of `text` when there are several and every one is one JSON object (SGLang
// appends one run per line), else none: the text is one document, perhaps over several lines.
std::vector<TextLine> json_lines(const std::string& text) {
  std::vector<TextLine> lines;
  std::size_t start = 0;
  for (int number = 1; start <= text.size(); ++number) {
    const auto end = text.find('\n', start);
    const std::string line = text.substr(start, end == std::string::npos ? end : end - start);
    if (line.find_first_not_of(" \t\r") != std::string::npos) lines.push_back({number, line});
    if (end == std::string::npos) break;
    start = end + 1;
  }
  const bool jsonl = lines.size() > 1 && std::all_of(lines.begin(), lines.end(), [](const auto& l) {
                       const auto b = l.text.find_first_not_of(" \t");
                       const auto e = l.text.find_last_not_of(" \t\r");
                       return l.text[b] == '{' && l.text[e] == '}';
                     });
  return jsonl ? lines : std::vector<TextLine>{};
}

// Python's json.dumps writes an infinite request rate as the bare token Infinity (not JSON):
// SGLang's default --request-rate inf does. Read it as vLLM writes it, "inf".
std::string with_infinite_rate_quoted(std::string text) {
  const std::string bare = "\"request_rate\": Infinity";
  const auto at = text.find(bare);
  if (at != std::string::npos) text.replace(at, bare.size(), "\"request_rate\": \"inf\"");
  return text;
}

bool is_sglang_serving(const json& j) {
  return j.contains("dataset_name") && j.contains("random_input_len") &&
         j.contains("concurrency") && !j.contains("burstiness");
}

// vllm/benchmarks/latency.py's --output-json: these four keys and nothing of a request's shape.
bool is_vllm_latency(const json& j) {
  return j.contains("avg_latency") && j.contains("latencies") && j.contains("percentiles");
}

// python/sglang/bench_one_batch.py's result lines.
bool is_sglang_one_batch(const json& j) {
  return j.contains("batch_size") && j.contains("input_len") && j.contains("output_len") &&
         j.contains("prefill_latency") && j.contains("total_latency");
}

// A time in seconds, at least a nanosecond (a subnormal one would make every share infinite).
double offline_seconds(const std::string& path, const FieldReader& f, const std::string& key) {
  const double s = f.bounded(key, kMaxSeconds);
  if (s < 1e-9)
    throw InputError(path, f.where(key), fmt::format("{:g} s is below a nanosecond", s));
  return s;
}

// The shape flags belong to vllm bench latency, the one format that records no shape: given
// with another file they would be ignored or contradict it, so they are refused.
void refuse_stated_shape(const std::string& path, const StatedShape& s, const std::string& format,
                         const char* why) {
  if (!s.any()) return;
  throw InputError(path,
                   s.batch_size  ? "--batch-size"
                   : s.input_len ? "--input-len"
                                 : "--output-len",
                   "states the shape of a vllm bench latency run, whose JSON records none; this "
                   "file is " +
                       format + "'s, which " + why);
}

EngineRun read_vllm_latency(const std::string& path, const json& j, const StatedShape& stated) {
  if (!stated.batch_size || !stated.input_len || !stated.output_len)
    throw InputError(path,
                     !stated.batch_size  ? "--batch-size"
                     : !stated.input_len ? "--input-len"
                                         : "--output-len",
                     "missing: vllm bench latency's JSON records no request shape; give "
                     "--batch-size, --input-len and --output-len as the benchmark was run");
  const FieldReader f(path, j, "");
  EngineRun r;
  r.file = path;
  r.format = EngineFormat::kVllmLatency;
  r.engine = "vLLM bench latency";
  StaticBatch b;
  b.batch = *stated.batch_size;
  b.input = *stated.input_len;
  b.output = *stated.output_len;
  const json& latencies = f.require("latencies");
  if (!latencies.is_array() || latencies.empty())
    throw InputError(path, "latencies", "must be a non-empty array (one latency per iteration)");
  b.iterations = static_cast<int>(std::min<std::size_t>(latencies.size(), 1 << 30));
  offline_seconds(path, f, "avg_latency");
  const json& percentiles = f.require("percentiles");
  if (!percentiles.is_object())
    throw InputError(path, "percentiles", "must be an object of percentile: seconds");
  const FieldReader p(path, percentiles, "percentiles");
  b.latency_s = offline_seconds(path, p, "50");
  b.p99_latency_s = offline_seconds(path, p, "99");
  if (*b.p99_latency_s < *b.latency_s)
    throw InputError(
        path, "percentiles.99",
        fmt::format("{:g} s is below the median ({:g} s)", *b.p99_latency_s, *b.latency_s));
  r.batches.push_back(b);
  return r;
}

// Every line of the file: a sweep writes one per batch_size × input_len × output_len, and later
// runs append theirs.
EngineRun read_sglang_one_batch(const std::string& path, const std::vector<TextLine>& lines,
                                const json& single) {
  EngineRun r;
  r.file = path;
  r.format = EngineFormat::kSglangOneBatch;
  r.engine = "SGLang bench_one_batch";
  if (lines.size() > 1) r.engine += fmt::format(" ({} results in the file)", lines.size());
  const auto read_one = [&](const json& j, int line) {
    const std::string at = line > 0 ? fmt::format("line {}", line) : "";
    if (!j.is_object() || !is_sglang_one_batch(j))
      throw InputError(path, at,
                       "not a bench_one_batch result (batch_size, input_len, output_len, "
                       "prefill_latency, total_latency), as the file's other lines are");
    const FieldReader f(path, j, at);
    StaticBatch b;
    b.line = line;
    b.run_name = f.optional_text("run_name");
    b.batch = static_cast<int>(f.integer("batch_size", 1, kMaxStaticBatch));
    b.input = static_cast<int>(f.integer("input_len", 1, kMaxStaticTokens));
    b.output = static_cast<int>(f.integer("output_len", 1, kMaxStaticTokens));
    b.prefill_s = offline_seconds(path, f, "prefill_latency");
    const double total = offline_seconds(path, f, "total_latency");
    // total_latency is the prefill plus every decode step: never below the prefill alone.
    if (total < *b.prefill_s)
      throw InputError(path, f.where("total_latency"),
                       fmt::format("{:g} s is below prefill_latency ({:g} s), a part of it", total,
                                   *b.prefill_s));
    if (f.has("median_decode_latency"))
      b.decode_step_s = offline_seconds(path, f, "median_decode_latency");
    else if (b.output > 1)
      throw InputError(path, f.where("median_decode_latency"),
                       "missing: bench_one_batch writes it whenever output_len is above 1");
    r.batches.push_back(b);
  };
  if (lines.empty()) {
    read_one(single, 0);
  } else {
    for (const TextLine& l : lines) read_one(parse_json_text(l.text, path), l.number);
  }
  return r;
}

}  // namespace

EngineRun read_engine_benchmark(const std::string& path, const StatedShape& stated) {
  return parse_engine_benchmark(read_text_file(path, "engine benchmark"), path, stated);
}

EngineRun parse_engine_benchmark(const std::string& file_text, const std::string& path,
                                 const StatedShape& stated) {
  const std::vector<TextLine> lines = json_lines(file_text);
  const int runs = lines.empty() ? 1 : static_cast<int>(lines.size());
  const std::string text = lines.empty() ? file_text : lines.back().text;
  const json j = parse_json_text(with_infinite_rate_quoted(text), path);
  if (!j.is_object()) throw InputError(path, "", "an engine benchmark file must be a JSON object");
  if (is_sglang_one_batch(j)) {
    refuse_stated_shape(path, stated, "SGLang bench_one_batch", "records its own");
    return read_sglang_one_batch(path, lines, j);
  }
  if (is_vllm_latency(j)) return read_vllm_latency(path, j, stated);
  const bool sglang = is_sglang_serving(j);
  refuse_stated_shape(path, stated, sglang ? "SGLang bench_serving" : "vLLM bench serve",
                      "records its requests' lengths");
  if (!sglang)
    for (const char* field : kVllmServeFields)
      if (!j.contains(field))
        throw InputError(path, field,
                         "missing: not the JSON of vLLM's bench serve --save-result or bench "
                         "latency --output-json, nor a line of SGLang's bench_serving or "
                         "bench_one_batch output (the engine formats read)");
  const FieldReader f(path, j, "");
  EngineRun r;
  r.file = path;
  r.format = sglang ? EngineFormat::kSglangServing : EngineFormat::kVllmServe;
  r.engine = sglang ? "SGLang bench_serving" : "vLLM bench serve";
  if (runs > 1) r.engine += fmt::format(" (the last of {} runs in the file)", runs);
  r.backend = f.text("backend");
  r.model_id = f.optional_text("model_id");
  r.completed = static_cast<int>(f.integer("completed", 0, 1 << 30));
  // SGLang states no request count (0: unknown); the completed ones are what is known.
  if (!sglang) r.num_prompts = static_cast<int>(f.integer("num_prompts", 1, 1 << 30));
  if (r.num_prompts > 0 && r.completed > r.num_prompts)
    throw InputError(path, "completed",
                     fmt::format("{} completed of {} requests", r.completed, r.num_prompts));
  if (r.completed == 0)
    throw InputError(path, "completed", "0: no request completed, nothing was measured");
  if (f.has("max_concurrency"))
    r.max_concurrency = static_cast<int>(f.integer("max_concurrency", 1, 1 << 20));
  const json& rate = f.require("request_rate");
  if (rate.is_string() && rate.get<std::string>() == "inf")
    r.request_rate = "inf";
  else if (rate.is_number() && rate.get<double>() > 0 && std::isfinite(rate.get<double>()))
    r.request_rate = fmt::format("{:g}/s", rate.get<double>());
  else
    throw InputError(path, "request_rate", "must be a positive number or \"inf\"");
  const double input = f.bounded("total_input_tokens", kMaxTotalTokens);
  const double output = f.bounded("total_output_tokens", kMaxTotalTokens);
  r.mean_input = input / r.completed;
  r.mean_output = output / r.completed;
  if (r.mean_input > kMaxRequestTokens || r.mean_output > kMaxRequestTokens)
    throw InputError(
        path, r.mean_input > kMaxRequestTokens ? "total_input_tokens" : "total_output_tokens",
        fmt::format("{:.0f} tokens per request: no model has such a context",
                    std::max(r.mean_input, r.mean_output)));
  r.median_ttft_s = seconds(path, f, "median_ttft_ms");
  r.median_tpot_s = seconds(path, f, "median_tpot_ms");
  r.p99_ttft_s = optional_seconds(path, f, "p99_ttft_ms");
  r.p99_tpot_s = optional_seconds(path, f, "p99_tpot_ms");
  return r;
}

namespace {

// One phase's measured time (a whole request sets `steps` and `first` itself).
MeasuredPhase one_phase(const PhaseShape& shape, const char* metric, std::string field,
                        double median_s, std::optional<double> p99_s = std::nullopt) {
  MeasuredPhase m;
  m.shape = shape;
  m.metric = metric;
  m.field = std::move(field);
  m.median_s = median_s;
  m.p99_s = p99_s;
  return m;
}

// An offline benchmark's static batches (engine_benchmark.hpp says how each is mapped).
EngineShapes map_static_batches(const EngineRun& run) {
  EngineShapes out;
  for (const StaticBatch& b : run.batches) {
    const std::string at = b.line > 0 ? fmt::format("line {}.", b.line) : "";
    const std::string which = b.line > 0 ? fmt::format(" (line {})", b.line) : "";
    const PhaseShape prefill{Phase::kPrefill, b.input, 0};
    const PhaseShape step{Phase::kDecode, b.batch, b.input + b.output / 2};
    if (b.latency_s) {
      MeasuredPhase m =
          one_phase(prefill, "latency", at + "percentiles.50", *b.latency_s, b.p99_latency_s);
      if (b.output >= 2) {
        m.shape = step;
        m.steps = b.output - 1;
        m.first = prefill;
      }
      out.mapped.push_back(m);
      continue;
    }
    if (b.decode_step_s && b.output >= 2)
      out.mapped.push_back(
          one_phase(step, "decode step", at + "median_decode_latency", *b.decode_step_s));
    else
      out.not_mapped.push_back("decode" + which + ": output_len 1, so no decode step was timed");
    if (b.prefill_s && b.batch == 1)
      out.mapped.push_back(one_phase(prefill, "prefill", at + "prefill_latency", *b.prefill_s));
    else if (b.prefill_s)
      out.not_mapped.push_back(fmt::format(
          "prefill{}: a batch of {} prompts of {} tokens, and the model places one prompt's "
          "prefill",
          which, b.batch, b.input));
  }
  return out;
}

}  // namespace

EngineShapes map_engine_run(const EngineRun& run) {
  if (!run.batches.empty()) return map_static_batches(run);
  EngineShapes out;
  const int input = static_cast<int>(std::lround(run.mean_input));
  if (run.max_concurrency && run.mean_output >= 2) {
    const int batch = std::min(*run.max_concurrency, std::max(run.num_prompts, run.completed));
    const int context = static_cast<int>(std::lround(run.mean_input + run.mean_output / 2));
    out.mapped.push_back(one_phase({Phase::kDecode, batch, context}, "TPOT", "median_tpot_ms",
                                   run.median_tpot_s, run.p99_tpot_s));
  } else if (!run.max_concurrency) {
    out.not_mapped.push_back(
        "decode: max_concurrency is null, so the batch the engine ran is unknown (run the "
        "benchmark with --max-concurrency)");
  } else {
    out.not_mapped.push_back(
        "decode: fewer than 2 output tokens per request, so TPOT times no decode step");
  }
  if (input >= 1)
    out.mapped.push_back(one_phase({Phase::kPrefill, input, 0}, "TTFT", "median_ttft_ms",
                                   run.median_ttft_s, run.p99_ttft_s));
  else
    out.not_mapped.push_back("prefill: the mean prompt is under one token");
  return out;
}

}  // namespace ridgeline
