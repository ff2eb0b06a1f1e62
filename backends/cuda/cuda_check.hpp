#pragma once
// Every CUDA runtime call goes through RIDGELINE_CUDA_CHECK (backends/gpu_check.hpp): a failure
// throws with file, line, the call's text and the runtime's error name and string.
#include <cuda_runtime_api.h>

#include "backends/gpu_check.hpp"

#define RIDGELINE_CUDA_CHECK(call) \
  RIDGELINE_GPU_CHECK(call, cudaError_t, cudaSuccess, cudaGetErrorName, cudaGetErrorString)
