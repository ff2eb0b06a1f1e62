// The host FP8 E4M3 codecs (OCP, and AMD's FNUZ) the vendor gemm's fp8 inputs and their check go
// through: every code decodes to the value the format defines and encodes back to itself, rounding
// is to nearest with ties to even, and out-of-range values saturate (neither has an infinity).
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

// The FNUZ value of a code from its definition, written independently of decode_e4m3_fnuz:
// (-1)^s · 2^(E-8) · (1 + M/8) for E > 0, (-1)^s · 2^-7 · M/8 for E = 0; 0x80 is NaN.
double defined_fnuz_value(int code) {
  const int s = code >> 7, e = (code >> 3) & 15, m = code & 7;
  const double magnitude = e == 0 ? (m / 8.0) / 128.0 : std::pow(2.0, e - 8) * (1 + m / 8.0);
  return s ? -magnitude : magnitude;
}

TEST(Fp8E4m3Fnuz, EveryCodeDecodesToItsDefinedValueAndRoundTrips) {
  for (int code = 0; code < 256; ++code) {
    SCOPED_TRACE(code);
    const double v = decode_e4m3_fnuz(std::uint8_t(code));
    if (code == 0x80) {
      EXPECT_TRUE(std::isnan(v));  // the only NaN; there is no -0
    } else {
      EXPECT_EQ(v, defined_fnuz_value(code));
      EXPECT_EQ(encode_e4m3_fnuz(v), code);
    }
  }
  EXPECT_EQ(decode_e4m3_fnuz(0x7f), 240);  // S.1111.111 is finite here
  EXPECT_EQ(decode_e4m3_fnuz(0xff), -240);
  EXPECT_EQ(decode_e4m3_fnuz(0x01), std::ldexp(1.0, -10));  // the smallest subnormal
  EXPECT_EQ(decode_e4m3_fnuz(0x08), std::ldexp(1.0, -7));   // the smallest normal
  // The same value is a different code in the two encodings: 1.0 is 0x38 in OCP, 0x40 in FNUZ.
  EXPECT_EQ(encode_e4m3(1.0), 0x38);
  EXPECT_EQ(encode_e4m3_fnuz(1.0), 0x40);
}

TEST(Fp8E4m3Fnuz, RoundsToNearestWithTiesToEvenAndSaturates) {
  for (int lo = 0; lo < 0x7f; ++lo) {
    SCOPED_TRACE(lo);
    const double a = decode_e4m3_fnuz(std::uint8_t(lo)), b = decode_e4m3_fnuz(std::uint8_t(lo + 1));
    const double mid = (a + b) / 2;
    EXPECT_EQ(encode_e4m3_fnuz(std::nextafter(mid, 0.0)), lo);
    EXPECT_EQ(encode_e4m3_fnuz(std::nextafter(mid, 1e9)), lo + 1);
    EXPECT_EQ(encode_e4m3_fnuz(mid), lo % 2 == 0 ? lo : lo + 1);
    if (mid > 0x1p-11) {  // below it the tie goes to +0 (no -0 to round to)
      EXPECT_EQ(encode_e4m3_fnuz(-mid), 0x80 | (lo % 2 == 0 ? lo : lo + 1));
    }
  }
  for (double x : {240.0, 247.9, 248.0, 1e6, std::numeric_limits<double>::infinity()}) {
    EXPECT_EQ(encode_e4m3_fnuz(x), 0x7f) << x;
    EXPECT_EQ(encode_e4m3_fnuz(-x), 0xff) << x;
  }
  // No negative zero: what rounds to zero is +0, and NaN of either sign is 0x80.
  EXPECT_EQ(encode_e4m3_fnuz(-0.0), 0x00);
  EXPECT_EQ(encode_e4m3_fnuz(-std::ldexp(1.0, -11)), 0x00);  // a tie between 0 and 2^-10
  EXPECT_EQ(encode_e4m3_fnuz(-std::numeric_limits<double>::quiet_NaN()), 0x80);
}

TEST(Fp8E4m3Fnuz, TheGemmDataRoundsWithinAnUlpInBothAndOcpValuesAreExactInFnuz) {
  // The gemm's data, |x| in [2^-7, 1): 3 mantissa bits in both encodings, except [2^-7, 2^-6),
  // which is subnormal in OCP (spacing 2^-9) and normal in FNUZ (2^-10), so every OCP value there
  // is also an FNUZ value.
  for (double x = 0x1p-7; x < 1; x *= 1.0137) {
    SCOPED_TRACE(x);
    const double ocp = decode_e4m3(encode_e4m3(x));
    const double fnuz = decode_e4m3_fnuz(encode_e4m3_fnuz(x));
    EXPECT_LE(std::fabs(fnuz - x), std::fabs(x) / 16);
    EXPECT_LE(std::fabs(ocp - x), x < 0x1p-6 ? 0x1p-10 : std::fabs(x) / 16);
    EXPECT_EQ(decode_e4m3_fnuz(encode_e4m3_fnuz(ocp)), ocp);
  }
}

}  // namespace
}  // namespace ridgeline
