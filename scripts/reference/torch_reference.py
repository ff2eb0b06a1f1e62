#!/usr/bin/env python3
"""In-run reference ceilings on a GPU, through PyTorch (what scripts/gpu-run finds on the machine):
a large device-to-device copy (bytes read + written) and square matrix products through the
vendor BLAS on random data, each the median of timed repetitions with CUDA events after warm-up:
every type torch multiplies at n³, fp8 (E4M3, per-tensor scales, A row-major and B column-major,
bf16 out: torch._scaled_mm, where the GPU has fp8 units) and the skinny m×n×n sweep in bf16 (the
shape of a prefill or a batched decode: where the matrix units saturate). They sit beside
ridgeline's own points from the same run, so ratios between them are like for like. Prints one
JSON object; exits 0 with {"skipped": reason} when torch or a GPU is missing.

  torch_reference.py [--copy-gib 8] [--n 8192] [--reps 10] [--m 16,32,...,8192]
"""
import argparse
import json
import statistics
import sys


def timed(torch, fn, reps, warmup=3):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop) * 1e-3)
    return statistics.median(times), min(times)


def fp8_gemm(torch, n, reps):
    """E4M3 x E4M3 -> bf16 with per-tensor scales of 1, the layout cuBLASLt's fp8 kernels take
    (A row-major, B column-major). {'skipped': why} where this torch or GPU has none."""
    if not hasattr(torch, 'float8_e4m3fn') or not hasattr(torch, '_scaled_mm'):
        return {'skipped': 'this torch has no float8_e4m3fn or _scaled_mm'}
    if torch.cuda.get_device_capability(0) < (8, 9):
        return {'skipped': 'fp8 matrix units need sm_89 or newer'}
    try:
        a = (torch.rand(n, n, device='cuda') * 2 - 1).to(torch.float8_e4m3fn)
        b = (torch.rand(n, n, device='cuda') * 2 - 1).to(torch.float8_e4m3fn).t()
        one = torch.ones((), device='cuda', dtype=torch.float32)
        med, best = timed(torch, lambda: torch._scaled_mm(a, b, scale_a=one, scale_b=one,
                                                          out_dtype=torch.bfloat16), reps)
    except Exception as e:  # noqa: BLE001 - any failure is a reference we did not get
        return {'skipped': f'torch._scaled_mm failed: {e}'}
    flops = 2.0 * n ** 3
    return {'n': n, 'median_flops_per_s': flops / med, 'best_flops_per_s': flops / best,
            'layout': 'TN, e4m3 in, bf16 out, per-tensor scales'}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--copy-gib', type=float, default=8)
    ap.add_argument('--n', type=int, default=8192)
    ap.add_argument('--reps', type=int, default=10)
    ap.add_argument('--m', default='16,32,64,128,256,512,1024,2048,4096',
                    help='rows of the skinny bf16 sweep (m x n x n); empty: none')
    args = ap.parse_args()
    try:
        import torch
    except ImportError as e:
        print(json.dumps({'skipped': f'no torch: {e}'}))
        return 0
    if not torch.cuda.is_available():
        print(json.dumps({'skipped': 'torch sees no GPU'}))
        return 0
    out = {'torch': torch.__version__, 'cuda': torch.version.cuda,
           'device': torch.cuda.get_device_name(0), 'statistic': 'median and min of reps',
           'reps': args.reps}
    n = int(args.copy_gib * 2**30) // 4
    src = torch.rand(n, device='cuda', dtype=torch.float32)
    dst = torch.empty_like(src)
    med, best = timed(torch, lambda: dst.copy_(src), args.reps)
    moved = 2 * n * 4
    out['d2d_copy'] = {'bytes': moved, 'median_bytes_per_s': moved / med,
                       'best_bytes_per_s': moved / best}
    del src, dst
    torch.cuda.empty_cache()
    gemms = {}
    for name, dtype, tf32 in [('fp64', torch.float64, False), ('fp32', torch.float32, False),
                              ('tf32', torch.float32, True), ('fp16', torch.float16, False),
                              ('bf16', torch.bfloat16, False)]:
        torch.backends.cuda.matmul.allow_tf32 = tf32
        a = torch.rand(args.n, args.n, device='cuda', dtype=dtype) * 2 - 1
        b = torch.rand(args.n, args.n, device='cuda', dtype=dtype) * 2 - 1
        med, best = timed(torch, lambda: a @ b, args.reps)
        flops = 2.0 * args.n ** 3
        gemms[name] = {'n': args.n, 'median_flops_per_s': flops / med,
                       'best_flops_per_s': flops / best}
        del a, b
        torch.cuda.empty_cache()
    torch.backends.cuda.matmul.allow_tf32 = False
    fp8 = fp8_gemm(torch, args.n, args.reps)
    if fp8:
        gemms['fp8'] = fp8
    out['matmul'] = gemms
    sweep = {}
    for m in [int(x) for x in args.m.split(',') if x]:
        a = torch.rand(m, args.n, device='cuda', dtype=torch.bfloat16) * 2 - 1
        b = torch.rand(args.n, args.n, device='cuda', dtype=torch.bfloat16) * 2 - 1
        med, best = timed(torch, lambda: a @ b, args.reps)
        flops = 2.0 * m * args.n * args.n
        sweep[str(m)] = {'m': m, 'n': args.n, 'k': args.n, 'median_flops_per_s': flops / med,
                         'best_flops_per_s': flops / best}
        del a, b
    if sweep:
        out['matmul_m_sweep_bf16'] = sweep
    print(json.dumps(out, indent=1))
    return 0


if __name__ == '__main__':
    sys.exit(main())
