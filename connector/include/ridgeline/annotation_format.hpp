#pragma once
// How an application tells the connector (libridgeline-kp.so) the FLOP and byte counts of one
// call of a kernel, through the Kokkos Tools metadata channel: a key naming the kernel's label
// and a value holding its counts. Shared by ridgeline/annotate.hpp (which needs Kokkos) and the
// connector (which must not), so both read one definition. No Kokkos here.
//
//   key:   "ridgeline.counts:" + <the kernel's Kokkos label>
//   value: "flop=<per call> bytes=<per call> dtype=<fp64|fp32|...>"
//
// Counts are decimal numbers (integers or floating point); dtype names the roof's precision as
// ridgeline's results files spell it. A declaration holds for the label's launches from then on,
// until the label is declared again: the connector sums each launch's counts per label.
//
// C++14: applications of Kokkos 3.x build as C++14, so no nested namespace definitions and no
// inline variables here (a namespace-scope constexpr has internal linkage: one per TU is fine).
#include <cstdio>
#include <string>

namespace ridgeline {
namespace annotation {

constexpr const char* kKeyPrefix = "ridgeline.counts:";

inline std::string key_for(const std::string& label) { return kKeyPrefix + label; }

inline std::string value_for(double flop_per_call, double bytes_per_call,
                             const std::string& dtype) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "flop=%.17g bytes=%.17g dtype=", flop_per_call, bytes_per_call);
  return buf + dtype;
}

}  // namespace annotation
}  // namespace ridgeline
