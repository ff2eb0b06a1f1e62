#include "reports/kernels/ncu_csv.hpp"

#include <array>

#include "core/input_error.hpp"
#include "reports/kernels/csv_table.hpp"

namespace ridgeline {
namespace {

struct UnitScale {
  const char* unit;
  double factor;
};

// ncu's units for the metrics read here, and their factor to bytes, seconds or instructions.
constexpr std::array<UnitScale, 18> kUnits{{{"byte", 1},
                                            {"Kbyte", 1e3},
                                            {"Mbyte", 1e6},
                                            {"Gbyte", 1e9},
                                            {"Tbyte", 1e12},
                                            {"nsecond", 1e-9},
                                            {"usecond", 1e-6},
                                            {"msecond", 1e-3},
                                            {"second", 1},
                                            {"inst", 1},
                                            {"Kinst", 1e3},
                                            {"Minst", 1e6},
                                            {"Ginst", 1e9},
                                            {"Tinst", 1e12},
                                            {"", 1},
                                            {"K", 1e3},
                                            {"M", 1e6},
                                            {"G", 1e9}}};

struct Precision {
  const char* letter;  // in the metric's name: d, f, h
  const char* dtype;
};
constexpr std::array<Precision, 3> kPrecisions{{{"d", "fp64"}, {"f", "fp32"}, {"h", "fp16"}}};

std::string flop_metric(const char* letter, const char* op) {
  return std::string("smsp__sass_thread_inst_executed_op_") + letter + op + "_pred_on.sum";
}

// A metric column: its index and the factor its unit (from the units row) scales by.
struct Metric {
  std::size_t column;
  double factor;
};

class NcuReader {
 public:
  NcuReader(const CsvTable& t, const CsvRow& units) : t_(t), units_(units) {}

  std::optional<Metric> metric(const std::string& name) const {
    const auto c = t_.column(name);
    if (!c) return std::nullopt;
    const std::string& unit = units_.cells[*c];
    for (const UnitScale& u : kUnits)
      if (unit == u.unit) return Metric{*c, u.factor};
    throw InputError(t_.file, "line " + std::to_string(units_.line) + ", column '" + name + "'",
                     "unit '" + unit + "' is not one this reader converts");
  }

  double value(const CsvRow& row, const Metric& m) const {
    const std::string& cell = row.cells[m.column];
    if (cell == "n/a")
      throw InputError(t_.file, t_.where(row, m.column),
                       "'n/a': the metric was not collected for this launch");
    const double v = parse_count(cell, t_.file, t_.where(row, m.column));
    return v * m.factor;
  }

 private:
  const CsvTable& t_;
  const CsvRow& units_;
};

}  // namespace

bool looks_like_ncu_raw(const std::vector<std::string>& header) {
  bool id = false, name = false;
  for (const auto& h : header) id |= h == "ID", name |= h == "Kernel Name";
  return id && name;
}

CounterImport parse_ncu_csv(const std::string& text, const std::string& file) {
  const CsvTable t = parse_csv_table(text, file, "==");
  const std::size_t id = t.require_column("ID"), name = t.require_column("Kernel Name");
  if (t.rows.empty() || !t.rows.front().cells[id].empty())
    throw InputError(file, "line 2",
                     "no units row (the raw page's second row: units under the metric columns)");
  const CsvRow& units = t.rows.front();
  const NcuReader r(t, units);

  struct FlopColumns {
    const char* dtype;
    std::optional<Metric> add, mul, fma;
  };
  std::vector<FlopColumns> flop;
  for (const Precision& p : kPrecisions)
    flop.push_back({p.dtype, r.metric(flop_metric(p.letter, "add")),
                    r.metric(flop_metric(p.letter, "mul")),
                    r.metric(flop_metric(p.letter, "fma"))});
  const auto dram_read = r.metric("dram__bytes_read.sum"),
             dram_write = r.metric("dram__bytes_write.sum"), l2 = r.metric("lts__t_bytes.sum"),
             l1 = r.metric("l1tex__t_bytes.sum"), duration = r.metric("gpu__time_duration.sum");
  if (dram_read.has_value() != dram_write.has_value())
    throw InputError(file, "header",
                     std::string("has ") +
                         (dram_read ? "dram__bytes_read.sum" : "dram__bytes_write.sum") +
                         " without its pair: DRAM bytes need both reads and writes");
  // The tensor pipe as a whole, or its sub-pipes where only they were collected (never both:
  // the whole already holds its parts).
  std::vector<Metric> tensor;
  if (auto whole = r.metric("sm__inst_executed_pipe_tensor.sum")) {
    tensor.push_back(*whole);
  } else {
    const std::string prefix = "sm__inst_executed_pipe_tensor_op_", suffix = ".sum";
    for (const std::string& h : t.header)
      if (h.rfind(prefix, 0) == 0 && h.size() > prefix.size() + suffix.size() &&
          h.compare(h.size() - suffix.size(), suffix.size(), suffix) == 0)
        tensor.push_back(*r.metric(h));
  }
  bool any_flop = false;
  for (const auto& f : flop) any_flop |= f.add || f.mul || f.fma;
  if (!any_flop && !dram_read)
    throw InputError(file, "header",
                     "no FLOP metric (smsp__sass_thread_inst_executed_op_*_pred_on.sum) and no "
                     "DRAM bytes (dram__bytes_read.sum, dram__bytes_write.sum): nothing to place "
                     "a kernel by");

  CounterImport out;
  out.file = file;
  out.source = "ncu";
  out.space = "Cuda";
  for (std::size_t i = 1; i < t.rows.size(); ++i) {
    const CsvRow& row = t.rows[i];
    if (row.cells[name].empty()) throw InputError(file, t.where(row, name), "must not be empty");
    CountedKernel& k = out.kernel_named(row.cells[name]);
    ++k.launches;
    for (const auto& f : flop) {
      double n = 0;
      if (f.add) n += r.value(row, *f.add);
      if (f.mul) n += r.value(row, *f.mul);
      if (f.fma) n += 2 * r.value(row, *f.fma);
      if (f.add || f.mul || f.fma) k.vector_flop[f.dtype] += n;
    }
    for (const Metric& m : tensor) k.tensor_instructions += r.value(row, m);
    if (dram_read)
      k.dram_bytes =
          k.dram_bytes.value_or(0) + r.value(row, *dram_read) + r.value(row, *dram_write);
    if (l2) k.l2_bytes = k.l2_bytes.value_or(0) + r.value(row, *l2);
    if (l1) k.l1_bytes = k.l1_bytes.value_or(0) + r.value(row, *l1);
    if (duration) k.seconds = k.seconds.value_or(0) + r.value(row, *duration);
  }
  if (out.kernels.empty()) throw InputError(file, "", "no profiled launch (only the header rows)");
  return out;
}

}  // namespace ridgeline
