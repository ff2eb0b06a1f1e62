#pragma once
// The few structs of the Kokkos Tools C interface (impl/Kokkos_Profiling_C_Interface.h) that the
// connector's entry points take, written out here so the connector builds and loads without
// Kokkos. Their layout is fixed by the interface (Kokkos 3.4.01 and 4.x alike: the settings are
// 256 bools, padding included); the asserts keep this copy from drifting.
#include <cstddef>
#include <cstdint>

extern "C" {

struct Kokkos_Profiling_KokkosPDeviceInfo {
  size_t deviceID;
};

struct Kokkos_Tools_ToolSettings {
  bool requires_global_fencing;
  bool padding[255];
};

}  // extern "C"

static_assert(sizeof(Kokkos_Tools_ToolSettings) == 256, "Kokkos Tools settings are 256 bools");
