#pragma once
// rocBLAS behind the VendorGemm interface (vendor_gemm.hpp), loaded at run time. Compiled and
// code-checked with hipcc 5.2.3 for gfx90a, not run (no AMD GPU has run it).
#include <memory>
#include <string>

#include "backends/vendor_gemm.hpp"

struct ihipStream_t;

namespace ridgeline::hip {

// rocblas_gemm_ex on `stream` (Kokkos' HIP stream) of HIP device `device`; null with `why_not`
// set when no librocblas can be loaded or initialised.
std::unique_ptr<VendorGemm> open_rocblas(ihipStream_t* stream, int device, std::string& why_not);

}  // namespace ridgeline::hip
