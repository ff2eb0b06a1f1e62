// Dispatches the vendor gemm to the backend compiled into this build, opened once per run.
#include "backends/vendor_gemm.hpp"

#include <Kokkos_Core.hpp>

#include <map>

#if defined(KOKKOS_ENABLE_CUDA)
#include "backends/cuda/cublas_gemm.hpp"
#endif
#if defined(KOKKOS_ENABLE_HIP)
#include "backends/hip/hipblaslt_gemm.hpp"
#include "backends/hip/rocblas_gemm.hpp"
#include "backends/hip/rocm_gemm.hpp"
#include "backends/spaces.hpp"
#endif

namespace ridgeline {

GemmTypeInfo gemm_type_info(GemmType t) {
  switch (t) {
    case GemmType::kFp64:
      return {"fp64",
              8,
              8,
              "fp64",
              "fp64 (CUBLAS_COMPUTE_64F; DMMA tensor cores where the GPU has them)",
              52,
              "fp64"};
    case GemmType::kFp32:
      return {"fp32", 4, 4, "fp32", "fp32 (CUBLAS_COMPUTE_32F: no tensor cores)", 23, "fp32"};
    case GemmType::kTf32:
      return {"tf32",
              4,
              4,
              "fp32",
              "tf32 tensor cores, fp32 accumulate (CUBLAS_COMPUTE_32F_FAST_TF32)",
              10,
              "fp32"};
    case GemmType::kFp16:
      return {"fp16", 2, 4, "fp32", "fp16 tensor cores, fp32 accumulate and output", 10, "fp32"};
    case GemmType::kBf16:
      return {"bf16", 2, 4, "fp32", "bf16 tensor cores, fp32 accumulate and output", 7, "fp32"};
    case GemmType::kFp8E4m3:
      return {"fp8",
              1,
              2,
              "bf16",
              "fp8 E4M3 tensor cores (TN), fp32 accumulate without fast accumulation, scale 1 "
              "per tensor, bf16 output",
              3,
              "fp32"};
  }
  return {"?", 0, 0, "?", "?", 0, "?"};
}

namespace {

// The AMD side of gemm_type_unsupported: rocBLAS runs fp64, fp32, fp16 and bf16 everywhere;
// MI300 runs tf32 (xf32) and fp8 (E4M3 FNUZ) through hipBLASLt where it was loaded.
std::string amd_gemm_type_unsupported(GemmType type, const std::string& arch, bool lt) {
  const bool mi300 = is_mi300(arch);
  if (type == GemmType::kTf32)
    return mi300 ? (lt ? "" : "tf32 (xf32) GEMM on " + arch + " needs hipBLASLt (ROCm >= 6.0)")
                 : "tf32 (xf32) GEMM: " + arch + " has no xf32 matrix instructions (MI300 has)";
  if (type == GemmType::kFp8E4m3)
    return mi300 ? (lt ? "" : "fp8 (E4M3 FNUZ) GEMM on " + arch + " needs hipBLASLt (ROCm >= 6.0)")
                 : "fp8 GEMM: " + arch + " has no fp8 matrix instructions (MI300 has)";
  return "";
}

}  // namespace

std::string gemm_type_unsupported(GemmType type, const std::string& arch_name, bool lt) {
  const std::string arch = base_arch(arch_name);
  if (arch.rfind("gfx", 0) == 0) return amd_gemm_type_unsupported(type, arch, lt);
  if (type != GemmType::kFp8E4m3) return "";
  if (arch != "sm_89" && arch != "sm_90")
    return "fp8 GEMM is planned on sm_89 and sm_90 only (FP8 tensor cores through cuBLASLt); "
           "this device is " +
           (arch.empty() ? std::string("of unknown architecture") : arch);
  if (!lt)
    return "fp8 GEMM needs cuBLASLt (per-tensor scales, TN layout); only cublasGemmEx could be "
           "loaded";
  return "";
}

namespace {

#if defined(KOKKOS_ENABLE_HIP)
// rocBLAS, and hipBLASLt beside it where the GPU has work for it (MI300's tf32 and fp8).
std::unique_ptr<VendorGemm> open_rocm(std::string& why_not) {
  const auto stream = HipSpace().hip_stream();
  std::unique_ptr<VendorGemm> blas = hip::open_rocblas(stream, HipSpace().hip_device(), why_not);
  if (!blas) return nullptr;
  std::unique_ptr<VendorGemm> lt;
  std::string why_no_lt;
  if (hip::hipblaslt_wanted(blas->arch()))
    lt = hip::open_hipblaslt(stream, blas->arch(), why_no_lt);
  return hip::combine_rocm_gemm(std::move(blas), std::move(lt), std::move(why_no_lt));
}
#endif

struct Opened {
  std::unique_ptr<VendorGemm> gemm;
  std::string why_not;
};

// One library handle per space for the whole run, released before Kokkos finalizes (the
// library's handle must not outlive the device context).
std::map<std::string, Opened>& opened() {
  static std::map<std::string, Opened> m;
  return m;
}

}  // namespace

VendorGemm* vendor_gemm(const std::string& space_name, std::string& why_not) {
  auto& cache = opened();
  auto it = cache.find(space_name);
  if (it == cache.end()) {
    Opened o;
#if defined(KOKKOS_ENABLE_CUDA)
    if (space_name == "Cuda") o.gemm = cuda::open_cublas(o.why_not);
#endif
#if defined(KOKKOS_ENABLE_HIP)
    if (space_name == "HIP") o.gemm = open_rocm(o.why_not);
#endif
    if (!o.gemm && o.why_not.empty())
      o.why_not = "no vendor gemm for the " + space_name + " backend in this build";
    if (cache.empty()) Kokkos::push_finalize_hook([] { opened().clear(); });
    it = cache.emplace(space_name, std::move(o)).first;
  }
  why_not = it->second.why_not;
  return it->second.gemm.get();
}

}  // namespace ridgeline
