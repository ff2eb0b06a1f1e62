// FLOP and byte counts of the probes against an independent count: the kernels run once on the
// Serial space with a counting element type (counting_scalar.hpp), and what they did must be what
// their PointInfo states. Launch-shape facts are checked against the recorded params.
#include <gtest/gtest.h>

#include <iterator>
#include <string>

#include "harness/probes/fma_ladder_probe.hpp"
#include "harness/probes/library_probes.hpp"
#include "harness/probes/peak_probe.hpp"
#include "harness/probes/sram_probe.hpp"
#include "harness/probes/stream_probe.hpp"
#include "tests/harness/counting_scalar.hpp"

namespace ridgeline {
namespace {

using Host = Kokkos::DefaultHostExecutionSpace;
using test::Counted;
using test::g_counts;

struct Counts {
  double flops = 0, bytes = 0;
};

// One run() of `probe` (after setup), counted: FLOPs and bytes read or written in arrays.
Counts count_one_call(Probe& probe) {
  probe.setup();
  g_counts = {};
  probe.run();
  probe.fence();
  return {double(g_counts.flops), double(g_counts.loads + g_counts.stores) * sizeof(Counted)};
}

// The counting type is host code; builds with a device backend compile every Kokkos lambda for
// the device too, so the counts are taken in host-only builds (CI's).
#if defined(KOKKOS_ENABLE_SERIAL) && !defined(KOKKOS_ENABLE_CUDA) && !defined(KOKKOS_ENABLE_HIP)
using Serial = Kokkos::Serial;

template <int K, LadderForm Form>
void expect_ladder_counts(std::size_t n, int passes = 1, const char* family = "fma") {
  FmaLadderProbe<Serial, Counted, K, Form> p(n, passes, family);
  SCOPED_TRACE(p.info().name);
  const Counts c = count_one_call(p);
  EXPECT_GT(p.info().elements, n / 2);
  EXPECT_EQ(c.flops, p.info().flops);
  EXPECT_EQ(c.bytes, p.info().bytes);
}

TEST(ProbeCounts, LaddersDoWhatTheyCount) {
  expect_ladder_counts<1, LadderForm::kInPlace>(5000);
  expect_ladder_counts<2, LadderForm::kInPlace>(5000);
  expect_ladder_counts<5, LadderForm::kInPlace>(3000);
  expect_ladder_counts<1, LadderForm::kTwoArrays>(5000);
  expect_ladder_counts<4, LadderForm::kTwoArrays>(3000);
  expect_ladder_counts<1, LadderForm::kInPlace>(2000, 3, "cache");  // cache_update
}

TEST(ProbeCounts, StreamKernelsDoWhatTheyCount) {
  for (const auto& k : kStreamKernels) {
    for (const int passes : {1, 3}) {
      // Reductions add a per-item tail (the accumulators into the total), which the per-element
      // counts leave out: compare the difference between two sizes, per element.
      StreamProbe<Serial, Counted> small(k, passes > 1 ? "cache" : "bandwidth", 4096, passes);
      StreamProbe<Serial, Counted> large(k, passes > 1 ? "cache" : "bandwidth", 8192, passes);
      SCOPED_TRACE(large.info().name);
      const Counts a = count_one_call(small), b = count_one_call(large);
      const double dn = double(large.info().elements - small.info().elements);
      ASSERT_GT(dn, 0);
      EXPECT_EQ((b.flops - a.flops) / dn, (large.info().flops - small.info().flops) / dn);
      EXPECT_EQ((b.bytes - a.bytes) / dn, (large.info().bytes - small.info().bytes) / dn);
      if (!k.reduces) {  // no tail: the totals match exactly
        EXPECT_EQ(b.flops, large.info().flops);
        EXPECT_EQ(b.bytes, large.info().bytes);
      }
    }
  }
}

// The device kernels (grid-stride layout, 16-byte vectors, rotated and replicated cache passes)
// run on Serial through StreamProbe's GridLayout flag: what they load and store is what they count.
TEST(ProbeCounts, DeviceStreamKernelsDoWhatTheyCount) {
  for (const auto& k : kStreamKernels)
    for (const std::size_t threads : {3ul, 128ul, 1000ul}) {
      for (const int passes : {1, 3}) {
        const char* family = passes > 1 ? "cache" : "bandwidth";
        // Reductions add a per-thread tail (the accumulators into the total): compare the
        // difference between two sizes (whole rounds, so the accumulators are the same).
        StreamProbe<Serial, Counted, true> small(k, family, 16001, passes, 1 << 30, threads);
        StreamProbe<Serial, Counted, true> large(k, family, 32001, passes, 1 << 30, threads);
        SCOPED_TRACE(large.info().name);
        ASSERT_TRUE(large.info().unfit_reason.empty()) << large.info().unfit_reason;
        const Counts a = count_one_call(small), b = count_one_call(large);
        if (!k.reduces) {  // the totals match exactly
          EXPECT_EQ(a.flops, small.info().flops);
          EXPECT_EQ(a.bytes, small.info().bytes);
          EXPECT_EQ(b.flops, large.info().flops);
          EXPECT_EQ(b.bytes, large.info().bytes);
        } else {
          EXPECT_EQ(b.bytes - a.bytes, large.info().bytes - small.info().bytes);
          EXPECT_EQ(b.flops - a.flops, large.info().flops - small.info().flops);
        }
      }
    }
}

// update_xy in place: per element x and y loaded, y stored (no third array), β·y and one FMA;
// host and device kernels alike.
template <bool Grid>
void expect_update_xy_counts() {
  StreamProbe<Serial, Counted, Grid> p(*find_stream_kernel("update_xy"), "bandwidth", 4099, 1, 0,
                                       Grid ? 128 : 0);
  SCOPED_TRACE(p.info().name);
  p.setup();
  g_counts = {};
  p.run();
  p.fence();
  const auto n = static_cast<long long>(p.info().elements);
  EXPECT_EQ(g_counts.loads, 2 * n);
  EXPECT_EQ(g_counts.stores, n);
  EXPECT_EQ(g_counts.flops, 3 * n);
}

TEST(ProbeCounts, UpdateXyLoadsTwoArraysAndStoresOneOfThem) {
  expect_update_xy_counts<false>();
  expect_update_xy_counts<true>();
}

TEST(ProbeCounts, PeakCountsItsFmasAndOneAddPerElementAndStoresOnlyPerItem) {
  PeakProbe<Serial, Counted> small(4096, 7), large(8192, 7);
  const Counts a = count_one_call(small), b = count_one_call(large);
  const double dn = double(large.info().elements - small.info().elements);
  // The kernel also computes each input (one multiply, one add): 2 FLOPs per element that the
  // count leaves out on purpose (at the sweep's K = 1024 they are 0.1 % of the work).
  EXPECT_EQ((b.flops - a.flops) / dn, (large.info().flops - small.info().flops) / dn + 2);
  EXPECT_EQ(b.bytes, large.info().bytes);  // one store per work item, nothing read
}
// Every scratch access is counted, and the global ones (the fill's reads, one store per thread)
// are what params.global_bytes says: the counted rate leaves out exactly those.
TEST(ProbeCounts, SramCountsScratchTrafficAndRecordsGlobalTrafficApart) {
  for (const SramOp op : {SramOp::kRead, SramOp::kUpdate})
    for (const int passes : {1, 5}) {
      SramProbe<Serial, Counted> p(op, 4096, passes);
      SCOPED_TRACE(p.info().name);
      ASSERT_GT(p.info().elements, 0u);
      const Counts c = count_one_call(p);
      EXPECT_EQ(c.flops, p.info().flops);
      EXPECT_EQ(c.bytes, p.info().bytes + p.info().params["global_bytes"].get<double>());
    }
}
#endif

TEST(ProbeCounts, SramPointsAreGradedByWholeWordsOfScratchPerTeam) {
  using Shape = SramShape<Host, double>;
  const std::size_t granule = Shape::kGranuleWords * 16;
  const SramProbe<Host, double> p(SramOp::kRead, 3 * granule + 8, 10);
  EXPECT_EQ(p.info().probe, "sram_read");
  EXPECT_EQ(p.info().family, "sram");
  EXPECT_EQ(p.info().working_set_bytes, 3 * granule);  // rounded down to whole groups
  EXPECT_EQ(p.info().name, "sram_read/" + std::string(Host::name()) +
                               "/fp64/scratch:" + std::to_string(3 * granule));
  EXPECT_EQ(p.info().params["requested_bytes"], 3 * granule + 8);
  EXPECT_EQ(p.info().params["word_bytes"], 16);
  // The fill and ten read sweeps over every team's scratch.
  const double teams = p.info().params["teams"].get<double>();
  EXPECT_EQ(p.info().bytes, 11.0 * teams * double(3 * granule));
  const SramProbe<Host, float> u(SramOp::kUpdate, granule, 10);
  EXPECT_EQ(u.info().probe, "sram_update");
  // Fill, ten sweeps read and written, the final read sweep.
  EXPECT_EQ(u.info().bytes, 22.0 * u.info().params["teams"].get<double>() * double(granule));
  const SramProbe<Host, double> tiny(SramOp::kRead, granule - 1, 10);
  EXPECT_EQ(tiny.info().elements, 0u);  // the planner skips it
}

// The catalog is the kernels' one table: each bandwidth probe has exactly one stream kernel, by
// its name, with the catalog's counts, and each cache probe of a stream kernel finds its own.
TEST(ProbeCounts, EachBandwidthProbeHasOneKernelWithTheCatalogsCounts) {
  for (const ProbeSpec& p : kProbes) {
    SCOPED_TRACE(std::string(p.name));
    int named = 0;
    for (const StreamKernel& k : kStreamKernels) named += p.name == k.name ? 1 : 0;
    if (p.kernel.empty()) {
      EXPECT_EQ(named, 0);
      EXPECT_EQ(stream_kernel_of(p), nullptr);
      continue;
    }
    const StreamKernel* k = stream_kernel_of(p);
    ASSERT_NE(k, nullptr);
    if (p.family != "bandwidth") continue;
    EXPECT_EQ(named, 1);
    EXPECT_EQ(std::string(k->name), p.name);
    EXPECT_EQ(k->flops, p.counts.flops);
    EXPECT_EQ(k->arrays, p.counts.arrays);
    EXPECT_EQ(k->accesses, p.traffic.counted());
    EXPECT_EQ(k->reduces, p.traffic.writes == 0);
    EXPECT_EQ(k->nontemporal, p.counts.nontemporal);
  }
  EXPECT_EQ(std::size(kStreamKernels), probes_in("bandwidth").size());
}

// Two arrays are the working set, three accesses per element the bytes: 2 reads : 1 write.
TEST(ProbeCounts, UpdateXyCountsThreeAccessesOnTwoArrays) {
  const StreamProbe<Host, double> p(*find_stream_kernel("update_xy"), "bandwidth", 1 << 16, 1);
  const double n = double(p.info().elements);
  EXPECT_EQ(p.info().probe, "update_xy");
  EXPECT_EQ(p.info().family, "bandwidth");
  EXPECT_EQ(p.info().working_set_bytes, 2 * 8 * p.info().elements);
  EXPECT_EQ(p.info().bytes, 3 * 8 * n);
  EXPECT_EQ(p.info().flops, 3 * n);
  EXPECT_EQ(p.info().name, "update_xy/" + std::string(Host::name()) +
                               "/fp64/n:" + std::to_string(p.info().elements));
}

// copy_nt: copy's two accesses on two arrays (the catalog's counts), with streaming stores where
// the host ISA has them, and the point says so (an x86 build that stored plainly would measure
// copy under another name).
TEST(ProbeCounts, CopyNtCountsTwoAccessesAndRecordsItsStores) {
  const StreamProbe<Host, double> p(*find_stream_kernel("copy_nt"), "bandwidth", 1 << 16, 1);
  const double n = double(p.info().elements);
  EXPECT_EQ(p.info().probe, "copy_nt");
  EXPECT_EQ(p.info().family, "bandwidth");
  EXPECT_EQ(p.info().working_set_bytes, 2 * 8 * p.info().elements);
  EXPECT_EQ(p.info().bytes, 2 * 8 * n);
  EXPECT_EQ(p.info().flops, 0);
  EXPECT_EQ(p.info().name, "copy_nt/" + std::string(Host::name()) +
                               "/fp64/n:" + std::to_string(p.info().elements));
#if defined(__x86_64__) && !defined(__NVCC__) && !defined(__HIPCC__)
  EXPECT_EQ(p.info().params["streaming_stores"], true);  // every x86-64 has SSE2
#endif
  EXPECT_EQ(p.info().params["streaming_stores"], kStreamingStores<double>);
  const StreamProbe<Host, double> copy(*find_stream_kernel("copy"), "bandwidth", 1 << 16, 1);
  EXPECT_FALSE(copy.info().params.contains("streaming_stores"));
}

TEST(ProbeCounts, CachePassesMultiplyTrafficNotWorkingSet) {
  const StreamProbe<Host, double> p(*find_stream_kernel("read"), "cache", 4096, 10);
  EXPECT_EQ(p.info().probe, "cache_read");
  EXPECT_EQ(p.info().working_set_bytes, 8 * p.info().elements);
  EXPECT_EQ(p.info().bytes, 10.0 * 8 * p.info().elements);
  EXPECT_EQ(p.info().name, "cache_read/" + std::string(Host::name()) +
                               "/fp64/ws:" + std::to_string(p.info().working_set_bytes));
  const FmaLadderProbe<Host, double, 1> u(4096, 10, "cache");
  EXPECT_EQ(u.info().probe, "cache_update");
  EXPECT_EQ(u.info().working_set_bytes, 8 * u.info().elements);  // one array, in place
  EXPECT_EQ(u.info().params["passes"], 10);
}

TEST(ProbeCounts, LadderParamsNameTheFormAndTheIsaChains) {
  const FmaLadderProbe<Host, float, 4096> in_place(1 << 16);
  EXPECT_EQ(in_place.info().probe, "fma");
  EXPECT_EQ(in_place.info().params["form"], "in_place");
  EXPECT_EQ(in_place.info().working_set_bytes, 4 * in_place.info().elements);
  EXPECT_DOUBLE_EQ(in_place.info().flops / in_place.info().bytes, 1024.0);
  const FmaLadderProbe<Host, double, 8, LadderForm::kTwoArrays> two(1 << 16);
  EXPECT_EQ(two.info().probe, "fma_xy");
  EXPECT_EQ(two.info().params["form"], "two_arrays");
  EXPECT_EQ(two.info().working_set_bytes, 16 * two.info().elements);
  // Chains fill the ISA's chain registers: vector bytes × chain vectors / element size.
  const auto& params = in_place.info().params;
  EXPECT_EQ(params["isa"], kHostIsa.name);
  EXPECT_EQ(params["chains"].get<std::size_t>() * sizeof(float),
            params["vector_bytes"].get<std::size_t>() * kHostIsa.chain_vectors);
}

TEST(ProbeCounts, LibraryPointsRecordTheirBlasAndThreads) {
  const GemmProbe<Host, float> g(100);
  EXPECT_EQ(g.info().flops, 2e6);
  EXPECT_TRUE(g.info().params.contains("blas"));
  EXPECT_TRUE(g.info().params.contains("blas_threads"));
  // axpby with β = 1 runs as y += α·x (BLAS axpy): one multiply and one add per element, which
  // its verification checks (y ends at y0 + α·x).
  const VectorLibraryProbe<Host, double> axpby(VectorLibOp::kAxpby, 1000);
  EXPECT_EQ(axpby.info().flops, 2000);
  EXPECT_EQ(axpby.info().bytes, 24000);
  const VectorLibraryProbe<Host, double> copy(VectorLibOp::kDeepCopy, 1000);
  EXPECT_TRUE(copy.info().params["threads"].is_number_integer());
#if defined(KOKKOS_ENABLE_SERIAL)
  const GemmProbe<Kokkos::Serial, double> serial(64);
  const auto threads = serial.info().params["blas_threads"];
  if (!threads.is_null()) {
    EXPECT_EQ(threads, 1) << "a Serial BLAS call may use one thread";
  }
#endif
}

}  // namespace
}  // namespace ridgeline
