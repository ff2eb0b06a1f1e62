#pragma once
// Device facts of Kokkos' current CUDA device, from the CUDA runtime.
#include <nlohmann/json.hpp>

namespace ridgeline::cuda {

// {"name", "arch" ("sm_90"), "compute_units" (SMs), "warp_size", "memory_bytes", "l2_bytes",
//  "sm_clock_mhz", "mem_clock_mhz"}: clocks are the peak clocks the runtime reports through
// cudaDeviceGetAttribute (cudaDeviceProp's clockRate fields are gone in CUDA 13); null when the
// runtime does not report them.
// Also "uuid" (nvidia-smi's "GPU-…" form) and "pci_bus_id" ("0000:9B:00.0"), null where unknown;
// "l1_per_unit_bytes" (one SM's unified L1/shared, device_caches.hpp; null where not known),
// "shared_per_unit_bytes" and "shared_per_block_bytes" (the opt-in maximum of one block);
// "reserved_shared_per_block_bytes" (the driver's share of every block), "max_threads_per_unit"
// and "max_blocks_per_unit" (resident per SM): with shared_per_unit_bytes, what sizes the SRAM
// probe's launch (harness/sweep/plan_sizes.hpp, sram_launch).
nlohmann::json describe_current_device();

// Devices this process sees (CUDA_VISIBLE_DEVICES applied); 0 when the runtime finds none.
// Needs no Kokkos: ranks pick their device before Kokkos starts.
int visible_device_count();

}  // namespace ridgeline::cuda
