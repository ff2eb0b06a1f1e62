#include "reports/kernels/ncu_csv.hpp"

#include <array>
#include <cmath>

#include "core/input_error.hpp"
#include "reports/kernels/csv_table.hpp"

namespace ridgeline {
namespace {

// What a metric counts: its unit must be one of that kind, or a time unit on a byte counter
// (say) would be scaled and read as bytes.
enum class Kind { bytes, time, count };
const char* kind_name(Kind k) {
  return k == Kind::bytes ? "bytes" : k == Kind::time ? "a time" : "a count of instructions";
}

struct UnitScale {
  const char* unit;
  double factor;
  Kind kind;
};

// ncu's units for the metrics read here, and their factor to bytes, seconds or instructions.
constexpr std::array<UnitScale, 18> kUnits{{{"byte", 1, Kind::bytes},
                                            {"Kbyte", 1e3, Kind::bytes},
                                            {"Mbyte", 1e6, Kind::bytes},
                                            {"Gbyte", 1e9, Kind::bytes},
                                            {"Tbyte", 1e12, Kind::bytes},
                                            {"nsecond", 1e-9, Kind::time},
                                            {"usecond", 1e-6, Kind::time},
                                            {"msecond", 1e-3, Kind::time},
                                            {"second", 1, Kind::time},
                                            {"inst", 1, Kind::count},
                                            {"Kinst", 1e3, Kind::count},
                                            {"Minst", 1e6, Kind::count},
                                            {"Ginst", 1e9, Kind::count},
                                            {"Tinst", 1e12, Kind::count},
                                            {"", 1, Kind::count},
                                            {"K", 1e3, Kind::count},
                                            {"M", 1e6, Kind::count},
                                            {"G", 1e9, Kind::count}}};

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

  std::optional<Metric> metric(const std::string& name, Kind kind) const {
    const auto c = t_.column(name);
    if (!c) return std::nullopt;
    const std::string& unit = units_.cells[*c];
    const std::string where = "line " + std::to_string(units_.line) + ", column '" + name + "'";
    for (const UnitScale& u : kUnits)
      if (unit == u.unit) {
        if (u.kind != kind)
          throw InputError(t_.file, where,
                           "unit '" + unit + "' is " + kind_name(u.kind) +
                               ", but the metric "
                               "counts " +
                               kind_name(kind));
        return Metric{*c, u.factor};
      }
    throw InputError(t_.file, where, "unit '" + unit + "' is not one this reader converts");
  }

  double value(const CsvRow& row, const Metric& m) const {
    const std::string& cell = row.cells[m.column];
    if (cell == "n/a")
      throw InputError(t_.file, t_.where(row, m.column),
                       "'n/a': the metric was not collected for this launch");
    const double v = parse_count(cell, t_.file, t_.where(row, m.column)) * m.factor;
    if (!std::isfinite(v))
      throw InputError(t_.file, t_.where(row, m.column),
                       "'" + cell + "' in its unit is beyond a double's range");
    return v;
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
    flop.push_back({p.dtype, r.metric(flop_metric(p.letter, "add"), Kind::count),
                    r.metric(flop_metric(p.letter, "mul"), Kind::count),
                    r.metric(flop_metric(p.letter, "fma"), Kind::count)});
  const auto dram_read = r.metric("dram__bytes_read.sum", Kind::bytes),
             dram_write = r.metric("dram__bytes_write.sum", Kind::bytes),
             l2 = r.metric("lts__t_bytes.sum", Kind::bytes),
             l1 = r.metric("l1tex__t_bytes.sum", Kind::bytes),
             duration = r.metric("gpu__time_duration.sum", Kind::time);
  if (dram_read.has_value() != dram_write.has_value())
    throw InputError(file, "header",
                     std::string("has ") +
                         (dram_read ? "dram__bytes_read.sum" : "dram__bytes_write.sum") +
                         " without its pair: DRAM bytes need both reads and writes");
  // The tensor pipe as a whole, or its sub-pipes where only they were collected (never both:
  // the whole already holds its parts).
  std::vector<Metric> tensor;
  if (auto whole = r.metric("sm__inst_executed_pipe_tensor.sum", Kind::count)) {
    tensor.push_back(*whole);
  } else {
    const std::string prefix = "sm__inst_executed_pipe_tensor_op_", suffix = ".sum";
    for (const std::string& h : t.header)
      if (h.rfind(prefix, 0) == 0 && h.size() > prefix.size() + suffix.size() &&
          h.compare(h.size() - suffix.size(), suffix.size(), suffix) == 0)
        tensor.push_back(*r.metric(h, Kind::count));
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
