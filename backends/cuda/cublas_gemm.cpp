// cuBLAS through dlopen: the binary carries no link-time dependency on libcublas (600 MB that a
// GPU host has, but at a path we cannot know at build time); the types come from the toolkit's
// header, the functions from the library the loader finds (LD_LIBRARY_PATH, the toolkit's lib64,
// a Python wheel's nvidia/cublas/lib).
#include "cuda/cublas_gemm.hpp"

#include <cublas_api.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <Kokkos_Core.hpp>

#include <stdexcept>
#include <string>

namespace ridgeline::cuda {
namespace {

// The soname of the cuBLAS that matches the runtime this binary was built with.
std::string cublas_soname() { return "libcublas.so." + std::to_string(CUDART_VERSION / 1000); }

class Cublas final : public VendorGemm {
 public:
  using Create = cublasStatus_t (*)(cublasHandle_t*);
  using Destroy = cublasStatus_t (*)(cublasHandle_t);
  using SetStream = cublasStatus_t (*)(cublasHandle_t, cudaStream_t);
  using GetVersion = cublasStatus_t (*)(cublasHandle_t, int*);
  using GemmEx = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int,
                                    int, const void*, const void*, cudaDataType, int, const void*,
                                    cudaDataType, int, const void*, void*, cudaDataType, int,
                                    cublasComputeType_t, cublasGemmAlgo_t);

  explicit Cublas(void* lib) : lib_(lib) {
    create_ = symbol<Create>("cublasCreate_v2");
    destroy_ = symbol<Destroy>("cublasDestroy_v2");
    set_stream_ = symbol<SetStream>("cublasSetStream_v2");
    gemm_ex_ = symbol<GemmEx>("cublasGemmEx");
    const auto get_version = symbol<GetVersion>("cublasGetVersion_v2");
    check(create_(&handle_), "cublasCreate");
    check(set_stream_(handle_, Kokkos::Cuda().cuda_stream()), "cublasSetStream");
    int v = 0;
    check(get_version(handle_, &v), "cublasGetVersion");
    library_ = "cuBLAS " + std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." +
               std::to_string(v % 100) + " (" + cublas_soname() + ", cublasGemmEx)";
    // Spelled as info's "arch" (cuda_info.cpp): what gemm_unit decides the fp64 unit from.
    const int device = Kokkos::Cuda().cuda_device();
    int major = 0, minor = 0;
    if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) == cudaSuccess &&
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) == cudaSuccess)
      arch_ = "sm_" + std::to_string(major) + std::to_string(minor);
  }
  ~Cublas() override {
    if (handle_) destroy_(handle_);
    // The library stays loaded: cuBLAS registers kernels with the runtime until exit.
  }
  // Owns the handle: a copy would destroy it twice.
  Cublas(const Cublas&) = delete;
  Cublas& operator=(const Cublas&) = delete;

  std::string library() const override { return library_; }
  std::string arch() const override { return arch_; }

  void gemm(GemmType type, std::size_t n, const void* a, const void* b, void* c) override {
    const int m = static_cast<int>(n);
    const double one64 = 1, zero64 = 0;
    const float one32 = 1, zero32 = 0;
    const bool fp64 = type == GemmType::kFp64;
    const void* alpha = fp64 ? static_cast<const void*>(&one64) : &one32;
    const void* beta = fp64 ? static_cast<const void*>(&zero64) : &zero32;
    cudaDataType in = CUDA_R_32F, out = CUDA_R_32F;
    cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
    switch (type) {
      case GemmType::kFp64:
        in = out = CUDA_R_64F;
        compute = CUBLAS_COMPUTE_64F;
        break;
      case GemmType::kFp32:
        break;
      case GemmType::kTf32:
        compute = CUBLAS_COMPUTE_32F_FAST_TF32;
        break;
      case GemmType::kFp16:
        in = CUDA_R_16F;
        break;
      case GemmType::kBf16:
        in = CUDA_R_16BF;
        break;
    }
    check(gemm_ex_(handle_, CUBLAS_OP_N, CUBLAS_OP_N, m, m, m, alpha, a, in, m, b, in, m, beta, c,
                   out, m, compute, CUBLAS_GEMM_DEFAULT),
          "cublasGemmEx");
  }

 private:
  template <class F>
  F symbol(const char* name) {
    void* p = dlsym(lib_, name);
    if (!p) throw std::runtime_error(cublas_soname() + " has no symbol " + name);
    return reinterpret_cast<F>(p);
  }
  static void check(cublasStatus_t s, const char* what) {
    if (s != CUBLAS_STATUS_SUCCESS)
      throw std::runtime_error(std::string(what) + " failed with cuBLAS status " +
                               std::to_string(static_cast<int>(s)));
  }

  void* lib_;
  cublasHandle_t handle_ = nullptr;
  Create create_ = nullptr;
  Destroy destroy_ = nullptr;
  SetStream set_stream_ = nullptr;
  GemmEx gemm_ex_ = nullptr;
  std::string library_;
  std::string arch_;  // empty when the runtime could not say: gemm_unit then says "vector" for fp64
};

}  // namespace

std::unique_ptr<VendorGemm> open_cublas(std::string& why_not) {
  void* lib = dlopen(cublas_soname().c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char* err = dlerror();
    why_not = "no vendor gemm: " + cublas_soname() + " could not be loaded (" +
              (err ? err : "dlopen failed") +
              "); put its folder on LD_LIBRARY_PATH (scripts/gpu-run finds it)";
    return nullptr;
  }
  try {
    return std::make_unique<Cublas>(lib);
  } catch (const std::exception& e) {
    why_not = std::string("no vendor gemm: ") + e.what();
    return nullptr;
  }
}

}  // namespace ridgeline::cuda
