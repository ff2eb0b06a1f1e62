#include "reports/workloads/engine_benchmark.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
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

// The last non-empty line of `text` when every line is one JSON object (SGLang appends one run
// per line; `runs` says how many), else the whole text: one document, perhaps over several lines.
std::string last_run(const std::string& text, int& runs) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto end = text.find('\n', start);
    const std::string line = text.substr(start, end == std::string::npos ? end : end - start);
    if (line.find_first_not_of(" \t\r") != std::string::npos) lines.push_back(line);
    if (end == std::string::npos) break;
    start = end + 1;
  }
  // One object per line only if every line opens one: else the file is one document.
  const bool jsonl = lines.size() > 1 && std::all_of(lines.begin(), lines.end(), [](const auto& l) {
                       const auto b = l.find_first_not_of(" \t");
                       const auto e = l.find_last_not_of(" \t\r");
                       return l[b] == '{' && l[e] == '}';
                     });
  runs = jsonl ? static_cast<int>(lines.size()) : 1;
  return jsonl ? lines.back() : text;
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

}  // namespace

EngineRun read_engine_benchmark(const std::string& path) {
  int runs = 1;
  const std::string text = last_run(read_text_file(path, "engine benchmark"), runs);
  const json j = parse_json_text(with_infinite_rate_quoted(text), path);
  if (!j.is_object()) throw InputError(path, "", "an engine benchmark file must be a JSON object");
  const bool sglang = is_sglang_serving(j);
  if (!sglang)
    for (const char* field : kVllmServeFields)
      if (!j.contains(field))
        throw InputError(path, field,
                         "missing: neither the JSON of vLLM's bench serve --save-result nor a "
                         "line of SGLang's bench_serving output (the engine formats read)");
  const FieldReader f(path, j, "");
  EngineRun r;
  r.file = path;
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

EngineShapes map_engine_run(const EngineRun& run) {
  EngineShapes out;
  const int input = static_cast<int>(std::lround(run.mean_input));
  if (run.max_concurrency && run.mean_output >= 2) {
    const int batch = std::min(*run.max_concurrency, std::max(run.num_prompts, run.completed));
    const int context = static_cast<int>(std::lround(run.mean_input + run.mean_output / 2));
    out.mapped.push_back(
        {{Phase::kDecode, batch, context}, "TPOT", run.median_tpot_s, run.p99_tpot_s});
  } else if (!run.max_concurrency) {
    out.not_mapped.push_back(
        "decode: max_concurrency is null, so the batch the engine ran is unknown (run the "
        "benchmark with --max-concurrency)");
  } else {
    out.not_mapped.push_back(
        "decode: fewer than 2 output tokens per request, so TPOT times no decode step");
  }
  if (input >= 1)
    out.mapped.push_back({{Phase::kPrefill, input, 0}, "TTFT", run.median_ttft_s, run.p99_ttft_s});
  else
    out.not_mapped.push_back("prefill: the mean prompt is under one token");
  return out;
}

}  // namespace ridgeline
