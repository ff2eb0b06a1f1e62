#pragma once
// The few hipBLASLt declarations ridgeline calls, written out because Debian ships no hipBLASLt
// and a build must not need one: the library is loaded at run time. Values and signatures from
// ROCm/hipBLASLt library/include/hipblaslt.h, identical at tags rocm-6.0.0 (hipBLASLt 0.6.0),
// rocm-6.1.0 (0.7.0), rocm-6.2.0 (0.8.0) and commit 7d9fb683 (0.11.0, 2024-10); the enums it takes
// from ROCm/hipBLAS' hipblas.h (the same tags) and hipBLAS-common's hipblas-common.h
// (hipblasStatus_t, hipblasOperation_t, hipblasComputeType_t) and from HIP's library_types.h
// (hipDataType), identical in all of them. hipBLASLt 0.3–0.5 (ROCm 5.5–5.7) had its own
// hipblasltDatatype_t and compute types (HIPBLASLT_COMPUTE_F32 = 300): it is refused by version.
// Kokkos-free and HIP-free (hipStream_t is HIP's own opaque pointer), so the tables below are
// unit-tested in the CPU build.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends/vendor_gemm.hpp"

struct ihipStream_t;  // hip_runtime_api.h: typedef struct ihipStream_t* hipStream_t

