#!/usr/bin/env python3
"""Checks the compiled HIP probe kernels (AMDGPU code objects, as roc-obj extracts them from an
object file or binary) for what ridgeline relies on, the AMD counterpart of
tools/cuda/check_codegen.py. Reads `llvm-objdump -d --mcpu=ARCH` and the kernel
metadata of `llvm-readelf --notes` (registers, scratch, spills).

  check_codegen.py [--arch gfx90a] [--llvm-suffix -15] CODE_OBJECT...

Per probe kernel it prints VGPRs/SGPRs/AGPRs, scratch bytes and spills, global loads issued before
the first wait for memory (s_waitcnt vmcnt), load widths, and the FMA share of the hottest loop
(of its vector ALU instructions and of all its instructions). It exits 1 if any of these fails:
  - any probe kernel uses scratch (private segment), spills VGPRs/SGPRs, or holds AGPRs (in a
    kernel without matrix instructions AGPRs are where registers spill to on gfx90a/gfx942);
  - a streaming kernel's rounds (its loop with the most 16-byte loads) wait for memory before a
    thread's round is in flight (4 vectors of 16 bytes per input array: 64 bytes each), or it
    splits an element into narrower loads (2-byte reads of the implicit kernel arguments, the
    work-group size that clang >= 17 reads per lane, are not elements);
  - a peak kernel's hot loop is under 99 % FMA of its vector ALU instructions, or the hot loop
    of a ladder rung with K >= 64 under 95 %; either under 90 % of all its instructions: a
    literal that forces `v_fmac` plus a `v_mov` per FMA halves the rate, and a rung unrolled 2x
    spends a fifth of its issue slots on the loop (16 FMA of 20 instructions);
  - a rung of FmaLadderProbe with K >= 64 whose step loop holds another number of FMAs than the
    other such rungs of its ladder (dtype and form): every rung is unrolled the same, so rungs
    differ in intensity only. (HalfFmaLadderProbe runs K <= 128 in its 16-pair loop and larger K
    in blocks of 128 steps by design, half_fma_probe.hpp: the thresholds above hold each.)
  - an SRAM kernel (SramProbe's team kernel) has an LDS access in a loop that is not one 16-byte
    ds_read_b128 / ds_write_b128 (a word moved in halves or quarters: ds_read2_b32 at the words'
    16-byte stride), or no loop with the 2 such loads a thread keeps in flight.
  - a stream, cache or SRAM point the sweep profiles plan on GPUs has a loop whose instructions
    cap it under 1.5 x the limit of a level it runs at, by the arch's issue rates in the machine
    sheets (tools/arith_ceiling.py; the table of ceilings is printed; archs without a
    sheet, gfx908, are not held to it).
A stream kernel that Kokkos 3.x launched (its functor read through a pointer to global memory,
as Debian's Kokkos 3.4.01 does; scripts/check-gpu-builds) has its load order, load widths and
reduction scratch printed as not graded: they are that launch's code (flat addressing, captures
reloaded in the loop, the reduction's value in scratch), not the probe's. Build against Kokkos >= 4
to grade them; spills and AGPRs fail either way.
Exit 2 when no probe kernel is found (wrong file, or a CUDA build).
"""
import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from ladder_rungs import graded_rung, unrolling_failures  # noqa: E402,F401 (tests call it here)
from codegen_common import (DTYPES, READ_ARRAYS, SRAM_WORDS_IN_FLIGHT, STREAM_OPS,  # noqa: E402,F401
                            ceiling_report, classify_probe, innermost, ladder_failures, loops_of,
                            memory_loops, own_indices)

try:
    import yaml
except ImportError:  # python3-yaml (scripts/setup installs it)
    yaml = None

ROUND_BYTES = 64  # per thread and input array in flight (LaunchShape::kStreamRound × 16 bytes)
ELEMENT_BYTES = {'fp64': 8, 'fp32': 4}
PEAK_VALU_SHARE = 0.99  # FMAs of a peak kernel's hot-loop vector ALU instructions
RUNG_VALU_SHARE = 0.95  # the same for a graded ladder rung
LOOP_SHARE = 0.90  # FMAs of all the hot loop's instructions (peak and graded rungs)
# Kokkos picks one of three launch paths by the functor's size; several may be instantiated.
MECHANISMS = {'local_memory': 'local', 'constant_memory': 'constant', 'global_memory': 'global'}

