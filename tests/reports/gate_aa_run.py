"""Runs scripts/gate-aa --check over a folder of recorded nights, for the gate-aa tests here."""
import os
import subprocess
import sys


def run_gate_aa(source, binary, nights, *extra):
    """scripts/gate-aa --check --bin BINARY [EXTRA...] NIGHTS: its exit code and its output."""
    r = subprocess.run([sys.executable, os.path.join(source, "scripts", "gate-aa"), "--check",
                        "--bin", binary, *extra, nights], capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr
