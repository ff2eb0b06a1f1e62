#!/usr/bin/env python3
"""The first-light table of a GPU session (scripts/gpu-run): ridgeline's points beside the in-run
references of the same session (torch_reference.py) and the spec sheet at the clock the peak
kernels measured, as markdown. Medians against medians, from one run.

  first_light_table.py RESULTS.json TORCH_REFERENCE.json MACHINE_SHEET.json [PUBLISHED.json]

PUBLISHED (optional): {"label": bytes_per_s, ...} figures published by others for this GPU,
printed as ratios only (they were measured on another machine at another time).
"""
import json
import sys


def points(results):
    return {p['name']: p for p in results['points'] if p.get('median_s') is not None}


def best(pts, probe, dtype, family=None):
    """The point of a probe/dtype with the highest rate (the largest working set's for streams)."""
    c = [p for p in pts.values() if p['probe'] == probe and p['dtype'] == dtype and
         (family is None or p['family'] == family)]
    return max(c, key=lambda p: p['working_set_bytes']) if c else None


def accumulate_of(point):
    """The accumulate mode a GEMM point ran with: params.accumulate, else (results before it was
    recorded) the type of C, in which cuBLAS accumulates 16-bit and tf32 products."""
    params = point.get('params') or {}
    return params.get('accumulate') or params.get('c_dtype')


def grading_peak(sheet, dtype, unit, accumulate):
    """The sheet's dense figure for a dtype on the point's unit kind and accumulate mode (as the
    reporter's MachineProfile::grading_peak): never the maximum over accumulate modes, which on
    an RTX 4090 grades an fp32-accumulate fp16 GEMM against the 330 TFLOP/s fp16-accumulate figure."""
    matrix = unit in ('tensor', 'matrix')
    if not matrix:
        for u in ('vector', 'vector-packed'):
            c = [q for q in sheet['peaks'] if q['dtype'] == dtype and q['dense'] and q['unit'] == u]
            if c:
                return max(q['flops'] for q in c)
        return None
    acc = accumulate or ('fp64' if dtype == 'fp64' else 'fp32')
    c = [q['flops'] for q in sheet['peaks'] if q['dtype'] == dtype and q['dense'] and
         q['unit'] in ('tensor', 'matrix') and q.get('accumulate') in (None, acc)]
    return max(c) if c else None


def fmt_rate(v, unit):
    return f'{v / 1e12:.3g} T{unit}/s' if v is not None else '–'


def main():
    results = json.load(open(sys.argv[1]))
    ref = json.load(open(sys.argv[2]))
    sheet = json.load(open(sys.argv[3]))
    published = json.load(open(sys.argv[4])) if len(sys.argv) > 4 else {}
    pts = points(results)
    copy = ref.get('d2d_copy', {}).get('median_bytes_per_s')
    spec_bw = sheet['memory']['bandwidth']
    out = ['| ridgeline point | median | vs in-run torch copy | vs spec ' + f'{spec_bw / 1e12:g} TB/s |' +
           ''.join(f' vs {k} |' for k in published),
           '|---|---|---|---|' + '---|' * len(published)]
    # deep_copy: Kokkos' own copy (cudaMemcpy underneath), the ceiling B is held to.
    for probe in ['copy', 'scale', 'add', 'triad', 'read', 'dot', 'fill', 'deep_copy']:
        for dtype in ['fp64', 'fp32']:
            p = best(pts, probe, dtype, 'library' if probe == 'deep_copy' else 'bandwidth')
            if not p:
                continue
            b = p['bytes_per_s']
            out.append(f'| {p["name"]} | {fmt_rate(b, "B")} | {b / copy:.3f} |' if copy else
                       f'| {p["name"]} | {fmt_rate(b, "B")} | – |')
            out[-1] += f' {b / spec_bw:.3f} |' + ''.join(f' {b / v:.3f} |' for v in published.values())
    print('\n'.join(out))
    print()
    print('| peak point | median | SM clock in the kernel | spec at that clock | ratio |')
    print('|---|---|---|---|---|')
    mhz_spec = sheet['clock']['sm_mhz']
    for dtype in ['fp64', 'fp32', 'fp16', 'bf16']:
        p = best(pts, 'peak', dtype)
        if not p:
            continue
        spec = [q for q in sheet['peaks'] if q['dtype'] == dtype and q['dense'] and
                q['unit'] in ('vector', 'vector-packed')]
        clock = (p.get('observed') or {}).get('sm_clock_mhz')
        if spec and clock:
            at_clock = spec[0]['flops'] * clock / mhz_spec
            print(f'| {p["name"]} | {fmt_rate(p["flops_per_s"], "FLOP")} | {clock:.0f} MHz | '
                  f'{fmt_rate(at_clock, "FLOP")} | {p["flops_per_s"] / at_clock:.3f} |')
        else:
            print(f'| {p["name"]} | {fmt_rate(p["flops_per_s"], "FLOP")} | '
                  f'{f"{clock:.0f} MHz" if clock else "–"} | – | – |')
    print()
    print('| vendor gemm point | median | in-run torch matmul (median) | ratio | spec (dense) |')
    print('|---|---|---|---|---|')
    for dtype in ['fp64', 'fp32', 'tf32', 'fp16', 'bf16', 'fp8']:
        p = best(pts, 'vendor_gemm', dtype)
        t = ref.get('matmul', {}).get(dtype, {}).get('median_flops_per_s')
        if not p:
            continue
        spec = grading_peak(sheet, dtype, (p.get('params') or {}).get('unit'), accumulate_of(p))
        ratio = f'{p["flops_per_s"] / t:.3f}' if t else '–'
        print(f'| {p["name"]} | {fmt_rate(p["flops_per_s"], "FLOP")} | {fmt_rate(t, "FLOP")} | '
              f'{ratio} | {fmt_rate(spec, "FLOP")} |')
    sweep = ref.get('matmul_m_sweep_bf16', {})
    skinny = sorted((p for p in pts.values() if p['probe'] == 'vendor_gemm' and p['dtype'] == 'bf16'
                     and (p.get('params') or {}).get('m') not in (None, (p.get('params') or {}).get('n'))),
                    key=lambda p: p['params']['m'])
    if skinny:
        print()
        print('| bf16 m × n × n | ridgeline | in-run torch matmul (median) | ratio |')
        print('|---|---|---|---|')
        for p in skinny:
            t = sweep.get(str(p['params']['m']), {}).get('median_flops_per_s')
            ratio = f'{p["flops_per_s"] / t:.3f}' if t else '–'
            print(f'| {p["name"]} | {fmt_rate(p["flops_per_s"], "FLOP")} | {fmt_rate(t, "FLOP")} | {ratio} |')


if __name__ == '__main__':
    main()
