#!/usr/bin/env python3
"""Checks the compiled GPU probe kernels (the cubins in a host object nvcc compiled, or those
`nvcc -keep` leaves) for what ridgeline relies on, without cuobjdump or nvdisasm (the toolkit here has neither): a small decoder of the 128-bit
Volta+ instruction words, calibrated on kernels of known content (sass_calibration.cu and the
cases in the comments below), reads opcodes, load/store widths and branch targets.

  check_codegen.py [--arch sm_90] KEEP_DIR [PTXAS_LOG]
  check_codegen.py [--arch sm_90] --object plan.o   # the cubins of that arch inside the object

Per probe kernel it prints: loads issued before the first store, load widths, the FMA share of the
hottest loop's instructions, local-memory (spill) instructions, and registers (from the ptxas
log, else from the cubin's own .nv.info records). It exits 1 if any of these fails:
  - a streaming kernel's hot loop (the loop with the most 16-byte loads) has fewer 16-byte loads
    than a thread's round (4 vectors of 16 bytes per input array), or loads fewer bytes before its
    first store than a round holds: each thread must have its whole round in flight;
  - a peak kernel's hottest loop is under 99 % FMA instructions (loop overhead caps the peak:
    128 FFMA in 132 instructions was a 97 % cap), or a ladder rung's with K >= 64 under 90 %;
  - a rung of FmaLadderProbe with K >= 64 whose step loop holds another number of FMAs than the
    other such rungs of its ladder (dtype and form): every rung is unrolled the same, so rungs
    differ in intensity only (HalfFmaLadderProbe's two loop shapes are by design);
  - a writing stream kernel has fewer 16-byte stores than a round (4);
  - an SRAM kernel (SramProbe's team kernel) has a shared-memory load or store in a loop that is
    not 16 bytes wide (a word accessed lane by lane: LDS.64 or LDS.32 at the words' 16-byte
    stride are 2- and 4-way bank conflicts), or a sweep loop with fewer 16-byte loads than the
    words a thread keeps in flight (2);
  - any probe kernel touches local memory (LDL/STL: spills or a run-time-indexed array);
  - a stream, cache or SRAM point the sweep profiles plan on GPUs has a loop whose instructions
    cap it under 1.5 x the limit of a level it runs at, by the arch's issue rates in the machine
    sheets (tools/arith_ceiling.py; the table of ceilings is printed).
"""
import argparse
import collections
import glob
import os
import re
import struct
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from inspect_kernels import cubin_text_sections, demangle  # noqa: E402
import fatbin  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from ladder_rungs import graded_rung, unrolling_failures  # noqa: E402,F401 (tests call it here)
from codegen_common import (DTYPES, READ_ARRAYS, SRAM_WORDS_IN_FLIGHT, STREAM_OPS,  # noqa: E402,F401
                            ceiling_report, classify_probe, innermost, ladder_failures, loops_of,
                            memory_loops, own_indices)

LDG, STG, LDL, STL, BRA, EXIT = 0x981, 0x986, 0x983, 0x387, 0x947, 0x94D
# Shared memory, and its access width in hi bits 8-11, calibrated on sass_calibration.cu's shared_*
# kernels (nvcc 13.0, sm_89 and sm_90: 32-bit 0x8, 64-bit 0xA, 128-bit 0xC).
LDS, STS = 0x984, 0x388
SHARED_WIDTH = {0x8: 32, 0xA: 64, 0xC: 128}
FMA_LOW9 = {0x023: 'FFMA', 0x02B: 'DFMA', 0x031: 'HFMA2', 0x035: 'HFMA2.MMA'}
WIDTH = {0x8: 16, 0x9: 32, 0xB: 64, 0xD: 128}  # hi bits 8-11 of LDG/STG: access width in bits

ROUND_VECTORS = 4  # 16-byte vectors per thread and input array in flight (LaunchShape::kStreamRound)
PEAK_FMA_SHARE = 0.99  # of a peak kernel's hot-loop instructions
RUNG_FMA_SHARE = 0.90  # of a graded ladder rung's hot-loop instructions


