#!/usr/bin/env python3
"""scripts/reference/first_light_table.py grades a vendor GEMM against the sheet figure of its
dtype, unit and accumulate mode: on an RTX 4090 an fp16 GEMM accumulating in fp32 against
165.2 TFLOP/s (not the 330.3 of fp16 accumulate), an fp64 GEMM on the vector units (sm_89 has no
FP64 tensor cores) against the 1.29 TFLOP/s vector figure; a skinny bf16 GEMM is set beside
torch's of the same m.

  first_light_table_test.py SOURCE_DIR
"""
import json
import os
import subprocess
import sys
import tempfile


def gemm(dtype, rate, unit, accumulate):
    flops = 2 * 8192.0 ** 3
    return {'name': f'vendor_gemm/Cuda/{dtype}/n:8192', 'probe': 'vendor_gemm', 'family': 'library',
            'dtype': dtype, 'median_s': flops / rate, 'flops_per_s': rate, 'working_set_bytes': 1,
            'params': {'unit': unit, 'accumulate': accumulate}}


def main():
    src = sys.argv[1]
    skinny = gemm('bf16', 100e12, 'tensor', 'fp32')
    skinny['name'] = 'vendor_gemm/Cuda/bf16/m:64,n:8192,k:8192'
    skinny['params'].update({'m': 64, 'n': 8192, 'k': 8192})
    results = {'points': [gemm('fp16', 150e12, 'tensor', 'fp32'), gemm('fp64', 1.2e12, 'vector', 'fp64'),
                          skinny]}
    torch = {'matmul_m_sweep_bf16': {'64': {'m': 64, 'median_flops_per_s': 125e12}}}
    with tempfile.TemporaryDirectory() as d:
        r, t = os.path.join(d, 'r.json'), os.path.join(d, 't.json')
        json.dump(results, open(r, 'w'))
        json.dump(torch, open(t, 'w'))
        out = subprocess.run([sys.executable, os.path.join(src, 'scripts/reference/first_light_table.py'),
                              r, t, os.path.join(src, 'profiles/machines/rtx-4090.json')],
                             check=True, capture_output=True, text=True).stdout
    rows = {line.split('|')[1].strip(): line for line in out.splitlines() if 'vendor_gemm/' in line}
    assert rows['vendor_gemm/Cuda/fp16/n:8192'].rstrip().endswith('| 165 TFLOP/s |'), out
    assert rows['vendor_gemm/Cuda/fp64/n:8192'].rstrip().endswith('| 1.29 TFLOP/s |'), out
    # The skinny sweep against torch's in the same run: 100 / 125.
    assert rows['vendor_gemm/Cuda/bf16/m:64,n:8192,k:8192'].rstrip().endswith('| 125 TFLOP/s | 0.800 |'), out
    print('ok')


if __name__ == '__main__':
    main()
