#include "reports/kernels/counter_import.hpp"

#include <fmt/format.h>

#include <cmath>
#include <map>

#include "core/file_io.hpp"
#include "core/input_error.hpp"
#include "core/utf8.hpp"
#include "reports/kernels/csv_table.hpp"
#include "reports/kernels/ncu_csv.hpp"
#include "reports/kernels/rocprofv3_csv.hpp"

namespace ridgeline {
namespace {

// Counts span 1 to 1e12 and more: three digits and an exponent read alike at every size.
std::string count_text(double v) { return fmt::format("{:.3g}", v); }

std::string per_call(double total, long long launches, const std::string& unit) {
  return count_text(total / double(launches)) + " " + unit + "/call";
}

void add_note(std::string& note, const std::string& more) {
  note += (note.empty() ? "" : "; ") + more;
}

}  // namespace

CountedKernel& CounterImport::kernel_named(const std::string& name) {
  const auto [at, added] = index.try_emplace(name, kernels.size());
  if (added) {
    kernels.push_back(CountedKernel{});
    kernels.back().name = name;
  }
  return kernels[at->second];
}

namespace {

// Each cell a reader took is finite; their sums over launches (and FMA × 2, KiB × 1024) may not
// be: an error naming the kernel, not an "inf" in the report.
CounterImport checked_finite(CounterImport im) {
  for (const CountedKernel& k : im.kernels) {
    bool finite = std::isfinite(k.tensor_instructions) && std::isfinite(k.matrix_flop) &&
                  std::isfinite(k.dram_bytes.value_or(0)) &&
                  std::isfinite(k.l2_bytes.value_or(0)) && std::isfinite(k.l1_bytes.value_or(0)) &&
                  std::isfinite(k.seconds.value_or(0));
    for (const auto& flop : k.vector_flop) finite = finite && std::isfinite(flop.second);
    if (!finite)
      throw InputError(im.file, "kernel '" + single_line(k.name) + "'",
                       "its counts summed over its launches are beyond a double's range");
  }
  return im;
}

}  // namespace

CounterImport parse_counter_import(const std::string& text, const std::string& file) {
  // Only the header tells the formats apart; a malformed file then gets its reader's errors.
  const CsvTable t = parse_csv_table(text, file, "==");
  if (looks_like_ncu_raw(t.header)) return checked_finite(parse_ncu_csv(text, file));
  if (looks_like_rocprofv3_counters(t.header))
    return checked_finite(parse_rocprofv3_csv(text, file));
  throw InputError(file, "header",
                   "neither Nsight Compute's raw page (ncu --csv --page raw: \"ID\", \"Kernel "
                   "Name\") nor rocprofv3's counter collection (\"Counter_Name\", "
                   "\"Counter_Value\")");
}

CounterImport load_counter_import(const std::string& path) {
  return parse_counter_import(read_text_file(path, "counter file"), path);
}

std::size_t names_not_utf8(const CounterImport& im) {
  std::size_t n = 0;
  for (const CountedKernel& k : im.kernels) n += valid_utf8(k.name) != k.name;
  return n;
}

std::optional<KernelCounts> counts_per_call(const CountedKernel& k, const CounterImport& from,
                                            std::string& why) {
  if (k.vector_flop.empty()) {
    why = from.source + " counted no FLOP for it (no FLOP counter collected)";
    return std::nullopt;
  }
  if (!k.dram_bytes) {
    why = from.source + " counted no DRAM bytes for it (no DRAM byte counter collected)";
    return std::nullopt;
  }
  KernelCounts c;
  c.source = from.source;
  c.file = from.file;
  c.dtype = "fp64";
  double most = 0;
  for (const auto& [dtype, flop] : k.vector_flop)
    if (flop > most) most = flop, c.dtype = dtype;
  const auto n = double(k.launches);
  c.flop_per_call = most / n;
  c.bytes_per_call = *k.dram_bytes / n;
  if (most == 0) add_note(c.note, "no FLOP counted: held against " + c.dtype + "'s B");
  for (const auto& [dtype, flop] : k.vector_flop)
    if (dtype != c.dtype && flop > 0)
      add_note(c.note, "also " + per_call(flop, k.launches, dtype + " FLOP") +
                           " (not held against the " + c.dtype + " roof)");
  if (k.tensor_instructions > 0)
    add_note(c.note, per_call(k.tensor_instructions, k.launches, "tensor-pipe instructions") +
                         " (not counted as FLOP)");
  if (k.matrix_flop > 0)
    add_note(c.note, per_call(k.matrix_flop, k.launches, "matrix-unit FLOP") +
                         " (MFMA: not held against the vector roof)");
  if (k.l2_bytes) add_note(c.note, "L2 " + per_call(*k.l2_bytes, k.launches, "byte"));
  if (k.l1_bytes) add_note(c.note, "L1 " + per_call(*k.l1_bytes, k.launches, "byte"));
  for (const std::string& s : k.notes) add_note(c.note, s);
  add_note(c.note, "from " + std::to_string(k.launches) + " profiled launch" +
                       (k.launches == 1 ? "" : "es"));
  return c;
}

void join_counts(KernelsFile& kernels, const std::vector<CounterImport>& imports) {
  std::map<const Kernel*, std::string> imported_from;  // a kernel an earlier import counted
  for (const CounterImport& im : imports)
    for (const CountedKernel& ck : im.kernels) {
      bool joined = false;
      std::string other_space;
      for (Kernel& k : kernels.kernels) {
        if (k.label != ck.name) continue;
        if (k.space != im.space) {
          other_space = k.space;
          continue;
        }
        joined = true;
        std::string why;
        const std::optional<KernelCounts> c = counts_per_call(ck, im, why);
        if (k.counts && k.counts->source == "annotation") {
          // Annotations win; the import stands beside them as a cross-check.
          add_note(k.counts->note, c ? im.source + " counted " + count_text(c->flop_per_call) +
                                           " " + c->dtype + " FLOP and " +
                                           count_text(c->bytes_per_call) +
                                           " DRAM byte per call (the annotation is kept)"
                                     : im.source + ": " + why + " (the annotation is kept)");
          continue;
        }
        if (const auto earlier = imported_from.find(&k); earlier != imported_from.end())
          throw InputError(
              im.file, "Kernel Name '" + ck.name + "'",
              "is counted in " + earlier->second + " too: give each kernel's counts once");
        imported_from[&k] = im.file;
        if (c) {
          k.counts = *c;
          k.counter_error.clear();  // counted after all (PAPI could not)
        } else {
          k.counter_error = why + " in " + im.file;
        }
      }
      if (!joined)
        kernels.counts_without_kernel.push_back(
            ck.name + " (" + im.file +
            (other_space.empty() ? ""
                                 : "; a kernel of that label ran in " + other_space + ", " +
                                       im.source + " counts " + im.space + " kernels") +
            ")");
    }
}

}  // namespace ridgeline
