#pragma once
// Which roof a measured point defines, and what its byte count means (schema.md, "How the
// reporter uses the points").
//
// A roof is defined only by kernels whose counted bytes are the bytes the memory system moves:
// - B: the in-place FMA ladder (load, K FMAs, store back to the same line) on every space, and on
//   GPU spaces the streaming kernels that read and write (GPUs do not read a line before writing
//   it); a GPU's write-only fill is a ceiling above B (no bus turnaround);
// - B_read: the read-only kernels (read, dot), a second, named roof on every space;
// - P: the register-only peak.
// Everything else is a named ceiling drawn beside the roofs: on a write-allocate CPU a store to a
// line not in cache first reads it, so copy/scale/fma_xy/deep_copy move 3/2 of what they count,
// add/triad 4/3, fill 2/1; library kernels are what a tuned library reaches.
#include <string>

#include "results/results_model.hpp"

namespace ridgeline {

enum class RoofRole {
  kPeak,           // P
  kBandwidth,      // B (DRAM-sized points; smaller ones belong to the cache levels)
  kReadBandwidth,  // B_read
  kLevel,          // the cache sweep and the SRAM probe: memory levels
  kCeiling,        // shown beside the roofs, never fitted
};

bool is_device_space(const Results& r, const std::string& space);

RoofRole roof_role(const Point& p, bool device_space);

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

// Working sets of at least this many bytes are DRAM-sized: 4x the last-level cache of the whole
// machine (every copy: one per CCD or socket) on hosts, 4x the L2 on GPUs. 0 when the file records
// no cache size (then no size can be told apart).
double dram_working_set_bytes(const Results& r, const std::string& space);
bool dram_sized(const Point& p, double dram_working_set);

}  // namespace ridgeline
