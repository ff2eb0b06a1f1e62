#pragma once
// Which roof a measured point defines, and what its byte count means (schema.md, "How the
// reporter uses the points").
//
// Memory roofs are envelopes, one per traffic mix (reads : writes as the kernel counts them):
// - B: our own streaming kernels and FMA ladders that read and write (1:1, 2:1); on a
//   write-allocate CPU a store to a line not in cache first reads it, so copy/scale/fma_xy move
//   3/2 of what they count, add/triad 4/3: their counted rate is a lower bound of what the memory
//   moved, which an envelope may take (it can only raise B towards what the memory does). The
//   in-place kernels count what they move: the ladder `fma` (1:1) and `update_xy` (2:1);
// - B_read: the read-only kernels (read, dot), a second, named roof on every space (reads alone
//   never turn the bus around);
// - B_write: the write-only fill, a third (on a write-allocate CPU each line is also read);
// - P: the register-only peak.
// Library kernels are named ceilings drawn beside the roofs: what a tuned library reaches, held
// against the roof of their mix.
#include <optional>
#include <string>

#include "results/results_model.hpp"

namespace ridgeline {

enum class RoofRole {
  kPeak,            // P
  kBandwidth,       // B (DRAM-sized points; smaller ones belong to the cache levels)
  kReadBandwidth,   // B_read
  kWriteBandwidth,  // B_write
  kLevel,           // the cache sweep and the SRAM probe: memory levels
  kCeiling,         // shown beside the roofs, never fitted
};

bool is_device_space(const Results& r, const std::string& space);

// The same on every space (a write-allocate CPU's hidden reads only make B a lower bound).
RoofRole roof_role(const Point& p);

// Reads : writes of a kernel's counted bytes (the probe catalog's traffic, the one table of them).
// Memory roofs are per mix: a GPU's HBM reads alone faster than it reads and writes, and a 2:1
// mix differs from a 1:1 one.
enum class TrafficMix { kOneToOne, kTwoToOne, kReadOnly, kWriteOnly };
inline constexpr TrafficMix kTrafficMixes[] = {TrafficMix::kOneToOne, TrafficMix::kTwoToOne,
                                               TrafficMix::kReadOnly, TrafficMix::kWriteOnly};

// The point's mix from its probe; nullopt for kernels without one (peak, gemm, unknown probes).
std::optional<TrafficMix> traffic_mix(const Point& p);
// "1:1", "2:1", "read-only", "write-only".
const char* mix_name(TrafficMix m);
// The roof's name in reports: "B_1:1", "B_2:1", "B_read", "B_write".
const char* mix_roof_name(TrafficMix m);
// Mixes that both read and write: their envelope is the headline B.
bool reads_and_writes(TrafficMix m);

// Moved bytes per counted byte on this space (1 unless stores allocate lines they never read).
double moved_per_counted(const Point& p, bool device_space);

// A library point that ran on tensor or matrix units (vendor_gemm records `unit`): the vector
// roofs do not bound it; it defines P_matrix (fit/results_fit.hpp) and is held against it.
bool is_tensor_point(const Point& p);

// The accumulate mode of such a point: `params.accumulate`, or for results that predate it the
// type of C (`params.c_dtype`: cuBLAS accumulates 16-bit and tf32 products in the type it
// stores), else empty.
std::string point_accumulate(const Point& p);

// How the point's bytes are counted, in a few words for the report.
std::string bytes_convention(const Point& p, bool device_space);

// Working sets of at least this many bytes are DRAM-sized: where the run searched the memory
// plateau (results/memory_plateau.hpp), the size its DRAM points ran at (one octave inside it;
// its start in runs before 2026-12-07), or, where it reached none, the largest sets it measured;
// in files without one, 4x the last-level cache of the whole machine (every copy: one per CCD or
// socket) on hosts, 4x the L2 on GPUs, and on a host whose cache list lacks a level, the
// profile's dram_min_bytes. 0 when the file records neither (then no size can be told apart).
double dram_working_set_bytes(const Results& r, const std::string& space);
// What B's memory is, in a few words: "DRAM plateau from 1 GiB (roofs from 2 GiB)", "a cache
// level or DRAM: no plateau up to 4 GiB, DRAM not reached", or in files without a search "DRAM,
// working sets ≥ …".
std::string dram_roof_name(const Results& r, const std::string& space, double dram_working_set);
bool dram_sized(const Point& p, double dram_working_set);
// Whether `p` ran on its own file's DRAM plateau: dram_sized against that file's
// dram_working_set_bytes (never where the file tells no DRAM size). Where a point lives decides
// how the gate judges it (compare/point_rows.hpp, compare/shared_level.hpp,
// compare/cache_ownership.hpp) and which level compare.json names (compare/cache_ownership.hpp).
bool on_dram_plateau(const Results& r, const Point& p);

}  // namespace ridgeline
