// The host FP8 E4M3 codec the vendor gemm's fp8 inputs and their check go through: every code
// decodes to the value the format defines and encodes back to itself, rounding is to nearest
// with ties to even, and out-of-range values saturate (the format has no infinity).
#include "harness/probes/fp8_e4m3.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace ridgeline {
namespace {

// The value of a code from the format's definition, written independently of decode_e4m3:
// (-1)^s · 2^(E-7) · (1 + M/8) for E > 0, (-1)^s · 2^-6 · M/8 for E = 0.
double defined_value(int code) {
  const int s = code >> 7, e = (code >> 3) & 15, m = code & 7;
  const double magnitude = e == 0 ? (m / 8.0) / 64.0 : std::pow(2.0, e - 7) * (1 + m / 8.0);
  return s ? -magnitude : magnitude;
}

TEST(Fp8E4m3, EveryCodeDecodesToItsDefinedValueAndRoundTrips) {
  int nans = 0;
  for (int code = 0; code < 256; ++code) {
    SCOPED_TRACE(code);
    const double v = decode_e4m3(std::uint8_t(code));
    if ((code & 0x7f) == 0x7f) {  // S.1111.111
      EXPECT_TRUE(std::isnan(v));
      ++nans;
    } else {
      EXPECT_EQ(v, defined_value(code));
      EXPECT_EQ(std::signbit(v), code >= 128);  // -0 is 0x80
    }
    EXPECT_EQ(encode_e4m3(v), code);  // NaN keeps its sign: 0x7f and 0xff
  }
  EXPECT_EQ(nans, 2);
  EXPECT_EQ(decode_e4m3(0x7e), 448);  // the largest finite value
  EXPECT_EQ(decode_e4m3(0xfe), -448);
  EXPECT_EQ(decode_e4m3(0x01), std::ldexp(1.0, -9));  // the smallest subnormal
  EXPECT_EQ(decode_e4m3(0x08), std::ldexp(1.0, -6));  // the smallest normal
}

TEST(Fp8E4m3, RoundsToNearestWithTiesToEven) {
  // Between every pair of neighbouring finite positive codes: just below the midpoint goes down,
  // just above goes up, the midpoint itself to the code with an even mantissa.
  for (int lo = 0; lo < 0x7e; ++lo) {
    SCOPED_TRACE(lo);
    const double a = decode_e4m3(std::uint8_t(lo)), b = decode_e4m3(std::uint8_t(lo + 1));
    const double mid = (a + b) / 2;
    EXPECT_EQ(encode_e4m3(std::nextafter(mid, 0.0)), lo);
    EXPECT_EQ(encode_e4m3(std::nextafter(mid, 1e9)), lo + 1);
    EXPECT_EQ(encode_e4m3(mid), lo % 2 == 0 ? lo : lo + 1);
    EXPECT_EQ(encode_e4m3(-mid), 0x80 | (lo % 2 == 0 ? lo : lo + 1));
  }
  // Named cases: 1 + 1/16 is halfway between 1 (mantissa 0) and 1.125 (mantissa 1).
  EXPECT_EQ(encode_e4m3(1.0625), encode_e4m3(1.0));
  EXPECT_EQ(encode_e4m3(1.1875), encode_e4m3(1.25));  // between 1.125 and 1.25: to 1.25 (even)
  // A carry into the next binade: 1.9375 lies halfway between 1.875 and 2.
  EXPECT_EQ(decode_e4m3(encode_e4m3(1.9375)), 2.0);
  // Half the smallest subnormal is a tie between 0 and 2^-9: to 0 (even).
  EXPECT_EQ(encode_e4m3(std::ldexp(1.0, -10)), 0x00);
  EXPECT_EQ(encode_e4m3(std::ldexp(1.5, -10)), 0x01);
}

TEST(Fp8E4m3, SaturatesBeyondTheLargestFiniteValue) {
  // 464 is halfway between 448 and the 480 the format does not have (S.1111.111 is NaN).
  for (double x :
       {448.0, 449.0, 463.9, 464.0, 480.0, 1e6, 1e300, std::numeric_limits<double>::infinity()}) {
    EXPECT_EQ(encode_e4m3(x), 0x7e) << x;
    EXPECT_EQ(encode_e4m3(-x), 0xfe) << x;
  }
  EXPECT_EQ(encode_e4m3(std::numeric_limits<double>::quiet_NaN()), 0x7f);
  EXPECT_EQ(encode_e4m3(0.0), 0x00);
  EXPECT_EQ(encode_e4m3(-0.0), 0x80);
  EXPECT_EQ(encode_e4m3(1e-30), 0x00);
}

}  // namespace
}  // namespace ridgeline
