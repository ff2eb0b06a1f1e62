// libridgeline-kp-null.so: a Kokkos Tools library that asks for global fencing and records
// nothing. Loaded into ridgeline-kp-launch-overhead, it measures what Kokkos itself adds for any
// fencing tool (the fences and the callback calls), so scripts/kp-overhead can tell that apart
// from what libridgeline-kp.so adds on top.
#include <cstdint>

#include "connector/kokkosp_abi.hpp"

extern "C" {
void kokkosp_init_library(const int, const std::uint64_t, const std::uint32_t,
                          Kokkos_Profiling_KokkosPDeviceInfo*) {}
void kokkosp_finalize_library() {}
void kokkosp_request_tool_settings(const std::uint32_t, Kokkos_Tools_ToolSettings* settings) {
  settings->requires_global_fencing = true;
}
void kokkosp_begin_parallel_for(const char*, const std::uint32_t, std::uint64_t* id) { *id = 0; }
void kokkosp_end_parallel_for(const std::uint64_t) {}
}
