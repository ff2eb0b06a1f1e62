#pragma once
// Half precision (fp16, bf16) for the GPU probes: host-side encoding and rounding (bit-exact,
// IEEE round-to-nearest-even, for the host replay), the packed device types (__half2 /
// __nv_bfloat162 on CUDA, their HIP counterparts), and the recurrence the probes run.
//
// The recurrence: x <- fma(x, -1, b_s), b_s alternating 0 and d = 1/16. Two steps add d exactly
// (x -> -x -> x + d), so the state is a counter that is exact while |x| <= 2^p·d (p = significand
// bits: 11 for fp16, 8 for bf16): every missing or extra FMA changes the result (in all lanes but
// one whose counter may sit at 0, where negation is invisible). The contracting
// fp32/fp64 recurrence (fma_recurrence.hpp) cannot be used: with 11 or 8 bits it reaches its
// fixed point within a few steps and then hides missing FMAs. Inputs start at -2^p·d + r·d
// (r = 0..15), so the count stays exact for K up to 2·(2^(p+1) - 16): K <= 8160 for fp16,
// K <= 992 for bf16. Beyond that (bf16 K >= 1024) values round, the host replays the same
// rounding and the check is still bit-exact, but no longer sensitive to the FMA count; the count is
// then checked in the compiled code (backends/README.md).
#include <Kokkos_Core.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

// RIDGELINE_PACKED_HALF: the packed fp16 type exists; RIDGELINE_PACKED_BF16: the packed bf16
// type too (Packed<Bf16> below).
#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#define RIDGELINE_PACKED_HALF 1
#define RIDGELINE_PACKED_BF16 1
#elif defined(KOKKOS_ENABLE_HIP)
// hip_fp16.h has __half2/__hfma2 (compiled with ROCm 5.2, not run). __hip_bfloat162 comes with
// hip_bf16.h, ROCm >= 6.0; ROCm 5 has only the scalar hip_bfloat16.h.
#include <hip/hip_fp16.h>
#define RIDGELINE_PACKED_HALF 1
#if __has_include(<hip/hip_bf16.h>)
#include <hip/hip_bf16.h>
#define RIDGELINE_PACKED_BF16 1
#endif
#endif

