// Every probe checks its own output: a correct run verifies, a planted wrong value is caught.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "harness/probes/fma_ladder_probe.hpp"
#include "harness/probes/library_probes.hpp"
#include "harness/probes/peak_probe.hpp"
#include "harness/probes/sram_probe.hpp"
#include "harness/probes/stream_probe.hpp"

namespace ridgeline {
namespace {

using Host = Kokkos::DefaultHostExecutionSpace;

void expect_verifies_and_catches(Probe& p) {
  SCOPED_TRACE(p.info().name);
  p.setup();
  // Any number of calls verifies: kernels are idempotent or (the in-place ladder) replayed.
  for (int i = 0; i < 3; ++i) p.run();
  p.fence();
  const Verification ok = p.verify();
  EXPECT_TRUE(ok.ok) << ok.error;
  p.corrupt_output_for_test();
  const Verification bad = p.verify();
  EXPECT_FALSE(bad.ok);
  EXPECT_FALSE(bad.error.empty());
}

template <class T>
void all_probes() {
  for (const auto& k : kStreamKernels) {
    StreamProbe<Host, T> p(k, "bandwidth", 20000, 1);
    expect_verifies_and_catches(p);
    StreamProbe<Host, T> c(k, "cache", 3000, 7);
    expect_verifies_and_catches(c);
  }
  FmaLadderProbe<Host, T, 1> f1(10000);
  expect_verifies_and_catches(f1);
  FmaLadderProbe<Host, T, 2> f2(10000);
  expect_verifies_and_catches(f2);
  FmaLadderProbe<Host, T, 512> f512(5000);
  expect_verifies_and_catches(f512);
  FmaLadderProbe<Host, T, 1, LadderForm::kTwoArrays> x1(10000);
  expect_verifies_and_catches(x1);
  FmaLadderProbe<Host, T, 512, LadderForm::kTwoArrays> x512(5000);
  expect_verifies_and_catches(x512);
  FmaLadderProbe<Host, T, 1> update(3000, 7, "cache");
  expect_verifies_and_catches(update);
  PeakProbe<Host, T> peak(5000, 300);
  expect_verifies_and_catches(peak);
  for (const SramOp op : {SramOp::kRead, SramOp::kUpdate}) {
    SramProbe<Host, T> sram(op, 8192, 37);
    expect_verifies_and_catches(sram);
  }
  GemmProbe<Host, T> gemm(37);
  expect_verifies_and_catches(gemm);
  for (auto op : {VectorLibOp::kAxpby, VectorLibOp::kDot, VectorLibOp::kDeepCopy}) {
    VectorLibraryProbe<Host, T> v(op, 10001);
    expect_verifies_and_catches(v);
  }
}

TEST(ProbeVerification, Fp64) { all_probes<double>(); }
TEST(ProbeVerification, Fp32) { all_probes<float>(); }

// The ladder's check is exact: a kernel that did one FMA too few is caught even at K = 8192.
TEST(ProbeVerification, LadderReferenceSeparatesNeighbouringK) {
  const auto a = fma_reference<float>(8192);
  const auto b = fma_reference<float>(8191);
  for (std::size_t r = 0; r < 16; ++r) EXPECT_NE(a[r], b[r]) << r;
  for (float v : a) {
    EXPECT_TRUE(std::isfinite(v));
    EXPECT_LT(v, 1.0f);
  }
}

// The in-place ladder keeps its values between calls. With α alternating between calls they
// neither settle nor grow without bound, so after 3·10^6 steps one FMA dropped in the last call
// still changes every one of the 16 values; with a fixed α the same run has settled and cannot
// tell. In fp64 a step dropped in the very first call still shows; in fp32 such an old one-off
// difference (~100 ulps) can be rounded away: two fp32 trajectories a few ulps apart merge under
// a contracting step. A kernel that drops an FMA does so in every call, and the last call shows.
template <class T>
void in_place_stays_sensitive() {
  const long k = 1000, calls = 3000;
  const auto all = in_place_reference<T>(k, calls);
  auto last_dropped = in_place_reference<T>(k, calls - 1);
  fma_replay(last_dropped, k - 1, in_place_alpha<T>(calls));
  auto first_dropped = fma_inputs<T>();
  fma_replay(first_dropped, k - 1, in_place_alpha<T>(1));
  for (long c = 2; c <= calls; ++c) fma_replay(first_dropped, k, in_place_alpha<T>(c));
  for (std::size_t r = 0; r < 16; ++r) {
    EXPECT_TRUE(std::isfinite(all[r])) << r;
    EXPECT_NE(all[r], last_dropped[r]) << r;
    if (std::is_same_v<T, double>) {
      EXPECT_NE(all[r], first_dropped[r]) << r;
    }
  }
  auto fixed = fma_inputs<T>(), fixed_dropped = fma_inputs<T>();
  fma_replay(fixed, k * calls, kFmaAlpha<T>);
  fma_replay(fixed_dropped, k * calls - 1, kFmaAlpha<T>);
  EXPECT_EQ(fixed, fixed_dropped) << "a fixed α settles: the control that shows why α alternates";
}

TEST(ProbeVerification, InPlaceLadderStaysSensitiveFp64) { in_place_stays_sensitive<double>(); }
TEST(ProbeVerification, InPlaceLadderStaysSensitiveFp32) { in_place_stays_sensitive<float>(); }

// update_xy keeps y between calls too. After 10^5 calls y is finite and near where it started,
// and a kernel that skipped the last call, or the last two, leaves other bits in every one of the
// 35 values (two calls: ~24 fp32 ulps). With β = 1 and α alternating alone (the library axpby's
// scheme) two skipped calls bring y back to the same bits: the control that shows why β
// alternates too.
template <class T>
void update_xy_stays_sensitive() {
  const long calls = 100000;
  const auto all = update_reference<T>(calls, 1);
  const auto one_short = update_reference<T>(calls - 1, 1);
  const auto two_short = update_reference<T>(calls - 2, 1);
  for (std::size_t r = 0; r < kStreamPeriod; ++r) {
    EXPECT_TRUE(std::isfinite(all[r])) << r;
    EXPECT_LT(std::fabs(all[r]), T(4)) << r;
    EXPECT_NE(all[r], one_short[r]) << r;
    EXPECT_NE(all[r], two_short[r]) << r;
  }
  const auto beta_one = [](long n) {
    Kokkos::Array<T, kStreamPeriod> y;
    for (std::size_t r = 0; r < kStreamPeriod; ++r) y[r] = stream_init_b<T>(r);
    for (long c = 1; c <= n; ++c)
      for (std::size_t r = 0; r < kStreamPeriod; ++r)
        y[r] = update_step(update_alpha<T>(c), T(1), stream_init_a<T>(r), y[r]);
    return y;
  };
  const auto fixed = beta_one(calls), fixed_short = beta_one(calls - 2);
  for (std::size_t r = 0; r < kStreamPeriod; ++r)
    EXPECT_EQ(fixed[r], fixed_short[r]) << "β = 1 cannot tell two skipped calls, value " << r;
}

TEST(ProbeVerification, UpdateXyStaysSensitiveFp64) { update_xy_stays_sensitive<double>(); }
TEST(ProbeVerification, UpdateXyStaysSensitiveFp32) { update_xy_stays_sensitive<float>(); }

// copy_nt's streaming copy: every element from any start and length (the head before the first
// aligned vector and the tail store plainly), nothing before or past them.
template <class T>
void streaming_copy_is_exact() {
  std::vector<T> a(300), b(300);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = T(i) + T(0.5);
  for (const std::size_t start : {0, 1, 3, 7, 8, 9})
    for (const std::size_t n : {0, 1, 5, 8, 16, 17, 64, 129, 250}) {
      std::fill(b.begin(), b.end(), T(-1));
      copy_streaming(a.data() + start, b.data() + start, n);
      for (std::size_t i = 0; i < b.size(); ++i)
        ASSERT_EQ(b[i], i >= start && i < start + n ? a[i] : T(-1))
            << "start " << start << ", n " << n << ", element " << i;
    }
}

TEST(ProbeVerification, StreamingCopyIsExactFromAnyStartFp64) { streaming_copy_is_exact<double>(); }
TEST(ProbeVerification, StreamingCopyIsExactFromAnyStartFp32) { streaming_copy_is_exact<float>(); }

// Host reads combine the buffer's 32-bit words (word_sum.hpp): no FLOPs, and the check is exact.
// The stream read's XOR sum is held to one computed here word by word: per item and pass, lane k
// the XOR of the words at offsets k mod W of the item's run, the lanes added mod 2^32.
template <class T>
std::vector<SumWord> item_pass_sums(std::size_t items, std::size_t per_item) {
  constexpr std::size_t W = LaunchShape<Host>::template lanes<SumWord>(), R = kWordsPerElement<T>;
  std::vector<SumWord> sums;
  for (std::size_t item = 0; item < items; ++item) {
    std::vector<SumWord> lane(W, 0);
    for (std::size_t e = 0; e < per_item; ++e)
      for (std::size_t h = 0; h < R; ++h)
        lane[(e * R + h) % W] ^= element_word(stream_init_a<T>(item * per_item + e), h);
    SumWord x = 0;
    for (const SumWord v : lane) x += v;
    sums.push_back(x);
  }
  return sums;
}

template <class T>
void host_reads_sum_words_exactly() {
  // An even pass count (XOR across passes would cancel), and the profiles' L1 sizes (1024 to 8192
  // elements: a 16 KiB fp64 run's words XOR to 0 as one lane, not as W).
  for (const std::size_t elements : {20000, 1024, 2048, 4096, 8192})
    for (const int passes : {1, 2, 7}) {
      StreamProbe<Host, T> p(*find_stream_kernel("read"), passes > 1 ? "cache" : "bandwidth",
                             elements, passes);
      SCOPED_TRACE(p.info().name + " passes " + std::to_string(passes));
      const std::size_t n = p.info().elements;
      EXPECT_EQ(p.info().flops, 0);
      EXPECT_EQ(p.info().bytes, double(passes) * double(n) * sizeof(T));
      EXPECT_EQ(p.info().params["sum"], "u32_words_xor3");
      EXPECT_EQ(p.info().params["accumulators"], LaunchShape<Host>::template lanes<SumWord>());
      p.setup();
      p.run();
      p.fence();
      ASSERT_TRUE(p.verify().ok) << p.verify().error;
      const std::vector<SumWord> x =
          item_pass_sums<T>(p.info().params["items"].template get<std::size_t>(),
                            p.info().params["elements_per_item"].template get<std::size_t>());
      SumWord pass = 0;
      for (const SumWord v : x) pass += v;
      const SumWord want = pass * SumWord(passes);
      p.corrupt_output_for_test();  // the kernel's sum + 1
      EXPECT_EQ(p.verify().error, "read: XOR sum of 32-bit words " +
                                      std::to_string(SumWord(want + 1)) + ", expected " +
                                      std::to_string(want));
      // What a wrong kernel would leave: nothing read, item 0 read once more (one pass, or all
      // its passes), a pass skipped. Each differs from the right sum at these sizes, and fails.
      for (const SumWord wrong : {SumWord(0), SumWord(want + x[0]), SumWord(want + passes * x[0]),
                                  SumWord(want - pass)}) {
        ASSERT_NE(wrong, want) << "a wrong read the check cannot see";
        p.plant_words_result_for_test(wrong);
        EXPECT_FALSE(p.verify().ok) << wrong;
      }
      p.plant_words_result_for_test(want);
      EXPECT_TRUE(p.verify().ok) << p.verify().error;
    }
  // dot keeps its FMAs and its FLOPs.
  const StreamProbe<Host, T> dot(*find_stream_kernel("dot"), "bandwidth", 20000, 1);
  EXPECT_EQ(dot.info().flops, 2.0 * double(dot.info().elements));
  EXPECT_FALSE(dot.info().params.contains("sum"));
  for (const SramOp op : {SramOp::kRead, SramOp::kUpdate}) {
    const int passes = 5;
    SramProbe<Host, T> s(op, 8192, passes);
    SCOPED_TRACE(s.info().name);
    const double elements = double(s.info().elements);
    EXPECT_EQ(s.info().flops, op == SramOp::kRead ? 0.0 : 2.0 * passes * elements);
    const bool read = op == SramOp::kRead;
    EXPECT_EQ(s.info().params["sum"], read ? "u32_words_xor3" : "u32_words");
    EXPECT_EQ(s.info().params["accumulators"], (SramShape<Host, T>::kSumWords));
    s.setup();
    s.run();
    s.fence();
    ASSERT_TRUE(s.verify().ok) << s.verify().error;
    s.corrupt_output_for_test();  // team 0's sum set to -7 (mod 2^32)
    // Team 0's expected value, restated here: its scratch holds elements 0, 1, … of the inputs
    // (sram_read_input, period 7; sram_update's replayed fma_input values, period 16). The read
    // XORs word i into lane i mod W within a pass and adds the lanes; the update's final sweep
    // adds the words.
    const std::size_t team_elements = s.info().working_set_bytes / sizeof(T);
    constexpr std::size_t W = SramShape<Host, T>::kSumWords, R = sizeof(T) / sizeof(SumWord);
    const auto after = fma_reference<T>(passes);
    std::vector<SumWord> lanes(W, 0);
    SumWord want = 0;
    for (std::size_t e = 0; e < team_elements; ++e)
      for (std::size_t h = 0; h < R; ++h) {
        const SumWord word = element_word(read ? sram_read_input<T>(e) : after[e % 16], h);
        if (read)
          lanes[(e * R + h) % W] ^= word;
        else
          want += word;
      }
    if (read) {
      for (const SumWord lane : lanes) want += lane;
      want *= SumWord(passes);
      ASSERT_NE(want, 0u) << "a read of nothing would match";
    }
    EXPECT_EQ(s.verify().error, s.info().probe + ": team 0 thread 0 " + (read ? "XOR sum" : "sum") +
                                    " of 32-bit words " + std::to_string(static_cast<SumWord>(-7)) +
                                    ", expected " + std::to_string(want));
  }
}

TEST(ProbeVerification, HostReadsSumWordsExactlyFp64) { host_reads_sum_words_exactly<double>(); }
TEST(ProbeVerification, HostReadsSumWordsExactlyFp32) { host_reads_sum_words_exactly<float>(); }

// The expected y depends on how many calls ran: a failed check says which replay it held y to.
TEST(ProbeVerification, UpdateXySaysWhichCallsItReplayed) {
  StreamProbe<Host, float> p(*find_stream_kernel("update_xy"), "bandwidth", 20000, 1);
  p.setup();
  for (int i = 0; i < 5; ++i) p.run();
  p.fence();
  ASSERT_TRUE(p.verify().ok);
  p.corrupt_output_for_test();
  const Verification bad = p.verify();
  EXPECT_FALSE(bad.ok);
  EXPECT_NE(bad.error.find("update_xy: element 0 is -7, expected "), std::string::npos)
      << bad.error;
  EXPECT_NE(bad.error.find(" after 5 calls"), std::string::npos) << bad.error;
}

}  // namespace
}  // namespace ridgeline
