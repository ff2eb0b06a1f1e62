// ridgeline-kp-agreement-app: an application with kernels of several sizes and kinds, launched
// interleaved the same way every run, so that two Kokkos Tools libraries loaded in turn (the
// connector and kokkos-tools' simple kernel timer; scripts/kp-overhead --kernel-timer) can be
// held to each other's per-kernel call counts and total times. It checks its own results: a
// tool that broke a kernel would otherwise agree on the time of a wrong answer.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace {

using Vec = Kokkos::View<double*>;

void triad(const char* label, const Vec& a, const Vec& b, const Vec& c) {
  Kokkos::parallel_for(
      label, Kokkos::RangePolicy<>(0, a.extent(0)),
      KOKKOS_LAMBDA(int i) { a(i) = b(i) + 0.5 * c(i); });
}

double dot(const char* label, const Vec& a, const Vec& b) {
  double sum = 0;
  Kokkos::parallel_reduce(
      label, Kokkos::RangePolicy<>(0, a.extent(0)),
      KOKKOS_LAMBDA(int i, double& s) { s += a(i) * b(i); }, sum);
  return sum;
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  // Rounds of the interleaved kernels below (RIDGELINE_KP_AGREE_REPEATS; 100 runs ~0.5 s here).
  const char* env = std::getenv("RIDGELINE_KP_AGREE_REPEATS");
  const int repeats = env ? std::max(1, std::atoi(env)) : 100;
  Vec small_a("small_a", 1 << 12), small_b("small_b", 1 << 12), small_c("small_c", 1 << 12);
  Vec mid_a("mid_a", 1 << 18), mid_b("mid_b", 1 << 18), mid_c("mid_c", 1 << 18);
  Vec big_a("big_a", 1 << 22), big_b("big_b", 1 << 22), big_c("big_c", 1 << 22);
  Kokkos::deep_copy(small_b, 1.0), Kokkos::deep_copy(small_c, 2.0);
  Kokkos::deep_copy(mid_b, 1.0), Kokkos::deep_copy(mid_c, 2.0);
  Kokkos::deep_copy(big_b, 1.0), Kokkos::deep_copy(big_c, 2.0);
  Kokkos::View<double*, Kokkos::HostSpace> host_v("host_v", 1 << 16);
  double checks = 0;
  for (int r = 0; r < repeats; ++r) {
    for (int k = 0; k < 20; ++k) triad("agree::triad_4Ki", small_a, small_b, small_c);
    for (int k = 0; k < 10; ++k) triad("agree::triad_256Ki", mid_a, mid_b, mid_c);
    triad("agree::triad_4Mi", big_a, big_b, big_c);
    checks += dot("agree::dot_256Ki", mid_a, mid_b);
    Kokkos::parallel_for(
        "agree::host_fill",
        Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(Kokkos::DefaultHostExecutionSpace(),
                                                               0, 1 << 16),
        KOKKOS_LAMBDA(int i) { host_v(i) = 0.25 * i; });
  }
  Kokkos::fence();
  // Every triad wrote 1 + 0.5 * 2 = 2 and every dot summed 2 * 1 over 2^18 elements.
  const double want = repeats * 2.0 * (1 << 18);
  const double last = dot("agree::dot_check", big_a, big_b);
  if (std::fabs(checks - want) > 1e-9 * want || std::fabs(last - 2.0 * (1 << 22)) > 1e-3 ||
      host_v(1 << 15) != 0.25 * (1 << 15)) {
    std::fprintf(stderr, "ridgeline-kp-agreement-app: wrong results (%.17g, want %.17g)\n", checks,
                 want);
    return 1;
  }
  return 0;
}
