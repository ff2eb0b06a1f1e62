// Every probe checks its own output: a correct run verifies, a planted wrong value is caught.
#include <gtest/gtest.h>

#include "probes/fma_ladder_probe.hpp"
#include "probes/library_probes.hpp"
#include "probes/peak_probe.hpp"
#include "probes/stream_probe.hpp"

namespace ridgeline {
namespace {

using Host = Kokkos::DefaultHostExecutionSpace;

void expect_verifies_and_catches(Probe& p) {
  SCOPED_TRACE(p.info().name);
  p.setup();
  for (int i = 0; i < 3; ++i) p.run();  // kernels are idempotent: any number of calls verifies
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
  FmaLadderProbe<Host, T, 512> f512(5000);
  expect_verifies_and_catches(f512);
  PeakProbe<Host, T> peak(5000, 300);
  expect_verifies_and_catches(peak);
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

}  // namespace
}  // namespace ridgeline