def instructions(code):
    return [struct.unpack_from('<QQ', code, i) for i in range(0, len(code), 16)]


def is_fma(lo):
    op = FMA_LOW9.get(lo & 0x1FF)
    # ptxas loads constants with `HFMA2.MMA Rd, -RZ, RZ, imm` (first source RZ): a move.
    return bool(op) and not (op.startswith('HFMA2') and (lo >> 24) & 0xFF == 0xFF)


def branch_target(idx, lo, arch):
    """Index of a BRA's target, from the byte offset to the next instruction. Calibrated on nvcc
    13.0 loops of 11 to 403 instructions and the `BRA self` after EXIT. sm_90 (Hopper) splits the
    offset: (bits 34.. as signed) << 10 plus bits 16-23 << 2; sm_8x keeps it whole in bits 32..
    (signed bytes)."""
    signed = lo - (1 << 64) if lo >> 63 else lo
    if arch.startswith('sm_9'):
        offset = ((signed >> 34) << 10) + (((lo >> 16) & 0xFF) << 2)
    else:
        offset = signed >> 32
    return idx + 1 + offset // 16


# Before the per-operation device kernels (commit a39ad83 and earlier) each stream kernel was the
# n-th lambda of StreamProbe::run(), in source order; read and dot shared one reduction lambda.
OLD_STREAM_LAMBDAS = {1: 'copy', 2: 'scale', 3: 'add', 4: 'triad', 5: 'fill'}


def classify(name):
    c = classify_probe(name, 'Kokkos::Cuda')
    if c:
        return c
    m = re.search(r'StreamProbe<Kokkos::Cuda, (double|float)>::run\(\)::\{lambda\(unsigned long(, [a-z]+&)?\)#(\d+)\}', name)
    if m:
        op = 'read' if m.group(2) else OLD_STREAM_LAMBDAS.get(int(m.group(3)), '?')
        label = 'read/dot' if m.group(2) else op
        return ('stream', f'{label}<{DTYPES[m.group(1)]}>', op if op != '?' else 'fill')
    return None


def access_bytes(hi):
    return WIDTH.get((hi >> 8) & 0xF, 0) // 8


def sass_loops(ins, arch):
    """The kernel's loops: its backward branches (BRA with the sign bit of the offset set)."""
    return loops_of([(i, branch_target(i, lo, arch)) for i, (lo, _) in enumerate(ins)
                     if lo & 0xFFF == BRA and lo >> 63])


