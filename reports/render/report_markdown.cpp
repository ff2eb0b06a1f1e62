#include "reports/render/report_markdown.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/units.hpp"
#include "reports/fit/roof_roles.hpp"
#include "reports/render/gemm_shape_table.hpp"
#include "reports/render/markdown_text.hpp"
#include "reports/render/methods_section.hpp"
#include "reports/render/plateau_section.hpp"
#include "reports/render/pyramid_table.hpp"
#include "reports/render/roof_tables.hpp"
#include "reports/render/spec_scope.hpp"
#include "reports/render/summary_tables.hpp"
#include "results/probe_catalog.hpp"

namespace ridgeline {
namespace {

std::string opt_rate(const std::optional<double>& v, bool flops) {
  if (!v) return "–";
  return flops ? format_flops(*v) : format_bytes_per_s(*v);
}

// A context field as text ("–" when absent); `code` renders it as a code span.
std::string ctx_str(const nlohmann::json& ctx, const char* a, const char* b, bool code = false) {
  if (!ctx.contains(a) || !ctx[a].is_object() || !ctx[a].contains(b)) return "–";
  const auto& v = ctx[a][b];
  if (v.is_null()) return "–";
  std::string text;
  if (v.is_array()) {  // ["OpenMP","Serial"] reads as OpenMP, Serial
    for (const auto& x : v)
      text += (text.empty() ? "" : ", ") + (x.is_string() ? x.get<std::string>() : x.dump());
  } else {
    text = v.is_string() ? v.get<std::string>() : v.dump();
  }
  return code ? md_code(text) : md_text(text);
}

void comparison(std::string& md, const std::vector<FileAnalysis>& files) {
  if (files.size() < 2) return;
  md += "## Comparison\n\nRatios are to the first file, " + md_code(files[0].label) + ".\n\n";
  md += "| space | dtype | metric |";
  std::string rule = "|---|---|---|";
  for (const auto& f : files) md += " " + md_text(f.label) + " |", rule += "---|";
  md += "\n" + rule + "\n";
  // Every space × dtype fitted in some file, in order of first appearance.
  std::vector<std::pair<std::string, std::string>> keys;
  std::set<std::pair<std::string, std::string>> seen;
  for (const auto& f : files)
    for (const auto& g : f.groups)
      if (g.fit.fit && seen.insert({g.fit.space, g.fit.dtype}).second)
        keys.push_back({g.fit.space, g.fit.dtype});
  for (const auto& [space, dtype] : keys) {
    const GroupAnalysis* g0 = files[0].find(space, dtype);
    for (int metric = 0; metric < 3; ++metric) {
      static const char* names[] = {"P", "B", "I*"};
      auto value = [metric](const Roof& r) {
        return metric == 0 ? r.peak_flops : metric == 1 ? r.bandwidth : r.ridge_point();
      };
      auto text = [metric](double v) {
        return metric == 0   ? format_flops(v)
               : metric == 1 ? format_bytes_per_s(v)
                             : fmt::format("{:.3g}", v);
      };
      md += fmt::format("| {} | {} | {} |", md_text(space), md_text(dtype), names[metric]);
      const RoofFit* base = g0 && g0->fit.fit ? &*g0->fit.fit : nullptr;
      for (std::size_t i = 0; i < files.size(); ++i) {
        const GroupAnalysis* g = files[i].find(space, dtype);
        if (!g || !g->fit.fit) {
          md += " – |";
          continue;
        }
        const double v = value(g->fit.fit->estimate.roof);
        md += " " + text(v);
        if (i > 0 && base) md += fmt::format(" (×{:.3f})", v / value(base->estimate.roof));
        md += " |";
      }
      md += "\n";
    }
  }
  md += "\n";
}

// Tensor and matrix units are reached only through library GEMMs here: every such point, held
// against the sheet's dense figure for its dtype, unit and accumulate mode (an fp16 GEMM that
// accumulates in fp32 against the fp32-accumulate figure, not a faster fp16-accumulate one).
void tensor_roofs(std::string& md, const std::vector<FileAnalysis>& files,
                  const std::vector<MachineProfile>& profiles) {
  std::string rows;
  for (const auto& f : files)
    for (const auto& p : f.results.points) {
      if (!p.measured() || !p.verified || !p.flops_per_s || !is_tensor_point(p)) continue;
      const auto profile = spec_scope(f, p.space, profiles).profile;
      std::string spec = "no profile", share = "–";
      if (profile) {
        const auto peak = profile->grading_peak(p.dtype, UnitKind::kMatrix, point_accumulate(p));
        if (peak) {
          spec = format_flops(peak->flops) +
                 (peak->accumulate.empty() ? "" : ", " + md_text(peak->accumulate) + " accumulate");
          share = pct(*p.flops_per_s / peak->flops);
        } else {
          spec = "not on sheet";
        }
      }
      rows += fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", md_text(f.label),
                          md_code(p.name), md_text(p.param("library")), md_text(p.param("math")),
                          format_flops(*p.flops_per_s), spec, share);
    }
  if (rows.empty()) return;
  md +=
      "## Matrix-unit points against the sheet\n\n"
      "Library GEMMs on tensor or matrix units: the best of each space × dtype is P_matrix. Each "
      "is held against the sheet's dense figure for its dtype, unit and accumulate mode (at the "
      "clock the sheet assumes).\n\n"
      "| file | point | library | math | FLOP/s | sheet, dense | % of sheet |\n"
      "|---|---|---|---|---|---|---|\n" +
      rows + "\n";
}

// One row per file, space, dtype and SRAM probe: the fastest verified point (its median rate),
// with the range of scratch sizes per team that were measured.
std::string sram_rows(const std::vector<FileAnalysis>& files) {
  std::string rows;
  for (const auto& f : files)
    for (const auto& g : f.groups)
      for (const std::string& probe : probes_in("sram")) {
        const Point* best = nullptr;
        double low = 0, high = 0;
        int points = 0;
        for (const Point* p : f.points_of(g.fit.space, g.fit.dtype)) {
          if (p->probe != probe || !p->measured() || !p->verified || !p->bytes_per_s) continue;
          low = points ? std::min(low, p->working_set_bytes) : p->working_set_bytes;
          high = std::max(high, p->working_set_bytes);
          ++points;
          if (!best || *p->bytes_per_s > *best->bytes_per_s) best = p;
        }
        if (!best) continue;
        const bool device = is_device_space(f.results, g.fit.space);
        rows += fmt::format(
            "| {} | {} | {} | {} | {} | {} – {} per team | {} | {} | {} | level |\n",
            md_text(f.label), md_text(g.fit.space), md_text(g.fit.dtype), probe,
            device ? "SRAM (shared memory / LDS)" : "SRAM (scratch in L1d)", format_size_bytes(low),
            format_size_bytes(high), points, format_bytes_per_s(*best->bytes_per_s),
            md_text(bytes_convention(*best, device)));
      }
  return rows;
}

// "No cache sweep (`cache_update`, …) was measured.", naming the cache family's probes.
std::string no_cache_sweep() {
  std::string probes;
  for (const auto& probe : probes_in("cache"))
    probes += (probes.empty() ? "`" : ", `") + probe + "`";
  return "No cache sweep (" + probes + ") was measured.";
}

void memory_levels(std::string& md, const std::vector<FileAnalysis>& files) {
  std::string rows;
  for (const auto& f : files)
    for (const auto& g : f.groups)
      for (const auto& sweep : g.levels) {
        Point probe;
        probe.probe = sweep.probe;
        probe.family = "cache";
        const std::string bytes =
            md_text(bytes_convention(probe, is_device_space(f.results, g.fit.space)));
        for (const auto& l : sweep.levels)
          rows += fmt::format("| {} | {} | {} | {} | {} | {} – {} | {} | {} | {} | {} |\n",
                              md_text(f.label), md_text(g.fit.space), md_text(g.fit.dtype),
                              sweep.probe, md_text(l.name), format_size_bytes(l.min_working_set),
                              format_size_bytes(l.max_working_set), l.points,
                              format_bytes_per_s(l.bandwidth), bytes,
                              l.transition ? "transition: " + md_text(l.note) : "level");
      }
  const std::string sram = sram_rows(files);
  md += "## Memory levels\n\n";
  if (rows.empty() && sram.empty()) {
    md += no_cache_sweep() + "\n\n";
    return;
  }
  md += rows.empty()
            ? no_cache_sweep()
            : "Plateaus found in the cache sweep, named by the cache sizes in the context. "
              "The in-place `cache_update` counts the bytes it moves: its plateaus are B "
              "per memory level; the others are ceilings.";
  if (!sram.empty())
    md +=
        " SRAM rows are the on-chip scratch probes (team scratch: shared memory on CUDA, LDS on "
        "HIP, an L1-resident buffer per thread on hosts): the fastest verified point's median, "
        "never fitted into B.";
  md +=
      " A transition is a plateau between two levels, not a level of its own.\n\n"
      "| file | space | dtype | probe | level | working sets | points | B | bytes counted | "
      "plateau |\n"
      "|---|---|---|---|---|---|---|---|---|---|\n" +
      rows + sram + "\n";
}

void per_probe(std::string& md, const std::vector<FileAnalysis>& files) {
  md += "## Per-probe results\n\n";
  for (const auto& f : files) {
    // Measured points by probe, probes in order of first appearance (one pass over the points).
    std::vector<std::string> probes;
    std::map<std::string, std::vector<const Point*>> by_probe;
    for (const auto& p : f.results.points) {
      if (!p.measured()) continue;
      auto& list = by_probe[p.probe];
      if (list.empty()) probes.push_back(p.probe);
      list.push_back(&p);
    }
    for (const auto& probe : probes) {
      md += fmt::format("<details><summary>{} — <code>{}</code></summary>\n\n", html_text(f.label),
                        html_text(probe));
      md +=
          "| point | working set | I FLOP/byte | median (min – max) | n | FLOP/s | byte/s | "
          "verified |\n"
          "|---|---|---|---|---|---|---|---|\n";
      for (const Point* p : by_probe[probe]) {
        const auto [lo, hi] = std::minmax_element(p->samples.begin(), p->samples.end());
        const bool timed = lo != p->samples.end();
        // The peak probe stores one value per work item: its byte/s says nothing.
        const bool bytes_mean_something = !defines_peak(p->family);
        md +=
            fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} |\n", md_code(p->name),
                        p->working_set_bytes > 0 ? format_size_bytes(p->working_set_bytes) : "–",
                        p->intensity ? format_sig(*p->intensity) : "–",
                        timed ? fmt::format("{} ({} – {})", format_seconds(p->median_s),
                                            format_seconds(*lo), format_seconds(*hi))
                              : "–",
                        p->samples.size(),
                        p->flops_per_s && *p->flops_per_s > 0 ? format_flops(*p->flops_per_s) : "–",
                        bytes_mean_something ? opt_rate(p->bytes_per_s, false) : "–",
                        p->verified ? "yes" : "**no**");
      }
      md += "\n</details>\n\n";
    }
  }
}

