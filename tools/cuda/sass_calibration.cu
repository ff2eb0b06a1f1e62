// Calibration for inspect_kernels.py: kernels with 7 and 13 chained FMAs per type. Compile with
// `nvcc -arch=sm_90 -cubin -o calib.cubin sass_calibration.cu` and run
// `inspect_kernels.py --calibrate calib.cubin`: the counts must read 7 and 13.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#define FMA_KERNEL(NAME, T, N, OP)                                 \
  __global__ void NAME(T* p, T a, T b) {                           \
    T x = p[threadIdx.x];                                          \
    _Pragma("unroll") for (int i = 0; i < N; ++i) x = OP(x, a, b); \
    p[threadIdx.x] = x;                                            \
  }
FMA_KERNEL(f32_7, float, 7, fmaf)
FMA_KERNEL(f32_13, float, 13, fmaf)
FMA_KERNEL(f64_7, double, 7, fma)
FMA_KERNEL(f64_13, double, 13, fma)
FMA_KERNEL(h2_7, __half2, 7, __hfma2)
FMA_KERNEL(h2_13, __half2, 13, __hfma2)
FMA_KERNEL(b2_7, __nv_bfloat162, 7, __hfma2)
FMA_KERNEL(b2_13, __nv_bfloat162, 13, __hfma2)
// Shared-memory access widths for check_codegen.py (LDS 0x984, STS 0x388; width in hi bits 8-11:
// 0x8 32-bit, 0xA 64-bit, 0xC 128-bit): each kernel has one LDS and one STS of its width.
#define SHARED_KERNEL(NAME, T)                                         \
  __global__ void NAME(const T* in, T* out) {                          \
    __shared__ T s[1024];                                              \
    for (int i = threadIdx.x; i < 1024; i += blockDim.x) s[i] = in[i]; \
    __syncthreads();                                                   \
    T x = s[(threadIdx.x * 7) % 1024];                                 \
    out[threadIdx.x] = x;                                              \
  }
SHARED_KERNEL(shared_32, float)
SHARED_KERNEL(shared_64, float2)
SHARED_KERNEL(shared_128, float4)