def analyse(code, arch):
    ins = instructions(code)
    ops = [lo & 0xFFF for lo, _ in ins]
    first_store = next((i for i, o in enumerate(ops) if o == STG), len(ops))
    widths = collections.Counter(WIDTH.get((hi >> 8) & 0xF, 0) for (lo, hi), o in zip(ins, ops) if o == LDG)
    store_widths = collections.Counter(WIDTH.get((hi >> 8) & 0xF, 0) for (lo, hi), o in zip(ins, ops) if o == STG)
    loops = sass_loops(ins, arch)
    # The hot loop: of the loops with at least 16 FMAs of their own (instructions of loops nested
    # inside excluded), the densest in FMAs. An outer loop holding the hot one has few FMAs of its
    # own at a low density; a remainder loop of one step has fewer than 16.
    best = (0, 0)  # (FMAs, instructions) of its own
    for t, i in loops:
        own = own_indices(loops, t, i)
        fmas = sum(is_fma(ins[j][0]) for j in own)
        if fmas >= 16 and (not best[1] or fmas / len(own) > best[0] / best[1]):
            best = (fmas, len(own))
    # A stream's hot loop: the loop with the most 16-byte loads (its rounds); how many it has and
    # how many bytes it loads before its first store. Without such a loop, the whole kernel.
    def wide_loads(t, i):
        return sum(1 for j in range(t, i + 1) if ops[j] == LDG and access_bytes(ins[j][1]) == 16)
    hot = max(loops, key=lambda l: wide_loads(*l), default=(0, len(ops) - 1))
    if not loops or wide_loads(*hot) == 0:
        hot = (0, len(ops) - 1)
    t, i = hot
    hot_store = next((j for j in range(t, i + 1) if ops[j] == STG), i + 1)
    # Shared-memory accesses inside loops, by width, and the most 16-byte loads of one loop.
    in_loops = sorted({j for t2, i2 in loops for j in range(t2, i2 + 1)})
    shared_in_loops = collections.Counter(
        ('LDS' if ops[j] == LDS else 'STS', SHARED_WIDTH.get((ins[j][1] >> 8) & 0xF, 0))
        for j in in_loops if ops[j] in (LDS, STS))
    shared_wide_loads = max((sum(1 for j in range(t2, i2 + 1) if ops[j] == LDS and
                                 SHARED_WIDTH.get((ins[j][1] >> 8) & 0xF) == 128)
                             for t2, i2 in loops), default=0)
    return {
        'shared_in_loops': dict(shared_in_loops), 'shared_wide_loads': shared_wide_loads,
        'loads_before_store': sum(1 for o in ops[:first_store] if o == LDG),
        'loads': ops.count(LDG), 'stores': ops.count(STG),
        'widths': dict(widths), 'store_widths': dict(store_widths),
        'hot_wide_loads': wide_loads(t, i),
        'hot_bytes_before_store': sum(access_bytes(ins[j][1]) for j in range(t, hot_store) if ops[j] == LDG),
        'hot_stores': sum(1 for j in range(t, i + 1) if ops[j] == STG),
        'local': ops.count(LDL) + ops.count(STL),
        'loop_fma': best[0], 'loop_len': best[1],
    }


# Instruction classes of the arithmetic ceiling (tools/arith_ceiling.py, rates in the
# machine sheets' issue_rates), by the low 9 bits of the opcode: the operation whatever its
# operands' kinds (register, immediate, constant: bits 9-11). Read off the probes' own loops
# (nvcc 13.0, sm_89 and sm_90), whose source says what they hold: the read loops' FADD (0x221)
# and DADD (0x229) four and two per 16-byte load, scale's FMUL, triad's FFMA, the SRAM update's
# DFMA; the index arithmetic's IADD3, ISETP, LOP3, LEA, SHF, SEL, IMAD, IMAD.WIDE, IMAD.HI; the
# 32-bit division sequence I2F.U32.RP, MUFU.RCP, F2I (on the SFU). Every instruction, classed or
# not, also takes an issue slot.
SASS_CLASSES = {0x020: 'fp32', 0x021: 'fp32', 0x023: 'fp32',
                0x028: 'fp64', 0x029: 'fp64', 0x02B: 'fp64',
                0x007: 'int32', 0x00C: 'int32', 0x010: 'int32', 0x011: 'int32', 0x012: 'int32',
                0x013: 'int32', 0x017: 'int32', 0x019: 'int32', 0x024: 'int32', 0x025: 'int32',
                0x027: 'int32',
                0x105: 'sfu', 0x106: 'sfu', 0x108: 'sfu',
                0x181: 'load_store', 0x184: 'load_store', 0x186: 'load_store', 0x188: 'load_store'}
GLOBAL_LOW9 = (0x181, 0x186)  # LDG, STG
SHARED_LOW9 = (0x184, 0x188)  # LDS, STS (STS also encodes as 0x988)


def ceiling_loops(code, arch, kind):
    """The loops that bound a memory probe's rate, each as {'bytes': moved per thread and
    iteration by its accesses of the probe's level, 'counts': {class: instructions}} (every
    instruction in the loop's range counted once, 'issue' all of them). A stream kernel's: its
    innermost loop with the most 16-byte global loads (a fill's: stores), its rounds. An SRAM kernel's: every innermost
    loop with a 16-byte shared access and no global one (its sweeps; the fill reads global
    memory)."""
    ins = instructions(code)
    low9 = [lo & 0x1FF for lo, _ in ins]
    loops = sass_loops(ins, arch)

    def width(j):
        if low9[j] in GLOBAL_LOW9:
            return access_bytes(ins[j][1])
        return SHARED_WIDTH.get((ins[j][1] >> 8) & 0xF, 0) // 8 if low9[j] in SHARED_LOW9 else 0

    def count(t, i, ops, w=16):
        return sum(1 for j in range(t, i + 1) if low9[j] in ops and width(j) == w)

    def profile(t, i, level_ops):
        counts = collections.Counter(SASS_CLASSES[low9[j]] for j in range(t, i + 1) if low9[j] in SASS_CLASSES)
        counts['issue'] = i - t + 1
        return {'bytes': sum(width(j) for j in range(t, i + 1) if low9[j] in level_ops),
                'counts': dict(counts)}
    # Innermost loops only: an outer loop (the passes) holds the once-per-pass set-up too.
    inner = innermost(loops)
    if kind == 'stream':
        hot = max(inner, key=lambda l: (count(*l, (0x181,)), count(*l, (0x186,))), default=None)
        if hot is None or not (count(*hot, (0x181,)) or count(*hot, (0x186,))):
            return []
        return [profile(*hot, GLOBAL_LOW9)]
    return [profile(t, i, SHARED_LOW9) for t, i in inner
            if count(t, i, SHARED_LOW9) and not any(low9[j] in GLOBAL_LOW9 for j in range(t, i + 1))]


def failed_checks(kind, label, detail, a):
    """The failed checks' messages for one probe kernel (see the module's doc)."""
    checks = []
    if kind == 'stream' and READ_ARRAYS[detail]:
        need = ROUND_VECTORS * READ_ARRAYS[detail]
        checks.append((a['hot_wide_loads'] >= need,
                       f'hot loop has {a["hot_wide_loads"]} 16-byte loads < {need}'))
        if a['hot_stores']:
            checks.append((a['hot_bytes_before_store'] >= 16 * need,
                           f'hot loop loads {a["hot_bytes_before_store"]} bytes before its first store < {16 * need}'))
    if kind == 'stream' and detail not in ('dot', 'read'):  # reductions store only Kokkos' partials
        checks.append((a['store_widths'].get(128, 0) >= ROUND_VECTORS,
                       f'{a["store_widths"].get(128, 0)} 16-byte stores < {ROUND_VECTORS}'))
    if kind == 'sram':
        narrow = {f'{op}.{w}': n for (op, w), n in a['shared_in_loops'].items() if w != 128}
        checks.append((not narrow, 'shared accesses in loops narrower than 16 bytes: ' +
                       ', '.join(f'{n} {k}' for k, n in sorted(narrow.items()))))
        checks.append((a['shared_wide_loads'] >= SRAM_WORDS_IN_FLIGHT,
                       f'no loop with {SRAM_WORDS_IN_FLIGHT} 16-byte shared loads (most: '
                       f'{a["shared_wide_loads"]})'))
        if detail == 'update':
            checks.append((a['shared_in_loops'].get(('STS', 128), 0) > 0,
                           'no 16-byte shared store in a loop'))
    share = a['loop_fma'] / a['loop_len'] if a['loop_len'] else None
    if kind == 'peak' or graded_rung(kind, detail):
        need = PEAK_FMA_SHARE if kind == 'peak' else RUNG_FMA_SHARE
        checks.append((share is not None and share >= need,
                       f'hot loop FMA share {share if share is None else round(share, 3)} < {need}'))
    checks.append((a['local'] == 0, f'{a["local"]} local-memory instructions'))
    return [msg for ok, msg in checks if not ok]


