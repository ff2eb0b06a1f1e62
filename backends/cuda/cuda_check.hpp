#pragma once
// Every CUDA runtime call goes through RIDGELINE_CUDA_CHECK: a failure throws with file, line, the
// call's text and the runtime's error string.
#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace ridgeline::cuda {

[[noreturn]] inline void throw_cuda_error(cudaError_t e, const char* call, const char* file,
                                          int line) {
  throw std::runtime_error(std::string(file) + ":" + std::to_string(line) + ": " + call + ": " +
                           cudaGetErrorName(e) + ": " + cudaGetErrorString(e));
}

}  // namespace ridgeline::cuda

#define RIDGELINE_CUDA_CHECK(call)                                                         \
  do {                                                                                     \
    const cudaError_t ridgeline_cuda_err_ = (call);                                        \
    if (ridgeline_cuda_err_ != cudaSuccess)                                                \
      ::ridgeline::cuda::throw_cuda_error(ridgeline_cuda_err_, #call, __FILE__, __LINE__); \
  } while (0)
