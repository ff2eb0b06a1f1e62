// The host side of the fp16/bf16 probes: round-to-nearest-even encoding, the exact counter
// recurrence the device probes are checked against, and how far it stays sensitive to the FMA
// count. Runs in the CPU build; the device kernels themselves need a GPU.
#include <gtest/gtest.h>

#include <array>
#include <cmath>

#include "harness/probes/half_precision.hpp"

namespace ridgeline {
namespace {

TEST(HalfEncoding, Fp16RoundsToNearestEven) {
  EXPECT_EQ(encode_half(Fp16{}, 1.0f), 0x3c00);
  EXPECT_EQ(encode_half(Fp16{}, -2.0f), 0xc000);
  EXPECT_EQ(encode_half(Fp16{}, 65504.0f), 0x7bff);
  EXPECT_EQ(encode_half(Fp16{}, 1.0f + 0x1p-11f), 0x3c00);      // tie, to even
  EXPECT_EQ(encode_half(Fp16{}, 1.0f + 3 * 0x1p-11f), 0x3c02);  // tie, to even (up)
  EXPECT_EQ(encode_half(Fp16{}, 1.0f + 0x1p-10f), 0x3c01);
  EXPECT_EQ(encode_half(Fp16{}, 0x1p-24f), 0x0001);  // smallest subnormal
  EXPECT_EQ(encode_half(Fp16{}, 0x1p-25f), 0x0000);  // tie, to even (zero)
  EXPECT_EQ(encode_half(Fp16{}, 3 * 0x1p-25f), 0x0002);
  EXPECT_EQ(encode_half(Fp16{}, 0x1p-14f), 0x0400);  // smallest normal
  EXPECT_EQ(encode_half(Fp16{}, 70000.0f), 0x7c00);  // overflow
}

TEST(HalfEncoding, Bf16RoundsToNearestEven) {
  EXPECT_EQ(encode_half(Bf16{}, 1.0f), 0x3f80);
  EXPECT_EQ(encode_half(Bf16{}, -1.0f), 0xbf80);
  EXPECT_EQ(encode_half(Bf16{}, 1.0f + 0x1p-8f), 0x3f80);      // tie, to even
  EXPECT_EQ(encode_half(Bf16{}, 1.0f + 3 * 0x1p-8f), 0x3f82);  // tie, to even (up)
  EXPECT_EQ(encode_half(Bf16{}, 1.0f + 0x1p-7f), 0x3f81);
  EXPECT_EQ(pack_pair<Bf16>(1.0f, -1.0f), 0xbf803f80u);  // lane 0 in the low half
}

TEST(HalfEncoding, EveryFiniteValueRoundTrips) {
  for (std::uint32_t h = 0; h < 0x10000; ++h) {
    const auto b = static_cast<std::uint16_t>(h);
    if ((b & 0x7c00) != 0x7c00) {
      ASSERT_EQ(encode_half(Fp16{}, decode_half(Fp16{}, b)), b) << std::hex << h;
    }
    if ((b & 0x7f80) != 0x7f80) {
      ASSERT_EQ(encode_half(Bf16{}, decode_half(Bf16{}, b)), b) << std::hex << h;
    }
  }
}

template <class H>
void expect_exact_counter(long k_max) {
  for (long k : {0L, 1L, 2L, 3L, 64L, 65L, 512L, k_max - 1, k_max}) {
    const auto ref = half_reference<H>(k);
    for (std::size_t r = 0; r < 16; ++r) {
      const float x0 = half_input<H>(r);
      const float want =
          (k % 2 == 0) ? x0 + float(k / 2) * kHalfStep : -(x0 + float(k / 2) * kHalfStep);
      ASSERT_EQ(ref[r], want) << H::kName << " k=" << k << " r=" << r;
      ASSERT_EQ(round_to<H>(want), want);  // every lane value is exact in H
    }
  }
}

TEST(HalfRecurrence, IsAnExactCounterUpToItsLimit) {
  EXPECT_EQ(half_exact_k_max<Fp16>(), 8160);
  EXPECT_EQ(half_exact_k_max<Bf16>(), 992);
  expect_exact_counter<Fp16>(half_exact_k_max<Fp16>());
  expect_exact_counter<Bf16>(half_exact_k_max<Bf16>());
}

// A lane whose counter sits at exactly 0 after an even step does not see the next (negating)
// step: 0 -> -0 + 0 = +0. That happens to at most one of the 16 lanes at a time, and a dropped
// FMA in the kernel drops it in every lane, so verification (all lanes) still sees it.
template <class H>
void expect_missing_fma_is_seen(long k_max) {
  // Walk the states after 0, 1, 2, … steps (the replay's own step) and compare neighbours.
  std::array<float, 16> prev = half_reference<H>(0), x = prev;
  for (long k = 1; k <= k_max + 1; ++k) {
    int same = 0;
    for (std::size_t r = 0; r < 16; ++r) {
      x[r] = round_to<H>(std::fma(x[r], -1.0f, ((k - 1) & 1) ? kHalfStep : 0.0f));
      same += x[r] == prev[r];
    }
    ASSERT_LE(same, 1) << H::kName << " k=" << k;
    prev = x;
  }
  EXPECT_EQ(x, half_reference<H>(k_max + 1));
}

TEST(HalfRecurrence, OneMissingOrExtraFmaChangesTheOutput) {
  expect_missing_fma_is_seen<Fp16>(half_exact_k_max<Fp16>() - 1);
  expect_missing_fma_is_seen<Bf16>(half_exact_k_max<Bf16>() - 1);
}

TEST(HalfRecurrence, StaysFiniteBeyondTheExactRange) {
  // bf16 at the ladder's top rung: values round, but the replay is defined and finite.
  for (float v : half_reference<Bf16>(8192)) EXPECT_TRUE(std::isfinite(v));
  for (float v : half_reference<Fp16>(8192)) EXPECT_TRUE(std::isfinite(v));
}

}  // namespace
}  // namespace ridgeline
