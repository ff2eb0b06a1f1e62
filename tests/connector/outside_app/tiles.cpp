// A Kokkos application that is not ridgeline's: tiles of growing size, one label, counts declared
// before each launch (they differ per launch), and one kernel launched without a label (Kokkos
// then names it by its lambda's type).
#include <Kokkos_Core.hpp>
#include <ridgeline/annotate.hpp>

#include <cstdio>

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  constexpr int kTiles = 5, kCols = 256;
  Kokkos::View<double*> a("a", kTiles * 64 * kCols);
  Kokkos::parallel_for(
      a.extent(0), KOKKOS_LAMBDA(int i) { a(i) = 1.0 + i % 7; });
  for (int t = 1; t <= kTiles; ++t) {
    const int n = 64 * t * kCols;  // rows grow tile by tile
    // One FLOP and a read and a write of 8 bytes per element.
    ridgeline::annotate_kernel("tiles::scale", 1.0 * n, 16.0 * n, "fp64");
    Kokkos::parallel_for(
        "tiles::scale", n, KOKKOS_LAMBDA(int i) { a(i) *= 0.5; });
  }
  double sum = 0;
  Kokkos::parallel_reduce(
      "tiles::sum", a.extent(0), KOKKOS_LAMBDA(int i, double& s) { s += a(i); }, sum);
  std::printf("tiles: sum %.6g\n", sum);
  return 0;
}
