#pragma once
// The FMA recurrence shared by the ladders and the peak probe: x <- x·α + β with β = 2^-16.
//
// Peak and the two-array ladder restart from the inputs on every call and use α = 1 - 2^-16:
// values move from [0.25, 0.72] towards 1 and stay finite; even after 8192 steps α^K ≈ 0.88, so
// one missing FMA changes the result by far more than an ulp.
//
// The in-place ladder keeps its values from call to call, so a fixed α would let them settle on
// the fixed point 1 (after ~10^6 steps), where a dropped FMA no longer changes a bit. It
// alternates α = 1 - 2^-16 on odd calls and 1 + 2^-16 on even calls: the first pulls towards 1,
// the second pushes away from -1, and together they drift slowly upwards (bounded near 2^17),
// so every step changes the value by about 2^-16 of itself, hundreds of ulps even in fp32.
//
// The inputs take 16 distinct values, so the host replays the exact same IEEE operations on 16
// values and demands identical bits.
#include <Kokkos_Core.hpp>

#include <array>
#include <cstddef>

#include "backends/spaces.hpp"
#include "harness/compat/kokkos_compat.hpp"
#include "harness/probes/vector_isa.hpp"

namespace ridgeline {

template <class T>
inline constexpr T kFmaAlpha = T(1) - T(1) / T(65536);
template <class T>
inline constexpr T kFmaAlphaUp = T(1) + T(1) / T(65536);
template <class T>
inline constexpr T kFmaBeta = T(1) / T(65536);

// α and β as the kernels take them: run-time values, carried in the kernel's arguments. A
// constant the compiler can see (a constexpr, or a const local initialised from one, which a
// lambda then does not even capture) is folded into every FMA, and LLVM 19 (ROCm 6's compilers)
// then emits v_fmac_f64 plus a v_mov per FMA on gfx90a: half the fp64 rate (LLVM 15 kept
// v_fma_f64). The volatile read hides the value from every compiler; scripts/check-gpu-codegen
// and scripts/check-hot-loops check the result.
template <class T>
T runtime_value(T v) {
  volatile T r = v;
  return r;
}

// α of the in-place ladder's call number `call` (1-based: the first call pulls towards 1).
template <class T>
constexpr T in_place_alpha(long call) {
  return call % 2 ? kFmaAlpha<T> : kFmaAlphaUp<T>;
}

template <class T>
KOKKOS_INLINE_FUNCTION T fma_input(std::size_t i) {
  return T(0.25) + T(i % 16) * T(1.0 / 32);
}

template <class T>
using FmaValues = std::array<T, 16>;

template <class T>
FmaValues<T> fma_inputs() {
  FmaValues<T> v{};
  for (std::size_t r = 0; r < 16; ++r) v[r] = fma_input<T>(r);
  return v;
}

// `steps` steps of the recurrence with `alpha` on the 16 values, on the host (vectorises).
template <class T>
void fma_replay(FmaValues<T>& v, long steps, T alpha) {
  const T beta = kFmaBeta<T>;
  for (long s = 0; s < steps; ++s)
    for (auto& x : v) x = compat::fma(x, alpha, beta);
}

// The 16 possible outputs after k steps with α = 1 - 2^-16 (peak, two-array ladder).
template <class T>
FmaValues<T> fma_reference(long k) {
  FmaValues<T> v = fma_inputs<T>();
  fma_replay(v, k, kFmaAlpha<T>);
  return v;
}

// The 16 possible values of the in-place ladder after `calls` calls of `k_per_call` steps each.
template <class T>
FmaValues<T> in_place_reference(long k_per_call, long calls) {
  FmaValues<T> v = fma_inputs<T>();
  for (long c = 1; c <= calls; ++c) fma_replay(v, k_per_call, in_place_alpha<T>(c));
  return v;
}

// Independent FMA chains per work item: kHostIsa.chain_vectors registers' worth on hosts (16 zmm
// on AVX-512, 8 ymm on AVX2), 8 per thread on GPUs where warps hide the rest.
template <class Space, class T>
constexpr std::size_t fma_chains() {
  return kIsDeviceSpace<Space> ? kDeviceChains
                               : kHostIsa.chain_vectors * kHostIsa.vector_bytes / sizeof(T);
}

}  // namespace ridgeline
