// The hipBLASLt side of the HIP backend that needs no GPU: the type table, the version gate and
// the skip reason. The declarations were checked against hipBLASLt's, hipBLAS' and HIP's headers
// (backends/README.md); the calls are compiled, not run (no AMD GPU).
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "backends/hip/hipblaslt_abi.hpp"
#include "backends/vendor_gemm.hpp"

namespace ridgeline {
namespace {

TEST(HipblasltAbi, Tf32IsXf32ComputeOnFp32AndFp8IsFnuzIntoBf16) {
  using namespace hip::hipblaslt;
  const Types tf32 = gemm_types(GemmType::kTf32);
  EXPECT_EQ(tf32.ab, kR32F);
  EXPECT_EQ(tf32.cd, kR32F);
  EXPECT_EQ(tf32.compute, 6);  // HIPBLAS_COMPUTE_32F_FAST_TF32
  const Types fp8 = gemm_types(GemmType::kFp8E4m3);
  EXPECT_EQ(fp8.ab, 1000);  // HIP_R_8F_E4M3_FNUZ, not the OCP HIP_R_8F_E4M3 (28)
  EXPECT_EQ(fp8.cd, 14);    // HIP_R_16BF: C is what vendor_gemm.hpp says
  EXPECT_EQ(gemm_type_info(GemmType::kFp8E4m3).out_bytes, 2u);
  EXPECT_EQ(fp8.compute, 2);  // HIPBLAS_COMPUTE_32F
  EXPECT_EQ(fp8.scale, kR32F);
  for (const GemmType t : kGemmTypes) {
    EXPECT_EQ(runs_gemm(t), t == GemmType::kTf32 || t == GemmType::kFp8E4m3);
    if (!runs_gemm(t)) {
      EXPECT_THROW(gemm_types(t), std::logic_error);
    }
  }
  EXPECT_NE(std::string(gemm_math(GemmType::kFp8E4m3)).find("FNUZ"), std::string::npos);
}

TEST(HipblasltAbi, VersionsBeforeRocm6AreRefusedWithTheirNumber) {
  using namespace hip::hipblaslt;
  EXPECT_EQ(version_text(600), "0.6.0");
  EXPECT_EQ(version_text(1100), "0.11.0");
  EXPECT_EQ(version_text(100203), "1.2.3");
  EXPECT_EQ(version_refused(600), "");
  EXPECT_EQ(version_refused(800), "");
  const std::string old = version_refused(300);  // ROCm 5.7
  EXPECT_NE(old.find("hipBLASLt 0.3.0 predates"), std::string::npos) << old;
  EXPECT_NE(old.find("tf32 and fp8 are not run"), std::string::npos) << old;
}

TEST(HipblasltAbi, MissingLibraryNamesEverySonameTried) {
  const std::string why = hip::hipblaslt::unavailable(
      {"libhipblaslt.so.0: cannot open shared object file", "libhipblaslt.so: cannot open"});
  EXPECT_EQ(why.rfind("hipBLASLt could not be loaded (libhipblaslt.so.0: ", 0), 0u) << why;
  EXPECT_NE(why.find("; libhipblaslt.so: "), std::string::npos) << why;
}

}  // namespace
}  // namespace ridgeline
