#pragma once
// Declaring the FLOP and byte counts per call of a kernel, so that ridgeline's Kokkos Tools
// connector (libridgeline-kp.so) can place the kernel on the measured roofs. Header-only; needs
// only Kokkos. The counts travel through Kokkos::Tools::declareMetadata, which Kokkos 3.4.01 and
// 4.x both have and forward to the loaded tool: the application never links the connector, and
// without a tool loaded the call does nothing.
//
// Call it after Kokkos::initialize (a tool is loaded there; earlier declarations reach nothing),
// once per label, with the label the kernel is launched with:
//
//   ridgeline::annotate_kernel("app::triad", 2.0 * n, 24.0 * n, "fp64");
//   Kokkos::parallel_for("app::triad", n, KOKKOS_LAMBDA(int i) { a(i) = b(i) + q * c(i); });
//
// Bytes are those the kernel must move to and from memory (the roof's B is DRAM): count each
// array element read or written once per call, as the roofline model does.
#include <Kokkos_Core.hpp>

#include <string>

#include "ridgeline/annotation_format.hpp"

namespace ridgeline {

inline void annotate_kernel(const std::string& label, double flop_per_call, double bytes_per_call,
                            const std::string& dtype) {
  Kokkos::Tools::declareMetadata(annotation::key_for(label),
                                 annotation::value_for(flop_per_call, bytes_per_call, dtype));
}

}  // namespace ridgeline
