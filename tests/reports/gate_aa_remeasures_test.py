#!/usr/bin/env python3
"""scripts/gate-aa reads every re-measure beside a night (NAME.confirm.json, NAME.confirm2.json,
... as many as exist, up to the first number missing), passes them to compare in that order, and
plants every change in all of them: on the recorded nights with two re-measures each (copies of
the night: a real change is in every run) it meets its targets, and reads 2 per night; a plant
left out of the second re-measure would be "not reproduced" by it and miss them.

  gate_aa_remeasures_test.py --bin RIDGELINE_REPORT --source SOURCE_DIR
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--source", required=True)
    a = ap.parse_args()
    recorded = os.path.join(a.source, "tests", "data", "gate-history")
    nights = sorted(f for f in os.listdir(recorded) if f.endswith(".json"))
    with tempfile.TemporaryDirectory(prefix="gate-aa-remeasures-") as d:
        for i, f in enumerate(nights):
            night = os.path.join(d, f)
            shutil.copy(os.path.join(recorded, f), night)
            base = night[:-len(".json")]
            shutil.copy(night, base + ".confirm.json")
            # The fifth night's second re-measure is missing: its third is not read.
            shutil.copy(night, base + (".confirm3.json" if i == 4 else ".confirm2.json"))

        def gate_aa(*extra):
            r = subprocess.run([sys.executable, os.path.join(a.source, "scripts", "gate-aa"),
                                "--check", "--bin", a.bin, *extra, d],
                               capture_output=True, text=True)
            return r.returncode, r.stdout + r.stderr

        rc, out = gate_aa()
        judged = len(nights) - 3
        print(out)
        assert rc == 0 and "targets met" in out, out
        m = re.search(r"re-measured nights: (\d+) of (\d+) \((\d+) re-measures\)", out)
        assert m, out
        # Every judged night has two re-measures but the fifth, which has one.
        assert (int(m[1]), int(m[2]), int(m[3])) == (judged, judged, 2 * judged - 1), out
        # The re-measures are no nights of their own.
        assert f"gate-aa: {len(nights)} nights" in out, out
        rc, out = gate_aa("--no-remeasure")
        assert rc == 0 and "re-measured nights" not in out, out
    return 0


if __name__ == "__main__":
    sys.exit(main())
