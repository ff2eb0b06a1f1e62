#pragma once
// Nsight Compute's raw page as CSV (`ncu --csv --page raw`), read as documented for Nsight
// Compute 2025.3 (the CUDA 13.0 toolkit's): a header row of column names, "ID", "Process ID",
// "Process Name", "Host Name", "Kernel Name", ... then one column per metric; a second row of
// units (empty under the launch columns); one row per profiled launch. Cells are quoted and
// numbers may carry thousands separators.
//
// The metrics read (collect them with --metrics, or a section that holds them):
//   FLOP by precision  smsp__sass_thread_inst_executed_op_{d,f,h}{add,mul,fma}_pred_on.sum
//                      (thread instructions; an FMA is 2 FLOP) -> fp64, fp32, fp16
//   tensor work        sm__inst_executed_pipe_tensor.sum, or its sub-pipes
//                      sm__inst_executed_pipe_tensor_op_*.sum: instructions, not FLOP (a tensor
//                      instruction's FLOP depend on its shape, which the raw page does not give);
//                      noted, not held against the vector roof
//   bytes              dram__bytes_read.sum + dram__bytes_write.sum (DRAM, what B bounds),
//                      lts__t_bytes.sum (L2), l1tex__t_bytes.sum (L1)
//   duration           gpu__time_duration.sum (ncu's replayed launch; kept for reference)
// Units are converted: byte/Kbyte/Mbyte/Gbyte/Tbyte (ncu's prefixes are decimal, 1 Kbyte =
// 1000 byte), nsecond/usecond/msecond/second, inst with the same prefixes. `--print-units base`
// avoids the rounding that scaled units carry.
#include <string>

#include "reports/kernels/counter_import.hpp"

namespace ridgeline {

// True when the header row is Nsight Compute's raw page ("ID" and "Kernel Name" columns).
bool looks_like_ncu_raw(const std::vector<std::string>& header);

// Throws InputError naming the file, the line and the column.
CounterImport parse_ncu_csv(const std::string& text, const std::string& file);

}  // namespace ridgeline
