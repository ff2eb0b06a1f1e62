// ridgeline/annotation_format.hpp — everything ridgeline/annotate.hpp adds to an application
// besides one call of Kokkos::Tools::declareMetadata — compiled as C++14 with -pedantic-errors
// (Kokkos 3.x applications build as C++14; a nested namespace or an inline variable fails there).
// No Kokkos here: this machine's Kokkos is built as C++17 and refuses C++14, and the tree carries
// no stand-in for it. Exits 1 unless the key and value are those the connector parses.
#include <ridgeline/annotation_format.hpp>

#include <cstdio>
#include <string>

int main() {
  const std::string key = ridgeline::annotation::key_for("app::tile");
  const std::string value = ridgeline::annotation::value_for(128, 1024, "fp64");
  const bool ok = key == "ridgeline.counts:app::tile" &&
                  value == "flop=128 bytes=1024 dtype=fp64" && __cplusplus == 201402L;
  if (!ok)
    std::fprintf(stderr, "annotate_cxx14_check: key '%s', value '%s', __cplusplus %ld\n",
                 key.c_str(), value.c_str(), static_cast<long>(__cplusplus));
  return ok ? 0 : 1;
}
