#pragma once
// Every HIP runtime call goes through RIDGELINE_HIP_CHECK (backends/gpu_check.hpp), as CUDA's do.
// Compiled with hipcc 5.2.3, not run (no AMD GPU).
#include <hip/hip_runtime_api.h>

#include "backends/gpu_check.hpp"

#define RIDGELINE_HIP_CHECK(call) \
  RIDGELINE_GPU_CHECK(call, hipError_t, hipSuccess, hipGetErrorName, hipGetErrorString)
