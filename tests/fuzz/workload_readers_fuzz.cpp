// libFuzzer target: the readers of what a user brings to `place --workload … --measured …` — a
// model's Hugging Face config.json (reports/workloads/hf_config.hpp) and a serving engine's
// benchmark output (vLLM bench serve and bench latency JSON, SGLang bench_serving and
// bench_one_batch JSON lines; reports/workloads/engine_benchmark.hpp). Each input goes through
// both. The run aborts unless every outcome is one of two:
// - one InputError of one clean line naming the file (no newline, no control character);
// - a result that is usable: a config whose counts are finite and positive for decode steps and
//   a prefill, placed on the committed H200 sample's roofs and rendered as valid UTF-8 markdown;
//   an engine run whose mapped times are finite and positive, its shapes ones a model can have,
//   placed beside their bounds (qwen2.5-7b) and rendered likewise, its bound errors one line each.
// Half the inputs (by length) state a vllm bench latency shape, so both sides of that rule run.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/input_error.hpp"
#include "core/utf8.hpp"
#include "reports/fit/analysis.hpp"
#include "reports/render/engine_markdown.hpp"
#include "reports/render/workload_markdown.hpp"
#include "reports/workloads/engine_benchmark.hpp"
#include "reports/workloads/hf_config.hpp"
#include "reports/workloads/phase_counts.hpp"
#include "reports/workloads/workload_request.hpp"
#include "reports/workloads/workload_table.hpp"
#include "results/results_file.hpp"
#include "results/results_model.hpp"

namespace {

const char* const kConfigPath = "config.json";
const char* const kEnginePath = "bench.json";

// The committed H200 sample, analysed once: the roofs every accepted input is placed on.
const ridgeline::FileAnalysis& h200() {
  static const ridgeline::FileAnalysis a = ridgeline::analyze(
      ridgeline::load_results(RIDGELINE_SOURCE_DIR "/samples/h200/results.json"), 20);
  return a;
}

void require(bool ok) {
  if (!ok) std::abort();
}

bool finite_positive(double v) { return std::isfinite(v) && v > 0; }

// One line (naming the file where `path` is given): what the command prints after
// "ridgeline: error: ".
void check_error(const ridgeline::InputError& e, const std::string& path) {
  const std::string what = e.what();
  require(path.empty() || what.rfind(path + ": ", 0) == 0);
  for (const char c : what) {
    const auto u = static_cast<unsigned char>(c);
    require(u >= 0x20 && u != 0x7f);
  }
}

void check_markdown(const std::string& md) { require(ridgeline::valid_utf8(md) == md); }

void check_counts(const ridgeline::TransformerConfig& c, const ridgeline::WeightFormat& w,
                  const std::string& kv_dtype) {
  const ridgeline::PhaseShape shapes[] = {{ridgeline::Phase::kDecode, 1, 1},
                                          {ridgeline::Phase::kDecode, 64, 32768},
                                          {ridgeline::Phase::kPrefill, 4096, 0}};
  for (const auto& s : shapes) {
    const ridgeline::PhaseCounts p = ridgeline::count_phase(c, w, kv_dtype, s);
    require(finite_positive(p.flops) && finite_positive(p.bytes()) &&
            finite_positive(p.intensity()));
  }
}

// What a reader accepted, placed and rendered: an error there (an option's, not the file's) must
// still be one line.
void check_placed(const ridgeline::WorkloadRequest& q,
                  const std::vector<const ridgeline::FileAnalysis*>& hosts) {
  try {
    const ridgeline::WorkloadTable table = ridgeline::build_workload_table(q, hosts);
    check_markdown(ridgeline::render_workload_markdown(q, hosts, "#"));
    check_markdown(ridgeline::render_engine_section(q, hosts, table));
    for (const std::string& e : ridgeline::engine_bound_errors(q, hosts, table))
      require(e.find('\n') == std::string::npos);
  } catch (const ridgeline::InputError& e) {
    check_error(e, "");
  }
}

void fuzz_config(const std::string& text,
                 const std::vector<const ridgeline::FileAnalysis*>& hosts) {
  ridgeline::WorkloadRequest q;
  try {
    const nlohmann::json j = ridgeline::parse_json_text(text, kConfigPath);
    if (!j.is_object()) return;  // load_transformer_config says so before the HF reader runs
    q.model = ridgeline::hf_transformer_config(kConfigPath, j);
  } catch (const ridgeline::InputError& e) {
    check_error(e, kConfigPath);
    return;
  }
  const ridgeline::TransformerConfig& c = q.model;
  require(c.layers > 0 && c.hidden > 0 && c.heads > 0 && c.kv_heads > 0 && c.head_dim > 0 &&
          c.intermediate > 0 && c.vocabulary > 0 && c.experts >= c.active_experts &&
          c.active_experts >= 1 && !c.weight_formats.empty());
  for (const auto& w : c.weight_formats) require(finite_positive(w.bytes_per_weight()));
  require(ridgeline::dtype_bytes(c.kv_cache_dtype) > 0);
  q.weights = c.weight_formats.front();
  q.kv_dtype = c.kv_cache_dtype;
  check_counts(c, q.weights, q.kv_dtype);
  q.batches = {1, 8};
  q.contexts = {4096};
  q.prompts = {1024};
  check_placed(q, hosts);
}

void fuzz_engine(const std::string& text, const std::vector<const ridgeline::FileAnalysis*>& hosts,
                 const ridgeline::WorkloadRequest& model) {
  ridgeline::StatedShape stated;
  if (text.size() % 2 == 0) stated = {8, 32, 128};
  ridgeline::WorkloadRequest q = model;
  try {
    q.measured = ridgeline::parse_engine_benchmark(text, kEnginePath, stated);
    q.measured_shapes = ridgeline::map_engine_run(*q.measured);
  } catch (const ridgeline::InputError& e) {
    check_error(e, kEnginePath);
    return;
  }
  for (const ridgeline::MeasuredPhase& m : q.measured_shapes.mapped) {
    require(finite_positive(m.median_s) && (!m.p99_s || finite_positive(*m.p99_s)));
    require(m.shape.tokens >= 1 && m.steps >= 1 && !m.field.empty());
    require(m.shape.phase == ridgeline::Phase::kPrefill || m.shape.context >= 1);
    require(!m.first || m.first->tokens >= 1);
  }
  check_placed(q, hosts);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::vector<const ridgeline::FileAnalysis*> hosts = {&h200()};
  // The engine's times are placed for a model read the way `--workload qwen2.5-7b` reads it.
  static const ridgeline::WorkloadRequest model = [] {
    ridgeline::WorkloadOptions o;
    o.workload = RIDGELINE_SOURCE_DIR "/profiles/workloads/qwen2.5-7b.json";
    o.batch = "1";
    o.context = "1";
    ridgeline::WorkloadRequest q = ridgeline::make_workload_request(o);
    q.batches.clear();
    q.contexts.clear();
    return q;
  }();
  fuzz_config(text, hosts);
  fuzz_engine(text, hosts, model);
  return 0;
}