FUNCTION = re.compile(r'^([0-9a-f]+) <(.+)>:$')
# mnemonic, operands, address; a branch's target follows the encoding: `// ADDR: BF85FEFB <sym+0x70>`
INSTRUCTION = re.compile(r'^\s+([a-z_0-9]+)(.*?)\s*//\s*([0-9A-F]+):(.*)$')
BRANCH_TARGET = re.compile(r'<(.+)\+0x([0-9a-f]+)>')
FMA = re.compile(r'^v_(pk_)?(fma|fmac|mac|mad|fma_mix|fma_mixlo|fma_mixhi)_(f64|f32|f16|legacy_f32)(_e32|_e64)?$'
                 r'|^v_fma_mix(lo|hi)?_f16$')
LOAD_BYTES = {'ubyte': 1, 'sbyte': 1, 'ushort': 2, 'sshort': 2, 'short_d16': 2, 'short_d16_hi': 2,
              'dword': 4, 'dwordx2': 8, 'dwordx3': 12, 'dwordx4': 16}
GLOBAL_LOAD = re.compile(r'^(global|buffer|flat)_load_(\w+)$')
GLOBAL_STORE = re.compile(r'^(global|buffer|flat)_store_')
SCRATCH = re.compile(r'^scratch_')
VMCNT_WAIT = re.compile(r'vmcnt\(')
IMPLICIT_ARG_BASE = re.compile(r'^\s*v\d+, v\d+, s\[\d+:\d+\]')  # vdst, voffset, SGPR base
# LDS accesses: GFX9 spells them ds_read/ds_write (ds_read2_b64: two 8-byte halves), GFX11+
# ds_load/ds_store.
LDS_ACCESS = re.compile(r'^ds_(read|write|load|store)(2st64|2)?_(b32|b64|b96|b128|u8|i8|u16|i16)$')


# Instruction classes of the arithmetic ceiling (tools/arith_ceiling.py; rates in the
# machine sheets' issue_rates), by mnemonic. Every v_ instruction takes the CU's vector ALU issue
# slot ('valu'); 32-bit integer multiplies and the transcendentals (v_rcp, v_rsq, v_sqrt, ...,
# which the 32-bit division sequence uses) issue at a quarter of the rate (AMD CDNA 2/3 ISA
# guides, VALU), so they count 4. s_ instructions other than branches and waits take the scalar
# slot; global/buffer/flat accesses the vector memory slot; ds_ the LDS slot.
VALU_FP32 = re.compile(r'^v_(pk_)?(add|sub|subrev|mul|fma|fmac|mac|mad|min|max)_(f32|legacy_f32)(_e32|_e64)?$')
VALU_FP64 = re.compile(r'^v_(add|mul|fma|fmac|min|max)_f64(_e32|_e64)?$')
VALU_QUARTER = re.compile(r'^v_(mul_lo|mul_hi|mad_u64|mad_i64|mad_u32_u24_legacy|rcp|rsq|sqrt|exp|log|sin|cos)')
SALU_FREE = re.compile(r'^s_(waitcnt|nop|branch|cbranch|endpgm|barrier|setprio|sleep)')
GLOBAL_ACCESS = re.compile(r'^(global|buffer|flat)_(load|store)_(\w+)$')
LDS_BYTES = {'b32': 4, 'b64': 8, 'b96': 12, 'b128': 16, 'u8': 1, 'i8': 1, 'u16': 2, 'i16': 2}


def instruction_class(op):
    """(class, issue weight) of one mnemonic for the ceiling, or (None, 0)."""
    if op.startswith('v_'):
        if VALU_FP64.match(op):
            return 'fp64', 1
        if VALU_FP32.match(op):
            return 'fp32', 1
        return 'int32', 4 if VALU_QUARTER.match(op) else 1
    if GLOBAL_ACCESS.match(op):
        return 'vmem', 1
    if op.startswith('ds_'):
        return 'lds', 1
    if op.startswith('s_') and not SALU_FREE.match(op):
        return 'salu', 1
    return None, 0


def access_bytes(op):
    """Bytes one lane moves with a global or LDS access (ds_read2: two elements)."""
    m = GLOBAL_ACCESS.match(op)
    if m:
        return LOAD_BYTES.get(m.group(3), 0)
    m = LDS_ACCESS.match(op)
    if m:
        return LDS_BYTES.get(m.group(3), 0) * (2 if m.group(2) else 1)
    return 0


