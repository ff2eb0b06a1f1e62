// The device streams' layout (GridStride, layout.hpp) and sweep (DeviceSweep, stream_probe.hpp)
// as pure functions on the host: every element is visited exactly as often as the counts say, for
// odd and power-of-two lengths, several thread counts and vector widths, tails included. Then the
// device kernels themselves, run on a host space through StreamProbe's GridLayout flag, verify
// and catch a planted error.
#include <gtest/gtest.h>

#include <vector>

#include "harness/probes/layout.hpp"
#include "harness/probes/stream_probe.hpp"

namespace ridgeline {
namespace {

// How often each element of [0, n) is visited by one pass of every thread.
template <std::size_t V, std::size_t U>
std::vector<int> visits(const GridStride<V, U>& g, std::size_t span, std::size_t offset) {
  std::vector<int> seen(g.n, 0);
  const auto touch_vector = [&](std::size_t first) {
    ASSERT_EQ(first % V, 0u) << "a vector starts on a multiple of V (16-byte aligned)";
    ASSERT_LE(first + V, g.n);
    for (std::size_t j = 0; j < V; ++j) ++seen[first + j];
  };
  for (std::size_t t = 0; t < g.threads; ++t) {
    g.pass(
        t, span, offset, g.vectors() ? g.threads % g.vectors() : 0,
        [&](const std::size_t(&first)[U]) {
          for (std::size_t u = 0; u < U; ++u) touch_vector(first[u]);
        },
        touch_vector);
    g.for_tail(t, [&](std::size_t i) {
      EXPECT_GE(i, g.vectors() * V);
      ASSERT_LT(i, g.n);
      ++seen[i];
    });
  }
  return seen;
}

template <std::size_t V, std::size_t U>
void expect_bijection(std::size_t n, std::size_t threads) {
  const GridStride<V, U> g{n, threads};
  const std::size_t nv = g.vectors();
  for (const std::size_t offset : {std::size_t(0), nv / 3, nv ? nv - 1 : 0}) {
    SCOPED_TRACE(::testing::Message() << "n " << n << " R " << threads << " V " << V << " U " << U
                                      << " offset " << offset);
    const auto once = visits(g, nv, offset);
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(once[i], 1) << "element " << i;
    // Replicated reads: span = 3 × vectors reads each whole vector three times, the tail once.
    const auto thrice = visits(g, 3 * nv, offset);
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(thrice[i], i < nv * V ? 3 : 1) << "element " << i;
  }
}

TEST(GridStride, EveryElementExactlyOnceForOddAndPowerOfTwoLengths) {
  for (const std::size_t n : {1ul, 3ul, 7ul, 4096ul, 65536ul, 65537ul, 100003ul, 131077ul})
    for (const std::size_t threads : {1ul, 3ul, 128ul, 1000ul, 4096ul}) {
      expect_bijection<2, 4>(n, threads);  // fp64
      expect_bijection<4, 4>(n, threads);  // fp32
      expect_bijection<2, 1>(n, threads);
      expect_bijection<8, 3>(n, threads);  // fp16-sized lanes, an odd round
    }
}

TEST(GridStride, NeighbouringThreadsTouchNeighbouringVectors) {
  const GridStride<2, 4> g{1 << 20, 256};
  std::size_t first_of[2] = {0, 0};
  for (std::size_t t = 0; t < 2; ++t)
    g.pass(
        t, g.vectors(), 0, g.threads % g.vectors(),
        [&](const std::size_t(&first)[4]) { first_of[t] = first[0]; }, [](std::size_t) {});
  // The last round's first vectors: thread 1's is the one after thread 0's (coalesced).
  EXPECT_EQ(first_of[1], first_of[0] + 2);
}

TEST(Vector16, IsOneAlignedSixteenByteAccess) {
  static_assert(sizeof(Vector16<double>) == 16 && alignof(Vector16<double>) == 16);
  static_assert(sizeof(Vector16<float>) == 16 && alignof(Vector16<float>) == 16);
  EXPECT_EQ(Vector16<double>::kLanes, 2u);
  EXPECT_EQ(Vector16<float>::kLanes, 4u);
}

// Slot s of a pass is vector (s + offset) mod nv on both paths: the 32-bit counter that replaced
// the division per vector, and dot's walk of each vector once per pass (Once: span <= nv).
template <bool Once>
std::vector<std::size_t> slots_of(const GridStride<4, 4>& g, std::size_t t, std::size_t span,
                                  std::size_t offset) {
  std::vector<std::size_t> got;
  g.template pass<Once>(
      t, span, offset, g.threads % g.vectors(),
      [&](const std::size_t(&first)[4]) {
        for (std::size_t f : first) got.push_back(f / 4);
      },
      [&](std::size_t first) { got.push_back(first / 4); });
  return got;
}

TEST(GridStride, SlotSIsVectorSPlusOffsetModuloTheVectors) {
  for (const std::size_t n : {4ul, 28ul, 4096ul, 100003ul})
    for (const std::size_t threads : {1ul, 3ul, 7ul, 128ul, 5000ul}) {
      const GridStride<4, 4> g{n, threads};
      const std::size_t nv = g.vectors();
      for (const std::size_t span : {nv, 5 * nv + 3})
        for (const std::size_t offset : {std::size_t(0), nv / 2, nv - 1})
          for (const std::size_t t : {std::size_t(0), threads / 2, threads - 1}) {
            std::vector<std::size_t> want;
            for (std::size_t s = t; s < span; s += threads) want.push_back((s + offset) % nv);
            EXPECT_EQ(slots_of<false>(g, t, span, offset), want) << n << " " << threads;
            if (span <= nv) {
              EXPECT_EQ(slots_of<true>(g, t, span, offset), want) << n << " " << threads;
            }
          }
    }
}

TEST(DeviceSweep, ArraysBeyondThe32BitSlotCounterAreUnfit) {
  EXPECT_TRUE(DeviceSweep::make(kMaxGridVectors, 4, 2048, 0, false, false, 1, 0).unfit.empty());
  EXPECT_NE(DeviceSweep::make(kMaxGridVectors + 1, 4, 2048, 0, false, false, 1, 0).unfit, "");
}

TEST(DeviceSweep, WritingKernelsNeedAVectorPerThreadAndNeverReplicate) {
  const auto small = DeviceSweep::make(1000, 4, 2048, 48000, true, true, 10, 1 << 20);
  EXPECT_NE(small.unfit.find("a writing cache kernel needs a 16-byte vector per resident thread"),
            std::string::npos)
      << small.unfit;
  const auto fits = DeviceSweep::make(5000, 4, 2048, 240000, true, true, 10, 1 << 20);
  EXPECT_TRUE(fits.unfit.empty());
  EXPECT_EQ(fits.span, 5000u);
  EXPECT_EQ(fits.passes, 10);
}

TEST(DeviceSweep, SmallReadSetsFillTheGridWithWholeReplicas) {
  const auto s = DeviceSweep::make(1000, 4, 2048, 16000, true, false, 100, 1 << 20);
  EXPECT_TRUE(s.unfit.empty());
  EXPECT_EQ(s.span % 1000, 0u);
  EXPECT_GE(s.span, 4u * 2048);
  EXPECT_EQ(s.reads_per_pass(1000), 9u);  // ceil(8192 / 1000)
  EXPECT_EQ(s.passes, 100 / 9);           // the bytes per call stay about what was asked
}

TEST(DeviceSweep, RotatesByWholeLinesBelowTheLastLevelCacheOnly) {
  const auto below = DeviceSweep::make(100000, 4, 2048, 1600000, true, false, 10, 1 << 24);
  EXPECT_GT(below.rotation, 0u);
  EXPECT_LT(below.rotation, 100000u);
  EXPECT_EQ(below.rotation % 8, 0u);
  const auto above = DeviceSweep::make(100000, 4, 2048, 1600000, true, false, 10, 1 << 20);
  EXPECT_EQ(above.rotation, 0u);
  const auto bandwidth = DeviceSweep::make(100000, 4, 2048, 1600000, false, false, 1, 1 << 24);
  EXPECT_EQ(bandwidth.rotation, 0u);
  EXPECT_EQ(bandwidth.span, 100000u);
}

#if defined(KOKKOS_ENABLE_SERIAL)
// The device kernels on the Serial space: every stream kernel, bandwidth (a tail: odd length;
// a power of two) and cache (rotated passes, replicated reads), verifies and catches an error.
template <class T>
void device_kernels_verify() {
  using Probe = StreamProbe<Kokkos::Serial, T, true>;
  for (const auto& k : kStreamKernels)
    for (const std::size_t threads : {3ul, 128ul}) {
      for (const std::size_t n : {20001ul, 16384ul}) {
        Probe p(k, "bandwidth", n, 1, 0, threads);
        SCOPED_TRACE(p.info().name);
        EXPECT_EQ(p.info().elements, n);
        EXPECT_EQ(p.info().params["layout"], "grid_stride");
        p.setup();
        p.run();
        p.run();
        p.fence();
        const Verification ok = p.verify();
        EXPECT_TRUE(ok.ok) << ok.error;
        p.corrupt_output_for_test();
        EXPECT_FALSE(p.verify().ok);
      }
    }
  // Cache points: rotated passes; 1000 threads make the reading kernels replicate (fewer vectors
  // than a round of the grid) and leave the fp32 writing ones unfit (750 vectors).
  for (const auto& k : kStreamKernels)
    for (const std::size_t threads : {3ul, 128ul, 1000ul}) {
      Probe c(k, "cache", 3001, 7, 1 << 20, threads);
      SCOPED_TRACE(c.info().name + " R " + std::to_string(threads));
      if (!k.reduces && 3000 / Vector16<T>::kLanes < threads) {  // fewer vectors than threads
        EXPECT_FALSE(c.info().unfit_reason.empty());
        continue;
      }
      // dot walks each vector once per pass (GridStride::pass<true>): a set it would have to
      // read several times is refused, not read wrong.
      if (k.op == StreamOp::kDot && 3000 / Vector16<T>::kLanes < 4 * threads) {
        EXPECT_NE(c.info().unfit_reason.find("dot reads each vector once per pass"),
                  std::string::npos)
            << c.info().unfit_reason;
        continue;
      }
      ASSERT_TRUE(c.info().unfit_reason.empty()) << c.info().unfit_reason;
      const nlohmann::json& params = c.info().params;
      EXPECT_GT(params["rotation"].template get<std::size_t>(), 0u);
      if (k.reduces && threads == 1000) {
        EXPECT_GT(params["reads_per_pass"].template get<std::size_t>(), 1u);
      }
      c.setup();
      c.run();
      c.fence();
      const Verification ok = c.verify();
      EXPECT_TRUE(ok.ok) << ok.error;
      c.corrupt_output_for_test();
      EXPECT_FALSE(c.verify().ok);
    }
}

TEST(GridStride, DeviceKernelsVerifyOnTheHostFp64) { device_kernels_verify<double>(); }
TEST(GridStride, DeviceKernelsVerifyOnTheHostFp32) { device_kernels_verify<float>(); }
#endif

}  // namespace
}  // namespace ridgeline
