#pragma once
// One error check for the GPU runtimes' calls, written once for CUDA and HIP: each runtime's
// header (backends/cuda/cuda_check.hpp, backends/hip/hip_check.hpp) names its error type, its
// success value and its two error-text functions, and gets RIDGELINE_<RUNTIME>_CHECK(call): a
// failure throws with file, line, the call's text, the error's name and its description.
// Vendor-free, so the message is unit-tested in the CPU build.
#include <stdexcept>
#include <string>

namespace ridgeline {

[[noreturn]] inline void throw_gpu_error(const char* error_name, const char* error_text,
                                         const char* call, const char* file, int line) {
  throw std::runtime_error(std::string(file) + ":" + std::to_string(line) + ": " + call + ": " +
                           error_name + ": " + error_text);
}

}  // namespace ridgeline

#define RIDGELINE_GPU_CHECK(call, Error, success, name_of, text_of)                          \
  do {                                                                                       \
    const Error ridgeline_gpu_err_ = (call);                                                 \
    if (ridgeline_gpu_err_ != (success))                                                     \
      ::ridgeline::throw_gpu_error(name_of(ridgeline_gpu_err_), text_of(ridgeline_gpu_err_), \
                                   #call, __FILE__, __LINE__);                               \
  } while (0)
