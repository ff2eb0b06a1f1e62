// The HIP backend's routing between rocBLAS and hipBLASLt, with stand-ins for both libraries:
// which one runs each type, what the points record, and why MI300's tf32 and fp8 are skipped when
// hipBLASLt is missing. The libraries themselves are compiled, not run, here.
#include "backends/hip/rocm_gemm.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "backends/vendor_gemm.hpp"

namespace ridgeline {
namespace {

// Records the calls it gets; says its name in every answer.
class Named final : public VendorGemm {
 public:
  Named(std::string name, std::string arch, bool lt, std::vector<std::string>& calls)
      : name_(std::move(name)), arch_(std::move(arch)), lt_(lt), calls_(calls) {}
  std::string library() const override { return name_ + " 1.0"; }
  std::string arch() const override { return arch_; }
  bool lt() const override { return lt_; }
  std::string math(GemmType type) const override {
    return name_ + " " + gemm_type_info(type).dtype;
  }
  GemmChoice prepare(GemmType type, const GemmShape&, const void*, const void*, void*) override {
    calls_.push_back(name_ + " prepare " + gemm_type_info(type).dtype);
    GemmChoice c;
    c.api = name_;
    return c;
  }
  void gemm(GemmType type, const GemmShape&, const void*, const void*, void*) override {
    calls_.push_back(name_ + " gemm " + gemm_type_info(type).dtype);
  }

 private:
  std::string name_, arch_;
  bool lt_;
  std::vector<std::string>& calls_;
};

TEST(RocmGemm, HipblasltRunsTf32AndFp8AndRocblasTheRest) {
  std::vector<std::string> calls;
  const std::string arch = "gfx942:sramecc+:xnack-";
  auto gemm = hip::combine_rocm_gemm(std::make_unique<Named>("rocblas", arch, false, calls),
                                     std::make_unique<Named>("hipblaslt", arch, true, calls), "");
  EXPECT_TRUE(gemm->lt());
  EXPECT_EQ(gemm->arch(), arch);
  EXPECT_EQ(gemm->library(), "rocblas 1.0; hipblaslt 1.0");
  EXPECT_EQ(gemm->fp8_encoding(), Fp8Encoding::kFnuz);
  for (const GemmType t : kGemmTypes) {
    SCOPED_TRACE(gemm_type_info(t).dtype);
    const std::string want =
        t == GemmType::kTf32 || t == GemmType::kFp8E4m3 ? "hipblaslt" : "rocblas";
    EXPECT_EQ(gemm->unsupported(t), "");
    EXPECT_EQ(gemm->prepare(t, {8, 8, 8}, nullptr, nullptr, nullptr).api, want);
    gemm->gemm(t, {8, 8, 8}, nullptr, nullptr, nullptr);
    EXPECT_EQ(calls.back(), want + " gemm " + gemm_type_info(t).dtype);
    EXPECT_EQ(gemm->math(t), want + " " + gemm_type_info(t).dtype);
  }
}

TEST(RocmGemm, WithoutHipblasltMi300SaysWhyTf32AndFp8AreSkipped) {
  std::vector<std::string> calls;
  auto gemm =
      hip::combine_rocm_gemm(std::make_unique<Named>("rocblas", "gfx942", false, calls), nullptr,
                             "hipBLASLt could not be loaded (libhipblaslt.so.0: missing)");
  EXPECT_FALSE(gemm->lt());
  EXPECT_EQ(gemm->library(), "rocblas 1.0");
  const std::string fp8 = gemm->unsupported(GemmType::kFp8E4m3);
  EXPECT_NE(fp8.find("needs hipBLASLt"), std::string::npos) << fp8;
  EXPECT_NE(fp8.find("libhipblaslt.so.0: missing"), std::string::npos) << fp8;
  EXPECT_NE(gemm->unsupported(GemmType::kTf32).find("libhipblaslt.so.0"), std::string::npos);
  EXPECT_EQ(gemm->unsupported(GemmType::kBf16), "");
  EXPECT_EQ(gemm->prepare(GemmType::kBf16, {8, 8, 8}, nullptr, nullptr, nullptr).api, "rocblas");
}

TEST(RocmGemm, HipblasltIsWantedOnMi300Only) {
  for (const char* arch : {"gfx940", "gfx941", "gfx942", "gfx942:sramecc+:xnack-"})
    EXPECT_TRUE(hip::hipblaslt_wanted(arch)) << arch;
  for (const char* arch : {"gfx90a", "gfx90a:sramecc+:xnack-", "gfx908", "gfx1100", ""})
    EXPECT_FALSE(hip::hipblaslt_wanted(arch)) << arch;
  // MI200: no hipBLASLt was opened, and the reason is the hardware's, not a missing library.
  std::vector<std::string> calls;
  auto gemm = hip::combine_rocm_gemm(std::make_unique<Named>("rocblas", "gfx90a", false, calls),
                                     nullptr, "");
  EXPECT_EQ(gemm->unsupported(GemmType::kFp8E4m3),
            "fp8 GEMM: gfx90a has no fp8 matrix instructions (MI300 has)");
}

}  // namespace
}  // namespace ridgeline
