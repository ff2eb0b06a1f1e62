// ridgeline/annotate.hpp compiled as C++14 with -pedantic-errors (Kokkos 3.x applications build
// as C++14; a nested namespace or an inline variable fails there), against the stand-in
// Kokkos_Core.hpp beside this file. Exits 1 unless the call reaches Kokkos' metadata channel with
// the key and value the connector parses.
#include <ridgeline/annotate.hpp>

#include <cstdio>
#include <string>

namespace {
std::string g_key, g_value;
}

void Kokkos::Tools::declareMetadata(const std::string& key, const std::string& value) {
  g_key = key;
  g_value = value;
}

int main() {
  ridgeline::annotate_kernel("app::tile", 128, 1024, "fp64");
  const bool ok = g_key == "ridgeline.counts:app::tile" &&
                  g_value == "flop=128 bytes=1024 dtype=fp64" && __cplusplus == 201402L;
  if (!ok)
    std::fprintf(stderr, "annotate_cxx14_check: key '%s', value '%s', __cplusplus %ld\n",
                 g_key.c_str(), g_value.c_str(), static_cast<long>(__cplusplus));
  return ok ? 0 : 1;
}
