#include "reports/render/workload_markdown.hpp"

#include <fmt/format.h>

#include <cmath>

#include "core/units.hpp"
#include "reports/render/engine_markdown.hpp"
#include "reports/render/markdown_text.hpp"
#include "reports/roofline/roofline_fit.hpp"
#include "reports/workloads/workload_table.hpp"

namespace ridgeline {
namespace {

std::string roof_text(const RoofValue& r, bool flops) {
  return flops ? format_flops_with_ci(r.value, r.ci) : format_bytes_with_ci(r.value, r.ci);
}

// One line per host: the roofs used and why those.
std::string roofs_line(const FileAnalysis& f, const HostRoofs& h) {
  std::string line = "- " + md_code(f.label) + ": ";
  if (!h.roofs) return line + md_text(h.why) + "\n";
  const PhaseRoofs& r = *h.roofs;
  line += fmt::format("{} {} ({}): P_vector {}", md_text(r.space), md_text(r.dtype), md_text(h.why),
                      roof_text(r.p_vector, true));
  line += r.p_matrix ? ", P_matrix " + roof_text(*r.p_matrix, true) : std::string();
  line += ", B " + roof_text(r.b, false);
  line += r.b_read ? ", B_read " + roof_text(*r.b_read, false) : ", no B_read";
  line += r.b_write ? ", B_write " + roof_text(*r.b_write, false) : ", no B_write";
  if (!r.b_read || !r.b_write) line += "; bytes of a direction without its own roof meet B";
  if (!r.p_matrix)
    line +=
        "; the fit has no matrix roof for this dtype, so compute-bound phases meet the vector P "
        "(tensor or matrix units, where the host has them, reach beyond it)";
  return line + "\n";
}

// What the roofs that did not bound the phase would change: the same phase with every byte on
// B (the one-roof answer), and the other side's time as a share of the binding one's.
std::string other_roofs_cell(const PhasePlacement& p) {
  const double change = p.tokens_per_s_on_b / p.tokens_per_s.value - 1;
  const std::string on_b =
      std::abs(change) < 5e-4
          ? "all bytes on B: the same"
          : fmt::format("all bytes on B: {} ({}{:.1f} %)", format_sig(p.tokens_per_s_on_b),
                        change < 0 ? "−" : "+", 100 * std::abs(change));
  return fmt::format("{}; {} {:.3g} % of the {}", on_b, p.memory_bound ? "compute" : "memory",
                     100 * p.other_side_share(), p.memory_bound ? "memory time" : "compute time");
}

std::string shape_cell(const PhaseShape& s) {
  return s.phase == Phase::kDecode ? fmt::format("b = {}", s.tokens)
                                   : fmt::format("T = {}", s.tokens);
}

}  // namespace

std::string render_workload_markdown(const WorkloadRequest& q,
                                     const std::vector<const FileAnalysis*>& hosts,
                                     const std::string& heading) {
  const TransformerConfig& m = q.model;
  const ParameterCounts params = parameter_counts(m);
  std::string md = fmt::format("{} Workload: {} ({} weights, {} KV cache)\n\n", heading,
                               md_text(m.name), md_text(q.weights.name), md_text(q.kv_dtype));
  md +=
      "**Speed of light: an upper bound from each host's measured roofs.** Each phase takes the "
      "longer of its FLOPs over the compute roof and its bytes over the memory roofs of their "
      "direction: reads (weights, KV cache) over B_read, writes (KV appends) over B_write, the "
      "two times added (DRAM reads and writes share one bus). The bound names the roof that set "
      "the time; the last column what the others would change: every byte on B (the read-write "
      "envelope) instead, and the other side's time as a share. No attention "
      "kernel, scheduler, launch or communication overhead is modelled, and activations, "
      "softmax, norms and RoPE are not counted. Decode: b sequences each add one token that "
      "attends to L positions (tokens/s = b / step time); prefill: one prompt of T tokens, causal "
      "(tokens/s = T / time). The interval carries the roofs' " +
      confidence_label() + " intervals.\n\n";
  md += fmt::format(
      "Model: {:.4g} billion parameters from the shapes ({}){}; {} layers, "
      "hidden {}, {} "
      "heads, {} KV heads, head dim {}, intermediate {}, vocabulary {}, {} embeddings. Weights "
      "{}: {:.4g} bytes per layer weight, {:.4g} GB stored. KV cache {}. Source: {} "
      "(workload {}).\n\n",
      params.total() / 1e9,
      m.stated_parameters > 0 ? fmt::format("{:.4g} billion stated", m.stated_parameters / 1e9)
                              : std::string("no count stated"),
      m.experts > 1 ? fmt::format(", {:.4g} billion active per token ({} of {} experts)",
                                  params.active() / 1e9, m.active_experts, m.experts)
                    : std::string(),
      m.layers, m.hidden, m.heads, m.kv_heads, m.head_dim, m.intermediate, m.vocabulary,
      m.tied_embeddings ? "tied" : "untied", md_text(q.weights.name), q.weights.bytes_per_weight(),
      stored_weight_bytes(m, q.weights) / 1e9, md_text(q.kv_dtype), md_text(m.source),
      md_code(m.file));
  if (!q.weights.note.empty()) md += "Weight format: " + md_text(q.weights.note) + ".\n\n";
  if (m.experts > 1)
    md += fmt::format(
        "Experts read per step: the expected number that n tokens route to, uniform and "
        "independent top-{} routing (E·(1 − (1 − k/E)^n) of {}).\n\n",
        m.active_experts, m.experts);

  const WorkloadTable table = build_workload_table(q, hosts);
  md += "Roofs used:\n";
  for (std::size_t i = 0; i < hosts.size(); ++i) md += roofs_line(*hosts[i], table.roofs[i]);
  md += "\n| phase | shape | L | GFLOP | GB moved | I FLOP/byte |";
  std::string rule = "|---|---|---|---|---|---|";
  for (const FileAnalysis* f : hosts) {
    const std::string h = md_code(f->label);
    md += fmt::format(
        " {0} bound (I*) | {0} attainable | {0} tokens/s ({1} CI) | {0} the other roofs |", h,
        confidence_label());
    rule += "---|---|---|---|";
  }
  md += "\n" + rule + "\n";
  for (const WorkloadRow& row : table.rows) {
    const PhaseCounts& c = row.counts;
    const PhaseShape& s = c.shape;
    md += fmt::format("| {} | {} | {} | {} | {} | {} |", phase_name(s.phase), shape_cell(s),
                      s.phase == Phase::kDecode ? std::to_string(s.context) : "–",
                      format_sig(c.flops / 1e9, 4), format_sig(c.bytes() / 1e9, 4),
                      format_sig(c.intensity()));
    for (const auto& p : row.hosts) {
      if (!p) {
        md += " not measured | – | – | – |";
        continue;
      }
      md += fmt::format(" {} {} ({}) | {} | {} [{}, {}] | {} |",
                        p->memory_bound ? "memory" : "compute",
                        p->memory_bound ? p->memory_roofs(c) : std::string(p->compute_roof),
                        format_sig(p->ridge), format_flops(p->attainable),
                        format_sig(p->tokens_per_s.value), format_sig(p->tokens_per_s.ci.low),
                        format_sig(p->tokens_per_s.ci.high), other_roofs_cell(*p));
    }
    md += "\n";
  }
  md += "\n";
  return md + render_engine_section(q, hosts, table);
}

}  // namespace ridgeline
