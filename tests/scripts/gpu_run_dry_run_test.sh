#!/usr/bin/env bash
# scripts/gpu-run --dry-run on a host build: every step of the GPU session runs (ldd, info, smoke,
# main sweep, report, packing) with tiny host profiles, and the outputs a GPU session brings back
# are there and well-formed. Also: a binary that cannot start fails fast with exit 3.
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
echo "gpu-run dry run: ok"
