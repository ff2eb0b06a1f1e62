// The example application's declared counts against an independent count: its kernels run once
// on the Serial space with the counting scalar (tests/harness/counting_scalar.hpp), and the
// FLOPs they did must be the FLOPs main.cpp declares through ridgeline/annotate.hpp. For the
// triad every access is compulsory, so its bytes are checked too; the stencil's and GEMM's
// declared bytes are their arrays' sizes (app_kernels.hpp says why), which the counter, counting
// every load, does not measure.
#include <gtest/gtest.h>

#include "examples/kernels/app_kernels.hpp"
#include "tests/harness/counting_scalar.hpp"

namespace ridgeline {
namespace {

using test::Counted;
using test::g_counts;

#if defined(KOKKOS_ENABLE_SERIAL) && !defined(KOKKOS_ENABLE_CUDA) && !defined(KOKKOS_ENABLE_HIP)
using V1 = Kokkos::View<Counted*, Kokkos::Serial>;
using V2 = Kokkos::View<Counted**, Kokkos::Serial>;

TEST(ExampleCounts, TriadDoesWhatItDeclares) {
  const std::size_t n = 1000;
  V1 a("a", n), b("b", n), c("c", n);
  g_counts = {};
  example::triad(a, b, c, 3.0);
  EXPECT_EQ(double(g_counts.flops), example::triad_flop(n));
  EXPECT_EQ(double(g_counts.loads + g_counts.stores) * sizeof(Counted),
            example::triad_bytes(n, sizeof(double)));
}

TEST(ExampleCounts, StencilDoesTheFlopsItDeclares) {
  const std::size_t n = 40;
  V2 in("in", n, n), out("out", n, n);
  g_counts = {};
  example::stencil5(out, in, 0.5, 0.125);
  EXPECT_EQ(double(g_counts.flops), example::stencil_flop(n));
  EXPECT_EQ(double(g_counts.stores), double((n - 2) * (n - 2)));  // each interior point once
}

TEST(ExampleCounts, GemmDoesTheFlopsItDeclares) {
  const std::size_t n = 24;
  V2 a("A", n, n), b("B", n, n), c("C", n, n);
  g_counts = {};
  example::gemm(c, a, b);
  EXPECT_EQ(double(g_counts.flops), example::gemm_flop(n));
  EXPECT_EQ(double(g_counts.stores), double(n * n));
}
#endif

}  // namespace
}  // namespace ridgeline
