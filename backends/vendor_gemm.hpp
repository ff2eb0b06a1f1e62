#pragma once
// The vendor's matrix library (cuBLAS on CUDA, hipBLAS/rocBLAS on HIP), loaded at run time: a
// binary built with it still starts where the library is missing, and the gemm points then say
// why they were skipped. Kokkos-free: the harness owns the matrices and hands raw device
// pointers; the call is enqueued on the execution space's stream, so the sample timer and the
// probe's fence cover it like any Kokkos kernel.
#include <cstddef>
#include <memory>
#include <string>

namespace ridgeline {

// Element types of A and B, and the unit that multiplies them. C is fp64 for kFp64, fp32 for
// the others (16-bit inputs accumulate and store in fp32, so nothing is lost to C's rounding).
enum class GemmType { kFp64, kFp32, kTf32, kFp16, kBf16 };

struct GemmTypeInfo {
  const char* dtype;        // results dtype: fp64, fp32, tf32, fp16, bf16
  std::size_t in_bytes;     // bytes per element of A and B
  std::size_t out_bytes;    // bytes per element of C
  const char* math;         // what the library is asked to use, for params
  int input_mantissa_bits;  // explicit mantissa bits the multiply sees (tf32: 10)
  const char* accumulate;   // the type products are summed in: the sheet entry that grades it
};
GemmTypeInfo gemm_type_info(GemmType t);

// The units that multiply `type` on a GPU of architecture `arch` (as `info` records it: "sm_90",
// "gfx942"): tf32, fp16 and bf16 on the tensor cores (NVIDIA: "tensor") or matrix cores (AMD:
// "matrix"); fp32 on the vector units (CUBLAS_COMPUTE_32F never uses tensor cores); fp64 on
// matrix units only where the GPU has FP64 ones: sm_80 (A100) and sm_90 (H100, H200) DMMA,
// gfx90a (MI200) and gfx940/941/942 (MI300) FP64 MFMA. Elsewhere (sm_86, sm_89: FP64 at 1/64 of
// the FP32 rate, no DMMA) an fp64 GEMM runs on the vector units and must be held against P.
inline std::string gemm_unit(GemmType type, const std::string& arch_name) {
  // HIP's gcnArchName carries target features ("gfx942:sramecc+:xnack-"); sm_90a is sm_90.
  std::string arch = arch_name.substr(0, arch_name.find(':'));
  if (arch.rfind("sm_", 0) == 0 && arch.size() > 5 && arch.back() == 'a') arch.pop_back();
  const bool amd = arch.rfind("gfx", 0) == 0;
  const char* matrix = amd ? "matrix" : "tensor";
  switch (type) {
    case GemmType::kFp32:
      return "vector";
    case GemmType::kFp64:
      for (const char* with_fp64 : {"sm_80", "sm_90", "gfx90a", "gfx940", "gfx941", "gfx942"})
        if (arch == with_fp64) return matrix;
      return "vector";
    default:
      return matrix;
  }
}

class VendorGemm {
 public:
  virtual ~VendorGemm() = default;
  // "cuBLAS 13.1.0 (libcublas.so.13)", recorded per point.
  virtual std::string library() const = 0;
  // The architecture of the device the library runs on ("sm_90"), for gemm_unit.
  virtual std::string arch() const = 0;
  // C = A·B, all n×n, column-major, on the space's stream; asynchronous. Throws on an error
  // status (a launch failure is not a measurement).
  virtual void gemm(GemmType type, std::size_t n, const void* a, const void* b, void* c) = 0;
};

// The vendor library of a device space, opened once per run; null with `why_not` set when the
// space has none or the library cannot be loaded.
VendorGemm* vendor_gemm(const std::string& space_name, std::string& why_not);

}  // namespace ridgeline
