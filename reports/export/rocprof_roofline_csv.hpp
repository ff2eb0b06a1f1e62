#pragma once
// rocprof-compute's empirical roofline file, roofline.csv: the columns rocm-amdgpu-bench 1.1.0's
// `roofline` writes (roofline.cpp as of its commit 07b2ae5, 2025-06-06: FP16/BF16 vector, integer
// and MFMA F4/F6 columns) and rocprof-compute reads (src/utils/roofline_calc.py, constuct_roof:
// the first column is the device, every other column is looked up by its header name; GB/s and
// GFLOP/s; Low/High are the mean minus and plus its confidence half-width). One row per
// execution space, numbered from 0 in the file's order, so AMD users can hold their kernels
// against ridgeline's measured roofs in that tool.
#include <string>
#include <vector>

#include "reports/export/roof_export.hpp"

namespace ridgeline {

// The header, exactly as the tool writes it (its spelling "hbmBwHigh" included: the reader looks
// columns up by these names).
const std::vector<std::string>& rocprof_roofline_columns();

// HBMBw is the fit's B (main memory on a host space too), L2Bw/L1Bw the sweep's plateaus of
// those names (cache_read first: the tool's cache kernels read), FP16/BF16/FP32/FP64Flops the
// fit's P of that dtype (ridgeline's peaks run on the vector units, not MFMA). As the tool
// measures, B comes from the fp64 group where it has one, else fp32, and the cache levels from
// the fp32 group's sweep, else fp64's. A cell ridgeline
// did not measure (MALL, LDS, FP8, integer, MFMA, a missing level or dtype, a plateau's bounds)
// is left empty, never 0.
std::string rocprof_roofline_csv(const RoofExport& roofs);

}  // namespace ridgeline
