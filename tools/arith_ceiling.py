"""The arithmetic ceiling of the memory probes, the rule all three code checks apply
(tools/cuda/check_codegen.py on SASS, tools/hip/check_codegen.py on AMD ISA,
scripts/check-hot-loops on x86): no level may be read by a loop whose own instructions cap it.

For one hot loop, per thread and iteration: the bytes its memory instructions move and how many
instructions of each class it issues. A machine sheet (profiles/machines/*.json, `issue_rates`)
gives each class's rate per clock per unit (SM, CU or core) for one thread's instructions: a
warp instruction counts 32, a wave64 instruction 64, an x86 instruction 1. Class c then caps the
loop at

    ceiling_c = rate_c x bytes per iteration / instructions of class c per iteration  (B/clk/unit)

and the loop's arithmetic ceiling is the smallest of them. Each level the sweep profiles
(profiles/sweeps/*.json) run the probe at has a limit in B/clk/unit from the same sheet (its
`levels`; DRAM from memory.bandwidth / (units x clock)); the ceiling must be at least MARGIN
times the highest such limit, or the measured level would be the arithmetic's.

Which probe runs at which level, from the profiles: a bandwidth probe at DRAM; a cache probe at
every level of the sheet from L1 outwards and at DRAM (the sweep spans them all); an SRAM probe
at SRAM (on hosts, where team scratch is a buffer in L1, at L1). A profile without `spaces`
runs on GPUs and hosts alike; device spaces take a family's `device_dtypes` when it has them.
"""
import glob
import json
import os
import re

MARGIN = 1.5
ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
MACHINES = os.path.join(ROOT, 'profiles', 'machines')
SWEEPS = os.path.join(ROOT, 'profiles', 'sweeps')
DEVICE_SPACES = ('Cuda', 'HIP')
HOST_SPACES = ('OpenMP', 'Serial', 'Threads')
CACHE_LEVELS = ('L1', 'L2', 'L3', 'MALL')
# Stream kernels by probe name in a profile's bandwidth/cache lists (results/probe_catalog.hpp).
STREAM_KERNELS = ('copy', 'scale', 'add', 'triad', 'update_xy', 'dot', 'read', 'fill')
STREAM_DTYPES = ('fp64', 'fp32')  # StreamProbe's and SramProbe's types
# Known shortfalls, each printed as KNOWN with its reason and left open on its issue; a key that
# no longer falls short is reported as such (STALE) so the entry is removed, not kept unchecked.
# (arch, probe, dtype, level): why.
KNOWN = {}


def sheets_for(arch, machines=MACHINES):
    """The machine sheets of one GPU arch (`sm_89`, `gfx90a`: a word of the sheet's `arch`) or
    host ISA (`avx512`, `avx2`: the sheet's cpu.isa), as (file name, sheet)."""
    out = []
    for path in sorted(glob.glob(os.path.join(machines, '*.json'))):
        with open(path) as f:
            sheet = json.load(f)
        isa = (sheet.get('cpu') or {}).get('isa')
        if isa == arch or re.search(r'\b' + re.escape(arch) + r'\b', sheet.get('arch', '')):
            out.append((os.path.basename(path), sheet))
    return out


def units(sheet):
    cpu = sheet.get('cpu')
    return (cpu.get('cores') or cpu.get('threads')) if cpu else sheet['compute_units']


def level_limits(sheet):
    """{level: bytes per clock per unit} from the sheet: its levels, and DRAM."""
    n, hz = units(sheet), sheet['clock']['sm_mhz'] * 1e6
    out = {}
    for l in sheet.get('levels', []):
        if 'bytes_per_clock' in l:
            out[l['level']] = l['bytes_per_clock'] / (1 if l['per'] == 'unit' else n)
        else:
            out[l['level']] = l['bandwidth'] / (n * hz)
    out['DRAM'] = sheet['memory']['bandwidth'] / (n * hz)
    return out


def rates(sheet):
    """{class: thread instructions per clock per unit} from the sheet's issue_rates."""
    return {c: r['per_clock'] for c, r in (sheet.get('issue_rates') or {}).get('classes', {}).items()}


def ceilings(loop, class_rates):
    """{class: B/clk/unit} for a loop {'bytes': per thread and iteration, 'counts': {class: n}}."""
    return {c: class_rates[c] * loop['bytes'] / n
            for c, n in loop['counts'].items() if n and c in class_rates}


def _spaces(profile):
    s = profile.get('spaces')
    return set(s) if s else set(DEVICE_SPACES + HOST_SPACES)


