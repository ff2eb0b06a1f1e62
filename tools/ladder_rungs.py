"""The ladder-rung rules both code checks apply (tools/cuda/check_codegen.py for SASS,
tools/hip/check_codegen.py for AMD ISA): which rungs are graded, and that every graded
FmaLadderProbe rung has its step loop unrolled like the other rungs of its ladder."""
import collections
import re

GRADED_RUNG_K = 64  # ladder rungs with at least this many steps are graded


def graded_rung(kind, k):
    """Ladder rungs with K >= 64 steps have a step loop that the thresholds hold."""
    return kind == 'ladder' and k is not None and k >= GRADED_RUNG_K


def unrolling_failures(rungs, label):
    """Whether the FmaLadderProbe rung `label` has its step loop unrolled like the other graded
    rungs of its ladder (same dtype and form): `rungs` are (label, K, FMAs in the hot loop or
    None). Left to itself clang unrolled by a factor of K - 2 on gfx90a, so K = 64, 256, 4096 got
    2x where K = 1024 got 14x: the rungs differed in loop overhead, not only in intensity."""
    def ladder(l):
        return re.sub(r', K=\d+', '', l)
    me = next(((l, k, f) for l, k, f in rungs if l == label), None)
    if me is None or not label.startswith('FmaLadderProbe<') or not graded_rung('ladder', me[1]):
        return []
    peers = [f for l, k, f in rungs if ladder(l) == ladder(label) and graded_rung('ladder', k)]
    common = collections.Counter(peers).most_common(1)[0][0]
    if me[2] == common:
        return []
    return [f'step loop holds {me[2]} FMAs where the other rungs of {ladder(label)} hold {common}:'
            ' unrolled differently']
