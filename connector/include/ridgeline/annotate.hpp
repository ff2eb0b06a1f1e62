#pragma once
// Declaring the FLOP and byte counts per call of a kernel, so that ridgeline's Kokkos Tools
// connector (libridgeline-kp.so) can place the kernel on the measured roofs. Header-only; needs
// only Kokkos. The counts travel through Kokkos::Tools::declareMetadata, which Kokkos 3.4.01 and
// 4.x both have and forward to the loaded tool: the application never links the connector, and
// without a tool loaded the call returns at once.
//
// Call it after Kokkos::initialize (a tool is loaded there; earlier declarations reach nothing),
// with the label the kernel is launched with. The counts hold for the label's launches from then
// on, until it is declared again; the connector sums them launch by launch. A kernel of one size
// declares once:
//
//   ridgeline::annotate_kernel("app::triad", 2.0 * n, 24.0 * n, "fp64");
//   Kokkos::parallel_for("app::triad", n, KOKKOS_LAMBDA(int i) { a(i) = b(i) + q * c(i); });
//
// A kernel whose launches differ in size (tiles of different shapes) declares before each launch:
//
//   ridgeline::annotate_kernel("app::tile", 2.0 * rows * cols, 24.0 * rows * cols, "fp64");
//   Kokkos::parallel_for("app::tile", policy_of(rows, cols), tile_functor);
//
// A malformed declaration, or one that changes a label's dtype, is recorded in the kernels file
// and shown by the report; it never ends the application.
//
// Builds as C++14 (Kokkos 3.x applications) and later. Without installing ridgeline, add
// -I<ridgeline>/connector/include; installed, find_package(ridgeline) and link ridgeline::annotate.
//
// Bytes are those the kernel must move to and from memory (the roof's B is DRAM): count each
// array element read or written once per call, as the roofline model does.
#include <Kokkos_Core.hpp>

#include <string>

#include "ridgeline/annotation_format.hpp"

namespace ridgeline {

inline void annotate_kernel(const std::string& label, double flop_per_call, double bytes_per_call,
                            const std::string& dtype) {
  // Without a tool the declaration reaches nobody: skip formatting it (about 0.3 µs a call here,
  // paid before every launch by an application that declares per launch).
  if (!Kokkos::Tools::profileLibraryLoaded()) return;
  Kokkos::Tools::declareMetadata(annotation::key_for(label),
                                 annotation::value_for(flop_per_call, bytes_per_call, dtype));
}

}  // namespace ridgeline
