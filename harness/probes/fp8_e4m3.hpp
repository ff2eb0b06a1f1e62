#pragma once
// FP8 E4M3 on the host, in both encodings a GPU's matrix units read, Kokkos-free: the vendor
// gemm's fp8 inputs are encoded here and its check decodes them, so the reference sees exactly the
// values the matrix units multiplied.
//
// OCP E4M3 (NVIDIA's __nv_fp8_e4m3; sm_89, sm_90): 1 sign bit, 4 exponent bits (bias 7), 3
// mantissa bits. No infinities: S.1111.111 is NaN (0x7f, 0xff), so the largest finite value is
// S.1111.110 = 448. Exponent field 0 holds the subnormals m·2^-9 (m = 1..7) and ±0.
//
// E4M3 FNUZ (AMD's HIP_R_8F_E4M3_FNUZ, the fp8 of MI300's gfx940/941/942): the same fields with
// bias 8, no infinities and no negative zero ("finite, unsigned zero"): 0x80 is the only NaN, so
// S.1111.111 = 240 is the largest finite value, and exponent field 0 holds m·2^-10 and +0.
#include <cmath>
#include <cstdint>

namespace ridgeline {

inline constexpr double kE4m3Max = 448;
inline constexpr std::uint8_t kE4m3Nan = 0x7f;

inline bool e4m3_is_nan(std::uint8_t code) { return (code & 0x7f) == kE4m3Nan; }

inline double decode_e4m3(std::uint8_t code) {
  const double sign = (code & 0x80) ? -1.0 : 1.0;
  const int exp = (code >> 3) & 0xf, mant = code & 0x7;
  if (e4m3_is_nan(code)) return std::copysign(NAN, sign);  // keeps the sign bit, as encode does
  if (exp == 0) return sign * std::ldexp(double(mant), -9);
  return sign * std::ldexp(double(8 + mant), exp - 10);
}

namespace fp8_detail {

// |x| rounded to nearest, ties to even, on the grid of an E4M3 format whose lowest normal
// binade starts at 2^emin: the spacing is 2^(e-3) for |x| in [2^e, 2^(e+1)), e >= emin, and
// 2^(emin-3) for the subnormals (the same spacing as the lowest normal binade, so one grid).
// a / quantum is exact (a power-of-two scale); nearbyint rounds ties to even in the default
// rounding mode, and the index's parity is the mantissa's, so that is the format's tie rule.
inline double round_magnitude(double a, int emin) {
  const int e = a > 0 ? std::ilogb(a) : emin;
  const double quantum = std::ldexp(1.0, (e < emin ? emin : e) - 3);
  return std::nearbyint(a / quantum) * quantum;
}

// The 7 magnitude bits of a rounded, finite, non-zero magnitude v of a format with exponent
// bias `bias` (its lowest normal binade starts at 2^(1 - bias)).
inline std::uint8_t magnitude_bits(double v, int bias) {
  if (v < std::ldexp(1.0, 1 - bias)) return static_cast<std::uint8_t>(std::ldexp(v, bias + 2));
  const int ve = std::ilogb(v);  // may be one above the input's when rounding carried
  const int mant = static_cast<int>(std::ldexp(v, 3 - ve)) - 8;
  return static_cast<std::uint8_t>(((ve + bias) << 3) | mant);
}

}  // namespace fp8_detail

// Rounds to nearest, ties to even. Beyond the largest finite value (including infinities) it
// saturates to ±448, as the CUDA conversions do with __NV_SATFINITE: the format has no infinity
// to round to. NaN keeps its sign bit.
inline std::uint8_t encode_e4m3(double x) {
  const std::uint8_t sign = std::signbit(x) ? 0x80 : 0x00;
  if (std::isnan(x)) return sign | kE4m3Nan;
  const double a = std::fabs(x);
  if (a >= kE4m3Max) return sign | 0x7e;
  const double v = fp8_detail::round_magnitude(a, -6);  // <= 448
  return v == 0 ? sign : sign | fp8_detail::magnitude_bits(v, 7);
}

inline constexpr double kE4m3FnuzMax = 240;
inline constexpr std::uint8_t kE4m3FnuzNan = 0x80;

inline double decode_e4m3_fnuz(std::uint8_t code) {
  if (code == kE4m3FnuzNan) return NAN;
  const double sign = (code & 0x80) ? -1.0 : 1.0;
  const int exp = (code >> 3) & 0xf, mant = code & 0x7;
  if (exp == 0) return sign * std::ldexp(double(mant), -10);
  return sign * std::ldexp(double(8 + mant), exp - 11);
}

// Rounds to nearest, ties to even, and saturates to ±240 beyond it, as HIP's saturating
// conversion (__hip_cvt_float_to_fp8 with __HIP_SATFINITE) does. A value that rounds to zero is
// +0 whatever its sign (the format has no -0; 0x80 is its NaN), and every NaN is 0x80.
inline std::uint8_t encode_e4m3_fnuz(double x) {
  if (std::isnan(x)) return kE4m3FnuzNan;
  const std::uint8_t sign = std::signbit(x) ? 0x80 : 0x00;
  const double a = std::fabs(x);
  if (a >= kE4m3FnuzMax) return sign | 0x7f;
  const double v = fp8_detail::round_magnitude(a, -7);  // <= 240
  return v == 0 ? 0x00 : sign | fp8_detail::magnitude_bits(v, 8);
}

}  // namespace ridgeline
