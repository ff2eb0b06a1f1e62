#!/usr/bin/env python3
"""scripts/gate-aa judges each night against the nights scripts/nightly's store would give the
gate (reports/compare/night_store.hpp, NightStore::window): the baseline, which stays
until one is promoted, and the newest --history - 1 nights that joined after it. A replay that
dropped the baseline once seven newer nights existed judged long series against seven nights
recorded minutes apart, a window the nightly never uses (stop 61: 1 false alarm of 47 that the
nightly's own window called SAME). --sliding keeps that window for older replays.

  gate_aa_window_test.py --source SOURCE_DIR
"""
import argparse
import importlib.machinery
import importlib.util
import os
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", required=True)
    a = ap.parse_args()
    path = os.path.join(a.source, "scripts", "gate-aa")
    loader = importlib.machinery.SourceFileLoader("gate_aa", path)
    spec = importlib.util.spec_from_loader("gate_aa", loader)
    gate_aa = importlib.util.module_from_spec(spec)
    loader.exec_module(gate_aa)
    window = gate_aa.window

    nights = [f"night-{i:02}" for i in range(1, 12)]
    cases = [
        # (history so far, --history, sliding, expected)
        (nights[:5], 7, False, nights[:5]),  # fewer than 7: all of them
        (nights[:7], 7, False, nights[:7]),
        (nights, 7, False, ["night-01"] + nights[5:]),  # the baseline and the newest 6
        (nights, 7, True, nights[4:]),  # the newest 7
        (nights, 2, False, ["night-01", "night-11"]),
        (nights, 1, False, ["night-01"]),  # the baseline alone, as `--history 1` compares
    ]
    failed = 0
    for history, n, sliding, expected in cases:
        got = window(history, n, sliding)
        if got != expected:
            failed += 1
            print(f"FAIL: window({len(history)} nights, {n}, sliding={sliding}) = {got}, "
                  f"expected {expected}")
    print(f"{len(cases) - failed} of {len(cases)} windows as scripts/nightly's store keeps them")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