void not_fitted(std::string& md, const std::vector<FileAnalysis>& files) {
  std::string rows;
  for (const auto& f : files)
    for (const auto& p : f.results.points) {
      if (!p.measured())
        rows += fmt::format("| {} | {} | skipped | {} |\n", md_text(f.label), md_code(p.name),
                            md_text(p.skipped_reason));
      else if (!p.verified)
        rows +=
            fmt::format("| {} | {} | failed verification | {} |\n", md_text(f.label),
                        md_code(p.name), p.verify_error.empty() ? "–" : md_text(p.verify_error));
    }
  md += "## Points not fitted\n\n";
  if (rows.empty()) {
    md += "Every point was measured and verified.\n\n";
    return;
  }
  md += "| file | point | status | reason |\n|---|---|---|---|\n" + rows + "\n";
}

void provenance(std::string& md, const std::vector<FileAnalysis>& files) {
  md += "## Provenance\n\n";
  for (const auto& f : files) {
    const auto& c = f.results.context;
    md += fmt::format("### {}\n\n| field | value |\n|---|---|\n", md_code(f.label));
    md +=
        fmt::format("| host | {} ({}) |\n", md_text(f.results.hostname), ctx_str(c, "host", "os"));
    md += fmt::format("| ridgeline | {} ({}) |\n", ctx_str(c, "ridgeline", "version"),
                      ctx_str(c, "ridgeline", "git_revision"));
    md += fmt::format("| build | {}, {}, {} |\n", ctx_str(c, "build", "compiler"),
                      ctx_str(c, "build", "build_type"), ctx_str(c, "build", "flags", true));
    md += fmt::format("| Kokkos | {} ({}) |\n", ctx_str(c, "kokkos", "version"),
                      ctx_str(c, "kokkos", "backends"));
    md += fmt::format("| CPU | {} |\n",
                      f.results.cpu_model.empty() ? "–" : md_text(f.results.cpu_model));
    for (const auto& s : f.results.spaces)
      md += fmt::format("| space {} | {}, concurrency {}{} |\n", md_text(s.name), md_text(s.kind),
                        s.concurrency,
                        s.device ? ", device " + md_text(s.device->name) : std::string());
    md += fmt::format("| run | started {}, Google Benchmark {} |\n",
                      ctx_str(c, "run", "start_time"), ctx_str(c, "run", "google_benchmark"));
    md += "\n";
  }
}

