#include "reports/render/summary_tables.hpp"

#include <fmt/format.h>

#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/stats.hpp"
#include "core/units.hpp"
#include "reports/fit/roof_roles.hpp"
#include "reports/machines/spec_grade.hpp"
#include "reports/render/markdown_text.hpp"
#include "reports/render/spec_scope.hpp"
#include "reports/roofline/roofline_fit.hpp"
#include "results/probe_catalog.hpp"

namespace ridgeline {
namespace {

// What every row and note depends on: whether rows name their file, and whether the tables have
// the matrix roof's columns.
struct SummaryLayout {
  bool several_files = false;
  // Where some GEMM ran on tensor or matrix units; a host-only report keeps the vector roofs'
  // table (P, B, B_read, I*).
  bool matrix_columns = false;
};

SummaryLayout layout_of(const std::vector<FileAnalysis>& files) {
  SummaryLayout layout;
  layout.several_files = files.size() > 1;
  for (const auto& f : files)
    for (const auto& g : f.groups) layout.matrix_columns = layout.matrix_columns || g.fit.matrix;
  return layout;
}

// The summary's pieces, gathered in one pass over the groups and emitted in the order the
// section reads.
struct SummaryParts {
  std::string roofs, sheet;  // the two tables' rows
  std::string specs;         // the sheets the percentages refer to, one line per sheet × dtype
  std::string unmatched;     // hosts no CPU sheet describes, one line each
  std::string notes;         // what the tables leave out
  std::string device_roofs;  // one line per file × space whose memory roofs pool its dtypes
  std::set<std::string> listed_specs, unmatched_hosts, listed_spaces;
};

// The file's label before a note ("host " or "host: "), only where several files share a table.
std::string label_prefix(const FileAnalysis& f, const SummaryLayout& layout, const char* sep) {
  return layout.several_files ? md_text(f.label) + sep : std::string();
}

// "| a | b |" from the row's key cells and its value cells.
std::string table_row(const std::string& key, const std::vector<std::string>& cells) {
  std::string out = key;
  for (const auto& c : cells) out += " " + c + " |";
  return out + "\n";
}

std::string row_key(const FileAnalysis& f, const GroupFit& gf, const SummaryLayout& layout) {
  const std::string file =
      layout.several_files ? fmt::format("| {} | ", md_text(f.label)) : std::string("| ");
  return file + md_text(gf.space) + " | " + md_text(gf.dtype) + " |";
}

std::string cell_at(const Roof& roof, double i) {
  return fmt::format("{} ({})", format_flops(roof.attainable(i)),
                     roof.memory_bound(i) ? "memory-bound" : "compute-bound");
}

// A ridge and its interval, or "–".
std::string ridge_cell(const std::optional<double>& ridge, const Interval& ci) {
  return ridge ? format_sig(*ridge) + " " + format_intensity_ci(ci) : "–";
}

// The matrix roof's cells: P_matrix, I*_matrix and I*_matrix on B_read ("–" without a GEMM).
struct MatrixCells {
  std::string peak = "–", ridge = "–", read_ridge = "–";
};

MatrixCells matrix_cells(const FileAnalysis& f, const GroupFit& gf) {
  MatrixCells cells;
  const auto& m = gf.matrix;
  if (!m) return cells;
  cells.peak = format_flops_with_ci(m->peak.value, m->peak.ci);
  cells.ridge = ridge_cell(m->ridge, m->ridge_ci);
  cells.read_ridge = ridge_cell(m->read_ridge, m->read_ridge_ci);
  // Another dtype's B_read is named, unless it is the device's (the same in every dtype).
  const GroupAnalysis* read = f.find(gf.space, m->read_bandwidth_dtype);
  if (m->read_ridge && m->read_bandwidth_dtype != gf.dtype &&
      !(read && read->fit.device_memory_roofs))
    cells.read_ridge += " (" + md_text(m->read_bandwidth_dtype) + "'s B_read)";
  return cells;
}

// The first table's cells of a fitted group: P, B, B_read and I*, with the matrix roof's
// columns where the table has them.
std::vector<std::string> roof_cells(const FileAnalysis& f, const GroupFit& gf,
                                    const SummaryLayout& layout) {
  const Roof& r = gf.fit->estimate.roof;
  std::vector<std::string> cells = {
      format_flops_with_ci(r.peak_flops, gf.fit->peak_ci),
      format_bytes_with_ci(r.bandwidth, gf.fit->bandwidth_ci),
      gf.read_bandwidth ? format_bytes_per_s(gf.read_bandwidth->value) : "–",
      format_sig(r.ridge_point()) + " " + format_intensity_ci(gf.fit->ridge_ci)};
  if (layout.matrix_columns) {
    const MatrixCells m = matrix_cells(f, gf);
    cells.insert(cells.begin() + 1, m.peak);
    cells.insert(cells.end(), {m.ridge, m.read_ridge});
  }
  return cells;
}

// A group without vector roofs has no row, only a note saying why; a GEMM alone (tf32) keeps a
// row with its roof and the ridges on its storage type's B.
void add_unfitted_group(SummaryParts& parts, const FileAnalysis& f, const GroupFit& gf,
                        const SummaryLayout& layout) {
  const auto& m = gf.matrix;
  std::string why = md_text(gf.not_fitted);
  if (m) {
    const MatrixCells cells = matrix_cells(f, gf);
    parts.roofs += table_row(row_key(f, gf, layout),
                             {"–", cells.peak, "–", "–", "–", cells.ridge, cells.read_ridge});
    const GroupAnalysis* b = f.find(gf.space, m->bandwidth_dtype);
    why = "no vector roofs (only the library GEMM ran)" +
          (m->bandwidth_dtype.empty() ? std::string("; no B to place it against")
           : b && b->fit.device_memory_roofs
               ? "; I*_matrix uses the device's B, one for every dtype of the space (taken from " +
                     md_text(m->bandwidth_dtype) + "'s fit)"
               : "; I*_matrix uses the B of " + md_text(m->bandwidth_dtype) +
                     ", the type its operands are stored in");
  }
  parts.notes += fmt::format("- {}{} {}: {}\n", label_prefix(f, layout, " "), md_text(gf.space),
                             md_text(gf.dtype), why);
}

// A sheet figure as the spec list names it: "989.4 TFLOP/s dense, tensor unit, fp32 accumulate".
std::string spec_text(const SpecPeak& peak) {
  return fmt::format(
             "{} {}, {} unit{}", format_flops(peak.flops), peak.dense ? "dense" : "sparse",
             md_text(peak.unit),
             peak.accumulate.empty() ? "" : ", " + md_text(peak.accumulate) + " accumulate") +
         (peak.source.empty() ? "" : " (" + md_text(peak.source) + ")");
}

// What a CPU sheet describes: "host: AMD, avx512, 512-bit vectors, 2 cores, 2 threads".
std::string cpu_sheet_text(const MachineProfile& profile) {
  const CpuSheetFacts& c = *profile.cpu;
  std::string text = "host: " + md_text(profile.vendor) + ", " + md_text(c.isa);
  if (c.vector_bits) text += fmt::format(", {}-bit vectors", c.vector_bits);
  if (c.cores) text += fmt::format(", {} cores", c.cores);
  if (c.threads) text += fmt::format(", {} threads", c.threads);
  return text;
}

// The units a sheet describes, after its memory: the CPU's, or a GPU's compute units.
std::string units_text(const MachineProfile& profile) {
  if (profile.cpu) return ", " + cpu_sheet_text(profile);
  if (profile.compute_units) return fmt::format(", {} compute units", profile.compute_units);
  return "";
}

// One line of the spec list: the sheet's figures for the dtype, its memory, clock and source.
std::string spec_line(const std::string& dtype, const MachineProfile& profile,
                      const SpecGrade& grade, const SpecScope& scope) {
  std::string line = fmt::format("- {} ({}{}): ", md_text(dtype), md_code(profile.name),
                                 profile.illustrative ? ", illustrative" : "");
  if (grade.vector_peak)
    line += spec_text(*grade.vector_peak) + ", ";
  else
    line += "no " + md_text(dtype) + " vector peak listed, ";
  if (grade.matrix_peak) line += "matrix " + spec_text(*grade.matrix_peak) + ", ";
  return line +
         fmt::format("memory {}{}; clock assumed: {}{}{}. Source: {}\n",
                     format_bytes_per_s(profile.bandwidth), units_text(profile),
                     md_text(profile.clock_assumed),
                     profile.clock_mhz > 0 ? fmt::format(" ({:g} MHz)", profile.clock_mhz) : "",
                     grade.clock_mhz ? fmt::format("; measured in this run ({}): {:.0f} MHz, which "
                                                   "the sheet's figures are also graded at",
                                                   scope.measured_clock_when, *grade.clock_mhz)
                                     : "",
                     md_text(profile.source));
}

// The "% of sheet" cells: P (and P_matrix) and B against the sheet, or why there is none.
struct SheetShares {
  std::string p = "no sheet", b = "no sheet", matrix = "–";
};

SheetShares shares_of(const GroupFit& gf, const SpecScope& scope, const SpecGrade& grade) {
  SheetShares shares;
  if (gf.matrix)
    shares.matrix = grade.matrix_fraction ? pct(*grade.matrix_fraction) : "not on sheet";
  if (grade.matrix_fraction_at_clock)
    shares.matrix += fmt::format(" ({} at the GEMMs' {:.0f} MHz)",
                                 pct(*grade.matrix_fraction_at_clock), *grade.matrix_clock_mhz);
  shares.p = grade.p_fraction ? pct(*grade.p_fraction) : "not on sheet";
  if (grade.vector_peak && scope.peak_share < 1)
    shares.p += fmt::format(" of {}", format_flops(grade.vector_peak->flops * scope.peak_share));
  if (grade.p_fraction_at_clock)
    shares.p += fmt::format(" ({} at the measured {:.0f} MHz)", pct(*grade.p_fraction_at_clock),
                            *grade.clock_mhz);
  if (grade.p_above_sheet) shares.p += " **above the sheet**";
  shares.b = !scope.bandwidth_why_not.empty() ? "– (" + md_text(scope.bandwidth_why_not) + ")"
                                              : pct(grade.b_fraction);
  return shares;
}

// The median SM clock NVML read during the group's verified GEMMs on matrix units; nullopt where
// none was read (hosts, files without telemetry).
std::optional<double> gemm_clock(const FileAnalysis& f, const GroupFit& gf) {
  std::vector<double> mhz;
  for (const Point* p : f.points_of(gf.space, gf.dtype))
    if (p->verified && is_tensor_point(*p) && p->telemetry && p->telemetry->sm_clock_mhz > 0)
      mhz.push_back(p->telemetry->sm_clock_mhz);
  if (mhz.empty()) return std::nullopt;
  return std::round(median(mhz));
}

// The group held against the sheet of its space, if one describes it; the first group of a
// host no sheet describes says why, the first of a sheet × dtype lists the sheet's figures.
SheetShares graded_shares(SummaryParts& parts, const FileAnalysis& f, const GroupFit& gf,
                          const std::vector<MachineProfile>& profiles,
                          const SummaryLayout& layout) {
  const SpecScope scope = spec_scope(f, gf.space, profiles);
  if (!scope.why_none.empty() && parts.unmatched_hosts.insert(f.label).second)
    parts.unmatched += "- " + label_prefix(f, layout, ": ") + scope.why_none + "\n";
  if (!scope.profile) {
    SheetShares none;
    if (gf.matrix) none.matrix = "no sheet";
    return none;
  }
  const MachineProfile& profile = *scope.profile;
  const SpecGrade grade = grade_against_sheet(gf, profile, scope.peak_share,
                                              scope.measured_clock_mhz, gemm_clock(f, gf));
  if (parts.listed_specs.insert(profile.id + "/" + gf.dtype).second)
    parts.specs += spec_line(gf.dtype, profile, grade, scope);
  return shares_of(gf, scope, grade);
}

// The second table's cells: the % of sheet, and the attainable rate at I = 1 and I = 1000. At
// I = 1000 the highest roof bounds: a GEMM-like kernel there runs on the matrix units.
std::vector<std::string> sheet_cells(const GroupFit& gf, const SheetShares& shares,
                                     const SummaryLayout& layout) {
  const Roof& r = gf.fit->estimate.roof;
  const Roof top = gf.matrix_roof().value_or(r);
  std::vector<std::string> cells = {shares.p, shares.b, cell_at(r, 1),
                                    cell_at(top, 1000) + (gf.matrix_roof() ? ", matrix roof" : "")};
  if (layout.matrix_columns) cells.insert(cells.begin() + 1, shares.matrix);
  return cells;
}

// "- Cuda: B 4.211 TB/s, set by triad fp64 n:… (2:1 mix); B_read …": the memory roofs every
// dtype of the space shares, each with the point (and so the dtype) that set it.
std::string device_roofs_line(const FileAnalysis& f, const GroupFit& gf,
                              const SummaryLayout& layout) {
  std::string line =
      fmt::format("- {}{}: B {}, set by {}{}", label_prefix(f, layout, " "), md_text(gf.space),
                  format_bytes_per_s(gf.fit->estimate.roof.bandwidth), md_text(gf.bandwidth_best),
                  gf.bandwidth_mix ? " (" + md_text(mix_name(*gf.bandwidth_mix)) + " mix)" : "");
  for (const MixRoof& m : gf.mixes)
    if (!reads_and_writes(m.mix))
      line += fmt::format("; {} {}, set by {}", md_text(mix_roof_name(m.mix)),
                          format_bytes_per_s(m.roof.value), md_text(m.best));
  return line + "\n";
}

void add_group(SummaryParts& parts, const FileAnalysis& f, const GroupFit& gf,
               const std::vector<MachineProfile>& profiles, const SummaryLayout& layout) {
  if (!gf.fit) {
    add_unfitted_group(parts, f, gf, layout);
    return;
  }
  const std::string key = row_key(f, gf, layout);
  parts.roofs += table_row(key, roof_cells(f, gf, layout));
  if (gf.device_memory_roofs && parts.listed_spaces.insert(f.label + "/" + gf.space).second)
    parts.device_roofs += device_roofs_line(f, gf, layout);
  parts.sheet +=
      table_row(key, sheet_cells(gf, graded_shares(parts, f, gf, profiles, layout), layout));
}

// The file's notes: probe families it did not measure, and a run that did not complete.
void add_file_notes(SummaryParts& parts, const FileAnalysis& f, const SummaryLayout& layout) {
  std::set<std::string> families;
  for (const auto& p : f.results.points) families.insert(p.family);
  std::string absent;
  for (const ProbeFamily& family : kProbeFamilies)
    if (!family.absent_note.empty() && !families.count(std::string(family.name)))
      absent += (absent.empty() ? "" : "; ") + std::string(family.absent_note);
  if (!absent.empty())
    parts.notes += fmt::format("- {}not in this file: {} (a run without --probe measures them)\n",
                               label_prefix(f, layout, ": "), absent);
  if (!f.results.complete)
    parts.notes += fmt::format("- {}the run did not complete: `run --resume` measures the rest\n",
                               label_prefix(f, layout, ": "));
}

// The roofs table, what its symbols mean, and the sheet table: P, B, B_read and I* only.
void vector_tables(std::string& md, const SummaryParts& parts, const std::string& head,
                   const std::string& rule) {
  const std::string ci = " (" + confidence_label() + " CI)";
  md += head + " P" + ci + " | B" + ci + " | B_read | I* FLOP/byte" + ci + " |\n" + rule +
        "---|---|---|---|\n" + parts.roofs;
  md +=
      "\nP is the peak FLOP/s, B the DRAM bandwidth of kernels that read and write (the "
      "envelope of their traffic mixes: the roof tables name the mix and the point that set "
      "it), B_read the read-only bandwidth and I* = P/B the ridge point: kernels below I* "
      "FLOP/byte are bound by memory. Brackets hold " +
      confidence_label() + " bootstrap intervals.\n\n";
  md += head + " P % of sheet | B % of sheet | attainable at I = 1 | at I = 1000 |\n" + rule +
        "---|---|---|---|\n" + parts.sheet;
}

// The same three pieces with the matrix roof's columns beside the vector roofs'.
void matrix_tables(std::string& md, const SummaryParts& parts, const std::string& head,
                   const std::string& rule) {
  const std::string ci = " (" + confidence_label() + " CI)";
  md += head + " P_vector" + ci + " | P_matrix" + ci + " | B" + ci +
        " | B_read | I*_vector FLOP/byte" + ci + " | I*_matrix | I*_matrix on B_read |\n" + rule +
        "---|---|---|---|---|---|---|\n" + parts.roofs;
  md +=
      "\nP_vector is the peak FLOP/s of the vector units (FMAs), P_matrix that of the tensor or "
      "matrix units (the best verified library GEMM), B the DRAM bandwidth of kernels that read "
      "and "
      "write (the envelope of their traffic mixes: the roof tables name the mix and the point "
      "that set it), B_read the "
      "read-only bandwidth. The ridge points I*_vector = P_vector/B and I*_matrix = P_matrix/B "
      "(and P_matrix/B_read, for kernels that mostly read, as a GEMM streaming weights does; "
      "where another dtype's B_read is used, it is named) "
      "split the regimes: kernels below I* FLOP/byte are bound by memory. Brackets hold " +
      confidence_label() + " bootstrap intervals.\n\n";
  md += head +
        " P_vector % of sheet | P_matrix % of sheet | B % of sheet | attainable at I = 1 | at "
        "I = 1000 |\n" +
        rule + "---|---|---|---|---|\n" + parts.sheet;
}

void roofs_and_sheet_tables(std::string& md, const SummaryParts& parts,
                            const SummaryLayout& layout) {
  const std::string head = layout.several_files ? "| host | space | dtype |" : "| space | dtype |";
  const std::string rule = layout.several_files ? "|---|---|---|" : "|---|---|";
  if (parts.roofs.empty())
    md += "No execution space × dtype could be fitted: the tables below show what was measured.\n";
  else if (layout.matrix_columns)
    matrix_tables(md, parts, head, rule);
  else
    vector_tables(md, parts, head, rule);
}

void lists_below_tables(std::string& md, const SummaryParts& parts) {
  if (!parts.device_roofs.empty())
    md +=
        "\nMemory roofs are the device's, one per space for every dtype (the envelope of every "
        "dtype's DRAM-sized points of each traffic mix), so each dtype's ridge is its own P over "
        "the same B:\n" +
        parts.device_roofs;
  if (!parts.specs.empty())
    md += "\nSpec sheets (profiles/machines) the percentages refer to:\n" + parts.specs;
  if (!parts.unmatched.empty())
    md += "\nHosts without a spec sheet (no percentages):\n" + parts.unmatched;
  if (!parts.notes.empty())
    md += "\nNot in the tables (nothing is shown that was not measured):\n" + parts.notes;
}

}  // namespace

void summary_tables(std::string& md, const std::vector<FileAnalysis>& files,
                    const std::vector<MachineProfile>& profiles) {
  const SummaryLayout layout = layout_of(files);
  SummaryParts parts;
  for (const auto& f : files)
    for (const auto& g : f.groups) add_group(parts, f, g.fit, profiles, layout);
  for (const auto& f : files) add_file_notes(parts, f, layout);
  md += "## Summary\n\n";
  roofs_and_sheet_tables(md, parts, layout);
  lists_below_tables(md, parts);
  md += "\n";
}

}  // namespace ridgeline
