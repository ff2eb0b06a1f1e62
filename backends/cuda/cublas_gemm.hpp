#pragma once
// cuBLAS behind the VendorGemm interface (vendor_gemm.hpp), loaded at run time.
#include <memory>
#include <string>

#include "backends/vendor_gemm.hpp"

namespace ridgeline::cuda {

// Null with `why_not` set when libcublas cannot be loaded or initialised.
std::unique_ptr<VendorGemm> open_cublas(std::string& why_not);

}  // namespace ridgeline::cuda