// GPU points whose telemetry flagged throttled samples (a slowdown reason, or the SM clock under
// 75 % of its reference): their times may say more about the clock than the kernel. Only where
// some file has telemetry, so host-only reports stay as they were.
void throttled_samples(std::string& md, const std::vector<FileAnalysis>& files) {
  bool any_telemetry = false;
  std::string rows;
  for (const auto& f : files)
    for (const auto& p : f.results.points) {
      if (!p.telemetry) continue;
      any_telemetry = true;
      const PointTelemetry& t = *p.telemetry;
      if (!t.throttled && t.throttled_count() == 0) continue;
      std::string reasons;
      for (const auto& r : t.throttle_reasons) reasons += (reasons.empty() ? "" : ", ") + r;
      rows += fmt::format("| {} | {} | {}/{} | {} | {} |\n", md_text(f.label), md_code(p.name),
                          t.throttled_count(), p.samples.size(),
                          t.sm_clock_mhz > 0 ? fmt::format("{:.0f} / {:.0f} MHz", t.sm_clock_mhz,
                                                           t.reference_sm_clock_mhz)
                                             : std::string("–"),
                          reasons.empty() ? "–" : md_text(reasons));
    }
  if (!any_telemetry) return;
  md += "## Throttled samples\n\n";
  if (rows.empty()) {
    md += "No sample of a point with telemetry was throttled.\n\n";
    return;
  }
  md +=
      "Kept in the fit, flagged here: a throttled sample ran at a lower clock.\n\n"
      "| file | point | throttled samples | SM clock / reference | reasons |\n"
      "|---|---|---|---|---|\n" +
      rows + "\n";
}

