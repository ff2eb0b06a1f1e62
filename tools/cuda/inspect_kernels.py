#!/usr/bin/env python3
"""Counts FMA instructions per probe kernel in the PTX and the SASS that nvcc kept (-keep), without
cuobjdump or nvdisasm (the toolkit here has neither).

  inspect_kernels.py KEEP_DIR            # the folder given to -keep-dir
  inspect_kernels.py --ptxas LOG         # registers/stack/spills from -Xptxas -v output
  inspect_kernels.py --calibrate CUBIN   # SASS FMA counts of sass_calibration.cu's kernels

PTX: per kernel, FMAs (fma.rn.f64 / .f32 / .f16x2 / .bf16x2) outside loops and inside each loop
(a backward branch), with the loop's exit compare and increment, so the executed count can be
read off: outside + per-iteration x trip count.
SASS: per kernel, the static count of FMA instructions in the cubin's .text section, found by the
12-bit opcode field of each 128-bit instruction. The low 9 bits name the operation
(0x023 FFMA, 0x02b DFMA, 0x031 HFMA2, 0x035 HFMA2.MMA; the high bits select the operand form).
Those values were calibrated, not taken from documentation: sass_calibration.cu has kernels with
7 and 13 chained FMAs per type, and `inspect_kernels.py --calibrate CUBIN` prints their counts.
SASS counts are static (instructions in the binary): they match the source only where the PTX loop
structure is kept, i.e. SASS count == PTX static count means ptxas neither dropped nor added FMAs.
"""
import collections
import glob
import os
import re
import struct
import subprocess
import sys

SASS_FMA = {0x023: 'FFMA', 0x02b: 'DFMA', 0x031: 'HFMA2', 0x035: 'HFMA2.MMA'}
PTX_FMA = re.compile(r'^\s*\{?\s*(?:@%p\d+\s+)?fma\.rn(?:\.ftz)?\.(f64|f32|f16x2|bf16x2)\b')
PROBES = re.compile(r'(HalfFmaLadderProbe|HalfPeakProbe|FmaLadderProbe|PeakProbe)<Kokkos::Cuda, ([^,>]+)(?:, (\d+))?'
                    r'(?:, \(ridgeline::LadderForm\)(\d))?>')


def demangle(names):
    out = subprocess.run(['c++filt'], input='\n'.join(names), capture_output=True, text=True).stdout
    return dict(zip(names, out.splitlines()))


def probe_label(demangled):
    m = PROBES.search(demangled)
    if not m:
        return None
    kind, t, k, form = m.groups()
    if '::run()' not in demangled:
        return None  # setup / init kernels
    t = {'double': 'fp64', 'float': 'fp32', 'ridgeline::Fp16': 'fp16', 'ridgeline::Bf16': 'bf16'}.get(t, t)
    return f'{kind}<{t}{", K=" + k if k else ""}{", xy" if form == "1" else ""}>'


def ptx_kernels(path):
    text = open(path).read()
    entries = list(re.finditer(r'\.entry\s+(\S+)\(', text))
    for m, nxt in zip(entries, entries[1:] + [None]):
        # Inline asm blocks put '}' in column 0 too: a kernel ends where the next one starts.
        yield m.group(1), text[m.end():nxt.start() if nxt else len(text)].splitlines()


