#pragma once
// The few rocBLAS declarations ridgeline calls, written out because Debian ships no
// librocblas-dev and a build must not need one: the library is loaded at run time. Values and
// signatures from ROCm/rocBLAS library/include/internal/rocblas-types.h, rocblas-auxiliary.h and
// rocblas-functions.h, identical at tags rocm-5.2.3 (rocBLAS 2.44), rocm-6.0.0 (rocBLAS 4.0) and
// rocBLAS 4.4.0 (2024-10, commit b520bc8). LP64 build of rocBLAS: rocblas_int is int32_t.
// Kokkos-free and HIP-free (hipStream_t is HIP's own opaque pointer), so the table below is
// unit-tested in the CPU build.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends/vendor_gemm.hpp"

struct ihipStream_t;  // hip_runtime_api.h: typedef struct ihipStream_t* hipStream_t

namespace ridgeline::hip::rocblas {

using Status = int;  // rocblas_status
using Handle = struct _rocblas_handle*;
using Int = std::int32_t;
using Stream = ihipStream_t*;

inline constexpr Status kSuccess = 0;               // rocblas_status_success
inline constexpr int kOperationNone = 111;          // rocblas_operation_none
inline constexpr int kGemmAlgoStandard = 0;         // rocblas_gemm_algo_standard
inline constexpr std::uint32_t kGemmFlagsNone = 0;  // rocblas_gemm_flags_none

enum Datatype : int {  // rocblas_datatype
  kF16 = 150,          // rocblas_datatype_f16_r
  kF32 = 151,          // rocblas_datatype_f32_r
  kF64 = 152,          // rocblas_datatype_f64_r
  kBf16 = 168,         // rocblas_datatype_bf16_r
};

using CreateHandle = Status (*)(Handle*);
using DestroyHandle = Status (*)(Handle);
using SetStream = Status (*)(Handle, Stream);
using GetVersionStringSize = Status (*)(std::size_t*);
using GetVersionString = Status (*)(char*, std::size_t);
// rocblas_gemm_ex(handle, transA, transB, m, n, k, alpha, a, a_type, lda, b, b_type, ldb, beta,
//                 c, c_type, ldc, d, d_type, ldd, compute_type, algo, solution_index, flags)
using GemmEx = Status (*)(Handle, int, int, Int, Int, Int, const void*, const void*, int, Int,
                          const void*, int, Int, const void*, const void*, int, Int, void*, int,
                          Int, int, int, std::int32_t, std::uint32_t);

// Types of A/B, C/D and compute per GemmType: the combinations rocblas_gemm_ex documents (fp16
// and bf16 inputs with fp32 C, D and compute: "HSS" and "BSS"). tf32 (xf32) and fp8 have no
// rocblas_gemm_ex path on the hardware planned here (gemm_type_unsupported says why); asking
// for them is a logic error.
struct Types {
  Datatype ab, cd, compute;
};
inline Types gemm_types(GemmType t) {
  switch (t) {
    case GemmType::kFp64:
      return {kF64, kF64, kF64};
    case GemmType::kFp32:
      return {kF32, kF32, kF32};
    case GemmType::kFp16:
      return {kF16, kF32, kF32};
    case GemmType::kBf16:
      return {kBf16, kF32, kF32};
    case GemmType::kTf32:
    case GemmType::kFp8E4m3:
      break;
  }
  throw std::logic_error("rocblas_gemm_ex is not used for tf32 or fp8 (they need hipBLASLt)");
}

// The sonames tried, newest ABI first: ROCm 6 ships librocblas.so.4, ROCm 5 librocblas.so.3
// (rocblas_gemm_ex and the calls above are the same in both); the unversioned name last, for a
// development install.
inline constexpr const char* kSonames[] = {"librocblas.so.4", "librocblas.so.3", "librocblas.so"};

// The skip reason of every gemm point when no soname loaded, from the loader's answer for each
// (dlerror names the file).
inline std::string unavailable(const std::vector<std::string>& dlopen_errors) {
  std::string s = "no vendor gemm: rocBLAS could not be loaded (";
  for (std::size_t i = 0; i < dlopen_errors.size(); ++i) s += (i ? "; " : "") + dlopen_errors[i];
  return s + "); put ROCm's lib folder (/opt/rocm/lib) on LD_LIBRARY_PATH";
}

// What `params.math` says for a rocBLAS GEMM: the library's compute type, and which units run it.
inline const char* gemm_math(GemmType t) {
  switch (t) {
    case GemmType::kFp64:
      return "fp64 (rocblas_gemm_ex, compute f64_r; FP64 MFMA where the GPU has it)";
    case GemmType::kFp32:
      return "fp32 (rocblas_gemm_ex, compute f32_r)";
    case GemmType::kFp16:
      return "fp16 MFMA, fp32 accumulate and output (rocblas_gemm_ex, compute f32_r)";
    case GemmType::kBf16:
      return "bf16 MFMA, fp32 accumulate and output (rocblas_gemm_ex, compute f32_r)";
    case GemmType::kTf32:
    case GemmType::kFp8E4m3:
      break;
  }
  return "not run through rocBLAS";
}

}  // namespace ridgeline::hip::rocblas