def isa_loops(symbol, body):
    """The function's loops: its branches back to an instruction of its own."""
    fn_address = body[0][0] if body else 0
    index = {a: i for i, (a, _, _) in enumerate(body)}
    branches = []
    for i, (address, op, args) in enumerate(body):
        if op.startswith('s_cbranch') or op == 's_branch':
            target = branch_target(fn_address, args, symbol)
            branches.append((i, index.get(target) if target is not None and target <= address else None))
    return loops_of(branches)


def ceiling_loops(symbol, body, kind):
    """The loops that bound a memory probe's rate, each as {'bytes': moved per lane and
    iteration by its accesses of the probe's level, 'counts': {class: instructions}} ('valu' all
    vector ALU instructions, quarter-rate ones 4 each). A stream kernel's: its innermost loop with
    the most 16-byte global loads (a fill's: stores). An SRAM kernel's: every innermost loop with
    an LDS access and no global one (its sweeps, not the fill)."""
    ops = [op for _, op, _ in body]
    loops = isa_loops(symbol, body)
    inner = innermost(loops)

    def wide(t, i, verb):
        return sum(1 for j in range(t, i + 1)
                   if GLOBAL_ACCESS.match(ops[j]) and GLOBAL_ACCESS.match(ops[j]).group(2) == verb
                   and access_bytes(ops[j]) == 16)

    def profile(t, i, level):
        counts = collections.Counter()
        for j in range(t, i + 1):
            c, weight = instruction_class(ops[j])
            if c:
                counts[c] += weight
                if c in ('fp32', 'fp64', 'int32'):
                    counts['valu'] += weight
        moved = sum(access_bytes(ops[j]) for j in range(t, i + 1)
                    if (GLOBAL_ACCESS if level == 'global' else LDS_ACCESS).match(ops[j]))
        return {'bytes': moved, 'counts': dict(counts)}
    if kind == 'stream':
        hot = max(inner, key=lambda l: (wide(*l, 'load'), wide(*l, 'store')), default=None)
        if hot is None or not (wide(*hot, 'load') or wide(*hot, 'store')):
            return []
        return [profile(*hot, 'global')]
    return [profile(t, i, 'lds') for t, i in inner
            if any(LDS_ACCESS.match(ops[j]) for j in range(t, i + 1))
            and not any(GLOBAL_ACCESS.match(ops[j]) for j in range(t, i + 1))]


def tool(name, suffix):
    for candidate in (name + suffix, name):
        path = shutil.which(candidate)
        if path:
            return path
    sys.exit(f'check_codegen: {name}{suffix} not found (Debian: apt-get install llvm{suffix})')


def disassemble(objdump, arch, path):
    out = subprocess.run([objdump, '-d', f'--mcpu={arch}', path], capture_output=True, text=True,
                         check=True).stdout
    return parse_disassembly(out)


def parse_disassembly(text):
    """{symbol: [(address, mnemonic, operands)]} for every function in llvm-objdump's text."""
    functions, body = {}, None
    for line in text.splitlines():
        m = FUNCTION.match(line)
        if m:
            body = functions.setdefault(m.group(2), [])
            continue
        m = INSTRUCTION.match(line)
        if m and body is not None:
            body.append((int(m.group(3), 16), m.group(1), m.group(2) + m.group(4)))
    return functions


def kernel_metadata(readelf, path):
    """{kernel symbol: metadata dict} from the code object's NT_AMDGPU_METADATA note."""
    out = subprocess.run([readelf, '--notes', path], capture_output=True, text=True,
                         check=True).stdout
    m = re.search(r'^\s*---\n(.*?)^\.\.\.$', out, re.S | re.M)
    if not m:
        return {}
    text = m.group(1)
    if yaml:
        doc = yaml.safe_load(text) or {}
        return {k['.name']: k for k in doc.get('amdhsa.kernels', [])}
    kernels, cur = {}, None  # without PyYAML: the scalar keys of each kernel, at their indent
    for line in text.splitlines():
        k = re.match(r'^  (?:- |  )(\.[a-z_]+):\s+(\S+)$', line)
        if k:
            if line.startswith('  - '):
                cur = {}
            if cur is not None:
                cur[k.group(1)] = k.group(2)
                if k.group(1) == '.name':
                    kernels[k.group(2)] = cur
    return kernels


