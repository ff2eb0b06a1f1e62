#pragma once
// Library points in their own space: which BLAS a Kokkos Kernels call reaches, how many threads
// it may use, and a guard that keeps a host BLAS on one thread for Serial points.
//
// Kokkos Kernels hands gemm/axpby/dot on double and float to the host BLAS for any host space.
// Debian's OpenBLAS is an OpenMP build that sizes its team from omp_get_max_threads(), so without
// the guard a "Serial" gemm ran on every core (1.75x the one-core peak on the development VM).
#include <KokkosKernels_config.h>
#include <Kokkos_Core.hpp>
#include <nlohmann/json.hpp>

#include <string>
#include <type_traits>

#include "backends/spaces.hpp"

#if defined(KOKKOS_ENABLE_OPENMP)
#include <omp.h>
#endif

// OpenBLAS' own queries, declared weak: a build against another BLAS still links and sees null.
extern "C" {
__attribute__((weak)) char* openblas_get_config(void);
__attribute__((weak)) int openblas_get_parallel(void);  // 0 sequential, 1 pthreads, 2 OpenMP
__attribute__((weak)) int openblas_get_num_threads(void);
__attribute__((weak)) void openblas_set_num_threads(int);
}

namespace ridgeline {

template <class Space>
inline constexpr bool kIsSerialSpace =
#if defined(KOKKOS_ENABLE_SERIAL)
    std::is_same_v<Space, Kokkos::Serial>;
#else
    false;
#endif

// Threads a host BLAS call may use right now (1 inside a SerialBlasGuard); -1 when the BLAS is
// not OpenBLAS and cannot be asked.
inline int host_blas_threads() {
  if (!openblas_get_parallel || !openblas_get_num_threads) return -1;
  if (openblas_get_parallel() == 0) return 1;
#if defined(KOKKOS_ENABLE_OPENMP)
  if (openblas_get_parallel() == 2) return omp_get_max_threads();
#endif
  return openblas_get_num_threads();
}

// The vendor library behind KokkosBlas calls on this space, as this build routes them.
template <class Space>
std::string blas_name() {
  if constexpr (kIsDeviceSpace<Space>) {
#if defined(KOKKOSKERNELS_ENABLE_TPL_CUBLAS)
    return "cuBLAS";
#elif defined(KOKKOSKERNELS_ENABLE_TPL_ROCBLAS)
    return "rocBLAS";
#else
    return "Kokkos Kernels (native kernels)";
#endif
  } else {
#if defined(KOKKOSKERNELS_ENABLE_TPL_BLAS)
    if (openblas_get_config) {
      const int parallel = openblas_get_parallel ? openblas_get_parallel() : -1;
      return std::string(openblas_get_config()) + (parallel == 2   ? " (OpenMP threads)"
                                                   : parallel == 1 ? " (pthreads)"
                                                   : parallel == 0 ? " (sequential)"
                                                                   : "");
    }
    return "host BLAS (Kokkos Kernels TPL)";
#else
    return "Kokkos Kernels (native kernels)";
#endif
  }
}

// For the duration of one library call on Serial: the host BLAS may use one thread only. Saves
// and restores both OpenMP's and OpenBLAS' settings; does nothing on other spaces.
template <class Space>
class SerialBlasGuard {
 public:
  SerialBlasGuard() {
    if constexpr (kIsSerialSpace<Space>) {
#if defined(KOKKOS_ENABLE_OPENMP)
      omp_threads_ = omp_get_max_threads();
      omp_set_num_threads(1);
#endif
      if (openblas_get_num_threads && openblas_set_num_threads &&
          !(openblas_get_parallel && openblas_get_parallel() == 2)) {
        blas_threads_ = openblas_get_num_threads();
        openblas_set_num_threads(1);
      }
    }
  }
  ~SerialBlasGuard() {
    if constexpr (kIsSerialSpace<Space>) {
#if defined(KOKKOS_ENABLE_OPENMP)
      omp_set_num_threads(omp_threads_);
#endif
      if (blas_threads_ > 0) openblas_set_num_threads(blas_threads_);
    }
  }
  // A guard restores global state on scope exit; a copy would restore it twice.
  SerialBlasGuard(const SerialBlasGuard&) = delete;
  SerialBlasGuard& operator=(const SerialBlasGuard&) = delete;

 private:
  int omp_threads_ = 0;
  int blas_threads_ = 0;  // > 0: OpenBLAS (pthreads) setting to restore
};

// Params of a KokkosBlas point: the library it reaches and the threads it may use there.
template <class Space>
nlohmann::json blas_params() {
  nlohmann::json j = {{"blas", blas_name<Space>()}};
  if constexpr (kIsDeviceSpace<Space>) {
    j["blas_threads"] = nullptr;
  } else {
    const SerialBlasGuard<Space> guard;
    const int threads = host_blas_threads();
    j["blas_threads"] = threads > 0 ? nlohmann::json(threads) : nlohmann::json(nullptr);
  }
  return j;
}

}  // namespace ridgeline
