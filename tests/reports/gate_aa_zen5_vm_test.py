#!/usr/bin/env python3
"""scripts/gate-aa on issue 49's protocol, recorded on the VM kind it names: eight nights of
`ridgeline run --profile quick --space OpenMP` on a 2-vCPU AMD EPYC Zen 5 VM (family 26 model 2;
`hypervisor`; L3 left out of the cache list), 2026-12-07 02:45-03:04, each followed at once by a
re-measure and 60 s later by a second, as scripts/nightly runs them (tests/data/
gate-history-zen5-vm, gzip'd as recorded). Nights 4-7 fell in an 8-minute slow phase of the host's
memory path (the DRAM-plateau points at 0.58-0.78 of their median) that nights 1-3, the first
history, had not seen; tested with a normal z in the spread of 3-6 such nights the machine-wide
factor failed 4 of the 5 judged nights with both re-measures and 5 of 5 without.

Asserts: no A/A false alarm of the 5 judged, with the re-measures and without; a lost and a
failing point caught every night, a point slowed by twice its printed figure every night it was
tried ("targets met").

  gate_aa_zen5_vm_test.py --bin RIDGELINE_REPORT --source SOURCE_DIR
"""
import argparse
import gzip
import os
import shutil
import sys
import tempfile

from gate_aa_run import run_gate_aa


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--source", required=True)
    a = ap.parse_args()
    recorded = os.path.join(a.source, "tests", "data", "gate-history-zen5-vm")
    with tempfile.TemporaryDirectory(prefix="gate-aa-zen5-") as d:
        for f in sorted(os.listdir(recorded)):
            if f.endswith(".json.gz"):
                with gzip.open(os.path.join(recorded, f), "rb") as src, \
                        open(os.path.join(d, f[:-len(".gz")]), "wb") as dst:
                    shutil.copyfileobj(src, dst)

        def gate_aa(*extra):
            return run_gate_aa(a.source, a.bin, d, *extra)

        rc, out = gate_aa()
        print(out)
        assert "gate-aa: 8 nights" in out and "5 judged" in out, out
        assert "re-measured nights: 5 of 5 (10 re-measures)" in out, out
        assert "A/A false alarms: 0 of 5" in out, out
        assert "one point lost: caught 5 of 5; one point failing verification: caught 5 of 5" \
            in out, out
        assert rc == 0 and "targets met" in out, out
        rc, out = gate_aa("--no-remeasure")
        print(out)
        assert "A/A false alarms: 0 of 5" in out and rc == 0, out
    return 0


if __name__ == "__main__":
    sys.exit(main())
