#pragma once
// rocprofv3's counter collection CSV (`rocprofv3 --pmc ... --kernel-trace --output-format csv`,
// the file `*_counter_collection.csv`), read as documented for ROCm 6.4: one row per counter per
// dispatch, with the columns "Dispatch_Id", "Kernel_Name" ("Kern_Name" is read too),
// "Counter_Name", "Counter_Value", and "Start_Timestamp"/"End_Timestamp" in nanoseconds.
//
// The counters read (FLOP as rocprof-compute's roofline derives them, for wave64 CDNA GPUs):
//   FETCH_SIZE, WRITE_SIZE   KiB (1024 byte) from and to device memory: the DRAM bytes B bounds
//   SQ_INSTS_VALU_{ADD,MUL,TRANS,FMA}_F{64,32,16}
//                            wave instructions: 64 lanes each, an FMA 2 FLOP -> fp64, fp32, fp16
//   SQ_INSTS_VALU_MFMA_MOPS_{F64,F32,F16,BF16}
//                            matrix ops in units of 512 FLOP: noted, not held against the
//                            vector roof
// Other counters are left alone. A dispatch is counted once per kernel name however many of
// its counters the file holds.
#include <string>
#include <vector>

#include "reports/kernels/counter_import.hpp"

namespace ridgeline {

// True when the header is rocprofv3's counter collection ("Counter_Name", "Counter_Value").
bool looks_like_rocprofv3_counters(const std::vector<std::string>& header);

// Throws InputError naming the file, the line and the column.
CounterImport parse_rocprofv3_csv(const std::string& text, const std::string& file);

}  // namespace ridgeline
