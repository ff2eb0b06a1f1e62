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
};
GemmTypeInfo gemm_type_info(GemmType t);

class VendorGemm {
 public:
  virtual ~VendorGemm() = default;
  // "cuBLAS 13.1.0 (libcublas.so.13)", recorded per point.
  virtual std::string library() const = 0;
  // C = A·B, all n×n, column-major, on the space's stream; asynchronous. Throws on an error
  // status (a launch failure is not a measurement).
  virtual void gemm(GemmType type, std::size_t n, const void* a, const void* b, void* c) = 0;
};

// The vendor library of a device space, opened once per run; null with `why_not` set when the
// space has none or the library cannot be loaded.
VendorGemm* vendor_gemm(const std::string& space_name, std::string& why_not);

}  // namespace ridgeline