// Samples during which this process's threads waited for a CPU another process had (schema
// 1.3, Linux): per file a count, and the points that waited most. Only where a file records it.
void busy_samples(std::string& md, const std::vector<FileAnalysis>& files) {
  constexpr std::size_t kRows = 10;
  std::string text;
  bool any = false;
  for (const auto& f : files) {
    std::vector<const Point*> busy;
    int flagged = 0, samples = 0;
    for (const auto& p : f.results.points) {
      if (!p.cpu_wait_share) continue;
      any = true;
      samples += int(p.samples.size());
      flagged += p.busy_samples;
      if (p.busy_samples > 0) busy.push_back(&p);
    }
    if (busy.empty()) continue;
    std::stable_sort(busy.begin(), busy.end(), [](const Point* a, const Point* b) {
      return *a->cpu_wait_share > *b->cpu_wait_share;
    });
    text += fmt::format(
        "{}: {} of {} samples in {} point{} waited 5 % of their time or more (the points that "
        "waited most{}):\n\n| point | busy samples | median wait |\n|---|---|---|\n",
        md_code(f.label), flagged, samples, busy.size(), busy.size() == 1 ? "" : "s",
        busy.size() > kRows ? fmt::format(", {} of {}", kRows, busy.size()) : "");
    for (std::size_t i = 0; i < busy.size() && i < kRows; ++i)
      text +=
          fmt::format("| {} | {}/{} | {:.1f} % |\n", md_code(busy[i]->name), busy[i]->busy_samples,
                      busy[i]->samples.size(), 100 * *busy[i]->cpu_wait_share);
    text += "\n";
  }
  if (!any) return;
  md += "## Samples on a busy machine\n\n";
  md += text.empty()
            ? "No sample waited 5 % of its time or more for a CPU.\n\n"
            : "Kept in the fit, flagged here: while these samples ran, this process's threads "
              "waited for a CPU that another process had (Linux run-queue delay), so their times "
              "hold the machine's load as well as the kernel's.\n\n" +
                  text;
}

}  // namespace

std::string render_report_markdown(const std::vector<FileAnalysis>& files,
                                   const std::vector<ChartLink>& charts,
                                   const std::vector<MachineProfile>& profiles,
                                   const std::string& jobs_section,
                                   const std::string& workload_section) {
  std::string md = "# ridgeline roofline report\n\n";
  for (const auto& f : files)
    md += fmt::format("- {}: host {}, {} points\n", md_code(f.label), md_code(f.results.hostname),
                      f.results.points.size());
  md += "\n";
  summary_tables(md, files, profiles);
  md += jobs_section;
  md += workload_section;
  std::string small;
  for (const auto& c : charts)
    if (c.small)
      small += fmt::format("{}![roofline of {}]({})", small.empty() ? "" : "\n", md_text(c.host),
                           c.file);
    else
      md += fmt::format("![roofline of {0}]({1})\n\n", md_text(c.host), c.file);
  if (!small.empty()) md += "One chart per space × dtype:\n\n" + small + "\n\n";
  comparison(md, files);
  roofs_and_ceilings(md, files);
  tensor_roofs(md, files, profiles);
  gemm_shape_section(md, files);
  points_above_roofs(md, files);
  memory_pyramid(md, files, profiles);
  memory_levels(md, files);
  memory_plateau_section(md, files);
  per_probe(md, files);
  not_fitted(md, files);
  throttled_samples(md, files);
  busy_samples(md, files);
  methods_section(md, files);
  provenance(md, files);
  return md;
}

}  // namespace ridgeline
