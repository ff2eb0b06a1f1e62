#pragma once
// Every HIP runtime call goes through RIDGELINE_HIP_CHECK (throws with file, line, call, error).
// Compiled with hipcc 5.2.3, not run (no AMD GPU).
#include <hip/hip_runtime_api.h>

#include <stdexcept>
#include <string>

namespace ridgeline::hip {

[[noreturn]] inline void throw_hip_error(hipError_t e, const char* call, const char* file,
                                         int line) {
  throw std::runtime_error(std::string(file) + ":" + std::to_string(line) + ": " + call + ": " +
                           hipGetErrorName(e) + ": " + hipGetErrorString(e));
}

}  // namespace ridgeline::hip

#define RIDGELINE_HIP_CHECK(call)                                                       \
  do {                                                                                  \
    const hipError_t ridgeline_hip_err_ = (call);                                       \
    if (ridgeline_hip_err_ != hipSuccess)                                               \
      ::ridgeline::hip::throw_hip_error(ridgeline_hip_err_, #call, __FILE__, __LINE__); \
  } while (0)
