#!/usr/bin/env python3
"""The nightly workflow parses as YAML and has the shape issue 7 asks for.

usage: workflow_test.py REPO_ROOT
"""
import json
import os
import re
import subprocess
import sys
import tempfile

try:
    import yaml
except ImportError:
    sys.exit("python3 cannot import yaml: install python3-yaml (scripts/setup does)")

root = sys.argv[1]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


with open(os.path.join(root, ".github/workflows/nightly.yml")) as f:
    wf = yaml.safe_load(f)

# YAML 1.1 reads the key `on` as the boolean true.
on = wf.get("on", wf.get(True))
check(isinstance(on, dict), "on: must be a mapping")
on = on or {}
crons = [s.get("cron", "") for s in on.get("schedule") or []]
check(crons and all(len(c.split()) == 5 for c in crons), f"on.schedule needs cron entries, got {crons}")
check("workflow_dispatch" in on, "on.workflow_dispatch missing")
inputs = (on.get("workflow_dispatch") or {}).get("inputs") or {}
check(inputs.get("update_baseline", {}).get("type") == "boolean",
      "workflow_dispatch needs a boolean update_baseline input")
check(wf.get("permissions", {}).get("contents") == "write",
      "contents: write is needed to push the ridgeline-baselines branch")

jobs = wf.get("jobs") or {}
matrix_jobs = {n: j for n, j in jobs.items() if "matrix" in (j.get("strategy") or {})}
check(len(matrix_jobs) == 1, f"exactly one matrix job expected, got {list(matrix_jobs)}")
with open(os.path.join(root, "CMakePresets.json")) as f:
    presets = {p["name"] for p in json.load(f)["configurePresets"]}
for name, job in matrix_jobs.items():
    strategy = job["strategy"]
    check(strategy.get("fail-fast") is False, "one host failing must not cancel the others")
    entries = strategy["matrix"].get("include") or []
    labels = {e.get("label") for e in entries}
    for want in ("cuda-ada89", "hip-gfx942", "cpu"):
        check(want in labels, f"matrix lacks runner label {want}")
    for e in entries:
        check(e.get("preset") in presets, f"matrix entry {e.get('label')}: unknown preset {e.get('preset')}")
        check(e.get("kokkos_root_var"), f"matrix entry {e.get('label')}: no kokkos_root_var")
    runs_on = job.get("runs-on")
    check(isinstance(runs_on, list) and "self-hosted" in runs_on and "${{ matrix.label }}" in runs_on,
          f"{name}: runs-on must be [self-hosted, matrix.label], got {runs_on}")
    steps = job.get("steps") or []
    runs = "\n".join(s.get("run", "") for s in steps)
    check("scripts/nightly" in runs, f"{name}: never calls scripts/nightly")
    uses = [s.get("uses", "") for s in steps]
    check(any(u.startswith("actions/upload-artifact@") for u in uses), f"{name}: uploads no artifact")
    caches = [s for s in steps if s.get("uses", "").startswith("actions/cache@")]
    # Every row caches what setup builds in .deps (Kokkos, Google Benchmark and its source), per
    # preset, keyed on the scripts that build it: the checkout's clean wipes .deps.
    paths = str(caches[0]["with"]["path"]) if caches else ""
    key = caches[0]["with"]["key"] if caches else ""
    check(caches and ".deps/kokkos-3.4.01" in paths and ".deps/benchmark-1.7.1-static" in paths
          and ".deps/src" in paths and ".deps/${{ matrix.preset }}" in paths
          and "matrix.preset" in key and "hashFiles('scripts/setup', 'scripts/setup-gpu')" in key
          and not caches[0].get("if"),
          f"{name}: every runner must cache .deps per preset, keyed on scripts/setup and setup-gpu")
    # A GPU row sweeps its GPU alone: the host spaces would run under the GPU's baseline key.
    for row in (job.get("strategy", {}).get("matrix", {}).get("include") or []):
        want = {"cuda": "Cuda", "hip": "HIP"}.get(str(row.get("preset", "")).split("-")[0], "")
        check(row.get("space", None) == want,
              f"{name}: row {row.get('label')} must sweep --space {want or '(all host spaces)'}")
    check('-- --space "$SPACE"' in runs, f"{name}: the space of the row never reaches the sweep")
    check("ridgeline-baselines" in json.dumps(wf), "the baseline branch is not named")

finals = [n for n, j in jobs.items() if n not in matrix_jobs]
check(len(finals) == 1, f"one cross-host job expected, got {finals}")
for name in finals:
    job = jobs[name]
    needs = job.get("needs")
    needs = [needs] if isinstance(needs, str) else needs or []
    check(set(matrix_jobs) <= set(needs), f"{name} must need the matrix job")
    check("always()" in str(job.get("if", "")), f"{name} must run if: always()")
    steps = job.get("steps") or []
    uses = [s.get("uses", "") for s in steps]
    check(any(u.startswith("actions/download-artifact@") for u in uses), f"{name}: downloads nothing")
    check(any(u.startswith("actions/upload-artifact@") for u in uses), f"{name}: uploads nothing")
    runs = "\n".join(s.get("run", "") for s in steps)
    check("--preset reports-only" in runs, f"{name}: must build the reports-only preset")
    check("GITHUB_STEP_SUMMARY" in runs, f"{name}: must write the step summary")

# Every run: block is valid bash once the ${{ }} expressions are replaced.
for jname, job in jobs.items():
    for i, step in enumerate(job.get("steps") or []):
        if "run" not in step:
            continue
        script = re.sub(r"\$\{\{[^}]*\}\}", "x", step["run"])
        with tempfile.NamedTemporaryFile("w", suffix=".sh") as tmp:
            tmp.write(script)
            tmp.flush()
            r = subprocess.run(["bash", "-n", tmp.name], capture_output=True, text=True)
        check(r.returncode == 0, f"{jname} step {i} ({step.get('name')}): bash -n: {r.stderr.strip()}")

r = subprocess.run(["bash", "-n", os.path.join(root, "scripts/nightly")], capture_output=True, text=True)
check(r.returncode == 0, f"scripts/nightly: bash -n: {r.stderr.strip()}")

for f in failures:
    print("FAIL:", f)
print(f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
