#pragma once
// The Kokkos execution spaces this build can probe, and what ridgeline knows about each one.
// One run probes every space in `EnabledSpaces`; the only per-backend code lives in backends/.
#include <Kokkos_Core.hpp>
#include <nlohmann/json.hpp>

#include <string>
#include <tuple>
#include <type_traits>

namespace ridgeline {

#if defined(KOKKOS_ENABLE_HIP)
// Kokkos' HIP execution space: Kokkos::HIP from 4.0, Kokkos::Experimental::HIP before (Debian's
// Kokkos 3.4.01 builds its HIP backend with Debian's hipcc 5.2).
#if KOKKOS_VERSION >= 40000
using HipSpace = Kokkos::HIP;
#else
using HipSpace = Kokkos::Experimental::HIP;
#endif
#endif

using EnabledSpaces = std::tuple<
#if defined(KOKKOS_ENABLE_CUDA)
    Kokkos::Cuda,
#endif
#if defined(KOKKOS_ENABLE_HIP)
    HipSpace,
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
    Kokkos::OpenMP,
#endif
#if defined(KOKKOS_ENABLE_SERIAL)
    Kokkos::Serial,
#endif
    void>;  // `void` ends the list so every entry above can carry a trailing comma

// Device spaces own memory the host cannot touch; their probes use the strided (coalesced)
// element layout, host spaces the contiguous one.
template <class Space>
inline constexpr bool kIsDeviceSpace =
    !Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible;

template <class F, std::size_t... I>
void for_each_space_impl(F&& f, std::index_sequence<I...>) {
  (f(static_cast<std::tuple_element_t<I, EnabledSpaces>*>(nullptr)), ...);
}

// Calls f(static_cast<Space*>(nullptr)) for every enabled execution space.
template <class F>
void for_each_space(F&& f) {
  for_each_space_impl(std::forward<F>(f),
                      std::make_index_sequence<std::tuple_size_v<EnabledSpaces> - 1>{});
}

// {"name", "kind", "concurrency", "device"}: device facts come from the backend's runtime.
nlohmann::json describe_device(const std::string& space_name);

// Nanoseconds per tick of the wall clock a device kernel reads (device_clock.hpp): 1 on CUDA
// (%globaltimer counts nanoseconds), the REALTIME counter's period on HIP (hip_info.hpp), 0 on a
// host space (it stamps nothing).
double wall_clock_tick_ns(const std::string& space_name);

// GPUs this process may use (0 in a host-only build); callable before Kokkos starts.
int visible_device_count();

template <class Space>
nlohmann::json describe_space() {
  const Space space;
  nlohmann::json j;
  j["name"] = Space::name();
  j["kind"] = kIsDeviceSpace<Space> ? "device" : "host";
  j["concurrency"] = static_cast<long long>(space.concurrency());
  j["device"] = kIsDeviceSpace<Space> ? describe_device(Space::name()) : nlohmann::json(nullptr);
  return j;
}

}  // namespace ridgeline
