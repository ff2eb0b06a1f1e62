#!/usr/bin/env bash
# scripts/gpu-run --dry-run on a host build: every step of the GPU session runs (ldd, info, smoke,
# main sweep in its parts, report, packing) with tiny host profiles, and the outputs a GPU session
# brings back are there, well-formed, in the folder the card's slug names. Also: a smoke unit that
# fails is left out and the session goes on; a bundle missing or built for another GPU stops at
# once with exit 2; a binary that cannot start fails fast with exit 4, and one built for another
# ROCm's HIP runtime says which runtime it wants and which the machine has.
#   gpu_run_dry_run_test.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=${1:?} build=${2:?}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

start=$(date +%s)
"$src/scripts/gpu-run" --dry-run --budget 300 "$build" "$work/out" || fail "dry run exited $?"
echo "dry run took $(($(date +%s) - start)) s"
# The card (here: the host) names the folder, as the binary's slug says.
dirs=("$work"/out/*/)
if [ ${#dirs[@]} != 1 ] || [ ! -d "${dirs[0]}" ]; then fail "not one output folder under out/: $(ls "$work/out")"; fi
out=${dirs[0]%/}
tar xzf "$out/gpu-run.tgz" -O ./info.json >"$work/info.json" || fail "no info.json in gpu-run.tgz"
slug=$("$build/bin/ridgeline" slug "$work/info.json") || fail "no slug for info.json"
[ "$(basename "$out")" = "$slug" ] || fail "folder $(basename "$out") is not the binary's slug $slug"
for f in results.json summary.txt report.md gpu-run.tgz; do [ -s "$out/$f" ] || fail "$f missing"; done
python3 - "$out/results.json" <<'PY' || fail "results.json incomplete"
import json, sys
d = json.load(open(sys.argv[1]))
pts = [p for p in d["points"] if p["median_s"] is not None]
fams = {p["family"] for p in pts}
assert pts and all(p["verified"] for p in pts), "unverified or no points"
# The parts of the main sweep all landed in the one file.
assert {"bandwidth", "fma", "peak", "library", "cache"} <= fams, fams
PY
tar tzf "$out/gpu-run.tgz" >"$work/list"
for f in ./info.json ./info.txt ./smoke/bandwidth.json ./smoke/library-fp64.json ./run.log ./results.json \
  ./steps.txt ./report/report.md; do
  grep -qx "$f" "$work/list" || fail "$f not in gpu-run.tgz: $(tr '\n' ' ' <"$work/list")"
done
for part in 1 2 3; do
  grep -q "main sweep part $part (.*): verified" "$out/summary.txt" || fail "main sweep part $part did not verify: $(cat "$out/summary.txt")"
  # Each part's points as results.json records them (read as JSON), not as the log says.
  grep -Eq "main sweep part $part .*; results.json: [1-9][0-9]* verified, [0-9]+ skipped, 0 failed$" "$out/summary.txt" ||
    fail "main sweep part $part does not count its points from results.json: $(cat "$out/summary.txt")"
done
grep -q 'smoke peak: verified' "$out/summary.txt" || fail "summary has no smoke line per unit"
for card in h200-sxm h100-sxm rtx-4090; do  # the binary's estimate of the real session, per card
  grep -q "estimate, gpu-first-light on $card: Budget 300 s: .* in gpu-run's 3 parts" "$out/summary.txt" ||
    fail "no estimate for $card: $(cat "$out/summary.txt")"
done

# A unit that fails its smoke (a planted verification error in the peak probe) is left out of
# the main sweep, and the session goes on to measure the rest; the exit says a unit failed.
rc=0
RIDGELINE_TEST_SMOKE_ARGS="--test-plant-error peak" "$src/scripts/gpu-run" --dry-run --budget 300 \
  --only bandwidth,peak "$build" "$work/outp" >/dev/null 2>&1 || rc=$?
[ "$rc" = 1 ] || fail "a failing smoke unit gave exit $rc, not 1"
outp=$(echo "$work"/outp/*)
grep -q 'smoke peak: FAILED' "$outp/summary.txt" || fail "the failed unit is not named: $(cat "$outp/summary.txt")"
grep -q 'main sweep part 1 (bandwidth): verified' "$outp/summary.txt" ||
  fail "the main sweep did not go on without the failed unit: $(cat "$outp/summary.txt")"

# The short rerun: resumed from the first call's results (carried back), it keeps their points
# and measures only its units; a carried file of another run is kept aside and measured afresh.
"$src/scripts/gpu-run" --dry-run --budget 120 --no-smoke --only cache --resume-from "$out/results.json" \
  "$build" "$work/outr" >/dev/null 2>&1 || fail "the rerun exited $?"
outr=$(echo "$work"/outr/*)
grep -q 'main sweep part 3 (cache): verified' "$outr/summary.txt" || fail "rerun: $(cat "$outr/summary.txt")"
python3 - "$outr/results.json" <<'PY' || fail "the rerun did not keep the first call's points"
import json, sys
fams = {p["family"] for p in json.load(open(sys.argv[1]))["points"] if p["verified"]}
assert {"bandwidth", "peak", "library", "cache"} <= fams, fams
PY
"$src/scripts/gpu-run" --dry-run --budget 120 --no-smoke --only peak --resume-from "$src/tests/data/cpu_run_a.json" \
  "$build" "$work/outc" >/dev/null 2>&1 || fail "a rerun from another run's file exited $?"
outc=$(echo "$work"/outc/*)
if ! grep -q 'cannot be resumed' "$outc/summary.txt" || ! grep -q 'main sweep part 1 (peak): verified' "$outc/summary.txt"; then
  fail "another run's file: $(cat "$outc/summary.txt")"
fi

# No GPU time on a bundle that is not there, or was built for another card: one line, exit 2,
# nothing written.
rc=0
"$src/scripts/gpu-run" --dry-run --budget 60 "$work/nothing" "$work/out5" 2>"$work/err5" || rc=$?
if [ "$rc" != 2 ] || [ "$(wc -l <"$work/err5")" != 1 ] || [ -e "$work/out5" ]; then
  fail "a missing bundle gave exit $rc: $(cat "$work/err5")"
fi
mkdir -p "$work/sm90/bin" "$work/sm90/share/ridgeline" "$work/fake"
ln -s "$build/bin/ridgeline" "$work/sm90/bin/ridgeline"
printf '{\n  "arch": "sm_90"\n}\n' >"$work/sm90/share/ridgeline/bundle.json"
printf '#!/bin/sh\necho 8.9\n' >"$work/fake/nvidia-smi" && chmod +x "$work/fake/nvidia-smi"
rc=0
PATH=$work/fake:$PATH "$src/scripts/gpu-run" --dry-run --budget 60 "$work/sm90" "$work/out6" 2>"$work/err6" || rc=$?
if [ "$rc" != 2 ] || ! grep -q 'built for sm_90; this GPU is sm_89' "$work/err6" || [ -e "$work/out6" ]; then
  fail "a bundle for another arch gave exit $rc: $(cat "$work/err6")"
fi

# A binary whose library is missing stops at the ldd step, before any sweep.
mkdir -p "$work/broken/bin"
echo 'int ridgeline_missing(void) { return 0; }' | gcc -shared -fPIC -x c - -o "$work/libridgeline_missing.so"
echo 'int ridgeline_missing(void); int main(void) { return ridgeline_missing(); }' |
  gcc -x c - -o "$work/broken/bin/ridgeline" -L"$work" -lridgeline_missing
rm "$work/libridgeline_missing.so"
rc=0
"$src/scripts/gpu-run" --dry-run --budget 60 "$work/broken" "$work/out2" >/dev/null 2>&1 || rc=$?
[ "$rc" = 4 ] || fail "a binary that cannot start gave exit $rc, not 4"
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
[ "$rc" = 4 ] || fail "a HIP binary for another ROCm gave exit $rc, not 4"
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
[ "$rc" = 4 ] || fail "a binary missing a library beside its HIP runtime gave exit $rc, not 4"
grep -q 'libridgeline_missing.so => not found' "$work/out4/summary.txt" ||
  fail "the summary does not name the missing library: $(cat "$work/out4/summary.txt")"
! grep -q 'HIP runtime' "$work/out4/summary.txt" ||
  fail "a HIP runtime that was found is called a mismatch: $(cat "$work/out4/summary.txt")"
echo "gpu-run dry run: ok"
