// The rocBLAS side of the HIP backend that needs no GPU: the type table, the skip reason, and
// which gemm types gfx90a and gfx942 get. The declarations were checked against rocBLAS' headers
// (backends/README.md); the calls are compiled, not run (no AMD GPU).
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "backends/hip/rocblas_abi.hpp"
#include "backends/vendor_gemm.hpp"

namespace ridgeline {
namespace {

TEST(RocblasAbi, SixteenBitInputsAccumulateAndStoreInFp32) {
  using namespace hip::rocblas;
  EXPECT_EQ(gemm_types(GemmType::kFp64).ab, kF64);
  EXPECT_EQ(gemm_types(GemmType::kFp64).compute, kF64);
  EXPECT_EQ(gemm_types(GemmType::kFp32).cd, kF32);
  for (const GemmType t : {GemmType::kFp16, GemmType::kBf16}) {
    EXPECT_EQ(gemm_types(t).cd, kF32);
    EXPECT_EQ(gemm_types(t).compute, kF32);
    // C is what vendor_gemm.hpp says: 4 bytes for 16-bit inputs.
    EXPECT_EQ(gemm_type_info(t).out_bytes, 4u);
  }
  EXPECT_EQ(gemm_types(GemmType::kFp16).ab, kF16);
  EXPECT_EQ(gemm_types(GemmType::kBf16).ab, kBf16);
  EXPECT_THROW(gemm_types(GemmType::kTf32), std::logic_error);
  EXPECT_THROW(gemm_types(GemmType::kFp8E4m3), std::logic_error);
  EXPECT_NE(std::string(gemm_math(GemmType::kBf16)).find("rocblas_gemm_ex"), std::string::npos);
}

TEST(RocblasAbi, MissingLibraryNamesEverySonameTried) {
  const std::string why =
      hip::rocblas::unavailable({"librocblas.so.4: cannot open shared object file",
                                 "librocblas.so.3: cannot open shared "
                                 "object file"});
  EXPECT_EQ(why.rfind("no vendor gemm: rocBLAS could not be loaded (librocblas.so.4: ", 0), 0u)
      << why;
  EXPECT_NE(why.find("; librocblas.so.3: "), std::string::npos) << why;
  EXPECT_NE(why.find("LD_LIBRARY_PATH"), std::string::npos) << why;
}

TEST(GemmTypesOnAmd, Mi200AndMi300RunFp64Fp32Fp16Bf16ThroughRocblas) {
  for (const char* arch : {"gfx90a", "gfx90a:sramecc+:xnack-", "gfx942", "gfx942:sramecc+:xnack-"})
    for (const GemmType t : {GemmType::kFp64, GemmType::kFp32, GemmType::kFp16, GemmType::kBf16})
      EXPECT_EQ(gemm_type_unsupported(t, arch, false), "") << arch;
  EXPECT_EQ(gemm_unit(GemmType::kFp64, "gfx90a"), "matrix");
  EXPECT_EQ(gemm_unit(GemmType::kBf16, "gfx90a"), "matrix");
}

TEST(GemmTypesOnAmd, Tf32AndFp8SayWhy) {
  const std::string mi300_tf32 = gemm_type_unsupported(GemmType::kTf32, "gfx942:xnack-", false);
  EXPECT_NE(mi300_tf32.find("needs hipBLASLt"), std::string::npos) << mi300_tf32;
  EXPECT_NE(mi300_tf32.find("gfx942"), std::string::npos) << mi300_tf32;
  const std::string mi300_fp8 = gemm_type_unsupported(GemmType::kFp8E4m3, "gfx942", false);
  EXPECT_NE(mi300_fp8.find("needs hipBLASLt"), std::string::npos) << mi300_fp8;
  EXPECT_NE(mi300_fp8.find("FNUZ"), std::string::npos) << mi300_fp8;
  EXPECT_EQ(gemm_type_unsupported(GemmType::kTf32, "gfx90a", false),
            "tf32 (xf32) GEMM: gfx90a has no xf32 matrix instructions (MI300 has)");
  EXPECT_EQ(gemm_type_unsupported(GemmType::kFp8E4m3, "gfx90a", false),
            "fp8 GEMM: gfx90a has no fp8 matrix instructions (MI300 has)");
  // The CUDA side is unchanged: tf32 runs wherever cuBLAS does.
  EXPECT_EQ(gemm_type_unsupported(GemmType::kTf32, "sm_86", false), "");
}

}  // namespace
}  // namespace ridgeline
