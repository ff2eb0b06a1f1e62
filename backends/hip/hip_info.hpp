#pragma once
// Device facts of Kokkos' current HIP device, from the HIP runtime. Compiled with hipcc 5.2.3,
// not run (no AMD GPU).
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace ridgeline::hip {

// As cuda::describe_current_device(), with "arch" the gfx name ("gfx90a", "gfx942") and
// "compute_units" the CU count; adds "llc_bytes" where the last-level cache is not the L2 (the
// MI300 series' 256 MiB Infinity Cache, which HIP does not report), "l1_per_unit_bytes" (one
// CU's vector L1, device_caches.hpp), "shared_per_unit_bytes" and "shared_per_block_bytes" (LDS),
// "max_threads_per_unit" ("max_blocks_per_unit" null: HIP 5.2 does not state it),
// "clock_instruction_rate_mhz": the rate of clock64() (s_memtime), which the peak kernels'
// observed SM clock counts in (on AMD it need not be the shader clock), and
// "wall_clock_rate_mhz": wall_clock_rate_mhz(), null where the runtime cannot say.
nlohmann::json describe_current_device();

// The rate of the REALTIME counter (wall_clock64(), s_memrealtime) that the peak kernels' wall
// stamps and the stream hold's timeout count in, in MHz: from the runtime where it has the query
// (hipDeviceAttributeWallClockRate, HIP >= 5.3), 0 where it cannot say (an older HIP, an error).
double wall_clock_rate_mhz(int device);
// Nanoseconds per tick of that counter: from the rate, or, where the runtime cannot say, the
// constant 100 MHz of the gfx9 parts this backend is built for (MI100, MI200, MI300).
double wall_clock_tick_ns(int device);

// Devices this process sees (ROCR/HIP_VISIBLE_DEVICES applied); 0 when none. Needs no Kokkos.
int visible_device_count();

// The last level cache for a gfx name and its reported L2: MI300 (gfx942) has a 256 MiB
// Infinity Cache (MALL) behind the L2; others have the L2 as the last level.
std::uint64_t last_level_cache_bytes(const std::string& gfx_arch, std::uint64_t l2_bytes);

}  // namespace ridgeline::hip
