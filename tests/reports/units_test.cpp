// Numbers as people read them: a few significant digits, never an exponent, units that fit.
#include <gtest/gtest.h>

#include "core/units.hpp"

namespace ridgeline {
namespace {

TEST(Units, SignificantDigitsWithoutExponent) {
  EXPECT_EQ(format_sig(4.46025), "4.46");
  EXPECT_EQ(format_sig(1000), "1000");
  EXPECT_EQ(format_sig(0.0625), "0.0625");
  EXPECT_EQ(format_sig(0.083333), "0.0833");
  EXPECT_EQ(format_sig(32), "32");
  EXPECT_EQ(format_sig(9.9996), "10");  // rounding carries into a new digit
  EXPECT_EQ(format_sig(163.889), "164");
  EXPECT_EQ(format_sig(0), "0");
}

TEST(Units, SizesStayInTheirUnit) {
  EXPECT_EQ(format_size_bytes(1020 * 1024.0), "1020 KiB");  // was "1.02e+03 KiB"
  EXPECT_EQ(format_size_bytes(1 << 20), "1 MiB");
  EXPECT_EQ(format_size_bytes(48 * 1024.0), "48 KiB");
  EXPECT_EQ(format_size_bytes(1.5 * (1 << 30)), "1.5 GiB");
  EXPECT_EQ(format_size_bytes(100), "100 B");
}

TEST(Units, TimesInTheUnitThatFits) {
  EXPECT_EQ(format_seconds(9.419e-05), "94.2 µs");
  EXPECT_EQ(format_seconds(0.0001719), "172 µs");
  EXPECT_EQ(format_seconds(0.00172), "1.72 ms");
  EXPECT_EQ(format_seconds(3.05), "3.05 s");
  EXPECT_EQ(format_seconds(5e-8), "50 ns");
}

TEST(Units, IntensityAndIntervals) {
  EXPECT_EQ(format_intensity(4.46025), "4.46 FLOP/byte");
  EXPECT_EQ(format_intensity(1024), "1024 FLOP/byte");
  EXPECT_EQ(format_intensity_ci({4.2, 6.049}), "[4.2, 6.05]");
}

}  // namespace
}  // namespace ridgeline
