#include "reports/kernels/rocprofv3_csv.hpp"

#include <array>
#include <set>
#include <utility>

#include "core/input_error.hpp"
#include "reports/kernels/csv_table.hpp"

namespace ridgeline {
namespace {

constexpr double kWaveLanes = 64;        // CDNA's wavefront: VALU counters count waves
constexpr double kMfmaFlopPerMop = 512;  // SQ_INSTS_VALU_MFMA_MOPS_*: units of 512 FLOP
constexpr double kKiB = 1024;            // FETCH_SIZE, WRITE_SIZE

struct VectorCounter {
  const char* suffix;  // F64, F32, F16
  const char* dtype;
};
constexpr std::array<VectorCounter, 3> kVector{{{"F64", "fp64"}, {"F32", "fp32"}, {"F16", "fp16"}}};

// FLOP per counted wave instruction of a vector counter; 0 when the counter is not one.
double vector_flop_per_inst(const std::string& counter, std::string& dtype) {
  for (const VectorCounter& v : kVector)
    for (auto [op, flop] : {std::pair{"ADD", 1.0}, std::pair{"MUL", 1.0}, std::pair{"TRANS", 1.0},
                            std::pair{"FMA", 2.0}})
      if (counter == std::string("SQ_INSTS_VALU_") + op + "_" + v.suffix) {
        dtype = v.dtype;
        return flop * kWaveLanes;
      }
  return 0;
}

bool is_mfma_counter(const std::string& counter) {
  for (const char* s : {"F64", "F32", "F16", "BF16"})
    if (counter == std::string("SQ_INSTS_VALU_MFMA_MOPS_") + s) return true;
  return false;
}

}  // namespace

bool looks_like_rocprofv3_counters(const std::vector<std::string>& header) {
  bool name = false, value = false;
  for (const auto& h : header) name |= h == "Counter_Name", value |= h == "Counter_Value";
  return name && value;
}

CounterImport parse_rocprofv3_csv(const std::string& text, const std::string& file) {
  const CsvTable t = parse_csv_table(text, file);
  const auto kernel_col = t.column("Kernel_Name") ? t.column("Kernel_Name") : t.column("Kern_Name");
  if (!kernel_col) throw InputError(file, "header", "no 'Kernel_Name' column");
  const std::size_t kernel = *kernel_col, dispatch = t.require_column("Dispatch_Id"),
                    counter = t.require_column("Counter_Name"),
                    value = t.require_column("Counter_Value");
  const auto start = t.column("Start_Timestamp"), end = t.column("End_Timestamp");
  CounterImport out;
  out.file = file;
  out.source = "rocprofv3";
  out.space = "HIP";
  std::set<std::pair<std::string, std::string>> dispatches;     // (kernel, dispatch id) seen
  std::set<std::pair<std::string, std::string>> byte_counters;  // (kernel, FETCH/WRITE_SIZE)
  bool any_used = false;
  for (const CsvRow& row : t.rows) {
    const std::string& name = row.cells[kernel];
    if (name.empty()) throw InputError(file, t.where(row, kernel), "must not be empty");
    const std::string& id = row.cells[dispatch];
    parse_count(id, file, t.where(row, dispatch));  // an id, but it must look like one
    CountedKernel& k = out.kernel_named(name);
    if (dispatches.insert({name, id}).second) {
      ++k.launches;
      if (start && end) {
        const double s = parse_count(row.cells[*start], file, t.where(row, *start)),
                     e = parse_count(row.cells[*end], file, t.where(row, *end));
        if (e < s) throw InputError(file, t.where(row, *end), "ends before Start_Timestamp");
        k.seconds = k.seconds.value_or(0) + (e - s) * 1e-9;
      }
    }
    const std::string& c = row.cells[counter];
    std::string dtype;
    const double per_inst = vector_flop_per_inst(c, dtype);
    const bool bytes = c == "FETCH_SIZE" || c == "WRITE_SIZE";
    if (!per_inst && !bytes && !is_mfma_counter(c)) continue;
    any_used = true;
    const double v = parse_count(row.cells[value], file, t.where(row, value));
    if (per_inst) {
      k.vector_flop[dtype] += per_inst * v;
    } else if (bytes) {
      byte_counters.insert({name, c});
      k.dram_bytes = k.dram_bytes.value_or(0) + v * kKiB;
    } else {
      k.matrix_flop += kMfmaFlopPerMop * v;
    }
  }
  if (out.kernels.empty()) throw InputError(file, "", "no dispatch (only the header row)");
  // One of the pair alone under-counts the traffic: said, not hidden.
  for (CountedKernel& k : out.kernels)
    for (auto [have, lack] :
         {std::pair{"FETCH_SIZE", "WRITE_SIZE"}, std::pair{"WRITE_SIZE", "FETCH_SIZE"}})
      if (byte_counters.count({k.name, have}) && !byte_counters.count({k.name, lack}))
        k.notes.push_back(std::string(lack) + " not collected: DRAM bytes are " + have + " only");
  if (!any_used)
    throw InputError(file, "Counter_Name",
                     "none of FETCH_SIZE, WRITE_SIZE, SQ_INSTS_VALU_* was collected: nothing to "
                     "place a kernel by (rocprofv3 --pmc FETCH_SIZE WRITE_SIZE ...)");
  return out;
}

}  // namespace ridgeline