def ptx_report(lines):
    labels = {}
    for i, l in enumerate(lines):
        lm = re.match(r'^(\$L__\w+):', l.strip())
        if lm:
            labels[lm.group(1)] = i
    loops = []
    for i, l in enumerate(lines):
        bm = re.search(r'\bbra(?:\.uni)?\s+(\$L__\w+);', l)
        if bm and labels.get(bm.group(1), i + 1) < i:
            loops.append((labels[bm.group(1)], i))
    in_loop = set()
    for a, b in loops:
        in_loop.update(range(a, b + 1))
    outside = collections.Counter(PTX_FMA.match(l).group(1) for i, l in enumerate(lines)
                                  if i not in in_loop and PTX_FMA.match(l))
    loop_info = []
    # Innermost loops only (no other loop inside): the hot loop whose trip count is read off.
    loops = [(a, b) for a, b in loops
             if not any((a2, b2) != (a, b) and a <= a2 and b2 <= b for a2, b2 in loops)]
    for a, b in loops:
        body = lines[a:b + 1]
        c = collections.Counter(PTX_FMA.match(l).group(1) for l in body if PTX_FMA.match(l))
        ctrl = [l.strip() for l in body if re.search(r'\b(setp|add\.s32|add\.s64)\b', l)][-3:]
        loop_info.append((dict(c), ctrl))
    return dict(outside), loop_info


def cubin_text_sections(path):
    data = open(path, 'rb').read()
    shoff, = struct.unpack_from('<Q', data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)
    hdrs = [struct.unpack_from('<IIQQQQIIQQ', data, shoff + i * shentsize) for i in range(shnum)]
    names = data[hdrs[shstrndx][4]:hdrs[shstrndx][4] + hdrs[shstrndx][5]]
    for h in hdrs:
        name = names[h[0]:names.index(b'\0', h[0])].decode()
        if name.startswith('.text.'):
            yield name[6:], data[h[4]:h[4] + h[5]]


def sass_fma_counts(code):
    c = collections.Counter()
    for i in range(0, len(code), 16):
        lo, = struct.unpack_from('<Q', code, i)
        op = SASS_FMA.get(lo & 0x1ff)
        # ptxas loads constants with `HFMA2.MMA Rd, -RZ, RZ, imm`: first source RZ (bits 24-31 = 0xff)
        # is a move, not arithmetic.
        if op and not (op.startswith('HFMA2') and (lo >> 24) & 0xff == 0xff):
            c[op] += 1
    return dict(c)


def ptxas_report(log):
    """Registers, stack and spills per probe kernel from `-Xptxas -v` output."""
    rows, name = {}, None
    for line in open(log):
        m = re.search(r"Compiling entry function '(\S+)'", line)
        if m:
            name = m.group(1)
            continue
        m = re.search(r'(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads', line)
        if m and name:
            rows.setdefault(name, {}).update(stack=int(m.group(1)), spill_st=int(m.group(2)), spill_ld=int(m.group(3)))
        m = re.search(r'Used (\d+) registers', line)
        if m and name:
            rows.setdefault(name, {})['regs'] = int(m.group(1))
    dm = demangle(sorted(rows))
    for label, n in sorted((probe_label(dm[n]), n) for n in rows if probe_label(dm[n])):
        r = rows[n]
        print(f"{label:40} {r.get('regs')} registers, stack {r.get('stack')} B, spills {r.get('spill_st')}/{r.get('spill_ld')} B")


def main():
    if sys.argv[1] == '--ptxas':
        ptxas_report(sys.argv[2])
        return
    if sys.argv[1] == '--calibrate':
        for name, code in cubin_text_sections(sys.argv[2]):
            print(f'{name:40} {sass_fma_counts(code)}')
        return
    keep = sys.argv[1]
    sass = {}
    for cubin in glob.glob(os.path.join(keep, '*.cubin')):
        for name, code in cubin_text_sections(cubin):
            sass[name] = sass_fma_counts(code)
    ptx = {}
    for p in glob.glob(os.path.join(keep, '*.ptx')):
        for name, lines in ptx_kernels(p):
            ptx[name] = ptx_report(lines)
    dm = demangle(sorted(set(sass) | set(ptx)))
    rows = []
    for name in dm:
        label = probe_label(dm[name])
        if label:
            rows.append((label, name))
    for label, name in sorted(rows):
        outside, loops = ptx.get(name, ({}, []))
        print(f'{label}: SASS {sass.get(name)}  PTX outside loops {outside}')
        for counts, ctrl in loops:
            print(f'    loop: {counts} per iteration; control: {ctrl}')


if __name__ == '__main__':
    main()
