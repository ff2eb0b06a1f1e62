#!/usr/bin/env bash
# libridgeline-kp.so is loaded into users' applications: sharing the kernels file's writer with the
# reporter must not give it a library of the reporter's (fmt, Kokkos, Google Benchmark, GoogleTest,
# CLI11). Fails too where readelf shows no C library (the check would be looking at nothing).
#   needed_libraries_test.sh READELF LIBRARY
set -euo pipefail
readelf=${1:?} lib=${2:?}
needed=$("$readelf" -d "$lib" | grep NEEDED) || { echo "FAIL: readelf lists nothing $lib needs" >&2; exit 1; }
grep -q 'libc\.so' <<<"$needed" || { echo "FAIL: no C library among: $needed" >&2; exit 1; }
if grep -Ei '(fmt|kokkos|benchmark|gtest|cli11)' <<<"$needed"; then
  echo "FAIL: $lib needs a library of the reporter's (above)" >&2
  exit 1
fi
echo "$lib needs: $(grep -o '\[[^]]*\]' <<<"$needed" | tr '\n' ' ')"
