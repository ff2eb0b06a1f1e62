#pragma once
// FP8 E4M3 (the OCP 8-bit format NVIDIA calls __nv_fp8_e4m3) on the host, Kokkos-free: the vendor
// gemm's fp8 inputs are encoded here and its check decodes them, so the reference sees exactly the
// values the tensor cores multiplied.
//
// Layout: 1 sign bit, 4 exponent bits (bias 7), 3 mantissa bits. No infinities: S.1111.111 is
// NaN (0x7f, 0xff), so the largest finite value is S.1111.110 = 448. Exponent field 0 holds the
// subnormals m·2^-9 (m = 1..7) and ±0.
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

// Rounds to nearest, ties to even. Beyond the largest finite value (including infinities) it
// saturates to ±448, as the CUDA conversions do with __NV_SATFINITE: the format has no infinity
// to round to. NaN keeps its sign bit.
inline std::uint8_t encode_e4m3(double x) {
  const std::uint8_t sign = std::signbit(x) ? 0x80 : 0x00;
  if (std::isnan(x)) return sign | kE4m3Nan;
  const double a = std::fabs(x);
  if (a >= kE4m3Max) return sign | 0x7e;
  // The spacing of representable values around a: 2^(e-3) for a in [2^e, 2^(e+1)), e >= -6;
  // 2^-9 for the subnormals (the same spacing as the lowest normal binade, so one grid).
  const int e = a > 0 ? std::ilogb(a) : -6;
  const double quantum = std::ldexp(1.0, (e < -6 ? -6 : e) - 3);
  // a / quantum is exact (a power-of-two scale); nearbyint rounds ties to even in the default
  // rounding mode, and the index's parity is the mantissa's, so that is the format's tie rule.
  const double v = std::nearbyint(a / quantum) * quantum;  // the rounded magnitude, <= 448
  if (v == 0) return sign;
  if (v < 0x1p-6) return sign | static_cast<std::uint8_t>(std::ldexp(v, 9));
  const int ve = std::ilogb(v);  // may be e + 1 when rounding carried into the next binade
  const int mant = static_cast<int>(std::ldexp(v, 3 - ve)) - 8;
  return sign | static_cast<std::uint8_t>(((ve + 7) << 3) | mant);
}

}  // namespace ridgeline