namespace ridgeline::hip::hipblaslt {

using Status = int;                    // hipblasStatus_t
inline constexpr Status kSuccess = 0;  // HIPBLAS_STATUS_SUCCESS

using Handle = void*;                                           // hipblasLtHandle_t
using MatmulDesc = struct hipblasLtMatmulDescOpaque_st*;        // hipblasLtMatmulDesc_t
using MatrixLayout = struct hipblasLtMatrixLayoutOpaque_st*;    // hipblasLtMatrixLayout_t
using Preference = struct hipblasLtMatmulPreferenceOpaque_st*;  // hipblasLtMatmulPreference_t
using Stream = ihipStream_t*;

enum Operation : int { kOpN = 111, kOpT = 112 };  // hipblasOperation_t

enum DataType : int {  // hipDataType
  kR32F = 0,           // HIP_R_32F
  kR64F = 1,           // HIP_R_64F
  kR16F = 2,           // HIP_R_16F
  kR16BF = 14,         // HIP_R_16BF
  kR8FE4m3Fnuz = 1000  // HIP_R_8F_E4M3_FNUZ: MI300's fp8 (bias 8, 0x80 the only NaN)
};

enum ComputeType : int {    // hipblasComputeType_t
  kCompute32F = 2,          // HIPBLAS_COMPUTE_32F
  kCompute32FFastTf32 = 6,  // HIPBLAS_COMPUTE_32F_FAST_TF32: xf32 on MI300's matrix cores
  kCompute64F = 7,          // HIPBLAS_COMPUTE_64F
};

enum DescAttribute : int {  // hipblasLtMatmulDescAttributes_t
  kDescTransA = 0,          // HIPBLASLT_MATMUL_DESC_TRANSA, int32_t
  kDescTransB = 1,          // HIPBLASLT_MATMUL_DESC_TRANSB, int32_t
  kDescAScalePointer = 5,   // HIPBLASLT_MATMUL_DESC_A_SCALE_POINTER, device pointer
  kDescBScalePointer = 6,   // HIPBLASLT_MATMUL_DESC_B_SCALE_POINTER, device pointer
};
inline constexpr int kPrefMaxWorkspaceBytes = 1;  // HIPBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, u64

// hipblasLtMatmulAlgo_t and hipblasLtMatmulHeuristicResult_t as laid out in hipblaslt.h.
struct MatmulAlgo {
  std::uint8_t data[16] = {};
  std::size_t max_workspace_bytes = 0;
};
struct HeuristicResult {
  MatmulAlgo algo;
  std::size_t workspace_size = 0;
  Status state = kSuccess;
  float waves_count = 1.0f;
  int reserved[4] = {};
};
static_assert(sizeof(MatmulAlgo) == 24 && sizeof(HeuristicResult) == 56,
              "the layout of hipblaslt.h on LP64");

using Create = Status (*)(Handle*);
using Destroy = Status (*)(Handle);
using GetVersion = Status (*)(Handle, int*);
using DescCreate = Status (*)(MatmulDesc*, int compute, int scale_type);
using DescDestroy = Status (*)(MatmulDesc);
using DescSetAttribute = Status (*)(MatmulDesc, int, const void*, std::size_t);
using LayoutCreate = Status (*)(MatrixLayout*, int type, std::uint64_t rows, std::uint64_t cols,
                                std::int64_t ld);
using LayoutDestroy = Status (*)(MatrixLayout);
using PrefCreate = Status (*)(Preference*);
using PrefDestroy = Status (*)(Preference);
using PrefSetAttribute = Status (*)(Preference, int, const void*, std::size_t);
using AlgoGetHeuristic = Status (*)(Handle, MatmulDesc, MatrixLayout, MatrixLayout, MatrixLayout,
                                    MatrixLayout, Preference, int, HeuristicResult*, int*);
// hipblasLtMatmul(handle, desc, alpha, A, Adesc, B, Bdesc, beta, C, Cdesc, D, Ddesc, algo,
//                 workspace, workspaceSizeInBytes, stream)
using Matmul = Status (*)(Handle, MatmulDesc, const void*, const void*, MatrixLayout, const void*,
                          MatrixLayout, const void*, const void*, MatrixLayout, void*, MatrixLayout,
                          const MatmulAlgo*, void*, std::size_t, Stream);

// The GEMM types hipBLASLt runs here: tf32 and fp8, which rocBLAS' rocblas_gemm_ex cannot, on
// MI300 (gfx940/941/942) only, whose matrix cores have xf32 and FNUZ fp8; fp64, fp32, fp16 and
// bf16 stay on rocBLAS, whose calls were checked on more releases. Types of A/B, C/D, compute and
// scale: hipBLASLt's documented combinations (fp8: FNUZ E4M3 inputs in the TN layout, bf16 C and
// D, fp32 compute and scale).
inline bool runs_gemm(GemmType t) { return t == GemmType::kTf32 || t == GemmType::kFp8E4m3; }
struct Types {
  DataType ab, cd, scale;
  ComputeType compute;
};
inline Types gemm_types(GemmType t) {
  switch (t) {
    case GemmType::kTf32:
      return {kR32F, kR32F, kR32F, kCompute32FFastTf32};
    case GemmType::kFp8E4m3:
      return {kR8FE4m3Fnuz, kR16BF, kR32F, kCompute32F};
    default:
      break;
  }
  throw std::logic_error("hipBLASLt is used for tf32 and fp8 only (rocBLAS runs the others)");
}

// What `params.math` says for a hipBLASLt GEMM.
inline const char* gemm_math(GemmType t) {
  switch (t) {
    case GemmType::kTf32:
      return "tf32 (xf32) matrix cores, fp32 accumulate (hipblasLtMatmul, "
             "HIPBLAS_COMPUTE_32F_FAST_TF32)";
    case GemmType::kFp8E4m3:
      return "fp8 E4M3 FNUZ matrix cores (TN), fp32 accumulate, scale 1 per tensor, bf16 output "
             "(hipblasLtMatmul)";
    default:
      break;
  }
  return "not run through hipBLASLt";
}

// hipblasLtGetVersion's number: major·100000 + minor·100 + patch. The declarations above hold
// from 0.6.0 (ROCm 6.0) on.
inline constexpr int kMinVersion = 600;
inline std::string version_text(int v) {
  return std::to_string(v / 100000) + "." + std::to_string(v / 100 % 1000) + "." +
         std::to_string(v % 100);
}
// Why a loaded hipBLASLt is not used, empty when it is.
inline std::string version_refused(int v) {
  if (v >= kMinVersion) return "";
  return "hipBLASLt " + version_text(v) +
         " predates ROCm 6's hipDataType and hipblasComputeType_t interface (0.6.0); its tf32 and "
         "fp8 are not run";
}

// The sonames tried: hipBLASLt 0.x (ROCm 6) is libhipblaslt.so.0 (rocm_set_soversion keeps the
// major of its 0.6 … 0.11 SOVERSION); the unversioned name last, for a development install.
inline constexpr const char* kSonames[] = {"libhipblaslt.so.0", "libhipblaslt.so"};

inline std::string unavailable(const std::vector<std::string>& dlopen_errors) {
  std::string s = "hipBLASLt could not be loaded (";
  for (std::size_t i = 0; i < dlopen_errors.size(); ++i) s += (i ? "; " : "") + dlopen_errors[i];
  return s + ")";
}

}  // namespace ridgeline::hip::hipblaslt
