#include "reports/render/engine_markdown.hpp"

#include <fmt/format.h>

#include "core/units.hpp"
#include "reports/render/markdown_text.hpp"
#include "reports/roofline/roofline_fit.hpp"

namespace ridgeline {
namespace {

std::string shape_text(const PhaseShape& s) {
  return s.phase == Phase::kDecode ? fmt::format("b = {}, L = {}", s.tokens, s.context)
                                   : fmt::format("T = {}", s.tokens);
}

// A whole request names its prefill and its steps.
std::string shape_text(const MeasuredPhase& m) {
  if (!m.first) return shape_text(m.shape);
  return fmt::format("b = {}: prefill T = {}, then {} steps at L = {}", m.shape.tokens,
                     m.first->tokens, m.steps, m.shape.context);
}

const char* phase_text(const MeasuredPhase& m) {
  return m.first ? "request" : phase_name(m.shape.phase);
}

// What the engine ran, and how its times are mapped: the serving benchmarks'.
std::string serving_header(const EngineRun& r) {
  return fmt::format(
      "{}, model {} (backend {}), {} requests completed, max_concurrency {}, request rate {}; "
      "mean prompt {:.0f} tokens, mean output {:.0f}. TPOT is one decode step of the batch the "
      "request shared (b = max_concurrency, L = the mean prompt plus half the mean output); TTFT "
      "one prefill of the mean prompt, which at a concurrency above 1 also holds waiting for "
      "other requests' steps (its share is a lower one). The medians are held against the bound, "
      "the p99 shown beside.",
      md_text(r.engine), md_text(r.model_id.empty() ? "unnamed" : r.model_id), md_text(r.backend),
      r.num_prompts > 0 ? fmt::format("{} of {}", r.completed, r.num_prompts)
                        : std::to_string(r.completed),
      r.max_concurrency ? std::to_string(*r.max_concurrency) : std::string("none"),
      md_text(r.request_rate), r.mean_input, r.mean_output);
}

// The offline benchmarks': one static batch each (engine_benchmark.hpp).
std::string offline_header(const EngineRun& r) {
  if (r.format == EngineFormat::kVllmLatency) {
    const StaticBatch& b = r.batches.front();
    return fmt::format(
        "{}, {} iterations of one batch of {} prompts of {} tokens, {} output tokens each (the "
        "shape as given with --batch-size, --input-len and --output-len: the file records none; "
        "n = 1 and no beam search assumed). Its median latency is one whole batch: held against "
        "the prefill of one prompt (a lower bound when the batch has several) plus output_len − "
        "1 decode steps at the mean context of the steps, the p99 shown beside.",
        md_text(r.engine), b.iterations, b.batch, b.input, b.output);
  }
  std::string names;
  for (const StaticBatch& b : r.batches)
    if (!b.run_name.empty() && names.find(b.run_name) == std::string::npos)
      names += (names.empty() ? "" : ", ") + b.run_name;
  return fmt::format(
      "{}{}: median_decode_latency is one decode step of the batch at the median step's context "
      "(L = input_len + output_len / 2); prefill_latency one sample of the batch's prefill, "
      "placed at batch 1 (the model counts one prompt's prefill).",
      md_text(r.engine), names.empty() ? std::string() : ", runs " + md_text(names));
}

}  // namespace

std::string render_engine_section(const WorkloadRequest& q,
                                  const std::vector<const FileAnalysis*>& hosts,
                                  const WorkloadTable& table) {
  if (!q.measured) return {};
  const EngineRun& r = *q.measured;
  std::string md = fmt::format(
      "**Measured by the engine** ({}): {} A time below the bound's interval is an error in the "
      "model, the roofs or the file, never a share above 100 %.\n\n",
      md_code(r.file), r.batches.empty() ? serving_header(r) : offline_header(r));
  const std::vector<EngineShareRow> rows = engine_shares(q, table);
  if (!rows.empty()) {
    md += "| measured | phase | shape | median | p99 |";
    std::string rule = "|---|---|---|---|---|";
    for (const FileAnalysis* f : hosts) {
      md += fmt::format(" {0} speed of light ({1} CI) | {0} share of it |", md_code(f->label),
                        confidence_label());
      rule += "---|---|";
    }
    md += "\n" + rule + "\n";
    for (const EngineShareRow& row : rows) {
      const MeasuredPhase& m = row.measured;
      md += fmt::format("| {} | {} | {} | {} | {} |", m.metric, phase_text(m), shape_text(m),
                        format_seconds(m.median_s),
                        m.p99_s ? format_seconds(*m.p99_s) : std::string("–"));
      for (const auto& s : row.hosts) {
        if (!s) {
          md += " not measured | – |";
          continue;
        }
        md += fmt::format(" {} [{}, {}] | {} |", format_seconds(s->bound_s.value),
                          format_seconds(s->bound_s.ci.low), format_seconds(s->bound_s.ci.high),
                          s->above_bound
                              ? std::string("**faster than the bound**: an error in the model, "
                                            "the roofs or the file")
                              : fmt::format("{:.0f} %", 100 * s->share));
      }
      md += "\n";
    }
    md += "\n";
  }
  for (const std::string& why : q.measured_shapes.not_mapped)
    md += "Not mapped: " + md_text(why) + ".\n\n";
  return md;
}

std::vector<std::string> engine_bound_errors(const WorkloadRequest& q,
                                             const std::vector<const FileAnalysis*>& hosts,
                                             const WorkloadTable& table) {
  std::vector<std::string> out;
  if (!q.measured) return out;
  for (const EngineShareRow& row : engine_shares(q, table))
    for (std::size_t h = 0; h < row.hosts.size(); ++h)
      if (row.hosts[h] && row.hosts[h]->above_bound)
        out.push_back(fmt::format(
            "{}: {}: {} {} is below the speed of light on {} ({}, {} {}): the model, the roofs "
            "or the file is wrong",
            q.measured->file, row.measured.field, row.measured.metric,
            format_seconds(row.measured.median_s), hosts[h]->label,
            format_seconds(row.hosts[h]->bound_s.ci.low), phase_text(row.measured),
            shape_text(row.measured)));
  return out;
}

}  // namespace ridgeline
