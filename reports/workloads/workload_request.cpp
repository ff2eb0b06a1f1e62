#include "reports/workloads/workload_request.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <optional>
#include <utility>

#include "core/input_error.hpp"

namespace ridgeline {
namespace {

// Beyond any served model's context, small enough that T² stays exact in a double.
inline constexpr int kMaxTokens = 1 << 24;
inline constexpr int kMaxBatch = 1 << 20;

std::string trim_blanks(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

}  // namespace

std::vector<int> parse_counts(const std::string& list, const std::string& field, int max) {
  std::vector<int> out;
  std::size_t start = 0;
  while (true) {
    const auto comma = list.find(',', start);
    const std::string item = trim_blanks(
        list.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    char* end = nullptr;
    errno = 0;
    const long long v = item.empty() ? 0 : std::strtoll(item.c_str(), &end, 10);
    if (item.empty() || end != item.c_str() + item.size() || errno != 0 || v < 1 || v > max)
      throw InputError("", field,
                       fmt::format("'{}' is not an integer in [1, {}] (in '{}')", item, max, list));
    out.push_back(static_cast<int>(v));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

std::vector<PhaseShape> WorkloadRequest::shapes() const {
  std::vector<PhaseShape> out;
  for (int b : batches)
    for (int l : contexts) out.push_back({Phase::kDecode, b, l});
  for (int t : prompts) out.push_back({Phase::kPrefill, t, 0});
  const auto add = [&out](const PhaseShape& m) {
    const auto same = [&m](const PhaseShape& s) {
      return s.phase == m.phase && s.tokens == m.tokens && s.context == m.context;
    };
    if (std::none_of(out.begin(), out.end(), same)) out.push_back(m);
  };
  for (const MeasuredPhase& m : measured_shapes.mapped) {
    add(m.shape);
    if (m.first) add(*m.first);
  }
  return out;
}

WorkloadRequest make_workload_request(const WorkloadOptions& o) {
  if (o.batch.empty() && o.prompt.empty() && o.measured.empty() && o.batch_size.empty() &&
      o.input_len.empty() && o.output_len.empty())
    throw InputError("", "--workload",
                     "give --batch and --context (decode steps), --prompt (prefills), "
                     "--measured (an engine's benchmark), or several");
  if (!o.batch.empty() && o.context.empty())
    throw InputError("", "--context", "a decode step (--batch) needs the context it attends to");
  if (o.batch.empty() && !o.context.empty())
    throw InputError("", "--context", "applies to decode steps: give --batch too");
  WorkloadRequest r;
  if (!o.batch.empty()) {
    r.batches = parse_counts(o.batch, "--batch", kMaxBatch);
    r.contexts = parse_counts(o.context, "--context", kMaxTokens);
  }
  if (!o.prompt.empty()) r.prompts = parse_counts(o.prompt, "--prompt", kMaxTokens);
  r.model = find_transformer_config(o.workload, workload_profiles_dir());
  r.weights = r.model.weight_format(o.weights);
  r.kv_dtype = o.kv_dtype.empty() ? r.model.kv_cache_dtype : o.kv_dtype;
  if (dtype_bytes(r.kv_dtype) == 0)
    throw InputError("", "--kv-dtype",
                     "'" + r.kv_dtype + "' is not a KV-cache dtype (bf16, fp16, fp8, fp32)");
  // The shape of a vllm bench latency run, under the engine's own flag names.
  StatedShape stated;
  const std::pair<const std::string*, std::optional<int>*> flags[] = {
      {&o.batch_size, &stated.batch_size},
      {&o.input_len, &stated.input_len},
      {&o.output_len, &stated.output_len}};
  const char* names[] = {"--batch-size", "--input-len", "--output-len"};
  for (std::size_t i = 0; i < 3; ++i) {
    if (flags[i].first->empty()) continue;
    if (o.measured.empty())
      throw InputError("", names[i],
                       "states the shape of a --measured vllm bench latency run: give --measured");
    const std::vector<int> v =
        parse_counts(*flags[i].first, names[i], i == 0 ? kMaxBatch : kMaxTokens);
    if (v.size() != 1)
      throw InputError("", names[i],
                       "one value: the run's (ridgeline reads one run of vllm bench latency)");
    *flags[i].second = v[0];
  }
  if (!o.measured.empty()) {
    r.measured = read_engine_benchmark(o.measured, stated);
    r.measured_shapes = map_engine_run(*r.measured);
  }
  r.space = o.space;
  r.compute_dtype = o.compute_dtype;
  return r;
}

}  // namespace ridgeline
