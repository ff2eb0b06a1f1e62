#pragma once
// A stand-in for Kokkos' header with the one function ridgeline/annotate.hpp calls, declared as
// Kokkos 3.4.01 and 4.x declare it (Kokkos_Profiling.hpp). It lets annotate_cxx14_check compile
// the header as C++14 alone: Kokkos builds here as C++17 and its own headers refuse C++14.
#include <string>

namespace Kokkos {
namespace Tools {
void declareMetadata(const std::string& key, const std::string& value);
}  // namespace Tools
}  // namespace Kokkos
