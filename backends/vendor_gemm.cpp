// Dispatches the vendor gemm to the backend compiled into this build, opened once per run.
#include "vendor_gemm.hpp"

#include <Kokkos_Core.hpp>

#include <map>

#if defined(KOKKOS_ENABLE_CUDA)
#include "cuda/cublas_gemm.hpp"
#endif

namespace ridgeline {

GemmTypeInfo gemm_type_info(GemmType t) {
  switch (t) {
    case GemmType::kFp64:
      return {"fp64", 8,
              8,      "fp64 (CUBLAS_COMPUTE_64F; DMMA tensor cores where the GPU has them)",
              52,     "fp64"};
    case GemmType::kFp32:
      return {"fp32", 4, 4, "fp32 (CUBLAS_COMPUTE_32F: no tensor cores)", 23, "fp32"};
    case GemmType::kTf32:
      return {"tf32", 4,     4, "tf32 tensor cores, fp32 accumulate (CUBLAS_COMPUTE_32F_FAST_TF32)",
              10,     "fp32"};
    case GemmType::kFp16:
      return {"fp16", 2, 4, "fp16 tensor cores, fp32 accumulate and output", 10, "fp32"};
    case GemmType::kBf16:
      return {"bf16", 2, 4, "bf16 tensor cores, fp32 accumulate and output", 7, "fp32"};
  }
  return {"?", 0, 0, "?", 0, "?"};
}

namespace {

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
    if (!o.gemm && o.why_not.empty())
      o.why_not = "no vendor gemm for the " + space_name + " backend in this build";
    if (cache.empty()) Kokkos::push_finalize_hook([] { opened().clear(); });
    it = cache.emplace(space_name, std::move(o)).first;
  }
  why_not = it->second.why_not;
  return it->second.gemm.get();
}

}  // namespace ridgeline
