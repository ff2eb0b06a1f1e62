#pragma once
// The HIP backend's vendor gemm: rocBLAS for fp64, fp32, fp16 and bf16, and on MI300 hipBLASLt
// beside it for tf32 (xf32) and fp8 (E4M3 FNUZ), each point routed by its type. HIP-free (the
// two libraries come in as VendorGemm), so the routing and the skip reasons are unit-tested in
// the CPU build; the libraries' calls are compiled and code-checked with hipcc 5.2.3, not run.
#include <memory>
#include <string>

#include "backends/vendor_gemm.hpp"

namespace ridgeline::hip {

// Whether hipBLASLt has work on a GPU of this architecture (info's spelling): MI300
// (gfx940/941/942); MI200 and older have no xf32 or fp8 matrix instructions.
bool hipblaslt_wanted(const std::string& arch);

// `blas` (rocBLAS, not null) runs every type but those hipBLASLt runs; `lt` (hipBLASLt) may be
// null, and `why_no_lt` then says why, in the skip reason of MI300's tf32 and fp8 points.
std::unique_ptr<VendorGemm> combine_rocm_gemm(std::unique_ptr<VendorGemm> blas,
                                              std::unique_ptr<VendorGemm> lt,
                                              std::string why_no_lt);

}  // namespace ridgeline::hip
