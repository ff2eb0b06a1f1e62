#!/usr/bin/env python3
"""In-run reference ceilings on a GPU, through PyTorch (what scripts/gpu-run finds on the machine):
a large device-to-device copy (bytes read + written) and square matrix products through the
vendor BLAS on random data, each the median of timed repetitions with CUDA events after warm-up.
They sit beside ridgeline's own points from the same run, so ratios between them are like for
like. Prints one JSON object; exits 0 with {"skipped": reason} when torch or a GPU is missing.

  torch_reference.py [--copy-gib 8] [--n 8192] [--reps 10]
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--copy-gib', type=float, default=8)
    ap.add_argument('--n', type=int, default=8192)
    ap.add_argument('--reps', type=int, default=10)
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
    out['matmul'] = gemms
    print(json.dumps(out, indent=1))
    return 0


if __name__ == '__main__':
    sys.exit(main())
