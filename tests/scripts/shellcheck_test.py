#!/usr/bin/env python3
"""shellcheck over every shell script of the project and every run: block of its workflows.

usage: shellcheck_test.py REPO_ROOT

A run: block is checked as the bash script GitHub runs (`bash --noprofile --norc -eo pipefail`),
with each ${{ ... }} expression replaced by a placeholder word (GitHub substitutes it before bash
sees the text). Findings are reported with the workflow's own line numbers. Exits 1 on any
finding, 2 when shellcheck or python3-yaml is missing (scripts/setup installs both).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

try:
    import yaml
except ImportError:
    sys.exit("python3 cannot import yaml: install python3-yaml (scripts/setup does)")

if shutil.which("shellcheck") is None:
    print("shellcheck not found: install it (scripts/setup does)", file=sys.stderr)
    sys.exit(2)

root = os.path.abspath(sys.argv[1])
EXPRESSION = re.compile(r"\$\{\{.*?\}\}")


def shell_scripts():
    """Files under scripts/, .ci/ and tests/ whose first line names bash or sh."""
    found = []
    for top in ("scripts", ".ci", "tests"):
        for dirpath, dirs, names in os.walk(os.path.join(root, top)):
            # tests/scripts/planted holds mistakes on purpose (planted_test.py checks them).
            dirs[:] = [d for d in dirs if d != "planted"]
            for name in sorted(names):
                path = os.path.join(dirpath, name)
                try:
                    with open(path, "rb") as f:
                        first = f.readline()
                except OSError:
                    continue
                if re.match(rb"#!\s*(/usr/bin/env\s+)?(/bin/|/usr/bin/)?(ba)?sh\b", first):
                    found.append(path)
    return sorted(found)


def run_blocks(workflow):
    """(job, step name, first line of the block in the file, script) for each run: block."""
    with open(workflow) as f:
        text = f.read()
    loader = yaml.SafeLoader(text)
    doc = loader.get_single_node()
    blocks = []
    jobs = next((v for k, v in doc.value if k.value == "jobs"), None)
    for job_key, job in (jobs.value if jobs else []):
        steps = next((v for k, v in job.value if k.value == "steps"), None)
        for step in (steps.value if steps else []):
            fields = {k.value: v for k, v in step.value}
            if "run" not in fields:
                continue
            node = fields["run"]
            name = fields["name"].value if "name" in fields else "(unnamed)"
            # A block scalar (run: |) starts on the line after its indicator.
            first_line = node.start_mark.line + (2 if node.style in ("|", ">") else 1)
            blocks.append((job_key.value, name, first_line, node.value))
    return blocks


def shellcheck(paths, extra=()):
    r = subprocess.run(["shellcheck", "--format=gcc", "--external-sources", *extra, *paths],
                       capture_output=True, text=True, cwd=root)
    return [line for line in r.stdout.splitlines() if line.strip()], r.returncode


findings = []
scripts = shell_scripts()
lines, _ = shellcheck(scripts)
findings += [os.path.relpath(l, root) if l.startswith(root) else l for l in lines]

workflows_dir = os.path.join(root, ".github", "workflows")
workflows = sorted(os.path.join(workflows_dir, n) for n in os.listdir(workflows_dir)
                   if n.endswith((".yml", ".yaml")))
blocks_checked = 0
with tempfile.TemporaryDirectory() as tmp:
    for wf in workflows:
        rel = os.path.relpath(wf, root)
        for job, name, first_line, script in run_blocks(wf):
            blocks_checked += 1
            path = os.path.join(tmp, f"block{blocks_checked}.sh")
            with open(path, "w") as f:
                # The options GitHub's default bash shell runs with.
                f.write("#!/usr/bin/env bash\nset -eo pipefail\n")
                f.write(EXPRESSION.sub("GITHUB_EXPRESSION", script))
            lines, _ = shellcheck([path], ["--shell=bash"])
            for line in lines:
                m = re.match(r"^[^:]+:(\d+):(\d+): (.*)$", line)
                if m:
                    at = first_line + int(m.group(1)) - 3
                    line = f"{rel}:{at}:{m.group(2)}: {m.group(3)} (job {job}, step '{name}')"
                findings.append(line)

for f in findings:
    print(f)
print(f"shellcheck: {len(scripts)} scripts and {blocks_checked} run: blocks of "
      f"{len(workflows)} workflow(s), {len(findings)} finding(s)")
sys.exit(1 if findings else 0)
