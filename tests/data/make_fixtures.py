#!/usr/bin/env python3
"""Writes the synthetic results fixtures in this folder (deterministic; rerun after changing it).

Truth: a rounded roofline perf = (P^-3 + (I*B)^-3)^(-1/3), 3 % multiplicative noise per sample,
and now and then a slow sample (x1.3), as on a shared machine. Bytes as a write-allocate CPU
moves them: the in-place ladder reaches B, read-only kernels READ_SHARE of it (B_read), and
kernels that store to lines they never read count only part of what they move (copy 2/3, triad
3/4). GPU kernels move what they count.

cpu_run_schema_1_0.json is kept from before schema 1.1 (two-array ladder, no cache instances): it
is not rewritten here.
"""
import json
import random

SIZE = {"fp64": 8, "fp32": 4, "fp16": 2, "bf16": 2}


def roof(p, b, i):
    return (p ** -3 + (i * b) ** -3) ** (-1 / 3)


def samples(rng, t, reps):
    out = []
    for _ in range(reps):
        s = t * (1 + 0.03 * rng.gauss(0, 1))
        if rng.random() < 0.05:
            s *= 1.3
        out.append(float(f"{s:.5g}"))
    return out


def point(rng, reps, name, probe, family, space, dtype, ws, n, flops, byts, t, params,
          verified=True, verify_error=None):
    s = samples(rng, t, reps)
    med = sorted(s)[len(s) // 2] if len(s) % 2 else sum(sorted(s)[len(s) // 2 - 1:len(s) // 2 + 1]) / 2
    return {"name": name, "probe": probe, "family": family, "space": space, "dtype": dtype,
            "working_set_bytes": ws, "elements": n, "flops": flops, "bytes": byts,
            "intensity": flops / byts if byts else None, "params": params, "samples": s,
            "median_s": med, "min_s": min(s), "max_s": max(s),
            "flops_per_s": flops / med if flops else None, "bytes_per_s": byts / med if byts else None,
            "verified": verified, "verify_error": verify_error, "skipped_reason": None}


def skipped(name, probe, family, space, dtype, reason):
    return {"name": name, "probe": probe, "family": family, "space": space, "dtype": dtype,
            "working_set_bytes": 0, "elements": 0, "flops": 0, "bytes": 0, "intensity": None,
            "params": {}, "samples": [], "median_s": None, "min_s": None, "max_s": None,
            "flops_per_s": None, "bytes_per_s": None, "verified": False, "verify_error": None,
            "skipped_reason": reason}


READ_SHARE = 0.55   # read-only traffic reaches this share of B on the development VM
CPU_DRAM_BYTES = 128 << 20  # 4 x the 32 MiB last-level cache of the CPU fixtures
GPU_DRAM_BYTES = 256 << 20  # above 4 x the 50 MiB L2 of the GPU fixture


def dtype_points(rng, reps, space, dtype, p, b, slow=1.0, levels=None, lib=None, device=False):
    s = SIZE[dtype]
    DRAM_BYTES = GPU_DRAM_BYTES if device else CPU_DRAM_BYTES
    pts = []
    # (probe, FLOPs per element, arrays counted, counted share of the moved bytes on a CPU)
    streams = [("copy", 0, 2, 2 / 3), ("triad", 2, 3, 3 / 4), ("dot", 2, 2, READ_SHARE),
               ("read", 1, 1, READ_SHARE)]
    for probe, f, w, share in streams:
        n = DRAM_BYTES // (w * s)
        byts = w * s * n
        rate = b if device else b * share
        pts.append(point(rng, reps, f"{probe}/{space}/{dtype}/n:{n}", probe, "bandwidth", space,
                         dtype, byts, n, f * n, byts, byts / rate * slow, {}))
    for e in range(14):
        k = 1 << e
        # In place on a host: one array, DRAM-sized below 1 FLOP/byte, budget-sized above.
        arrays = 2 if device else 1
        n = DRAM_BYTES // (arrays * s) if k < s else min(DRAM_BYTES // (arrays * s), (1 << 27) // k)
        flops, byts = 2 * k * n, 2 * s * n
        i = flops / byts
        perf = roof(p, b, i)
        t = flops / perf * (slow if i * b < p else 1.0)
        params = {"k": k} if device else {"k": k, "form": "in_place"}
        pts.append(point(rng, reps, f"fma/{space}/{dtype}/k:{k}", "fma", "fma", space, dtype,
                         arrays * s * n, n, flops, byts, t, params))
    for k in (256, 1024):
        flops = 2 * k * n
        pts.append(point(rng, reps, f"peak/{space}/{dtype}/k:{k}", "peak", "peak", space, dtype,
                         0, n, flops, 0, flops / p, {"k": k}))
    for ws, bw in levels or []:
        m = ws // s
        passes = 4
        byts = passes * ws
        pts.append(point(rng, reps, f"cache_read/{space}/{dtype}/ws:{ws}", "cache_read", "cache",
                         space, dtype, ws, m, passes * m, byts, byts / bw * slow, {"passes": passes}))
    if lib:
        g = 1024
        flops, byts = 2 * g ** 3, 3 * g * g * s
        pts.append(point(rng, reps, f"gemm/{space}/{dtype}/n:{g}", "gemm", "library", space, dtype,
                         byts, g * g, flops, byts, flops / (lib * p), {"n": g}))
        n = DRAM_BYTES // (2 * s)
        byts = 2 * s * n
        share = 1 if device else 2 / 3
        pts.append(point(rng, reps, f"deep_copy/{space}/{dtype}/n:{n}", "deep_copy", "library",
                         space, dtype, byts, n, 0, byts, byts / (0.97 * b * share),
                         {"threads": None if device else 2}))
        byts = 3 * s * n
        pts.append(point(rng, reps, f"axpby/{space}/{dtype}/n:{n}", "axpby", "library", space,
                         dtype, 2 * s * n, n, 2 * n, byts, byts / (0.95 * b),
                         {"blas": "OpenBLAS (fixture)", "blas_threads": None if device else 2}))
    return pts


def cpu_levels():
    # Steps at the aggregate L1 (2 x 48 KiB), L2 (2 x 1 MiB) and L3 (32 MiB), rounded a little.
    out = []
    for e in range(14, 29):
        ws = 1 << e
        bw = 400e9 if ws <= 65536 else 200e9 if ws <= 1 << 20 else 100e9 if ws <= 16 << 20 else 50e9
        out.append((ws, bw))
    return out


def cpu_file(seed, slow=1.0, host="devbox"):
    rng = random.Random(seed)
    reps = 8
    pts = dtype_points(rng, reps, "OpenMP", "fp64", 200e9, 50e9, slow, cpu_levels(), lib=0.9)
    # A slower machine is slower memory for every dtype: memory roofs are the device's, pooled
    # over dtypes, and a slowdown of one dtype's streams alone would leave B where the others are.
    pts += dtype_points(rng, reps, "OpenMP", "fp32", 400e9, 50e9, slow)
    bad = pts[-5]
    bad["verified"], bad["verify_error"] = False, "max |error| 3.1e-02 above tolerance 1.2e-06"
    pts.append(skipped("fma/OpenMP/fp16/k:1", "fma", "fma", "OpenMP", "fp16",
                       "fp16 arithmetic is not available on the OpenMP backend of Kokkos 3.4"))
    return {
        "schema_version": "1.1.0", "complete": True,
        "profile": {"name": "fixture", "source": "tests/data/make_fixtures.py", "repetitions": reps},
        "context": {
            "ridgeline": {"version": "0.1.0", "git_revision": "fixture"},
            "host": {"hostname": host, "os": "Linux 6.1 x86_64"},
            "build": {"compiler": "GNU 12.2.0", "flags": "-O3 -march=native", "build_type": "Release"},
            "kokkos": {"version": "3.4.1", "backends": ["OpenMP", "Serial"], "kokkos_kernels": "3.4.1"},
            "cpu": {"model": "AMD EPYC 9R45 (synthetic)", "cores": 2, "threads": 2, "avx512": True, "caches": [
                {"level": 1, "type": "data", "size_bytes": 49152, "shared_by_threads": 1,
                 "instances": 2},
                {"level": 2, "type": "unified", "size_bytes": 1048576, "shared_by_threads": 1,
                 "instances": 2},
                {"level": 3, "type": "unified", "size_bytes": 33554432, "shared_by_threads": 2,
                 "instances": 1}]},
            "spaces": [{"name": "OpenMP", "kind": "host", "concurrency": 2, "device": None}],
            "run": {"start_time": "2026-11-29T09:00:00Z", "google_benchmark": "1.7.1",
                    "omp_proc_bind": "spread", "omp_places": "threads", "governor": None}},
        "points": pts}


def gpu_file(seed):
    rng = random.Random(seed)
    reps = 5
    levels = [(1 << e, 10e12 if (1 << e) <= 32 << 20 else 4.2e12) for e in range(20, 31, 1)]
    pts = dtype_points(rng, reps, "Cuda", "fp32", 60e12, 4.2e12, levels=levels, lib=0.8,
                       device=True)
    pts += dtype_points(rng, reps, "Cuda", "fp64", 32e12, 4.2e12, device=True)
    pts.append(skipped("fma/Cuda/bf16/k:1", "fma", "fma", "Cuda", "bf16",
                       "no bf16 probe on this backend yet"))
    return {
        "schema_version": "1.2.0", "complete": True,
        "profile": {"name": "fixture", "repetitions": reps},
        "context": {
            "ridgeline": {"version": "0.1.0", "git_revision": "fixture"},
            "host": {"hostname": "gpu-node", "os": "Linux 6.8 x86_64"},
            "build": {"compiler": "NVIDIA 12.6", "flags": "-O3", "build_type": "Release"},
            "kokkos": {"version": "4.7.1", "backends": ["Cuda", "Serial"]},
            "cpu": {"model": "Intel Xeon (synthetic)", "cores": 64, "threads": 128, "caches": []},
            "spaces": [{"name": "Cuda", "kind": "device", "concurrency": 270336,
                        "device": {"name": "NVIDIA H200", "arch": "sm_90", "compute_units": 132,
                                   "l2_bytes": 52428800}}],
            "run": {"start_time": "2026-11-29T10:00:00Z", "google_benchmark": "1.7.1"}},
        "points": pts}


def dump(path, j):
    with open(path, "w") as f:
        text = json.dumps(j, indent=None, separators=(",", ":"))
        f.write(text.replace('{"name"', '\n{"name"') + "\n")


dump("cpu_run_a.json", cpu_file(1))
dump("cpu_run_b.json", cpu_file(2))
dump("cpu_run_slow.json", cpu_file(3, slow=1.1))
dump("cpu_other_host.json", cpu_file(4, host="laptop"))
dump("gpu_run.json", gpu_file(5))

rng = random.Random(6)
with open("roofline.csv", "w") as f:
    f.write("kernel,gflops,intensity\n")
    for e in range(-16, 17):
        i = 4 * 2 ** (e / 2)
        perf = roof(200, 50, i) * (1 + 0.03 * rng.gauss(0, 1))
        if rng.random() < 0.08:
            perf /= 1.4
        f.write(f"k{e + 16},{perf:.4f},{i:.6g}\n")
