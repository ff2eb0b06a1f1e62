#!/usr/bin/env bash
# The bundle's glibc check (scripts/bundle) on this build's own binaries: a GPU bundle is made from
# the same sources, so a call that binds a glibc symbol newer than 2.34 (std::hypot did, through
# hypot@GLIBC_2.35) fails here, in every CI run, not at the start of a GPU session. First a
# planted hypot call proves the check names the symbol and the object that called it.
#   bundle_glibc_test.sh SOURCE_DIR BUILD_DIR BINARY...
set -euo pipefail
src=${1:?} build=${2:?}
shift 2
fail() { echo "FAIL: $*" >&2; exit 1; }

# glibc 2.38 and later redirect strtol & co. to __isoc23_* (GLIBC_2.38) under g++'s _GNU_SOURCE:
# no binary built there passes; bundles are built on glibc <= 2.37 (Debian 12: 2.36).
here=$(getconf GNU_LIBC_VERSION | awk '{print $2}')
if [ "$(printf '%s\n2.38\n' "$here" | sort -V | head -n1)" = 2.38 ]; then
  echo "skipped: this machine's glibc $here binds __isoc23_* symbols; bundles are built on glibc <= 2.37"
  exit 77
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/objs"
printf '#include <cmath>\n#include <cstdio>\nint main(int c, char**) { std::printf("%%f", std::hypot(double(c), 2.0)); }\n' >"$work/planted.cpp"
${CXX:-c++} -O2 -c "$work/planted.cpp" -o "$work/objs/planted.o"
${CXX:-c++} "$work/objs/planted.o" -o "$work/planted"
if out=$("$src/scripts/bundle" --check-glibc "$work/planted" "$work/objs" 2>&1); then
  # A glibc older than 2.35 has no new hypot: nothing to plant, the real check below still runs.
  grep -q 'GLIBC_2\.3[0-4]$' <<<"$out" || fail "the planted hypot call passed: $out"
else
  grep -q 'hypot@GLIBC_2.35 (called from planted.o)' <<<"$out" || fail "the failure does not name hypot and planted.o: $out"
fi

for bin in "$@"; do
  "$src/scripts/bundle" --check-glibc "$bin" "$build" || fail "$bin (above)"
done
echo "bundle glibc check: ok"
