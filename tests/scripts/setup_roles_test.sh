#!/usr/bin/env bash
# scripts/setup's package roles, with dpkg-query and apt-get replaced by stubs on PATH (nothing
# is installed or queried for real): which packages each role and preset asks for, that a machine
# with everything installed needs no root and installs nothing, and that without root a missing
# package is named in one line with exit 2 and nothing installed.
#   setup_roles_test.sh SOURCE_DIR
set -euo pipefail
src=${1:?}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
mkdir -m 777 "$work/log"  # the stubs write here as the unprivileged user
fail() { echo "FAIL: $*" >&2; exit 1; }

mkdir -p "$work/stubs"
# dpkg-query -W -f='${Status}' PKG: installed unless PKG is in $STUB_MISSING; logs every query.
cat >"$work/stubs/dpkg-query" <<'STUB'
#!/usr/bin/env bash
pkg=${!#}
echo "$pkg" >>"$STUB_LOG/queried"
case " $STUB_MISSING " in *" $pkg "*) exit 1 ;; esac
printf 'install ok installed'
STUB
# shellcheck disable=SC2016  # the stub expands its own $*, not this script
printf '#!/usr/bin/env bash\necho "apt-get $*" >>"$STUB_LOG/apt"\n' >"$work/stubs/apt-get"
chmod 755 "$work/stubs"/*

# As an unprivileged user where this runs as root (CI does), so the no-root branch is the one taken.
as_user=()
if [ "$(id -u)" -eq 0 ]; then as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups); fi
run_setup() {  # run_setup MISSING ARGS...: exit code in $rc, stderr in $work/err
  local missing=$1
  shift
  rm -f "$work/log/queried" "$work/log/apt"
  rc=0
  env PATH="$work/stubs:$PATH" STUB_LOG="$work/log" STUB_MISSING="$missing" RIDGELINE_SKIP_BUILD=1 \
    Kokkos_ROOT="$work/no-kokkos" "${as_user[@]}" bash "$src/scripts/setup" "$@" \
    >"$work/out" 2>"$work/err" || rc=$?
}

# Every package installed: no root needed, nothing installed.
run_setup "" --check --preset cuda-ada89
[ "$rc" = 0 ] || fail "cuda-ada89 --check with every package installed exited $rc: $(cat "$work/err")"
[ ! -e "$work/log/apt" ] || fail "apt-get was called: $(cat "$work/log/apt")"
run_setup "" --role build
[ "$rc" = 0 ] || fail "role build with every package installed exited $rc: $(cat "$work/err")"
[ ! -e "$work/log/apt" ] || fail "apt-get was called: $(cat "$work/log/apt")"

# What a role asks for.
for role in build test; do
  for preset in openmp cuda-ada89 hip-gfx90a; do
    run_setup "" --check --role "$role" --preset "$preset"
    [ "$rc" = 0 ] || fail "$role/$preset exited $rc"
    for p in chromium slurm-wlm munge clang libopenmpi-dev; do
      if grep -qx "$p" "$work/log/queried"; then
        [ "$role" = test ] || fail "role build, preset $preset asks for $p"
      else
        [ "$role" = build ] || fail "role test, preset $preset does not ask for $p"
      fi
    done
    for p in libbenchmark-dev libopenblas-openmp-dev libgtest-dev; do
      if grep -qx "$p" "$work/log/queried"; then
        [ "$preset" = openmp ] || fail "GPU preset $preset asks for $p (it builds its own Google Benchmark, no tests)"
      else
        [ "$preset" != openmp ] || fail "preset openmp does not ask for $p"
      fi
    done
    grep -qx cmake "$work/log/queried" || fail "$role/$preset does not ask for cmake"
  done
done

# Without root, a missing package: one line naming it, exit 2, nothing installed.
if ((${#as_user[@]})) || [ "$(id -u)" -ne 0 ]; then
  run_setup "libfmt-dev munge" --role test
  [ "$rc" = 2 ] || fail "a missing package without root exited $rc, not 2"
  grep -q "missing packages for role test.*: libfmt-dev munge$" "$work/err" ||
    fail "the message does not name the missing packages: $(cat "$work/err")"
  [ ! -e "$work/log/apt" ] || fail "apt-get was called without root: $(cat "$work/log/apt")"
fi
# An unknown role is refused.
run_setup "" --role nightly
[ "$rc" = 2 ] || fail "--role nightly exited $rc, not 2"
echo "setup roles: ok"
