// Exact FLOP and byte counts of every probe at small sizes, against hand-written formulas.
#include <gtest/gtest.h>

#include "probes/fma_ladder_probe.hpp"
#include "probes/library_probes.hpp"
#include "probes/peak_probe.hpp"
#include "probes/stream_probe.hpp"

namespace ridgeline {
namespace {

using Host = Kokkos::DefaultHostExecutionSpace;

template <class T>
StreamProbe<Host, T> stream(const char* name, std::size_t n, int passes = 1,
                            const char* family = "bandwidth") {
  return StreamProbe<Host, T>(*find_stream_kernel(name), family, n, passes);
}

TEST(ProbeCounts, StreamKernelsCountAlgorithmicBytesAndFlops) {
  // n is rounded down to whole vector granules per thread; the counts use the rounded n.
  struct Want {
    const char* name;
    double flops_per_el, bytes_per_el;
  };
  for (const Want& w :
       {Want{"copy", 0, 16}, Want{"scale", 1, 16}, Want{"add", 1, 24}, Want{"triad", 2, 24},
        Want{"dot", 2, 16}, Want{"read", 1, 8}, Want{"fill", 0, 8}}) {
    const auto p = stream<double>(w.name, 100000);
    const double n = double(p.info().elements);
    EXPECT_GT(n, 90000) << w.name;
    EXPECT_LE(n, 100000) << w.name;
    EXPECT_EQ(p.info().flops, w.flops_per_el * n) << w.name;
    EXPECT_EQ(p.info().bytes, w.bytes_per_el * n) << w.name;
    EXPECT_EQ(p.info().working_set_bytes, std::uint64_t(w.bytes_per_el * n)) << w.name;
  }
  const auto f = stream<float>("triad", 4096);
  EXPECT_EQ(f.info().bytes, 12.0 * f.info().elements);
  EXPECT_EQ(f.info().dtype, "fp32");
}

TEST(ProbeCounts, CachePassesMultiplyTrafficNotWorkingSet) {
  const auto p = stream<double>("read", 4096, 10, "cache");
  EXPECT_EQ(p.info().probe, "cache_read");
  EXPECT_EQ(p.info().working_set_bytes, 8 * p.info().elements);
  EXPECT_EQ(p.info().bytes, 10.0 * 8 * p.info().elements);
  EXPECT_EQ(p.info().flops, 10.0 * p.info().elements);
  EXPECT_EQ(p.info().name, "cache_read/" + std::string(Host::name()) +
                               "/fp64/ws:" + std::to_string(p.info().working_set_bytes));
}

TEST(ProbeCounts, FmaLadderIntensityIsKOverSizeof) {
  const FmaLadderProbe<Host, double, 8> d(1 << 16);
  EXPECT_EQ(d.info().flops, 2.0 * 8 * d.info().elements);
  EXPECT_EQ(d.info().bytes, 16.0 * d.info().elements);
  EXPECT_DOUBLE_EQ(d.info().flops / d.info().bytes, 1.0);
  const FmaLadderProbe<Host, float, 4096> f(1 << 16);
  EXPECT_DOUBLE_EQ(f.info().flops / f.info().bytes, 1024.0);
  EXPECT_EQ(f.info().params["k"], 4096);
}

TEST(ProbeCounts, PeakCountsFmasPlusOneAddPerElementAndOneStorePerItem) {
  const PeakProbe<Host, double> p(1 << 14, 100);
  const double n = double(p.info().elements);
  const double items = p.info().params["items"].get<double>();
  EXPECT_EQ(p.info().flops, n * 201);
  EXPECT_EQ(p.info().bytes, items * 8);
}

TEST(ProbeCounts, LibraryRoofs) {
  const GemmProbe<Host, float> g(100);
  EXPECT_EQ(g.info().flops, 2e6);
  EXPECT_EQ(g.info().bytes, 3 * 100 * 100 * 4.0);
  const VectorLibraryProbe<Host, double> axpby(VectorLibOp::kAxpby, 1000);
  EXPECT_EQ(axpby.info().flops, 2000);  // axpy: one multiply, one add
  EXPECT_EQ(axpby.info().bytes, 24000);
  const VectorLibraryProbe<Host, double> copy(VectorLibOp::kDeepCopy, 1000);
  EXPECT_EQ(copy.info().flops, 0);
  EXPECT_EQ(copy.info().bytes, 16000);
}

}  // namespace
}  // namespace ridgeline
