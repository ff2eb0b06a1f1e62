#!/usr/bin/env python3
"""The workflow checks have teeth: on tests/scripts/planted, a tree with mistakes put there on
purpose, shellcheck_test.py and workflow_check.py must each fail and name every mistake where it
is (file and line, or job and step).

usage: planted_test.py
"""
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
planted = os.path.join(here, "planted")
failures = []


def run(script):
    r = subprocess.run([sys.executable, os.path.join(here, script), planted],
                       capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


code, out = run("shellcheck_test.py")
if code != 1:
    failures.append(f"shellcheck_test.py exited {code} on the planted tree, not 1:\n{out}")
for want in ("scripts/planted:4:8: note: Double quote to prevent globbing and word splitting. [SC2086]",
             # The workflow's own line: run: | on line 9, its second line is line 11.
             ".github/workflows/planted.yml:11:",
             "[SC2086] (job build, step 'unquoted')"):
    if want not in out:
        failures.append(f"shellcheck_test.py did not report '{want}':\n{out}")

code, out = run("workflow_check.py")
if code != 1:
    failures.append(f"workflow_check.py exited {code} on the planted tree, not 1:\n{out}")
for want in ("job build step 1 (unquoted): matrix.none is not a key of the matrix",
             "job build step 2 (both): needs exactly one of uses: and run:",
             "job build step 3 (later): steps.nope names no earlier step id",
             "job other: runs-on label 'mystery-label' is neither GitHub's nor declared",
             "job other: needs 'missing-job', which is no job of this workflow"):
    if want not in out:
        failures.append(f"workflow_check.py did not report '{want}':\n{out}")
if "gpu-box" in out:
    failures.append(f"workflow_check.py rejected the label declared in actionlint.yaml:\n{out}")

for f in failures:
    print("FAIL:", f)
print(f"planted mistakes: {len(failures)} failure(s)")
sys.exit(1 if failures else 0)
