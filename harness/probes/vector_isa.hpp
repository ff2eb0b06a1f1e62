#pragma once
// The vector ISA the host probes are compiled for, and how many independent vector chains or
// accumulators they keep in registers. Chosen from the compiler's target macros, so an AVX2 build
// of the same source does not spill (16 ymm registers) and an AVX-512 build fills its 32 zmm.
#include <cstddef>

namespace ridgeline {

struct VectorIsa {
  const char* name;
  std::size_t vector_bytes;   // one register
  std::size_t chain_vectors;  // registers of independent FMA chains (latency × pipes, with room
                              // left for α, β and a load)
  std::size_t accumulator_vectors;  // registers of independent partial sums in streaming kernels
};

// Per ISA: AVX-512 has 32 registers and FMA latency 4 × 2 pipes, so 16 chains keep both pipes
// busy with half the file free; AVX2 and SSE have 16 registers, so 8 chains (4 × 2) leave room for
// the constants. NEON and SVE have 32 registers and up to 4 FMA pipes (Neoverse V1/V2), so 16.
inline constexpr VectorIsa kHostIsa =
#if defined(__AVX512F__)
    {"avx512", 64, 16, 8};
#elif defined(__AVX2__) || defined(__AVX__)
    {"avx2", 32, 8, 8};
#elif defined(__ARM_FEATURE_SVE) && defined(__ARM_FEATURE_SVE_BITS) && __ARM_FEATURE_SVE_BITS > 0
    {"sve", __ARM_FEATURE_SVE_BITS / 8, 16, 8};
#elif defined(__ARM_FEATURE_SVE)
    {"sve-vla", 16, 16, 8};  // length-agnostic SVE: sized for the 128-bit minimum
#elif defined(__ARM_NEON) || defined(__aarch64__)
    {"neon", 16, 16, 8};
#elif defined(__SSE2__)
    {"sse2", 16, 8, 8};
#else
    {"scalar", 8, 8, 8};
#endif

// GPUs: 8 chains per thread; thousands of threads per SM hide the rest of the latency.
inline constexpr VectorIsa kDeviceIsa = {"gpu", 0, 0, 0};
inline constexpr std::size_t kDeviceChains = 8;

}  // namespace ridgeline
