// One VendorGemm over two ROCm libraries: rocBLAS' rocblas_gemm_ex (checked against more
// releases, and what rocBLAS-based frameworks call) for the types it has, hipBLASLt for the two
// it lacks. Points record which API ran them (GemmChoice::api) and what it was asked (math).
#include "backends/hip/rocm_gemm.hpp"

#include <memory>
#include <string>
#include <utility>

#include "backends/hip/hipblaslt_abi.hpp"

namespace ridgeline::hip {

bool hipblaslt_wanted(const std::string& arch) { return is_mi300(arch); }

namespace {

class RocmGemm final : public VendorGemm {
 public:
  RocmGemm(std::unique_ptr<VendorGemm> blas, std::unique_ptr<VendorGemm> lt, std::string why_no_lt)
      : blas_(std::move(blas)), lt_(std::move(lt)), why_no_lt_(std::move(why_no_lt)) {}

  std::string library() const override {
    return blas_->library() + (lt_ ? "; " + lt_->library() : "");
  }
  std::string arch() const override { return blas_->arch(); }
  bool lt() const override { return lt_ != nullptr; }
  std::string math(GemmType type) const override { return route(type).math(type); }
  // fp8 runs only through hipBLASLt, on MI300: FNUZ.
  Fp8Encoding fp8_encoding() const override { return Fp8Encoding::kFnuz; }
  std::string unsupported(GemmType type) const override {
    std::string why = gemm_type_unsupported(type, arch(), lt());
    if (!why.empty() && !lt_ && !why_no_lt_.empty() && hipblaslt::runs_gemm(type) &&
        hipblaslt_wanted(arch()))
      why += ": " + why_no_lt_;
    return why;
  }

  GemmChoice prepare(GemmType type, const GemmShape& s, const void* a, const void* b,
                     void* c) override {
    return route(type).prepare(type, s, a, b, c);
  }
  void gemm(GemmType type, const GemmShape& s, const void* a, const void* b, void* c) override {
    route(type).gemm(type, s, a, b, c);
  }

 private:
  VendorGemm& route(GemmType type) const {
    return lt_ && hipblaslt::runs_gemm(type) ? *lt_ : *blas_;
  }

  std::unique_ptr<VendorGemm> blas_, lt_;
  std::string why_no_lt_;
};

}  // namespace

std::unique_ptr<VendorGemm> combine_rocm_gemm(std::unique_ptr<VendorGemm> blas,
                                              std::unique_ptr<VendorGemm> lt,
                                              std::string why_no_lt) {
  return std::make_unique<RocmGemm>(std::move(blas), std::move(lt), std::move(why_no_lt));
}

}  // namespace ridgeline::hip
