#pragma once
// How many host threads the application's Kokkos runs its OpenMP (or Threads) kernels on, as far
// as a tool can tell: the Kokkos Tools interface passes no thread count. Kokkos takes it from its
// command-line argument, then KOKKOS_NUM_THREADS, then the OpenMP runtime (OMP_NUM_THREADS, else
// the CPUs the process may run on); this follows the same order. An application that sets the
// count in code (Kokkos::InitializationSettings) is not seen: `from` says what the count rests on.
#include <string>

namespace ridgeline::kp {

struct ThreadCount {
  int count = 0;     // 0: unknown
  std::string from;  // "--kokkos-threads=1", "OMP_NUM_THREADS", "CPUs allowed", ...
};

// `command` is the process's command line, arguments separated by spaces.
ThreadCount host_thread_count(const std::string& command);

}  // namespace ridgeline::kp