def demangle(names):
    out = subprocess.run(['c++filt'], input='\n'.join(names), capture_output=True, text=True,
                         check=True).stdout.splitlines()
    return dict(zip(names, out))


def classify(name):
    """(kind, label, stream op or K) of a probe kernel, or None."""
    mech = next((v for k, v in MECHANISMS.items() if f'hip_parallel_launch_{k}' in name), None)
    suffix = f' [{mech}]' if mech and mech != 'local' else ''
    c = classify_probe(name, r'Kokkos::(?:Experimental::)?HIP', suffix)
    if c and c[0] == 'stream' and 'ParallelReduce' in name:
        return (c[0], c[1][:len(c[1]) - len(suffix)] + ' (reduce)' + suffix, c[2])
    return c


def branch_target(fn_address, operands, symbol):
    m = BRANCH_TARGET.search(operands)
    if not m or m.group(1) != symbol:
        return None
    return fn_address + int(m.group(2), 16)


def analyse(symbol, body):
    ops = [op for _, op, _ in body]
    loads = [GLOBAL_LOAD.match(op) for op in ops]
    first_wait = next((i for i, (_, op, args) in enumerate(body)
                       if op == 's_waitcnt' and VMCNT_WAIT.search(args)), len(body))
    widths = collections.Counter(LOAD_BYTES.get(m.group(2), 0) for m in loads if m)
    # clang >= 17 (code object v5) reads the work-group size from the implicit kernel arguments,
    # indexed per lane: `global_load_ushort vN, vM, s[kernarg + 0xb0]` in Kokkos' reductions.
    # Not the probe's data: no element of a fp32/fp64 array is read 2 bytes at a time.
    implicit = sum(1 for m, (_, _, args) in zip(loads, body)
                   if m and LOAD_BYTES.get(m.group(2), 0) == 2 and IMPLICIT_ARG_BASE.search(args))
    loops = isa_loops(symbol, body)
    # The hot loop: of the loops with at least 16 FMAs of their own (nested loops excluded), the
    # densest in FMAs, as in the CUDA check.
    best = None
    for t, i in loops:
        own = [ops[j] for j in own_indices(loops, t, i)]
        fmas = sum(bool(FMA.match(op)) for op in own)
        valu = sum(op.startswith('v_') for op in own)
        if fmas >= 16 and (best is None or fmas / len(own) > best['fma'] / best['len']):
            best = {'fma': fmas, 'valu': valu, 'len': len(own),
                    'fmac': sum(op.startswith('v_fmac') for op in own),
                    'mov': sum(op.startswith(('v_mov', 'v_pk_mov')) for op in own)}
    # A stream's rounds: the loop with the most 16-byte loads, and the bytes it loads before its
    # first vmcnt wait (the tail and leftover code may come first in the function). Without such
    # a loop, the function from its start.
    def wide_loads(t, i):
        return sum(1 for j in range(t, i + 1) if loads[j] and LOAD_BYTES.get(loads[j].group(2)) == 16)
    hot = max(loops, key=lambda l: wide_loads(*l), default=None)
    start, end = hot if hot and wide_loads(*hot) else (0, len(body) - 1)
    wait = next((j for j in range(start, end + 1)
                 if body[j][1] == 's_waitcnt' and VMCNT_WAIT.search(body[j][2])), end + 1)
    # LDS accesses inside loops ('read_b128', 'read2_b32', ...), and the most ds_read_b128 of one loop.
    in_loops = sorted({j for t2, i2 in loops for j in range(t2, i2 + 1)})
    lds = [LDS_ACCESS.match(op) for op in ops]
    def lds_kind(m):
        direction = 'read' if m.group(1) in ('read', 'load') else 'write'
        return f'{direction}{m.group(2) or ""}_{m.group(3)}'
    lds_in_loops = collections.Counter(lds_kind(lds[j]) for j in in_loops if lds[j])
    wide_lds_loads = max((sum(1 for j in range(t2, i2 + 1) if lds[j] and lds_kind(lds[j]) == 'read_b128')
                          for t2, i2 in loops), default=0)
    return {
        'lds_in_loops': dict(lds_in_loops), 'wide_lds_loads': wide_lds_loads,
        'loads_before_wait': sum(1 for m in loads[:first_wait] if m),
        'bytes_before_wait': sum(LOAD_BYTES.get(m.group(2), 0) for m in loads[start:wait] if m),
        'loads': sum(1 for m in loads if m),
        'stores': sum(1 for op in ops if GLOBAL_STORE.match(op)),
        'widths': dict(widths),
        'implicit_arg_loads': implicit,
        'scratch_ops': sum(1 for op in ops if SCRATCH.match(op)),
        'loop': best,
    }


