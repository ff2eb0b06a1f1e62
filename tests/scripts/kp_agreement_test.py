#!/usr/bin/env python3
"""The connector's agreement application and scripts/kp-overhead, without kokkos-tools (whose
simple kernel timer is built from upstream only where the benchmark is run): the application
checks its own results under libridgeline-kp.so and the kernels file counts every launch of
every label exactly, also beside another tool through libridgeline-kp-tee.so; kp-overhead runs its launch table and refuses a missing kernel timer with
one line and exit 2.

  kp_agreement_test.py SOURCE_DIR BUILD_DIR
"""
import json
import os
import subprocess
import sys
import tempfile

src, build = sys.argv[1], sys.argv[2]
app = os.path.join(build, "bin", "ridgeline-kp-agreement-app")
tool = os.path.join(build, "lib", "libridgeline-kp.so")
script = os.path.join(src, "scripts", "kp-overhead")
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "kernels.json")
    env = dict(os.environ, OMP_PROC_BIND="false", KOKKOS_PROFILE_LIBRARY=tool,
               KOKKOS_TOOLS_LIBS=tool, RIDGELINE_KP_OUT=out, RIDGELINE_KP_AGREE_REPEATS="3")
    r = subprocess.run([app], env=env, capture_output=True, text=True)
    check(r.returncode == 0, f"agreement app under the connector: exit {r.returncode}: {r.stderr}")
    calls = {k["label"]: k["calls"] for k in json.load(open(out))["kernels"]}
    # 3 rounds: 20 small triads, 10 mid, 1 big, 1 dot and 1 host fill each; one final check.
    for label, want in (("agree::triad_4Ki", 60), ("agree::triad_256Ki", 30),
                        ("agree::triad_4Mi", 3), ("agree::dot_256Ki", 3),
                        ("agree::host_fill", 3), ("agree::dot_check", 1)):
        check(calls.get(label) == want, f"{label}: {calls.get(label)} calls, want {want}")

    # The same through the tee, the connector beside a tool that records nothing: the connector
    # still sees every launch once.
    tee = os.path.join(build, "lib", "libridgeline-kp-tee.so")
    null = os.path.join(build, "lib", "libridgeline-kp-null.so")
    os.remove(out)
    for pair in (f"{tool};{null}", f"{null};{tool}"):
        env.update(KOKKOS_PROFILE_LIBRARY=tee, KOKKOS_TOOLS_LIBS=tee, RIDGELINE_KP_TEE=pair)
        r = subprocess.run([app], env=env, capture_output=True, text=True)
        check(r.returncode == 0, f"agreement app under the tee ({pair}): exit {r.returncode}")
        tee_calls = {k["label"]: k["calls"] for k in json.load(open(out))["kernels"]}
        check(tee_calls == calls, f"the tee ({pair}) changed the connector's calls: {tee_calls}")
    env.update(RIDGELINE_KP_TEE=tool)
    r = subprocess.run([app], env=env, capture_output=True, text=True)
    check(r.returncode == 2 and r.stderr.count("\n") == 1 and "RIDGELINE_KP_TEE" in r.stderr,
          f"a tee given one tool: exit {r.returncode}, {r.stderr!r}")

    r = subprocess.run([script, "--build", build, "--rounds", "1", "--launches", "20"],
                       capture_output=True, text=True)
    check(r.returncode == 0, f"kp-overhead: exit {r.returncode}: {r.stderr}")
    check("Serial+per-launch" in r.stdout, f"kp-overhead printed no per-launch row:\n{r.stdout}")

    r = subprocess.run([script, "--build", build, "--kernel-timer", tmp], capture_output=True,
                       text=True)
    lines = r.stderr.strip().splitlines()
    check(r.returncode == 2 and len(lines) == 1 and "kp_kernel_timer.so: not found" in lines[0],
          f"kp-overhead with no kernel timer there: exit {r.returncode}, {r.stderr!r}")

for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