namespace ridgeline {

struct Fp16 {
  static constexpr const char* kName = "fp16";
  static constexpr int kSignificandBits = 11;  // with the implicit bit
};
struct Bf16 {
  static constexpr const char* kName = "bf16";
  static constexpr int kSignificandBits = 8;
};

// ---- host encoding (round to nearest even; the probes' values never overflow) --------------

inline std::uint32_t float_bits(float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
inline float bits_float(std::uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

inline std::uint16_t encode_half(Fp16, float f) {
  const std::uint32_t b = float_bits(f);
  const std::uint32_t sign = (b >> 16) & 0x8000u;
  const float a = std::fabs(f);
  if (std::isnan(f)) return static_cast<std::uint16_t>(sign | 0x7e00u);
  if (a >= 65520.0f) return static_cast<std::uint16_t>(sign | 0x7c00u);  // rounds to infinity
  if (a < 0x1p-14f) {  // subnormal: a multiple of 2^-24, rounded (nearbyint: nearest even)
    return static_cast<std::uint16_t>(sign |
                                      static_cast<std::uint32_t>(std::nearbyint(a * 0x1p24f)));
  }
  std::uint32_t m = float_bits(a);
  m += 0xfffu + ((m >> 13) & 1u);  // round the 13 dropped bits to nearest even
  const std::uint32_t exp = (m >> 23) - 127 + 15, mant = (m >> 13) & 0x3ffu;
  return static_cast<std::uint16_t>(sign | (exp << 10) | mant);
}
inline float decode_half(Fp16, std::uint16_t h) {
  const float sign = (h & 0x8000u) ? -1.0f : 1.0f;
  const int exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  if (exp == 0) return sign * std::ldexp(float(mant), -24);
  if (exp == 31) return mant ? NAN : sign * INFINITY;
  return sign * std::ldexp(float(mant | 0x400), exp - 25);
}
inline std::uint16_t encode_half(Bf16, float f) {
  std::uint32_t b = float_bits(f);
  if (std::isnan(f)) return static_cast<std::uint16_t>((b >> 16) | 0x40u);
  b += 0x7fffu + ((b >> 16) & 1u);  // round the 16 dropped bits to nearest even
  return static_cast<std::uint16_t>(b >> 16);
}
inline float decode_half(Bf16, std::uint16_t h) { return bits_float(std::uint32_t(h) << 16); }

// Rounds a float to the nearest value of H (ties to even), as a float.
template <class H>
float round_to(float f) {
  return decode_half(H{}, encode_half(H{}, f));
}

// Two lanes in one 32-bit word, lane 0 in the low half (the layout of __half2 / __nv_bfloat162).
template <class H>
std::uint32_t pack_pair(float lo, float hi) {
  return std::uint32_t(encode_half(H{}, lo)) | (std::uint32_t(encode_half(H{}, hi)) << 16);
}

// ---- the recurrence --------------------------------------------------------------------------

inline constexpr float kHalfStep = 1.0f / 16;  // d

template <class H>
float half_input(std::size_t lane) {
  return -std::ldexp(kHalfStep, H::kSignificandBits) + float(lane % 16) * kHalfStep;
}

// Largest K for which the counter stays exact (see the header comment).
template <class H>
constexpr long half_exact_k_max() {
  return 2 * ((2L << H::kSignificandBits) - 16);
}

// The 16 possible lane values after k steps, replayed on the host: each step is one fused
// multiply-add with one rounding to H (x·(-1) + b is exact in float for these values, so rounding
// the float result once is exactly what the device's fma.rn does).
template <class H>
std::array<float, 16> half_reference(long k) {
  std::array<float, 16> out{};
  for (std::size_t r = 0; r < 16; ++r) {
    float x = half_input<H>(r);
    for (long s = 0; s < k; ++s) x = round_to<H>(std::fma(x, -1.0f, (s & 1) ? kHalfStep : 0.0f));
    out[r] = x;
  }
  return out;
}

#if defined(RIDGELINE_PACKED_HALF)
// ---- packed device arithmetic ----------------------------------------------------------------

template <class H>
struct Packed;

template <>
struct Packed<Fp16> {
  using type = __half2;
};
#if defined(RIDGELINE_PACKED_BF16)
template <>
struct Packed<Bf16> {
#if defined(KOKKOS_ENABLE_CUDA)
  using type = __nv_bfloat162;
#else
  using type = __hip_bfloat162;
#endif
};
#endif

template <class P>
KOKKOS_FORCEINLINE_FUNCTION P packed_from_bits(std::uint32_t bits) {
  static_assert(sizeof(P) == sizeof bits, "a packed pair is one 32-bit word");
  P p;
  memcpy(static_cast<void*>(&p), &bits, sizeof p);  // the types have no trivial assignment
  return p;
}

// One packed FMA (two lanes, 4 FLOPs): HFMA2 on NVIDIA (fma.rn.f16x2 / fma.rn.bf16x2 in PTX),
// v_pk_fma_f16 on AMD. Only device code calls it; the host pass of the compiler sees a stub.
template <class P>
KOKKOS_FORCEINLINE_FUNCTION P packed_fma(P a, P b, P c) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  return __hfma2(a, b, c);
#else
  (void)a;
  (void)b;
  return c;  // never runs: these probes are built for device spaces only
#endif
}

// Two floats (exact in H) rounded into one packed pair, in device code.
template <class P>
KOKKOS_FORCEINLINE_FUNCTION P packed_from_floats(float lo, float hi) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#if defined(RIDGELINE_PACKED_BF16)
  if constexpr (!std::is_same_v<P, typename Packed<Fp16>::type>)
    return __floats2bfloat162_rn(lo, hi);
  else
#endif
    return __floats2half2_rn(lo, hi);
#else
  (void)lo;
  (void)hi;
  return P();
#endif
}

template <class P>
KOKKOS_FORCEINLINE_FUNCTION float packed_lane_sum(P p) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  float s = __low2float(p);
  s += __high2float(p);
  return s;
#else
  (void)p;
  return 0;
#endif
}
#endif  // RIDGELINE_PACKED_HALF

}  // namespace ridgeline
