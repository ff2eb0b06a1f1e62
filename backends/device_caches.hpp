#pragma once
// On-chip capacities of a GPU that its runtime does not report: the L1 data cache of one SM (CU).
// The reporter names the memory levels of a cache sweep from these (schema.md, "spaces"), so a
// plateau of reads that every SM serves from its own L1 is not taken for the L2.
#include <cstdint>
#include <string>

namespace ridgeline {

// The unified L1 data cache + shared memory of one SM, by compute capability, in bytes, from
// NVIDIA's tuning guides (Volta 128 KiB, Turing 96, A100 192, GA10x 128, Orin 192, Ada 128,
// Hopper 256, Blackwell B200 256, Blackwell GeForce 128); 0 where the guide is not known here.
// Shared memory is carved out of it: the L1 that cached reads see is this minus the carveout.
std::uint64_t cuda_l1_bytes_per_sm(int major, int minor);

// Threads resident on one SM at most (maxThreadsPerMultiProcessor), by compute capability, from
// the CUDA C++ Programming Guide's table of compute capabilities: 2048 on sm_70, 72, 80, 90, 100
// and 103; 1024 on sm_75; 1536 on sm_86, 87, 89 and 120; 0 where not known here. Kokkos' Cuda
// concurrency is this times the SMs: what a machine sheet lacks to size a GPU's grid.
int cuda_max_threads_per_sm(int major, int minor);

// The shared memory one SM can hold for its blocks (sharedMemPerMultiprocessor), by compute
// capability, from the CUDA C++ Programming Guide's technical specifications per compute
// capability: 96 KiB on sm_70/72, 64 on sm_75, 164 on sm_80/87, 100 on sm_86/89/120, 228 on
// sm_90/100/103; 0 where not known here.
std::uint64_t cuda_shared_bytes_per_sm(int major, int minor);

// Thread blocks resident on one SM at most (maxBlocksPerMultiProcessor), from the same table: 32
// on sm_70/72/80/90/100/103, 16 on sm_75/86/87, 24 on sm_89; 0 where not known here.
int cuda_max_blocks_per_sm(int major, int minor);

// Shared memory the driver reserves in every block (reservedSharedMemPerBlock): 1 KiB from sm_80
// on (the Programming Guide's compute capability 8.x-12.x sections), none before.
std::uint64_t cuda_reserved_shared_bytes_per_block(int major, int minor);

// The vector L1 cache of one CU by gfx name (CDNA2 gfx90a: 16 KiB, CDNA3 gfx942: 32 KiB, from
// AMD's CDNA white papers); 0 where not known here. LDS is separate (the runtime reports it).
std::uint64_t hip_l1_bytes_per_cu(const std::string& gfx_arch);

}  // namespace ridgeline
