#!/usr/bin/env bash
# scripts/shared-kokkos-src: where the project's snapshots are not beside the checkout (a user's
# clone) it prints nothing and succeeds, so the CUDA leg says it skipped; a tarball whose sha256
# is not the pinned one is refused in one line naming the file, and nothing is unpacked; the
# real snapshots, where they are (../shared/deps), are not touched by this test.
#   shared_kokkos_src_test.sh SOURCE_DIR
set -euo pipefail
src=${1:?}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

out=$(RIDGELINE_SHARED_DEPS=$work/none RIDGELINE_DEPS_DIR=$work/deps "$src/scripts/shared-kokkos-src") ||
  fail "no snapshots: exit $?"
[ -z "$out" ] || fail "no snapshots printed '$out'"

mkdir -p "$work/shared"
echo 'not kokkos' | gzip >"$work/shared/kokkos-4.6.99-28848dfa.tar.gz"
echo 'not kokkos kernels' | gzip >"$work/shared/kokkos-kernels-4.7.99-2fc2af19.tar.gz"
rc=0
RIDGELINE_SHARED_DEPS=$work/shared RIDGELINE_DEPS_DIR=$work/deps "$src/scripts/shared-kokkos-src" \
  >"$work/out" 2>"$work/err" || rc=$?
[ "$rc" = 1 ] || fail "a tarball with another sha256 gave exit $rc"
if [ "$(wc -l <"$work/err")" != 1 ] || ! grep -q 'kokkos-4.6.99-28848dfa.tar.gz: sha256 .*, expected aab2957d' "$work/err"; then
  fail "the error line does not name the tarball and the pinned sum: $(cat "$work/err")"
fi
[ ! -s "$work/out" ] || fail "a refused snapshot printed a folder"
! compgen -G "$work/deps/src/*/kokkos" >/dev/null || fail "a refused snapshot was unpacked"
echo "shared-kokkos-src: ok"
