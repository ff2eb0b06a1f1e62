#pragma once
// The FMA recurrence shared by the ladder and the peak probe: x <- x·α + β with α = 1 - 2^-16 and
// β = 2^-16. Values move from [0.25, 0.72] towards 1 and stay finite; even after 8192 steps
// α^K ≈ 0.88, so one missing FMA changes the result by far more than an ulp. The inputs take 16
// distinct values, so the host can replay the exact same IEEE operations and demand identical bits.
#include <Kokkos_Core.hpp>

#include <array>
#include <cstddef>

#include "compat/kokkos_compat.hpp"
#include "probes/vector_isa.hpp"
#include "spaces.hpp"

namespace ridgeline {

template <class T>
inline constexpr T kFmaAlpha = T(1) - T(1) / T(65536);
template <class T>
inline constexpr T kFmaBeta = T(1) / T(65536);

template <class T>
KOKKOS_INLINE_FUNCTION T fma_input(std::size_t i) {
  return T(0.25) + T(i % 16) * T(1.0 / 32);
}

// The 16 possible outputs after k steps, computed on the host with the same operations.
template <class T>
std::array<T, 16> fma_reference(long k) {
  std::array<T, 16> out{};
  for (std::size_t r = 0; r < 16; ++r) {
    T x = fma_input<T>(r);
    for (long s = 0; s < k; ++s) x = std::fma(x, kFmaAlpha<T>, kFmaBeta<T>);
    out[r] = x;
  }
  return out;
}

// Independent FMA chains per work item: kHostIsa.chain_vectors registers' worth on hosts (16 zmm
// on AVX-512, 8 ymm on AVX2), 8 per thread on GPUs where warps hide the rest.
template <class Space, class T>
constexpr std::size_t fma_chains() {
  return kIsDeviceSpace<Space> ? kDeviceChains
                               : kHostIsa.chain_vectors * kHostIsa.vector_bytes / sizeof(T);
}

}  // namespace ridgeline
