#!/usr/bin/env python3
"""The nightly workflow's export step, run as GitHub would run it: in a checkout-like folder
holding tonight's results (a committed fixture) and a ridgeline binary where scripts/nightly
builds it, with GITHUB_STEP_SUMMARY set. It must write the github-action-benchmark file beside
the results and put P and B, as that file holds them, into the summary; on results that cannot
be fitted it must warn and exit 0 (the night's verdict is scripts/nightly's).

usage: workflow_export_step_test.py REPO_ROOT RIDGELINE_BIN
"""
import json
import os
import re
import subprocess
import sys
import tempfile

import yaml

root, binary = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
with open(os.path.join(root, ".github/workflows/nightly.yml")) as f:
    wf = yaml.safe_load(f)
steps = [s for s in wf["jobs"]["measure"]["steps"] if s.get("name") == "Export the roofs for dashboards"]
if len(steps) != 1:
    sys.exit("FAIL: the measure job has no step 'Export the roofs for dashboards'")
step = steps[0]
failures = []


def run_step(work, host, doc):
    """The step, run in `work` on one night of `host` holding `doc`: (process, night, summary)."""
    night = os.path.join(work, "results/nightly", host, "2026-12-01")
    os.makedirs(night)
    with open(os.path.join(night, "results.json"), "w") as out:
        json.dump(doc, out)
    os.makedirs(os.path.join(work, "build/bin"))
    os.symlink(binary, os.path.join(work, "build/bin/ridgeline"))
    summary = os.path.join(work, "summary.md")
    env = dict(os.environ, PRESET="openmp", GITHUB_STEP_SUMMARY=summary)
    script = re.sub(r"\$\{\{[^}]*\}\}", "", step["run"])
    r = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script],
                       cwd=work, env=env, capture_output=True, text=True)
    return r, night, summary


with open(os.path.join(root, "tests/data/gpu_run.json")) as f:
    gpu_run = json.load(f)
with tempfile.TemporaryDirectory() as work:
    r, night, summary = run_step(work, "gpu-node-nvidia-h200", gpu_run)
    if r.returncode != 0:
        failures.append(f"the step exited {r.returncode}: {r.stdout}{r.stderr}")
    exported = os.path.join(night, "benchmark.json")
    if not os.path.isfile(exported):
        failures.append("no benchmark.json beside tonight's results.json")
    else:
        with open(exported) as f:
            entries = {e["name"]: e for e in json.load(f)}
        with open(summary) as f:
            text = f.read()
        for name in ("Cuda fp64 P", "Cuda fp64 B", "Cuda fp32 P", "Cuda fp32 B"):
            e = entries.get(name)
            if e is None:
                failures.append(f"benchmark.json has no entry '{name}'")
                continue
            row = f"| {name} | {e['value']:.4g} {e['unit']} | {e['range']} |"
            if row not in text:
                failures.append(f"the summary lacks '{row}':\n{text}")
        if "B_read" in text or "I*" in text:
            failures.append(f"the summary should hold P and B only:\n{text}")

# A night whose results cannot be fitted: the step warns and leaves the verdict to scripts/nightly.
with tempfile.TemporaryDirectory() as work:
    r, night, summary = run_step(work, "some-host", dict(gpu_run, points=[]))
    if r.returncode != 0 or "::warning::ridgeline export: " not in r.stdout:
        failures.append(f"unfittable results: exit {r.returncode}, no warning:\n{r.stdout}{r.stderr}")
    if os.path.exists(summary) or os.path.exists(os.path.join(night, "benchmark.json")):
        failures.append("unfittable results: the step wrote a summary or a benchmark.json")

for f in failures:
    print("FAIL:", f)
print(f"workflow export step: {len(failures)} failure(s)")
sys.exit(1 if failures else 0)
