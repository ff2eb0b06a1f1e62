// An engine's benchmark beside the speed of light: vLLM bench serve's JSON read and mapped to
// decode and prefill shapes, each median's share of the bound, a time faster than the bound an
// error (exit 1, one line), what cannot be mapped named, and bad files one line naming the field.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <sstream>
#include <vector>

#include "core/input_error.hpp"
#include "reports/fit/analysis.hpp"
#include "reports/render/workload_chart_points.hpp"
#include "reports/workloads/engine_benchmark.hpp"
#include "reports/workloads/speed_of_light.hpp"
#include "reports/workloads/workload_request.hpp"
#include "tests/reports/cli_test_support.hpp"

namespace ridgeline {
namespace {

using namespace test;
using nlohmann::json;

const std::string kServe = kData + "/engines/vllm-bench-serve-qwen2.5-7b.json";
const std::string kH200Results = kData + "/../../samples/h200/results.json";

TEST(EngineBenchmark, VllmServeMapsToADecodeStepAndAPrefill) {
  const EngineRun r = read_engine_benchmark(kServe);
  EXPECT_EQ(r.engine, "vLLM bench serve");
  EXPECT_EQ(r.model_id, "Qwen/Qwen2.5-7B-Instruct");
  EXPECT_EQ(r.completed, 200);
  ASSERT_TRUE(r.max_concurrency);
  EXPECT_EQ(*r.max_concurrency, 8);
  EXPECT_EQ(r.mean_input, 204800.0 / 200);
  EXPECT_EQ(r.mean_output, 25600.0 / 200);
  EXPECT_DOUBLE_EQ(r.median_tpot_s, 5.0e-3);
  const EngineShapes s = map_engine_run(r);
  ASSERT_EQ(s.mapped.size(), 2u);
  EXPECT_TRUE(s.not_mapped.empty());
  // A decode step of the 8 requests, attending on average to the prompt and half the output.
  EXPECT_EQ(s.mapped[0].shape.phase, Phase::kDecode);
  EXPECT_EQ(s.mapped[0].shape.tokens, 8);
  EXPECT_EQ(s.mapped[0].shape.context, 1024 + 64);
  EXPECT_STREQ(s.mapped[0].metric, "TPOT");
  EXPECT_EQ(s.mapped[1].shape.phase, Phase::kPrefill);
  EXPECT_EQ(s.mapped[1].shape.tokens, 1024);
  EXPECT_DOUBLE_EQ(s.mapped[1].median_s, 55e-3);
}

// The share is the bound's time over the measured median: b / (tokens/s) for a step, T / (tokens/s)
// for a prefill.
TEST(EngineBenchmark, PlaceShowsEachMedianAsAShareOfItsBound) {
  const auto r =
      run_command(kBin + " place " + kH200Results + " --workload qwen2.5-7b --measured " + kServe);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("**Measured by the engine**"), std::string::npos) << r.out;
  const FileAnalysis h200 = analyze(load_results(kH200Results));
  WorkloadOptions o;
  o.workload = "qwen2.5-7b";
  o.measured = kServe;
  const WorkloadRequest q = make_workload_request(o);
  const HostRoofs roofs = host_roofs(h200, "bf16", "bf16", "", "");
  ASSERT_TRUE(roofs.roofs);
  const auto share = [&](const PhaseShape& s, double median) {
    const PhasePlacement p =
        place_phase(count_phase(q.model, q.weights, q.kv_dtype, s), *roofs.roofs);
    return (s.tokens / p.tokens_per_s.value) / median;
  };
  const double decode = share({Phase::kDecode, 8, 1088}, 5e-3);
  const double prefill = share({Phase::kPrefill, 1024, 0}, 55e-3);
  ASSERT_LT(decode, 1);
  ASSERT_LT(prefill, 1);
  const auto row = [&r](const std::string& start) {
    const auto at = r.out.find(start);
    return at == std::string::npos ? std::string() : r.out.substr(at, r.out.find('\n', at) - at);
  };
  EXPECT_NE(row("| TPOT | decode | b = 8, L = 1088 | 5 ms | 6.1 ms |")
                .find(fmt::format("| {:.0f} % |", 100 * decode)),
            std::string::npos)
      << r.out;
  EXPECT_NE(row("| TTFT | prefill | T = 1024 | 55 ms | 120 ms |")
                .find(fmt::format("| {:.0f} % |", 100 * prefill)),
            std::string::npos)
      << r.out;
  // The shapes are placed in the table above as well, without --batch or --prompt.
  EXPECT_NE(r.out.find("| decode | b = 8 | 1088 |"), std::string::npos);
  EXPECT_NE(r.out.find("| prefill | T = 1024 | – |"), std::string::npos);
}

const std::string kSglang = kData + "/engines/sglang-bench-serving-qwen2.5-7b.jsonl";

// SGLang appends one run per line, an infinite request rate as Python's bare Infinity: the last
// run is read, and its batch-1 decode and prefill placed.
TEST(EngineBenchmark, SglangReadsTheLastRunOfItsJsonLines) {
  const EngineRun r = read_engine_benchmark(kSglang);
  EXPECT_EQ(r.engine, "SGLang bench_serving (the last of 2 runs in the file)");
  EXPECT_EQ(r.request_rate, "inf");
  EXPECT_EQ(r.num_prompts, 0);  // not stated by SGLang
  EXPECT_EQ(r.completed, 100);
  ASSERT_TRUE(r.max_concurrency);
  EXPECT_EQ(*r.max_concurrency, 1);
  EXPECT_DOUBLE_EQ(r.median_tpot_s, 4.1e-3);
  const EngineShapes s = map_engine_run(r);
  ASSERT_EQ(s.mapped.size(), 2u);
  EXPECT_EQ(s.mapped[0].shape.tokens, 1);
  EXPECT_EQ(s.mapped[0].shape.context, 1024 + 128);
  const auto out =
      run_command(kBin + " place " + kH200Results + " --workload qwen2.5-7b --measured " + kSglang);
  ASSERT_EQ(out.exit_code, 0) << out.err;
  EXPECT_NE(out.out.find("SGLang bench_serving (the last of 2 runs in the file), model unnamed "
                         "(backend sglang), 100 requests completed, max_concurrency 1"),
            std::string::npos)
      << out.out;
  EXPECT_NE(out.out.find("| TPOT | decode | b = 1, L = 1152 | 4.1 ms |"), std::string::npos);
}

// The phases on the chart of the roofs they were placed on: the bound at its attainable FLOP/s,
// the engine's phase at the FLOP/s its median time gives, at the same intensity; report draws
// them.
TEST(EngineBenchmark, PhasesAndMeasuredPointsOnTheChart) {
  const FileAnalysis h200 = analyze(load_results(kH200Results));
  WorkloadOptions o;
  o.workload = "qwen2.5-7b";
  o.measured = kServe;
  const WorkloadRequest q = make_workload_request(o);
  const std::vector<MarkedPoint> marks = workload_chart_points(q, {&h200});
  const PhaseCounts step = count_phase(q.model, q.weights, q.kv_dtype, {Phase::kDecode, 8, 1088});
  const MarkedPoint* bound = nullptr;
  const MarkedPoint* measured = nullptr;
  for (const MarkedPoint& m : marks) {
    EXPECT_EQ(m.file, &h200);
    EXPECT_EQ(m.space, "Cuda");
    EXPECT_EQ(m.dtype, "bf16");
    if (m.point.name == "decode b=8 L=1088 bound") bound = &m;
    if (m.point.name == "decode b=8 L=1088 TPOT") measured = &m;
  }
  ASSERT_TRUE(bound && measured);
  EXPECT_DOUBLE_EQ(measured->point.intensity, step.intensity());
  EXPECT_DOUBLE_EQ(measured->point.flops_per_s, step.flops / 5e-3);
  EXPECT_DOUBLE_EQ(bound->point.intensity, step.intensity());
  EXPECT_LT(measured->point.flops_per_s, bound->point.flops_per_s);
  TempDir out;
  const auto r = run_command(kBin + " report " + kH200Results + " --out " + out.path +
                             " --workload qwen2.5-7b --measured " + kServe);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string svg = slurp(out.path + "/roofline-NVIDIA_H200-Cuda-bf16.svg");
  EXPECT_NE(svg.find("decode b=8 L=1088 TPOT"), std::string::npos);
  EXPECT_NE(svg.find("decode b=8 L=1088 bound"), std::string::npos);
}

std::string patched(const TempDir& dir, const json& patch) {
  json j = json::parse(slurp(kServe));
  j.merge_patch(patch);
  const std::string file = dir.path + "/serve.json";
  write_json(file, j);
  return file;
}

TEST(EngineBenchmark, FasterThanTheBoundIsAnErrorNeverAShareAbove100) {
  TempDir dir;
  const std::string file = patched(dir, {{"median_tpot_ms", 1.0}});
  const auto r =
      run_command(kBin + " place " + kH200Results + " --workload qwen2.5-7b --measured " + file);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(file + ": median_tpot_ms: TPOT 1 ms is below the speed of light"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.out.find("**faster than the bound**"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("| 100 %"), std::string::npos);
  // The prefill, slower than its bound, keeps its share.
  EXPECT_NE(r.out.find("| TTFT | prefill |"), std::string::npos);
  // report writes its files and fails the same way.
  TempDir out;
  const auto rep = run_command(kBin + " report " + kH200Results + " --out " + out.path +
                               " --workload qwen2.5-7b --measured " + file);
  EXPECT_EQ(rep.exit_code, 1);
  EXPECT_NE(rep.err.find(file + ": median_tpot_ms: TPOT 1 ms is below"), std::string::npos)
      << rep.err;
  EXPECT_NE(slurp(out.path + "/report.md").find("**faster than the bound**"), std::string::npos);
}

TEST(EngineBenchmark, WithoutAConcurrencyCapDecodeIsNotMapped) {
  TempDir dir;
  const std::string file = patched(dir, {{"max_concurrency", nullptr}});
  const auto r =
      run_command(kBin + " place " + kH200Results + " --workload qwen2.5-7b --measured " + file);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Not mapped: decode: max_concurrency is null"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("| TPOT |"), std::string::npos);
  EXPECT_NE(r.out.find("| TTFT | prefill | T = 1024 |"), std::string::npos);
}

struct BadRun {
  const char* patch;
  const char* field;
};

void PrintTo(const BadRun& b, std::ostream* os) { *os << b.patch; }

class EngineBenchmarkBad : public ::testing::TestWithParam<BadRun> {};

TEST_P(EngineBenchmarkBad, OneLineNamingFileAndField) {
  TempDir dir;
  const std::string file = patched(dir, json::parse(GetParam().patch));
  const auto r =
      run_command(kBin + " place " + kH200Results + " --workload qwen2.5-7b --measured " + file);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(file + ": " + GetParam().field + ":"), std::string::npos) << r.err;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, EngineBenchmarkBad,
    ::testing::Values(
        // SGLang's bench_serving and others write no burstiness: not read as vLLM's.
        BadRun{R"({"burstiness": null})", "burstiness"}, BadRun{R"({"backend": null})", "backend"},
        BadRun{R"({"completed": 0})", "completed"}, BadRun{R"({"completed": 201})", "completed"},
        BadRun{R"({"median_tpot_ms": -5})", "median_tpot_ms"},
        BadRun{R"({"median_ttft_ms": "fast"})", "median_ttft_ms"},
        BadRun{R"({"request_rate": "fast"})", "request_rate"},
        BadRun{R"({"max_concurrency": 0})", "max_concurrency"},
        BadRun{R"({"total_input_tokens": 1e14})", "total_input_tokens"}));

// Built to crash or mislead: deep nesting, a number beyond a double, a subnormal time, in the
// engine's file and in a config.json. One line naming the file, exit 2, never an abort.
TEST(EngineBenchmark, HostileFilesAreOneLine) {
  TempDir dir;
  const std::string serve = slurp(kServe), config = slurp(kData + "/../../profiles/workloads/hf/" +
                                                          "qwen2.5-7b/config.json");
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  const auto replace = [](std::string text, const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    return at == std::string::npos ? std::string() : text.replace(at, from.size(), to);
  };
  const std::pair<std::string, std::string> engine_cases[] = {
      {deep, ""},
      {replace(serve, "\"median_tpot_ms\": 5.0", "\"median_tpot_ms\": 1e999"), "median_tpot_ms"},
      {replace(serve, "\"median_tpot_ms\": 5.0", "\"median_tpot_ms\": 1e-310"), "median_tpot_ms"}};
  for (const auto& [text, field] : engine_cases) {
    ASSERT_FALSE(text.empty());
    const std::string file = dir.path + "/serve.json";
    write_file(file, text);
    const auto r =
        run_command(kBin + " place " + kH200Results + " --workload qwen2.5-7b --measured " + file);
    EXPECT_EQ(r.exit_code, 2) << field;
    EXPECT_EQ(line_count(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(file + ": " + field), std::string::npos) << r.err;
  }
  const std::pair<std::string, std::string> config_cases[] = {
      {deep, ""},
      {replace(config, "\"hidden_size\": 3584", "\"hidden_size\": 1e999"), "hidden_size"}};
  for (const auto& [text, field] : config_cases) {
    ASSERT_FALSE(text.empty());
    const std::string file = dir.path + "/config.json";
    write_file(file, text);
    const auto r = run_command(kBin + " place " + kH200Results + " --workload " + file +
                               " --batch 1 --context 8");
    EXPECT_EQ(r.exit_code, 2) << field;
    EXPECT_EQ(line_count(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(file + ": " + field), std::string::npos) << r.err;
  }
}

const std::string kLatency = kData + "/engines/vllm-bench-latency-qwen2.5-7b.json";
const std::string kOneBatch = kData + "/engines/sglang-bench-one-batch-qwen2.5-7b.jsonl";
const std::string kLatencyShape = " --batch-size 8 --input-len 32 --output-len 128";

std::string place_measured(const std::string& file, const std::string& more = "") {
  return kBin + " place " + kH200Results + " --workload qwen2.5-7b --measured " + file + more;
}

// Its JSON records no shape: without the engine's flags it is one line naming the first missing.
TEST(EngineBenchmark, VllmLatencyAsksForTheShapeItRanWith) {
  const auto r = run_command(place_measured(kLatency, " --batch-size 8"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(kLatency + ": --input-len: missing: vllm bench latency's JSON records no "
                                  "request shape; give --batch-size, --input-len and --output-len"),
            std::string::npos)
      << r.err;
}

// One whole batch: the prefill of one prompt, then output_len - 1 steps at the steps' mean
// context, against the median of the iterations.
TEST(EngineBenchmark, VllmLatencyIsAPrefillAndItsDecodeSteps) {
  const EngineRun r = read_engine_benchmark(kLatency, {8, 32, 128});
  EXPECT_EQ(r.engine, "vLLM bench latency");
  ASSERT_EQ(r.batches.size(), 1u);
  EXPECT_EQ(r.batches[0].iterations, 10);
  const EngineShapes s = map_engine_run(r);
  ASSERT_EQ(s.mapped.size(), 1u);
  const MeasuredPhase& m = s.mapped[0];
  EXPECT_STREQ(m.metric, "latency");
  EXPECT_EQ(m.field, "percentiles.50");
  EXPECT_DOUBLE_EQ(m.median_s, 0.62155);
  ASSERT_TRUE(m.p99_s);
  EXPECT_DOUBLE_EQ(*m.p99_s, 0.6242369999999999);
  EXPECT_EQ(m.steps, 127);
  EXPECT_EQ(m.shape.phase, Phase::kDecode);
  EXPECT_EQ(m.shape.tokens, 8);
  EXPECT_EQ(m.shape.context, 32 + 64);  // the mean of 33 … 159
  ASSERT_TRUE(m.first);
  EXPECT_EQ(m.first->phase, Phase::kPrefill);
  EXPECT_EQ(m.first->tokens, 32);

  const auto out = run_command(place_measured(kLatency, kLatencyShape));
  ASSERT_EQ(out.exit_code, 0) << out.err;
  const FileAnalysis h200 = analyze(load_results(kH200Results));
  WorkloadOptions o;
  o.workload = "qwen2.5-7b";
  o.batch = "1";
  o.context = "1";
  const WorkloadRequest q = make_workload_request(o);
  const HostRoofs roofs = host_roofs(h200, "bf16", "bf16", "", "");
  ASSERT_TRUE(roofs.roofs);
  const auto time = [&](const PhaseShape& shape) {
    const PhasePlacement p =
        place_phase(count_phase(q.model, q.weights, q.kv_dtype, shape), *roofs.roofs);
    return shape.tokens / p.tokens_per_s.value;
  };
  const double bound = 127 * time({Phase::kDecode, 8, 96}) + time({Phase::kPrefill, 32, 0});
  ASSERT_LT(bound, 0.62155);
  const auto at = out.out.find(
      "| latency | request | b = 8: prefill T = 32, then 127 steps at "
      "L = 96 | 622 ms | 624 ms |");
  ASSERT_NE(at, std::string::npos) << out.out;
  const std::string row = out.out.substr(at, out.out.find('\n', at) - at);
  EXPECT_NE(row.find(fmt::format("| {:.0f} % |", 100 * bound / 0.62155)), std::string::npos) << row;
  EXPECT_NE(out.out.find("vLLM bench latency, 10 iterations of one batch of 8 prompts of 32 "
                         "tokens, 128 output tokens each"),
            std::string::npos)
      << out.out;
  // Both shapes are placed in the table above.
  EXPECT_NE(out.out.find("| decode | b = 8 | 96 |"), std::string::npos) << out.out;
  EXPECT_NE(out.out.find("| prefill | T = 32 | – |"), std::string::npos) << out.out;
}

TEST(EngineBenchmark, VllmLatencyFasterThanItsBoundIsAnError) {
  TempDir dir;
  json j = json::parse(slurp(kLatency));
  j["percentiles"]["50"] = 0.05;
  const std::string file = dir.path + "/latency.json";
  write_json(file, j);
  const auto r = run_command(place_measured(file, kLatencyShape));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(file + ": percentiles.50: latency 50 ms is below the speed of light"),
            std::string::npos)
      << r.err;
}

// The shape flags belong to the one format without a shape: with another they are refused, and
// without --measured they say so.
TEST(EngineBenchmark, ShapeFlagsOnlyForVllmLatency) {
  for (const std::string& file : {kServe, kSglang, kOneBatch}) {
    const auto r = run_command(place_measured(file, " --output-len 16"));
    EXPECT_EQ(r.exit_code, 2) << file;
    EXPECT_EQ(line_count(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(file + ": --output-len: states the shape of a vllm bench latency run"),
              std::string::npos)
        << r.err;
  }
  const auto alone = run_command(kBin + " place " + kH200Results +
                                 " --workload qwen2.5-7b --batch 1 --context 8 --batch-size 8");
  EXPECT_EQ(alone.exit_code, 2);
  EXPECT_NE(alone.err.find("--batch-size: states the shape of a --measured vllm bench latency "
                           "run: give --measured"),
            std::string::npos)
      << alone.err;
  const auto two = run_command(place_measured(kLatency,
                                              " --batch-size 1,8 --input-len 32 "
                                              "--output-len 128"));
  EXPECT_EQ(two.exit_code, 2);
  EXPECT_NE(two.err.find("--batch-size: one value"), std::string::npos) << two.err;
}

// Every line of a sweep: each batch's median decode step at its median context, the prefill
// where the batch is one prompt; a batch of prompts' prefill named, not placed.
TEST(EngineBenchmark, SglangOneBatchReadsEveryLine) {
  const EngineRun r = read_engine_benchmark(kOneBatch);
  EXPECT_EQ(r.engine, "SGLang bench_one_batch (2 results in the file)");
  ASSERT_EQ(r.batches.size(), 2u);
  EXPECT_EQ(r.batches[1].batch, 8);
  EXPECT_EQ(r.batches[1].line, 2);
  const EngineShapes s = map_engine_run(r);
  ASSERT_EQ(s.mapped.size(), 3u);
  EXPECT_STREQ(s.mapped[0].metric, "decode step");
  EXPECT_EQ(s.mapped[0].field, "line 1.median_decode_latency");
  EXPECT_EQ(s.mapped[0].shape.tokens, 1);
  EXPECT_EQ(s.mapped[0].shape.context, 1024 + 8);
  EXPECT_DOUBLE_EQ(s.mapped[0].median_s, 0.00452);
  EXPECT_STREQ(s.mapped[1].metric, "prefill");
  EXPECT_EQ(s.mapped[1].shape.phase, Phase::kPrefill);
  EXPECT_EQ(s.mapped[1].shape.tokens, 1024);
  EXPECT_EQ(s.mapped[2].shape.tokens, 8);
  EXPECT_EQ(s.mapped[2].field, "line 2.median_decode_latency");
  ASSERT_EQ(s.not_mapped.size(), 1u);
  EXPECT_NE(s.not_mapped[0].find("prefill (line 2): a batch of 8 prompts of 1024 tokens"),
            std::string::npos);
  const auto out = run_command(place_measured(kOneBatch));
  ASSERT_EQ(out.exit_code, 0) << out.err;
  EXPECT_NE(out.out.find("| decode step | decode | b = 1, L = 1032 | 4.52 ms | – |"),
            std::string::npos)
      << out.out;
  EXPECT_NE(out.out.find("| prefill | prefill | T = 1024 | 41.2 ms | – |"), std::string::npos);
  EXPECT_NE(out.out.find("| decode step | decode | b = 8, L = 1032 | 5.61 ms | – |"),
            std::string::npos);
  EXPECT_NE(out.out.find("Not mapped: prefill (line 2): a batch of 8 prompts"), std::string::npos);
  EXPECT_NE(out.out.find(", runs qwen-h200:"), std::string::npos) << out.out;
}

// A whole request is one point on the chart: its steps and its prefill together, at their joint
// intensity, its FLOPs over the median latency.
TEST(EngineBenchmark, AWholeRequestIsOnePointOnTheChart) {
  const FileAnalysis h200 = analyze(load_results(kH200Results));
  WorkloadOptions o;
  o.workload = "qwen2.5-7b";
  o.measured = kLatency;
  o.batch_size = "8";
  o.input_len = "32";
  o.output_len = "128";
  const WorkloadRequest q = make_workload_request(o);
  const PhaseCounts step = count_phase(q.model, q.weights, q.kv_dtype, {Phase::kDecode, 8, 96});
  const PhaseCounts prefill = count_phase(q.model, q.weights, q.kv_dtype, {Phase::kPrefill, 32, 0});
  const double flops = 127 * step.flops + prefill.flops;
  const double bytes = 127 * step.bytes() + prefill.bytes();
  const MarkedPoint* request = nullptr;
  const std::vector<MarkedPoint> points = workload_chart_points(q, {&h200});  // outlives `request`
  for (const MarkedPoint& m : points)
    if (m.point.name == "request b=8 T=32 O=128 latency") request = &m;
  ASSERT_TRUE(request);
  EXPECT_DOUBLE_EQ(request->point.intensity, flops / bytes);
  EXPECT_DOUBLE_EQ(request->point.flops_per_s, flops / 0.62155);
}

struct BadText {
  std::string text;
  std::string field;
  std::string flags;
};

void PrintTo(const BadText& b, std::ostream* os) { *os << b.field; }

class OfflineBenchmarkBad : public ::testing::TestWithParam<BadText> {};

TEST_P(OfflineBenchmarkBad, OneLineNamingFileAndField) {
  TempDir dir;
  const std::string file = dir.path + "/bench.json";
  write_file(file, GetParam().text);
  const auto r = run_command(place_measured(file, GetParam().flags));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(file + ": " + GetParam().field + ":"), std::string::npos) << r.err;
}

std::vector<BadText> bad_offline_files() {
  const auto lines = [] {
    std::vector<json> out;
    std::istringstream in(slurp(kOneBatch));
    for (std::string l; std::getline(in, l);) out.push_back(json::parse(l));
    return out;
  }();
  const auto two = [&](const json& first, const json& second) {
    return first.dump() + "\n" + second.dump() + "\n";
  };
  json total = lines[0];
  total["total_latency"] = 0.01;  // below its own prefill
  json no_decode = lines[1];
  no_decode.erase("median_decode_latency");
  json zero = lines[0];
  zero["batch_size"] = 0;
  json latency = json::parse(slurp(kLatency));
  json p99 = latency;
  p99["percentiles"]["99"] = 0.1;
  json empty = latency;
  empty["latencies"] = json::array();
  json no_median = latency;
  no_median["percentiles"].erase("50");
  json subnormal = latency;
  subnormal["percentiles"]["50"] = 1e-310;
  return {
      {two(total, lines[1]), "line 1.total_latency", ""},
      {two(lines[0], no_decode), "line 2.median_decode_latency", ""},
      {two(zero, lines[1]), "line 1.batch_size", ""},
      // Another format's line among the results (the last line says which format the file is).
      {two(json::parse(slurp(kServe)), lines[0]), "line 1", ""},
      {p99.dump(), "percentiles.99", kLatencyShape},
      {empty.dump(), "latencies", kLatencyShape},
      {no_median.dump(), "percentiles.50", kLatencyShape},
      {subnormal.dump(), "percentiles.50", kLatencyShape},
  };
}

INSTANTIATE_TEST_SUITE_P(Cases, OfflineBenchmarkBad, ::testing::ValuesIn(bad_offline_files()));

TEST(EngineBenchmark, MeasuredNeedsAWorkload) {
  const auto r =
      run_command(kBin + " place " + kH200Results + " --measured " + kServe + " --intensities 1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--measured: places a workload: give --workload too"), std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace ridgeline
