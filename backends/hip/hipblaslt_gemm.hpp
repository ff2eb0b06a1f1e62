#pragma once
// hipBLASLt behind the VendorGemm interface (vendor_gemm.hpp), loaded at run time, for the tf32
// and fp8 GEMMs of MI300 that rocBLAS cannot run. Compiled and code-checked with hipcc 5.2.3, not
// run (no AMD GPU has run it).
#include <memory>
#include <string>

#include "backends/vendor_gemm.hpp"

struct ihipStream_t;

namespace ridgeline::hip {

// hipblasLtMatmul on `stream` (Kokkos' HIP stream) for a device of architecture `arch` (info's
// spelling); null with `why_not` set when no libhipblaslt loads, or the one that loads is older
// than the interface declared in hipblaslt_abi.hpp.
std::unique_ptr<VendorGemm> open_hipblaslt(ihipStream_t* stream, const std::string& arch,
                                           std::string& why_not);

}  // namespace ridgeline::hip