def integer(meta, key):
    try:
        return int(meta.get(key, 0))
    except (TypeError, ValueError):
        return 0


def resources(meta):
    """(registers by kind, scratch bytes, spilled registers) from a kernel's metadata."""
    regs = {k: integer(meta, '.' + k + '_count') for k in ('vgpr', 'sgpr', 'agpr')}
    scratch = integer(meta, '.private_segment_fixed_size')
    spills = integer(meta, '.vgpr_spill_count') + integer(meta, '.sgpr_spill_count')
    return regs, scratch, spills


def functor_by_pointer(name):
    """Whether the kernel reads its functor through a pointer to global memory: Kokkos 3.x's
    local-memory launch takes `DriverType const*` (Kokkos 4's takes it by value, as a kernel
    argument)."""
    return 'hip_parallel_launch_local_memory' in name and name.endswith(' const*)')


def failed_checks(kind, label, detail, meta, a, ungraded=None):
    """The failed checks' messages for one probe kernel (see the module's doc). With `ungraded`
    (a list), a stream kernel launched by Kokkos 3.x (functor_by_pointer) has its load order,
    load widths and reduction scratch reported there instead of failed: the functor's pointers
    are read from memory, so the data is addressed through flat instructions, the captures are
    reloaded in the loop (1-8 byte loads) and Kokkos' reduction keeps its value in scratch. That
    is Kokkos 3.4's code, not the probe's; spills and AGPRs still fail."""
    regs, scratch, spills = resources(meta)
    lenient = kind == 'stream' and ungraded is not None
    checks = [(scratch == 0 and a['scratch_ops'] == 0, f'{scratch} bytes of scratch', lenient),
              (spills == 0, f'{spills} spilled registers', False),
              (regs['agpr'] == 0, f'{regs["agpr"]} AGPRs (no matrix code here: spill space)', False)]
    if kind == 'stream':
        need = ROUND_BYTES * READ_ARRAYS[detail]
        if need:
            checks.append((a['bytes_before_wait'] >= need,
                           f'{a["bytes_before_wait"]} bytes loaded before the first vmcnt wait < {need}',
                           lenient))
        dtype = re.search(r'<(fp\d+)>', label).group(1)
        narrow = sum(n for w, n in a['widths'].items() if w < ELEMENT_BYTES[dtype]) - a['implicit_arg_loads']
        checks.append((narrow == 0, f'{narrow} loads narrower than a {dtype} element', lenient))
    if kind == 'sram':
        narrow = {k: n for k, n in a['lds_in_loops'].items() if k not in ('read_b128', 'write_b128')}
        checks.append((not narrow, 'LDS accesses in loops other than 16-byte ds_read_b128/ds_write_b128: ' +
                       ', '.join(f'{n} ds_{k}' for k, n in sorted(narrow.items())), False))
        checks.append((a['wide_lds_loads'] >= SRAM_WORDS_IN_FLIGHT,
                       f'no loop with {SRAM_WORDS_IN_FLIGHT} ds_read_b128 (most: {a["wide_lds_loads"]})', False))
        if detail == 'update':
            checks.append((a['lds_in_loops'].get('write_b128', 0) > 0, 'no ds_write_b128 in a loop', False))
    loop = a['loop']
    if kind == 'peak' or graded_rung(kind, detail):
        if loop is None:
            checks.append((False, 'no hot loop with >= 16 FMAs', False))
        else:
            need = PEAK_VALU_SHARE if kind == 'peak' else RUNG_VALU_SHARE
            valu_share = loop['fma'] / loop['valu']
            share = loop['fma'] / loop['len']
            checks.append((valu_share >= need, f'hot loop FMA share of vector ALU {valu_share:.3f} < {need}'
                           f' ({loop["fmac"]} v_fmac, {loop["mov"]} v_mov)', False))
            checks.append((share >= LOOP_SHARE,
                           f'hot loop FMA share of all instructions {share:.3f} < {LOOP_SHARE}', False))
    if ungraded is not None:
        ungraded += [msg for ok, msg, soft in checks if not ok and soft]
    return [msg for ok, msg, soft in checks if not ok and not soft]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--arch', default='gfx90a')
    ap.add_argument('--llvm-suffix', default='-15', help='-15 (hipcc 5.2 / clang 15) or -19')
    ap.add_argument('code_objects', nargs='+')
    args = ap.parse_args()
    objdump = tool('llvm-objdump', args.llvm_suffix)
    readelf = tool('llvm-readelf', args.llvm_suffix)
    functions, metadata = {}, {}
    for path in args.code_objects:
        functions.update(disassemble(objdump, args.arch, path))
        metadata.update(kernel_metadata(readelf, path))
    names = demangle(sorted(metadata))
    rows, failures, notes, probe_loops = [], [], [], []
    for symbol, dn in names.items():
        c = classify(dn)
        if not c:
            continue
        kind, label, detail = c
        meta = metadata[symbol]
        a = analyse(symbol, functions.get(symbol, []))
        regs, scratch, spills = resources(meta)
        ungraded = [] if functor_by_pointer(dn) else None
        failed = failed_checks(kind, label, detail, meta, a, ungraded)
        failures += [f'{label}: {m}' for m in failed]
        notes.extend(f'{label}: {m}' for m in ungraded or [])
        rows.append((kind, label, a, regs, scratch, spills, failed, detail, ungraded))
        probe_loops.append((kind, label, detail, ceiling_loops(symbol, functions.get(symbol, []), kind)
                            if kind in ('stream', 'sram') else []))
    ceiling_lines, ceiling_failures = ceiling_report(args.arch, memory_loops(probe_loops))
    unrolled = ladder_failures([(r[1], r[7], r[2]['loop']['fma'] if r[2]['loop'] else None)
                                for r in rows if r[0] == 'ladder'])
    for row in rows:  # rungs whose step loop is unrolled unlike their ladder's other rungs
        for msg in unrolled.get(row[1], []):
            row[6].append(msg)
            failures.append(f'{row[1]}: {msg}')
    if not rows:
        print(f'check_codegen: no ridgeline probe kernels (Kokkos::HIP) in {" ".join(args.code_objects)}',
              file=sys.stderr)
        return 2
    print(f'{"kernel":46} {"vgpr":>4} {"sgpr":>4} {"agpr":>4} {"scr":>3} {"spl":>3} {"ld<wt":>5} {"ld":>4} '
          f'{"st":>4} {"ld widths":14} {"loop FMA/VALU/all":>20}  verdict')
    for kind, label, a, regs, scratch, spills, failed, _, ungraded in sorted(rows, key=lambda x: (x[0], x[1])):
        w = ','.join(f'{k}B:{v}' for k, v in sorted(a['widths'].items()))
        if kind == 'sram':  # LDS accesses in loops instead
            w = ','.join(f'{k}:{v}' for k, v in sorted(a['lds_in_loops'].items()))
        loop = a['loop']
        lp = (f'{loop["fma"]}/{loop["valu"]}/{loop["len"]} {loop["fma"] / loop["valu"]:.0%}'
              if loop else '-')
        print(f'{label:46} {regs["vgpr"]:>4} {regs["sgpr"]:>4} {regs["agpr"]:>4} {scratch:>3} {spills:>3} '
              f'{a["loads_before_wait"]:>5} {a["loads"]:>4} {a["stores"]:>4} {w:14} {lp:>20}  '
              f'{"FAIL: " + "; ".join(failed) if failed else "ok"}'
              f'{" (not graded, Kokkos 3.x launch: " + "; ".join(ungraded) + ")" if ungraded else ""}')
    by_pointer = sum(1 for r in rows if r[8] is not None and r[0] == 'stream')
    if by_pointer:
        print(f'{args.arch}: {by_pointer} stream kernels read their functor through a pointer (a Kokkos 3.x '
              f'launch): their load order, load widths and reduction scratch are Kokkos 3.x\'s code and are '
              f'not graded ({len(notes)} such findings above); build against Kokkos >= 4 to grade them')
    # gfx908 (MI100) has no machine sheet, so no rates or levels to hold the loops to: said.
    print('\n'.join(ceiling_lines))
    failures += ceiling_failures
    print(f'{args.arch}: {len(rows)} probe kernels, {len(failures)} failed check(s)')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
