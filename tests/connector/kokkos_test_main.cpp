// GoogleTest main for the connector's Kokkos tests. OMP_PROC_BIND=false (unless set) as Kokkos
// advises for unit tests: without it Kokkos prints a warning on stdout, which gtest's test
// listing at build time would take for test names.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <Kokkos_Core.hpp>

int main(int argc, char** argv) {
  setenv("OMP_PROC_BIND", "false", 0);
  ::testing::InitGoogleTest(&argc, argv);
  Kokkos::ScopeGuard kokkos(argc, argv);
  return RUN_ALL_TESTS();
}