def planned(device, sweeps=SWEEPS):
    """{(probe, dtype): {profile names}} of the stream, cache and SRAM points the sweep profiles
    plan on device spaces (device=True) or host spaces. probe: 'read' (bandwidth), 'cache_read',
    'sram_read', ... Points a space skips are left out: the in-place ladder's cache_update on
    GPUs (plan.cpp), and cache_update everywhere (its loop is a ladder rung's, checked there)."""
    out = {}
    for path in sorted(glob.glob(os.path.join(sweeps, '*.json'))):
        with open(path) as f:
            p = json.load(f)
        wanted = set(DEVICE_SPACES if device else HOST_SPACES)
        if not (_spaces(p) & wanted):
            continue
        name = p.get('name', os.path.basename(path))
        top = [d for d in p.get('dtypes', ['fp64', 'fp32']) if d in STREAM_DTYPES]

        def family_dtypes(section, default):
            f = p.get(section) or {}
            d = f.get('device_dtypes') if device and 'device_dtypes' in f else f.get('dtypes', default)
            return [x for x in d if x in STREAM_DTYPES]
        for probe in (p.get('bandwidth') or {}).get('probes', []):
            for d in top:
                out.setdefault((probe, d), set()).add(name)
        for probe in (p.get('cache') or {}).get('probes', []):
            if probe in STREAM_KERNELS:
                for d in family_dtypes('cache', ['fp64']):
                    out.setdefault(('cache_' + probe, d), set()).add(name)
        for probe in (p.get('sram') or {}).get('probes', []):
            for d in family_dtypes('sram', ['fp64']):
                out.setdefault(('sram_' + probe, d), set()).add(name)
    return out


def levels_of(probe, limits):
    """The levels a probe runs at, of those the sheet gives (see the module's doc)."""
    if probe.startswith('sram_'):
        return ['SRAM'] if 'SRAM' in limits else [l for l in ('L1',) if l in limits]
    if probe.startswith('cache_'):
        return [l for l in CACHE_LEVELS if l in limits] + ['DRAM']
    return ['DRAM']


def judge(arch, loops, device, machines=MACHINES, sweeps=SWEEPS):
    """Rows of the ceiling table and the failures, for every planned (probe, dtype) whose loop
    the code check found. loops: {(probe, dtype): [{'bytes': .., 'counts': {..}}, ..]}; probe as in
    planned(). A planned point without a loop, or a sheet of the arch without issue rates, fails:
    an unchecked level is not a checked one."""
    rows, failures = [], []
    sheets = sheets_for(arch, machines)
    plan = planned(device, sweeps)
    for sheet_name, sheet in sheets:
        r, limits = rates(sheet), level_limits(sheet)
        if not r:
            failures.append(f'{sheet_name}: no issue_rates for {arch}')
            continue
        for (probe, dtype), profiles in sorted(plan.items()):
            found = loops.get((probe, dtype)) or []
            if not found:
                failures.append(f'{sheet_name}: {probe}<{dtype}> is planned ({", ".join(sorted(profiles))}) '
                                f'but its loop was not found in the {arch} code')
                continue
            # Several kernels of one probe (Kokkos' launch paths, a sweep's loops): the lowest
            # ceiling holds.
            c = min((ceilings(loop, r) for loop in found), key=lambda x: min(x.values(), default=0))
            if not c:
                failures.append(f'{sheet_name}: {probe}<{dtype}>: no instruction of a rated class in its loop')
                continue
            bound = min(c, key=c.get)
            for level in levels_of(probe, limits):
                need = MARGIN * limits[level]
                ok = c[bound] >= need
                known = KNOWN.get((arch, probe, dtype, level))
                rows.append({'sheet': sheet_name, 'probe': probe, 'dtype': dtype, 'level': level,
                             'limit': limits[level], 'ceiling': c[bound], 'class': bound,
                             'ratio': c[bound] / limits[level], 'ok': ok, 'profiles': sorted(profiles),
                             'ceilings': c, 'known': known})
                if known and ok:
                    failures.append(f'{sheet_name}: {probe}<{dtype}> at {level} is listed as a known '
                                    f'shortfall but passes now: remove it from KNOWN (STALE)')
                if not ok and not known:
                    failures.append(
                        f'{sheet_name}: {probe}<{dtype}> at {level}: its {bound} instructions cap it at '
                        f'{c[bound]:.1f} B/clk per unit, under {MARGIN} x the level\'s '
                        f'{limits[level]:.1f} ({", ".join(sorted(profiles))})')
    return rows, failures


def table(arch, rows):
    """The ceiling table as text: one line per sheet, probe, dtype and level."""
    lines = [f'{arch}: arithmetic ceiling of each planned memory loop (B/clk per SM/CU/core) against '
             f'{MARGIN} x its level\'s limit',
             f'{"sheet":22} {"probe<dtype>":22} {"level":5} {"limit":>7} {"ceiling":>8} {"ratio":>6} '
             f'{"bound by":10} verdict']
    for r in rows:
        lines.append(f'{r["sheet"]:22} {r["probe"] + "<" + r["dtype"] + ">":22} {r["level"]:5} '
                     f'{r["limit"]:7.1f} {r["ceiling"]:8.1f} {r["ratio"]:6.2f} {r["class"]:10} '
                     f'{"ok" if r["ok"] else ("KNOWN: " + r["known"]) if r.get("known") else "FAIL"}')
    return '\n'.join(lines)
