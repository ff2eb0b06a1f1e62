// ridgeline-kp-launch-overhead: the cost of one empty kernel launch, with or without a Kokkos
// Tools library loaded (scripts/kp-overhead runs it both ways in alternating rounds). The
// connector itself links no Kokkos; this is an application that it is loaded into.
//
// Prints one line per execution space: "<space> <launches> <ns per launch, median of blocks>",
// and two more Serial lines for the counts of ridgeline/annotate.hpp: "Serial+counts" (declared
// once: the connector's lookup per launch) and "Serial+per-launch" (declared before every launch,
// as a kernel of varying size does: the application's call included).
#include <Kokkos_Core.hpp>
#include <ridgeline/annotate.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

enum class Counts { none, once, per_launch };

template <class Space>
double median_ns_per_launch(const char* label, int launches, int blocks,
                            Counts counts = Counts::none) {
  if (counts == Counts::once) ridgeline::annotate_kernel(label, 1, 8, "fp64");
  std::vector<double> per_launch;
  for (int b = 0; b < blocks; ++b) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < launches; ++i) {
      if (counts == Counts::per_launch) ridgeline::annotate_kernel(label, i, 8.0 * i, "fp64");
      Kokkos::parallel_for(label, Kokkos::RangePolicy<Space>(0, 1), KOKKOS_LAMBDA(int){});
    }
    Space().fence();
    const auto t1 = std::chrono::steady_clock::now();
    per_launch.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / launches);
  }
  std::sort(per_launch.begin(), per_launch.end());
  return per_launch[per_launch.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  const char* env = std::getenv("RIDGELINE_KP_BENCH_LAUNCHES");
  const int launches = env ? std::max(1, std::atoi(env)) : 2000;
  const int blocks = 9;
#ifdef KOKKOS_ENABLE_SERIAL
  std::printf("Serial %d %.1f\n", launches,
              median_ns_per_launch<Kokkos::Serial>("bench::empty_serial", launches, blocks));
  std::printf("Serial+counts %d %.1f\n", launches,
              median_ns_per_launch<Kokkos::Serial>("bench::counted_serial", launches, blocks,
                                                   Counts::once));
  std::printf("Serial+per-launch %d %.1f\n", launches,
              median_ns_per_launch<Kokkos::Serial>("bench::per_launch_serial", launches, blocks,
                                                   Counts::per_launch));
#endif
  using Default = Kokkos::DefaultExecutionSpace;
  std::printf("%s %d %.1f\n", Default::name(), launches,
              median_ns_per_launch<Default>("bench::empty_default", launches, blocks));
  return 0;
}
