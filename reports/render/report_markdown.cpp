#include "render/report_markdown.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "fit/roof_roles.hpp"
#include "render/markdown_text.hpp"
#include "render/roof_tables.hpp"
#include "render/units.hpp"

namespace ridgeline {
namespace {

// The fitted P comes from FMA probes on the vector units (packed for 16-bit types): it is held
// against the sheet's vector figure only, never a tensor or matrix one, which would make a
// correct vector peak look like a tenth of the machine.
std::optional<SpecPeak> spec_peak(const MachineProfile& m, const std::string& dtype) {
  if (auto p = m.dense_peak(dtype, "vector")) return p;
  return m.dense_peak(dtype, "vector-packed");
}

std::string cell_at(const Roof& roof, double i) {
  return fmt::format("{} ({})", format_flops(roof.attainable(i)),
                     roof.memory_bound(i) ? "memory-bound" : "compute-bound");
}

std::string opt_rate(const std::optional<double>& v, bool flops) {
  if (!v) return "–";
  return flops ? format_flops(*v) : format_bytes_per_s(*v);
}

// A context field as text ("–" when absent); `code` renders it as a code span.
std::string ctx_str(const nlohmann::json& ctx, const char* a, const char* b, bool code = false) {
  if (!ctx.contains(a) || !ctx[a].is_object() || !ctx[a].contains(b)) return "–";
  const auto& v = ctx[a][b];
  if (v.is_null()) return "–";
  const std::string text = v.is_string() ? v.get<std::string>() : v.dump();
  return code ? md_code(text) : md_text(text);
}

void summary(std::string& md, const std::vector<FileAnalysis>& files,
             const std::vector<MachineProfile>& profiles) {
  md += "## Summary\n\n";
  md +=
      "| file | space | dtype | P (95 % CI) | B (95 % CI) | B_read | I* FLOP/byte (95 % CI) "
      "| P % of spec | B % of spec | at I = 1 (decode-like) | at I = 1000 (prefill-like) |\n";
  md += "|---|---|---|---|---|---|---|---|---|---|---|\n";
  std::string notes, specs;
  std::map<std::string, bool> spec_listed;
  for (const auto& f : files) {
    for (const auto& g : f.groups) {
      const GroupFit& gf = g.fit;
      if (!gf.fit) {
        notes += fmt::format("- {} {} {}: {}\n", md_code(f.label), md_text(gf.space),
                             md_text(gf.dtype), md_text(gf.not_fitted));
        continue;
      }
      const Roof& r = gf.fit->estimate.roof;
      const auto profile = match_machine_profile(f.results.device_name(gf.space), profiles);
      std::string p_spec = "no profile", b_spec = "no profile";
      if (profile) {
        const auto peak = spec_peak(*profile, gf.dtype);
        p_spec = peak ? pct(r.peak_flops / peak->flops) : "not on sheet";
        b_spec = profile->bandwidth > 0 ? pct(r.bandwidth / profile->bandwidth) : "not on sheet";
        const std::string key = profile->id + "/" + gf.dtype;
        if (!spec_listed[key]) {
          spec_listed[key] = true;
          specs +=
              fmt::format("- {} {} ({}{}): ", md_text(gf.space), md_text(gf.dtype),
                          md_code(profile->name), profile->illustrative ? ", illustrative" : "");
          if (peak)
            specs += fmt::format(
                "{} {}, {} unit{}, ", format_flops(peak->flops), peak->dense ? "dense" : "sparse",
                md_text(peak->unit),
                peak->accumulate.empty() ? "" : ", " + md_text(peak->accumulate) + " accumulate");
          else
            specs += "no " + md_text(gf.dtype) + " peak listed, ";
          specs += fmt::format(
              "memory {}; clock assumed: {}{}. Source: {}\n",
              format_bytes_per_s(profile->bandwidth), md_text(profile->clock_assumed),
              profile->clock_mhz > 0 ? fmt::format(" ({:g} MHz)", profile->clock_mhz) : "",
              md_text(profile->source));
        }
      }
      md += fmt::format(
          "| {} | {} | {} | {} {} | {} {} | {} | {:.3g} {} | {} | {} | {} | {} |\n",
          md_text(f.label), md_text(gf.space), md_text(gf.dtype), format_flops(r.peak_flops),
          format_flops_ci(gf.fit->peak_ci, r.peak_flops), format_bytes_per_s(r.bandwidth),
          format_bytes_ci(gf.fit->bandwidth_ci, r.bandwidth),
          gf.read_bandwidth ? format_bytes_per_s(gf.read_bandwidth->value) : "–", r.ridge_point(),
          format_intensity_ci(gf.fit->ridge_ci), p_spec, b_spec, cell_at(r, 1), cell_at(r, 1000));
    }
  }
  if (!specs.empty()) md += "\nSpec sheets (profiles/machines) the percentages refer to:\n" + specs;
  if (!notes.empty())
    md += "\nNot in the table (nothing is shown that was not measured):\n" + notes;
  md += "\n";
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

// Tensor and matrix units are reached only through library GEMMs here. The vector roofs do not
// bound them, so they get their own table, held against the sheet's dense tensor figure.
void tensor_roofs(std::string& md, const std::vector<FileAnalysis>& files,
                  const std::vector<MachineProfile>& profiles) {
  std::string rows;
  for (const auto& f : files)
    for (const auto& p : f.results.points) {
      if (!p.measured() || !p.verified || !p.flops_per_s || !is_tensor_point(p)) continue;
      const auto profile = match_machine_profile(f.results.device_name(p.space), profiles);
      std::string spec = "no profile", share = "–";
      if (profile) {
        auto peak = profile->dense_peak(p.dtype, p.param("unit"));
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
      "## Tensor roofs\n\n"
      "Library GEMMs on tensor or matrix units. They are not bounded by P, which the vector FMA "
      "units define, and are not fitted; the sheet's dense figure for the unit is the reference "
      "(at the clock the sheet assumes).\n\n"
      "| file | point | library | math | FLOP/s | sheet, dense | % of sheet |\n"
      "|---|---|---|---|---|---|---|\n" +
      rows + "\n";
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
          rows += fmt::format("| {} | {} | {} | {} | {} | {} – {} | {} | {} | {} |\n",
                              md_text(f.label), md_text(g.fit.space), md_text(g.fit.dtype),
                              sweep.probe, md_text(l.name), format_size_bytes(l.min_working_set),
                              format_size_bytes(l.max_working_set), l.points,
                              format_bytes_per_s(l.bandwidth), bytes);
      }
  md += "## Memory levels\n\n";
  if (rows.empty()) {
    md += "No cache sweep (`cache_update`, `cache_read`, `cache_triad`) was measured.\n\n";
    return;
  }
  md +=
      "Plateaus found in the cache sweep, named by the cache sizes in the context. The in-place "
      "`cache_update` counts the bytes it moves: its plateaus are B per memory level; the others "
      "are ceilings.\n\n"
      "| file | space | dtype | probe | level | working sets | points | B | bytes counted |\n"
      "|---|---|---|---|---|---|---|---|---|\n" +
      rows + "\n";
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
          "| point | median | min | max | n | FLOP/s | byte/s | verified |\n"
          "|---|---|---|---|---|---|---|---|\n";
      for (const Point* p : by_probe[probe]) {
        const auto [lo, hi] = std::minmax_element(p->samples.begin(), p->samples.end());
        md += fmt::format("| {} | {:.4g} s | {:.4g} s | {:.4g} s | {} | {} | {} | {} |\n",
                          md_code(p->name), p->median_s, *lo, *hi, p->samples.size(),
                          opt_rate(p->flops_per_s, true), opt_rate(p->bytes_per_s, false),
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

void methods(std::string& md, const std::vector<FileAnalysis>& files) {
  md += "## Methods\n\n";
  for (const auto& f : files)
    md += fmt::format("- {}: profile {}, {} repetitions per point{}.\n", md_code(f.label),
                      md_code(f.results.profile_name.empty() ? "?" : f.results.profile_name),
                      f.results.repetitions > 0 ? std::to_string(f.results.repetitions) : "?",
                      f.results.complete ? "" : "; **the run did not complete** (partial file)");
  md +=
      "- Timing: Google Benchmark with manual time; the execution space is fenced before and after "
      "each timed kernel call; one sample per repetition; rates use the median sample.\n"
      "- Roofs: B is defined only by points whose counted bytes are moved bytes and whose "
      "working set is DRAM-sized (at least 4x the last-level cache of the whole machine, every "
      "copy; 4x the L2 on a GPU): the in-place FMA ladder (load, K FMAs, store back to the same "
      "element), and on GPU spaces the streaming kernels that read and write. The read-only "
      "kernels (read, dot) define a second roof, B_read. P is defined by the register-only `peak` "
      "probe. "
      "Every other kernel, and every library call, is a named ceiling.\n"
      "- Fit: in log space, defining points left of the ridge I* = P/B observe log B (log FLOP/s "
      "− log I); points within a factor 8 of the current ridge (4 or 2 when a side would keep "
      "fewer than two points) are the rounded knee and are left out. B and P are Tukey-biweight "
      "locations (MAD scale, c = 4.685) of their points, so slow points get weight zero, and the "
      "ridge is re-estimated until it settles. Intervals: 95 % percentile block bootstrap over "
      "repetitions, 1000 replicates: each replicate redraws every defining point's repetitions "
      "with replacement and refits, fixed seed (the report is deterministic). The spread across "
      "probes is the range of the defining points' own values, reported apart. Library, "
      "unverified and skipped points are never fitted.\n"
      "- Points above their roof: every verified point more than 5 % above min(P, I·B) of its "
      "space × dtype, B the higher of B and B_read (byte/s against it for points without FLOPs), "
      "is listed; a working set that a cache holds is the known reason, anything else should not "
      "happen. Tensor-unit library points are held against the sheet's tensor figure instead.\n"
      "- Memory levels: the cache sweep's log bandwidth over working set is split into plateaus "
      "by optimal partitioning (penalty 3·σ²·ln n, σ from neighbouring differences, at least 2 "
      "points per plateau); each plateau is named by the smallest cache (size × copies across the "
      "space's threads) that holds its typical working set, else DRAM (HBM on a GPU).\n\n";
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

}  // namespace

std::string render_report_markdown(const std::vector<FileAnalysis>& files,
                                   const std::vector<ChartLink>& charts,
                                   const std::vector<MachineProfile>& profiles) {
  std::string md = "# ridgeline roofline report\n\n";
  for (const auto& f : files)
    md += fmt::format("- {}: host {}, {} points\n", md_code(f.label), md_code(f.results.hostname),
                      f.results.points.size());
  md += "\n";
  summary(md, files, profiles);
  for (const auto& c : charts)
    md += fmt::format("![roofline of {0}]({1})\n\n", md_text(c.host), c.file);
  comparison(md, files);
  roofs_and_ceilings(md, files);
  tensor_roofs(md, files, profiles);
  points_above_roofs(md, files);
  memory_levels(md, files);
  per_probe(md, files);
  not_fitted(md, files);
  methods(md, files);
  provenance(md, files);
  return md;
}

}  // namespace ridgeline
