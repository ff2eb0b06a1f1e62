// rocBLAS' rocblas_gemm_ex through dlopen: the binary carries no link-time dependency on
// librocblas (hundreds of MB of Tensile kernels a ROCm host has, at a path we cannot know at build
// time), and its declarations are written out in rocblas_abi.hpp (Debian has no librocblas-dev).
// The default algorithm (rocblas_gemm_algo_standard: Tensile's own selection for the size), as
// frameworks call it; no selection of our own, unlike cuBLASLt's. Compiled, not run.
#include "backends/hip/rocblas_gemm.hpp"

#include <hip/hip_runtime_api.h>

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends/hip/rocblas_abi.hpp"
#include "backends/loaded_library.hpp"

namespace ridgeline::hip {
namespace {

void check(rocblas::Status s, const char* what) {
  if (s != rocblas::kSuccess)
    throw std::runtime_error(std::string(what) + " failed with rocBLAS status " +
                             std::to_string(s));
}

// Spelled as info's "arch" before the target features are cut (gemm_unit cuts them).
std::string device_arch(int device) {
  hipDeviceProp_t p{};
  if (hipGetDeviceProperties(&p, device) != hipSuccess) {
    (void)hipGetLastError();
    return "";
  }
  return p.gcnArchName;
}

class Rocblas final : public VendorGemm {
 public:
  Rocblas(const LoadedLibrary& lib, hipStream_t stream, int device) : lib_(lib) {
    create_ = lib.symbol<rocblas::CreateHandle>("rocblas_create_handle");
    destroy_ = lib.symbol<rocblas::DestroyHandle>("rocblas_destroy_handle");
    const auto set_stream = lib.symbol<rocblas::SetStream>("rocblas_set_stream");
    gemm_ex_ = lib.symbol<rocblas::GemmEx>("rocblas_gemm_ex");
    check(create_(&handle_), "rocblas_create_handle");
    check(set_stream(handle_, stream), "rocblas_set_stream");
    library_ = "rocBLAS " + version() + " (" + lib.soname() + ", rocblas_gemm_ex)";
    arch_ = device_arch(device);
  }
  ~Rocblas() override {
    if (handle_) destroy_(handle_);
  }
  // Owns the handle: a copy would destroy it twice.
  Rocblas(const Rocblas&) = delete;
  Rocblas& operator=(const Rocblas&) = delete;

  std::string library() const override { return library_; }
  std::string arch() const override { return arch_; }
  bool lt() const override { return false; }
  std::string math(GemmType type) const override { return rocblas::gemm_math(type); }

  GemmChoice prepare(GemmType, const GemmShape&, const void*, const void*, void*) override {
    GemmChoice c;
    c.api = "rocblas_gemm_ex";
    c.algorithm = "rocblas_gemm_algo_standard";
    return c;
  }

  // C and D are the same matrix (rocblas_gemm_ex allows it when ldc == ldd and the types match).
  void gemm(GemmType type, const GemmShape& s, const void* a, const void* b, void* c) override {
    const rocblas::Types t = rocblas::gemm_types(type);
    const auto m = static_cast<rocblas::Int>(s.m), n = static_cast<rocblas::Int>(s.n),
               k = static_cast<rocblas::Int>(s.k);
    const bool f64 = type == GemmType::kFp64;
    const void* alpha = f64 ? static_cast<const void*>(&one64_) : &one32_;
    const void* beta = f64 ? static_cast<const void*>(&zero64_) : &zero32_;
    check(gemm_ex_(handle_, rocblas::kOperationNone, rocblas::kOperationNone, m, n, k, alpha, a,
                   t.ab, m, b, t.ab, k, beta, c, t.cd, m, c, t.cd, m, t.compute,
                   rocblas::kGemmAlgoStandard, 0, rocblas::kGemmFlagsNone),
          "rocblas_gemm_ex");
  }

 private:
  // "4.0.0.abc123": the library's own string (rocblas_get_version_string), or "?" without it.
  std::string version() const {
    const auto size =
        lib_.optional_symbol<rocblas::GetVersionStringSize>("rocblas_get_version_string_size");
    const auto get = lib_.optional_symbol<rocblas::GetVersionString>("rocblas_get_version_string");
    std::size_t len = 0;
    if (!size || !get || size(&len) != rocblas::kSuccess || len == 0) return "?";
    std::vector<char> buf(len + 1, '\0');
    if (get(buf.data(), buf.size()) != rocblas::kSuccess) return "?";
    return buf.data();
  }

  LoadedLibrary lib_;
  rocblas::Handle handle_ = nullptr;
  rocblas::CreateHandle create_ = nullptr;
  rocblas::DestroyHandle destroy_ = nullptr;
  rocblas::GemmEx gemm_ex_ = nullptr;
  // α = 1 and β = 0 in the compute type, on the host (rocBLAS' default pointer mode).
  double one64_ = 1, zero64_ = 0;
  float one32_ = 1, zero32_ = 0;
  std::string library_;
  std::string arch_;
};

}  // namespace

std::unique_ptr<VendorGemm> open_rocblas(ihipStream_t* stream, int device, std::string& why_not) {
  std::vector<std::string> errors;
  const std::optional<LoadedLibrary> lib = open_first(rocblas::kSonames, errors);
  if (!lib) {
    why_not = rocblas::unavailable(errors);
    return nullptr;
  }
  try {
    return std::make_unique<Rocblas>(*lib, stream, device);
  } catch (const std::exception& e) {
    why_not = "no vendor gemm: " + lib->soname() + ": " + e.what();
    return nullptr;
  }
}

}  // namespace ridgeline::hip
