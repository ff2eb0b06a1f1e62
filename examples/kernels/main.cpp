// ridgeline-example-kernels: a small Kokkos application whose kernels ridgeline places on the
// measured roofs. It declares each kernel's counts (ridgeline/annotate.hpp), runs a number of
// time steps inside a "timestep" region, checks its results, and leaves one kernel (the check,
// a parallel_reduce) unannotated: the report lists it with its calls and time, not placed.
//
//   ridgeline-example-kernels [--steps S] [--n-stream N] [--n-grid N] [--n-gemm N]
#include <Kokkos_Core.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "app_kernels.hpp"
#include "ridgeline/annotate.hpp"

namespace {

struct Sizes {
  long steps = 10, n_stream = 1 << 22, n_grid = 1024, n_gemm = 192;
};

// "--name value" pairs; anything else is reported on one line and ends the program.
Sizes parse(int argc, char** argv) {
  Sizes s;
  for (int i = 1; i < argc; ++i) {
    long* into = !std::strcmp(argv[i], "--steps")      ? &s.steps
                 : !std::strcmp(argv[i], "--n-stream") ? &s.n_stream
                 : !std::strcmp(argv[i], "--n-grid")   ? &s.n_grid
                 : !std::strcmp(argv[i], "--n-gemm")   ? &s.n_gemm
                                                       : nullptr;
    if (!into) continue;  // Kokkos' own --kokkos-* arguments
    char* end = nullptr;
    const long v = i + 1 < argc ? std::strtol(argv[i + 1], &end, 10) : 0;
    if (i + 1 >= argc || *end != '\0' || v < 3 || v > (1L << 30)) {
      std::fprintf(stderr, "ridgeline-example-kernels: %s: needs a whole number from 3 to 2^30\n",
                   argv[i]);
      std::exit(2);
    }
    *into = v;
    ++i;
  }
  return s;
}

// Elements of `v` that differ from `expected` (a parallel_reduce left without counts).
template <class View>
long mismatches(const char* label, const View& v, double expected) {
  long bad = 0;
  const long n = long(v.span());
  const auto* data = v.data();
  Kokkos::parallel_reduce(
      label, Kokkos::RangePolicy<typename View::execution_space>(0, n),
      KOKKOS_LAMBDA(const long i, long& sum) { sum += data[i] != expected ? 1 : 0; }, bad);
  return bad;
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  const Sizes s = parse(argc, argv);
  using V1 = Kokkos::View<double*>;
  using V2 = Kokkos::View<double**>;
  const std::size_t ns = std::size_t(s.n_stream), ng = std::size_t(s.n_grid),
                    nm = std::size_t(s.n_gemm);
  ridgeline::annotate_kernel(example::kTriadLabel, example::triad_flop(ns),
                             example::triad_bytes(ns, sizeof(double)), "fp64");
  ridgeline::annotate_kernel(example::kStencilLabel, example::stencil_flop(ng),
                             example::stencil_bytes(ng, sizeof(double)), "fp64");
  ridgeline::annotate_kernel(example::kGemmLabel, example::gemm_flop(nm),
                             example::gemm_bytes(nm, sizeof(double)), "fp64");
  long bad = 0;
  {
    V1 a("a", ns), b("b", ns), c("c", ns);
    V2 in("in", ng, ng), out("out", ng, ng), ma("A", nm, nm), mb("B", nm, nm), mc("C", nm, nm);
    Kokkos::deep_copy(b, 1.0);
    Kokkos::deep_copy(c, 2.0);
    Kokkos::deep_copy(in, 1.0);
    Kokkos::deep_copy(out, 0.5);  // the boundary, which the stencil leaves alone
    Kokkos::deep_copy(ma, 1.0);
    Kokkos::deep_copy(mb, 2.0);
    for (long step = 0; step < s.steps; ++step) {
      Kokkos::Profiling::pushRegion("timestep");
      example::triad(a, b, c, 3.0);
      example::stencil5(out, in, 0.5, 0.125);
      example::gemm(mc, ma, mb);
      Kokkos::Profiling::popRegion();
    }
    // Exact in binary floating point: 1 + 3·2, 0.5·1 + 0.125·4, 2·n sums of 1·2.
    const auto interior =
        Kokkos::subview(out, std::make_pair(1, int(ng) - 1), std::make_pair(1, int(ng) - 1));
    Kokkos::View<double**> inner("inner", ng - 2, ng - 2);
    Kokkos::deep_copy(inner, interior);
    bad = mismatches("example::check", a, 7.0) + mismatches("example::check", inner, 1.0) +
          mismatches("example::check", mc, 2.0 * double(nm));
  }
  std::printf("ridgeline-example-kernels: %ld steps, %s\n", s.steps,
              bad == 0 ? "results correct" : "RESULTS WRONG");
  return bad == 0 ? 0 : 1;
}
