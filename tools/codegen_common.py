"""What the two GPU code checks share (tools/cuda/check_codegen.py on SASS,
tools/hip/check_codegen.py on AMD ISA), written once: the probe kernels' names and the
stream kernels' facts, the loop structure of a decoded kernel (backward branches, innermost
loops, a loop's own instructions), and the passes over every probe kernel that need all of them
(the ladders' unrolling, the memory probes' arithmetic ceiling). Each checker decodes its own ISA
and keeps its own thresholds."""
import re

import arith_ceiling
from ladder_rungs import unrolling_failures

# By StreamOp's numbers (harness/probes/stream_kernels.hpp): update_xy came last.
STREAM_OPS = ['copy', 'scale', 'add', 'triad', 'dot', 'read', 'fill', 'update_xy']
READ_ARRAYS = {'copy': 1, 'scale': 1, 'add': 2, 'triad': 2, 'dot': 2, 'read': 1, 'fill': 0,
               'update_xy': 2}
DTYPES = {'double': 'fp64', 'float': 'fp32', 'ridgeline::Fp16': 'fp16', 'ridgeline::Bf16': 'bf16'}
SRAM_WORDS_IN_FLIGHT = 2  # SramShape::kWordsInFlight on GPUs


def classify_probe(name, space, suffix=''):
    """(kind, label, detail) of a probe kernel of the Kokkos execution space `space` (a regular
    expression: 'Kokkos::Cuda', 'Kokkos::(?:Experimental::)?HIP'), or None. kind: 'sram',
    'stream', 'ladder' or 'peak'; detail: the SRAM or stream operation, or a ladder's K. `suffix`
    ends every label (the HIP check's launch mechanism)."""
    m = re.search(rf'SramProbe<{space}, (double|float)>::run_op<\(ridgeline::SramOp\)(\d)>', name)
    if m:
        op = 'read' if m.group(2) == '0' else 'update'
        return ('sram', f'sram_{op}<{DTYPES[m.group(1)]}>{suffix}', op)
    m = re.search(rf'StreamProbe<{space}, (double|float)(?:, true)?>::run_device_op'
                  r'<\(ridgeline::StreamOp\)(\d)>', name)
    if m:
        op = STREAM_OPS[int(m.group(2))]
        return ('stream', f'{op}<{DTYPES[m.group(1)]}>{suffix}', op)
    # FmaLadderProbe carries its form as a fourth argument, `(ridgeline::LadderForm)N`: without it
    # in the pattern no fp64/fp32 ladder rung was recognised, so none was checked.
    m = re.search(rf'(HalfFmaLadderProbe|HalfPeakProbe|FmaLadderProbe|PeakProbe)<{space}, ([^,>]+)'
                  r'(?:, (\d+))?(?:, \(ridgeline::LadderForm\)(\d))?>::run\(\)', name)
    if m:
        kind, t, k, form = m.groups()
        xy = ', xy' if form == '1' else ''
        label = f'{kind}<{DTYPES.get(t, t)}{", K=" + k if k else ""}{xy}>{suffix}'
        return ('peak' if 'Peak' in kind else 'ladder', label, int(k) if k else None)
    return None


def loops_of(branches):
    """The loops of a kernel, as (first, last) instruction indices: `branches` are (index of a
    branch, index of its target) for every branch whose target is known; a target at or before
    the branch closes a loop."""
    return [(t, i) for i, t in branches if t is not None and 0 <= t <= i]


def innermost(loops):
    """The loops that hold no other loop (an outer loop also holds its once-per-pass set-up)."""
    return [(t, i) for t, i in loops
            if not any((t2, i2) != (t, i) and t <= t2 and i2 <= i for t2, i2 in loops)]


def own_indices(loops, t, i):
    """The instructions of loop (t, i) that no loop nested inside it holds."""
    inner = set()
    for t2, i2 in loops:
        if (t2, i2) != (t, i) and t <= t2 and i2 <= i:
            inner.update(range(t2, i2 + 1))
    return [j for j in range(t, i + 1) if j not in inner]


def memory_loops(kernels):
    """{(probe, dtype): [loop, ...]} for arith_ceiling.judge: `kernels` are (kind, label, detail,
    loops) of each probe kernel, loops as its checker's ceiling_loops gives them. A stream kernel
    serves its bandwidth probe and its cache probe; an SRAM kernel its sram_ probe."""
    out = {}
    for kind, label, detail, loops in kernels:
        if kind not in ('stream', 'sram'):
            continue
        dtype = re.search(r'<(fp\d+)>', label).group(1)
        probes = [f'sram_{detail}'] if kind == 'sram' else [detail, f'cache_{detail}']
        for probe in probes:
            out.setdefault((probe, dtype), []).extend(loops)
    return out


def ladder_failures(rungs):
    """{label: [message]} of the FmaLadderProbe rungs unrolled unlike the other rungs of their
    ladder; `rungs` are (label, K, FMAs in the hot loop or None) of every ladder kernel."""
    return {label: msgs for label, _, _ in rungs if (msgs := unrolling_failures(rungs, label))}


def ceiling_report(arch, loops):
    """The arithmetic-ceiling table of `arch` as lines to print, and its failures (messages),
    from memory_loops(); an arch no machine sheet names (gfx908) is said and not held to it."""
    if not arith_ceiling.sheets_for(arch):
        return [f'{arch}: no machine sheet names this arch; arithmetic ceiling not checked'], []
    rows, failures = arith_ceiling.judge(arch, loops, device=True)
    return [arith_ceiling.table(arch, rows)] + [f'FAIL: {m}' for m in failures], failures
