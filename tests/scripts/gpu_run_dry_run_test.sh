#!/usr/bin/env bash
# scripts/gpu-run --dry-run on a host build: every step of the GPU session runs (ldd, info, smoke,
# main sweep, report, packing) with tiny host profiles, and the outputs a GPU session brings back
# are there and well-formed. Also: a binary that cannot start fails fast with exit 3, and one built
# for another ROCm's HIP runtime says which runtime it wants and which the machine has.
#   gpu_run_dry_run_test.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=${1:?} build=${2:?}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

start=$(date +%s)
"$src/scripts/gpu-run" --dry-run --budget 300 "$build" "$work/out" || fail "dry run exited $?"
echo "dry run took $(($(date +%s) - start)) s"
for f in results.json summary.txt gpu-run.tgz; do [ -s "$work/out/$f" ] || fail "$f missing"; done
python3 - "$work/out/results.json" <<'PY' || fail "results.json incomplete"
import json, sys
d = json.load(open(sys.argv[1]))
pts = [p for p in d["points"] if p["median_s"] is not None]
assert d["complete"] and pts and all(p["verified"] for p in pts), "unverified or no points"
PY
tar tzf "$work/out/gpu-run.tgz" >"$work/list"
for f in ./info.json ./info.txt ./smoke.json ./run.log ./results.json ./steps.txt ./report/report.md; do
  grep -qx "$f" "$work/list" || fail "$f not in gpu-run.tgz: $(tr '\n' ' ' <"$work/list")"
done
grep -q 'main sweep' "$work/out/summary.txt" || fail "summary has no main-sweep line"

# A binary whose library is missing stops at the ldd step, before any sweep.
mkdir -p "$work/broken/bin"
echo 'int ridgeline_missing(void) { return 0; }' | gcc -shared -fPIC -x c - -o "$work/libridgeline_missing.so"
echo 'int ridgeline_missing(void); int main(void) { return ridgeline_missing(); }' |
  gcc -x c - -o "$work/broken/bin/ridgeline" -L"$work" -lridgeline_missing
rm "$work/libridgeline_missing.so"
rc=0
"$src/scripts/gpu-run" --dry-run --budget 60 "$work/broken" "$work/out2" >/dev/null 2>&1 || rc=$?
[ "$rc" = 3 ] || fail "a binary that cannot start gave exit $rc, not 3"
grep -q 'FAIL' "$work/out2/summary.txt" || fail "the fail-fast summary does not say FAIL"

# A HIP binary built for another ROCm than the machine's (as Debian's ROCm 5.2, libamdhip64.so.5,
# on a ROCm 6 machine with .so.6; here majors no machine has, since Debian's .so.5 may be
# installed): the summary names both runtimes.
mkdir -p "$work/hip/bin" "$work/rocm6"
echo 'int hipInit(unsigned f) { return (int)f; }' |
  gcc -shared -fPIC -x c - -Wl,-soname,libamdhip64.so.98 -o "$work/libamdhip64.so.98"
ln -s "$work/libamdhip64.so.98" "$work/libamdhip64.so"
echo 'int hipInit(unsigned); int main(void) { return hipInit(0); }' |
  gcc -x c - -o "$work/hip/bin/ridgeline" -L"$work" -lamdhip64
rm "$work/libamdhip64.so.98" "$work/libamdhip64.so"
echo 'int hipInit(unsigned f) { return (int)f; }' |
  gcc -shared -fPIC -x c - -Wl,-soname,libamdhip64.so.99 -o "$work/rocm6/libamdhip64.so.99"
rc=0
LD_LIBRARY_PATH=$work/rocm6 "$src/scripts/gpu-run" --dry-run --budget 60 "$work/hip" "$work/out3" \
  >/dev/null 2>&1 || rc=$?
[ "$rc" = 3 ] || fail "a HIP binary for another ROCm gave exit $rc, not 3"
grep -q 'HIP runtime libamdhip64.so.98; this machine has .*libamdhip64.so.99 ' "$work/out3/summary.txt" ||
  fail "the summary does not name both HIP runtimes: $(cat "$work/out3/summary.txt")"

# A binary that finds its HIP runtime and misses another library: no word of a HIP mismatch.
echo 'int ridgeline_missing(void) { return 0; }' | gcc -shared -fPIC -x c - -o "$work/libridgeline_missing.so"
echo 'int hipInit(unsigned); int ridgeline_missing(void); int main(void) { return hipInit(0) + ridgeline_missing(); }' |
  gcc -x c - -o "$work/hip/bin/ridgeline" -L"$work/rocm6" -l:libamdhip64.so.99 -L"$work" -lridgeline_missing
rm "$work/libridgeline_missing.so"
rc=0
LD_LIBRARY_PATH=$work/rocm6 "$src/scripts/gpu-run" --dry-run --budget 60 "$work/hip" "$work/out4" \
  >/dev/null 2>&1 || rc=$?
[ "$rc" = 3 ] || fail "a binary missing a library beside its HIP runtime gave exit $rc, not 3"
grep -q 'libridgeline_missing.so => not found' "$work/out4/summary.txt" ||
  fail "the summary does not name the missing library: $(cat "$work/out4/summary.txt")"
! grep -q 'HIP runtime' "$work/out4/summary.txt" ||
  fail "a HIP runtime that was found is called a mismatch: $(cat "$work/out4/summary.txt")"
echo "gpu-run dry run: ok"
