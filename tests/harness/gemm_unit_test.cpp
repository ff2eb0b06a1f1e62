// Which units the vendor GEMM of each type runs on, by the device's architecture: what its points
// record as `unit`, and so whether the reporter holds them against P_matrix or P. Kokkos-free;
// the GEMMs themselves need a GPU.
#include <gtest/gtest.h>

#include "backends/vendor_gemm.hpp"

namespace ridgeline {
namespace {

TEST(GemmUnit, Fp64IsOnMatrixUnitsOnlyWhereTheGpuHasThem) {
  EXPECT_EQ(gemm_unit(GemmType::kFp64, "sm_80"), "tensor");  // A100 DMMA
  EXPECT_EQ(gemm_unit(GemmType::kFp64, "sm_90"), "tensor");  // H100/H200 DMMA
  EXPECT_EQ(gemm_unit(GemmType::kFp64, "sm_90a"), "tensor");
  EXPECT_EQ(gemm_unit(GemmType::kFp64, "sm_89"), "vector");  // RTX 4090: no FP64 tensor cores
  EXPECT_EQ(gemm_unit(GemmType::kFp64, "sm_86"), "vector");
  EXPECT_EQ(gemm_unit(GemmType::kFp64, "gfx90a"), "matrix");                  // MI200
  EXPECT_EQ(gemm_unit(GemmType::kFp64, "gfx942:sramecc+:xnack-"), "matrix");  // MI300
  EXPECT_EQ(gemm_unit(GemmType::kFp64, "gfx1100"), "vector");                 // Radeon
  // An architecture nobody recorded: the vector roof, which a matrix unit would exceed visibly.
  EXPECT_EQ(gemm_unit(GemmType::kFp64, ""), "vector");
}

TEST(GemmUnit, NarrowTypesUseMatrixUnitsAndFp32NeverDoes) {
  for (const char* arch : {"sm_89", "sm_90", "gfx942"}) {
    const std::string matrix = arch[0] == 'g' ? "matrix" : "tensor";
    EXPECT_EQ(gemm_unit(GemmType::kFp16, arch), matrix) << arch;
    EXPECT_EQ(gemm_unit(GemmType::kBf16, arch), matrix) << arch;
    EXPECT_EQ(gemm_unit(GemmType::kTf32, arch), matrix) << arch;
    EXPECT_EQ(gemm_unit(GemmType::kFp32, arch), "vector") << arch;
  }
}

TEST(GemmUnit, Fp8IsOnTensorCoresOfAdaAndHopper) {
  EXPECT_EQ(gemm_unit(GemmType::kFp8E4m3, "sm_89"), "tensor");
  EXPECT_EQ(gemm_unit(GemmType::kFp8E4m3, "sm_90"), "tensor");
  EXPECT_EQ(gemm_type_info(GemmType::kFp8E4m3).dtype, std::string("fp8"));
  EXPECT_EQ(gemm_type_info(GemmType::kFp8E4m3).in_bytes, 1u);
  EXPECT_EQ(gemm_type_unsupported(GemmType::kFp8E4m3, "sm_89", true), "");
  EXPECT_EQ(gemm_type_unsupported(GemmType::kFp8E4m3, "sm_90a", true), "");
  EXPECT_NE(gemm_type_unsupported(GemmType::kFp8E4m3, "sm_86", true), "");    // Ampere: no FP8
  EXPECT_EQ(gemm_type_unsupported(GemmType::kFp8E4m3, "gfx942", true), "");   // via hipBLASLt
  EXPECT_NE(gemm_type_unsupported(GemmType::kFp8E4m3, "gfx942", false), "");  // rocBLAS alone
  EXPECT_NE(gemm_type_unsupported(GemmType::kFp8E4m3, "sm_90", false), "");   // cublasGemmEx
  for (const GemmType t : kGemmTypes) {
    if (t != GemmType::kFp8E4m3) {
      EXPECT_EQ(gemm_type_unsupported(t, "sm_86", false), "");
    }
  }
}

}  // namespace
}  // namespace ridgeline
