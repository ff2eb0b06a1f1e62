#pragma once
// The one place where Kokkos 3.4 and modern Kokkos (4.x/5.x) differ for ridgeline.
// Everything else in the harness uses the common subset of both APIs.
#include <Kokkos_Core.hpp>

#include <cmath>
#include <string>

#if KOKKOS_VERSION < 30400
#error "ridgeline needs Kokkos 3.4 or newer"
#endif

namespace ridgeline::compat {

// Modern Kokkos has labelled fences; 3.4 has only unlabelled ones.
template <class Space>
void fence(const Space& space, [[maybe_unused]] const char* label) {
#if KOKKOS_VERSION >= 30700
  space.fence(label);
#else
  space.fence();
#endif
}

// 3.4 has no static num_threads(); concurrency() on an instance works in every version.
template <class Space>
int concurrency(const Space& space) {
  return static_cast<int>(space.concurrency());
}

inline std::string kokkos_version() {
  return std::to_string(KOKKOS_VERSION / 10000) + "." + std::to_string(KOKKOS_VERSION / 100 % 100) +
         "." + std::to_string(KOKKOS_VERSION % 100);
}

// 3.4 reads --kokkos-threads, modern Kokkos --kokkos-num-threads; both read KOKKOS_NUM_THREADS.
inline const char* threads_flag() {
#if KOKKOS_VERSION >= 40000
  return "--kokkos-num-threads";
#else
  return "--kokkos-threads";
#endif
}

}  // namespace ridgeline::compat

namespace ridgeline::compat {

// A fused multiply-add written explicitly: FLOP counts come from the source, and ISO C++ mode
// (-std=c++17) turns off GCC's contraction of a*b+c. 3.4 has no Kokkos::fma.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION T fma(T a, T b, T c) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  return ::fma(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}

}  // namespace ridgeline::compat
