#pragma once
// Kokkos Kernels' version: modern releases define KOKKOSKERNELS_VERSION, 3.4 does not (its version
// follows Kokkos').
#include <KokkosKernels_config.h>

#include <string>

#include "harness/compat/kokkos_compat.hpp"

namespace ridgeline::compat {

inline std::string kokkos_kernels_version() {
#ifdef KOKKOSKERNELS_VERSION
  return std::to_string(KOKKOSKERNELS_VERSION / 10000) + "." +
         std::to_string(KOKKOSKERNELS_VERSION / 100 % 100) + "." +
         std::to_string(KOKKOSKERNELS_VERSION % 100);
#else
  return kokkos_version() + " (assumed: this Kokkos Kernels predates its version macro)";
#endif
}

}  // namespace ridgeline::compat