def ptxas_registers(log):
    regs, name = {}, None
    for line in open(log):
        m = re.search(r"Compiling entry function '(\S+)'", line)
        if m:
            name = m.group(1)
        m = re.search(r'Used (\d+) registers', line)
        if m and name:
            regs[name] = int(m.group(1))
    return regs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--arch', default='sm_90')
    ap.add_argument('--object', help='a host object nvcc compiled: read the arch\'s cubins in it')
    ap.add_argument('keep_dir', nargs='?')
    ap.add_argument('ptxas_log', nargs='?')
    args = ap.parse_args()
    if bool(args.object) == bool(args.keep_dir):
        ap.error('give KEEP_DIR or --object')
    kernels, regs = {}, {}
    if args.object:
        try:
            blobs = fatbin.cubins(fatbin.fatbin_section(args.object), fatbin.arch_number(args.arch))
        except fatbin.FatbinError as e:
            print(f'check_codegen.py: {e}', file=sys.stderr)
            return 2
        with tempfile.TemporaryDirectory() as tmp:
            for i, blob in enumerate(blobs):
                path = os.path.join(tmp, f'{i}.cubin')
                with open(path, 'wb') as f:
                    f.write(blob)
                kernels.update(cubin_text_sections(path))
                regs.update(fatbin.registers(blob))
    else:
        for cubin in sorted(glob.glob(os.path.join(args.keep_dir, '*.cubin'))):
            kernels.update(cubin_text_sections(cubin))
    if not kernels:
        print(f'no {args.arch} cubins in {args.object or args.keep_dir}', file=sys.stderr)
        return 2
    if args.ptxas_log:
        regs = ptxas_registers(args.ptxas_log)
    names = demangle(sorted(kernels))
    rows, failures, probe_loops = [], [], []
    for mangled, dn in names.items():
        c = classify(dn)
        if not c:
            continue
        kind, label, detail = c
        probe_loops.append((kind, label, detail, ceiling_loops(kernels[mangled], args.arch, kind)
                            if kind in ('stream', 'sram') else []))
        a = analyse(kernels[mangled], args.arch)
        failed = failed_checks(kind, label, detail, a)
        failures += [f'{label}: {m}' for m in failed]
        reduce = 'ParallelReduce' in dn
        share = a['loop_fma'] / a['loop_len'] if a['loop_len'] else None
        rows.append([kind, label + (' (reduce)' if reduce else ''), a, share, regs.get(mangled), failed,
                     detail])
    ceiling_lines, ceiling_failures = ceiling_report(args.arch, memory_loops(probe_loops))
    unrolled = ladder_failures([(r[1], r[6], r[2]['loop_fma']) for r in rows if r[0] == 'ladder'])
    for row in rows:  # rungs whose step loop is unrolled unlike their ladder's other rungs
        for msg in unrolled.get(row[1], []):
            row[5].append(msg)
            failures.append(f'{row[1]}: {msg}')
    print(f'{"kernel":44} {"regs":>4} {"ld<st":>5} {"ld":>4} {"st":>4} {"ld widths":14} {"hot ld16/B<st":>13} {"loop FMA":>12} local  verdict')
    for kind, label, a, share, r, failed, _ in sorted(rows, key=lambda x: (x[0], x[1])):
        w = ','.join(f'{k}b:{v}' for k, v in sorted(a['widths'].items()))
        if kind == 'sram':  # shared accesses in loops instead: LDS/STS by width
            w = ','.join(f'{op[0]}{b}:{n}' for (op, b), n in sorted(a['shared_in_loops'].items()))
        loop = f'{a["loop_fma"]}/{a["loop_len"]} {share:.1%}' if share is not None else '-'
        hot = f'{a["hot_wide_loads"]}/{a["hot_bytes_before_store"]}' if kind == 'stream' else '-'
        print(f'{label:44} {r if r is not None else "?":>4} {a["loads_before_store"]:>5} {a["loads"]:>4} '
              f'{a["stores"]:>4} {w:14} {hot:>13} {loop:>12} {a["local"]:>5}  {"FAIL: " + "; ".join(failed) if failed else "ok"}')
    print('\n'.join(ceiling_lines))
    failures += ceiling_failures
    print(f'{args.arch}: {len(rows)} probe kernels, {len(failures)} failed check(s)')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
