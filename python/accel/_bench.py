"""`python -m accel bench`: a short benchmark of this machine (issue 14), accel beside NumPy (and
PyTorch or CuPy where importable) in one run, as ratios: memory bandwidth, per-op overhead, a
reduction, a fused expression, matmul, and, where a GPU is usable, the host link's bandwidth
both ways and the launch overhead. `accel.estimate` takes this CPU's bandwidth, overhead and
arithmetic rate from the same measurements (`cpu_figures`).

Each figure is the best of several timed runs (the minimum: on a shared machine the other runs
measure the neighbours). ratio = the other library's time / accel's, so above 1 accel is faster.
"""

from __future__ import annotations

import json
import time

import numpy as np

from ._progress import Progress


def best_time(fn, repeat=5, number=1):
    """The best of `repeat` runs of `number` calls of fn, in seconds per call."""
    fn()  # warm-up: compiles, allocator caches, first-touch pages
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - t0) / number)
    return min(times)


def _ev(x):
    """Waits for an accel result (work is lazy or asynchronous until then)."""
    if hasattr(x, "eval"):
        x.eval()
    return x


def _sync(device):
    if device.startswith("cuda"):
        import accel.cuda

        accel.cuda.synchronize()


def copy_bandwidth(n=1 << 23, device="cpu", repeat=5):
    """Bytes per second of an elementwise pass that reads and writes n float32 (x + 0)."""
    import accel as ac

    x = ac.ones(n, dtype=ac.float32, device=device)
    t = best_time(lambda: (_ev(x + 0), _sync(device)), repeat)
    return 2 * n * 4 / t


def op_overhead(device="cpu", repeat=5):
    """Seconds per small elementwise op (16 float32, a + b), computed."""
    import accel as ac

    a = ac.ones(16, dtype=ac.float32, device=device)
    return best_time(lambda: (_ev(a + a), _sync(device)), repeat, number=200)


def elementwise_flops(n=1 << 23, bandwidth=None, repeat=3):
    """Arithmetic rate of the CPU's elementwise math (sin of n float32, which is compute-bound
    on CPUs), in operations per second, its memory traffic's time taken out."""
    import accel as ac

    x = ac.ones(n, dtype=ac.float32)
    t = best_time(lambda: _ev(ac.sin(x)), repeat)
    memory = 2 * n * 4 / bandwidth if bandwidth else 0.0
    return n / max(t - memory, t / 2)


def matmul_flops(m=512, repeat=3):
    """Floating-point operations per second of an m x m float32 matmul (the BLAS): the compute
    roof of a roofline."""
    import accel as ac

    a = ac.ones((m, m), dtype=ac.float32)
    return 2 * m**3 / best_time(lambda: _ev(a @ a), repeat)


def cpu_figures(quick=False):
    """This CPU as the estimate's model sees it: bandwidth (bytes/s), launch (s per op),
    flops32 (op/s)."""
    repeat = 2 if quick else 5
    bw = copy_bandwidth(repeat=repeat)
    return {"bandwidth": bw, "launch": op_overhead(repeat=repeat),
            "flops32": elementwise_flops(bandwidth=bw, repeat=2 if quick else 3)}


def _cases(quick):
    """(name, unit, work, accel fn, numpy fn, torch fn or None, device); work converts a time
    to the unit (e.g. bytes -> GB/s), None to report microseconds."""
    import accel as ac

    n = 1 << 20 if quick else 10_000_000
    m = 256 if quick else 1024
    try:
        import torch
    except ImportError:
        torch = None
    rng = np.random.default_rng(0)
    an, bn, cn = (rng.random(n, dtype=np.float32) for _ in range(3))
    a, b, c = (ac.asarray(v, copy=True) for v in (an, bn, cn))
    mn = rng.random((m, m), dtype=np.float32)
    mat = ac.asarray(mn, copy=True)
    sn, tn = np.ones(16, np.float32), np.ones(16, np.float32)
    s, t = ac.asarray(sn, copy=True), ac.asarray(tn, copy=True)
    ta = tb = tc = tm = ts = None
    if torch is not None:
        ta, tb, tc = (torch.from_numpy(v) for v in (an, bn, cn))
        tm, ts = torch.from_numpy(mn), torch.from_numpy(sn)
    cases = [
        ("memory bandwidth: a + b", "GB/s", 3 * n * 4 / 1e9,
         lambda: _ev(a + b), lambda: an + bn, (lambda: ta + tb) if torch else None, "cpu"),
        ("per-op overhead: a + b, 16 float32", "us", None,
         # computed at once (small ops are eager): no eval() call to time
         lambda: s + t, lambda: sn + tn, (lambda: ts + ts) if torch else None, "cpu"),
        ("sum", "GB/s", n * 4 / 1e9,
         lambda: float(a.sum()), lambda: float(an.sum()), (lambda: float(ta.sum())) if torch else None,
         "cpu"),
        ("fused: 2*a*b + c - 1", "GB/s", 4 * n * 4 / 1e9,
         lambda: _ev(2 * a * b + c - 1), lambda: 2 * an * bn + cn - 1,
         (lambda: 2 * ta * tb + tc - 1) if torch else None, "cpu"),
        (f"matmul {m}x{m} float32", "GFLOP/s", 2 * m**3 / 1e9,
         lambda: _ev(mat @ mat), lambda: mn @ mn, (lambda: tm @ tm) if torch else None, "cpu"),
    ]
    return cases


def _gpu_cases(quick):
    """The host link both ways and the launch overhead, on the first GPU (CuPy beside where
    importable)."""
    import accel as ac

    n = (1 << 22) if quick else (1 << 26)  # 16 MiB / 256 MiB of float32
    host = np.ones(n, np.float32)
    dev = ac.asarray(host, device="cuda")
    try:
        import cupy
    except ImportError:
        cupy = None
    small = ac.ones(16, dtype=ac.float32, device="cuda")
    cs = cupy.ones(16, cupy.float32) if cupy else None
    cd = cupy.asarray(host) if cupy else None

    def cupy_sync(fn):
        def run():
            fn()
            cupy.cuda.Device().synchronize()
        return run

    return [
        ("host to GPU (pageable)", "GB/s", n * 4 / 1e9,
         lambda: (_ev(ac.asarray(host, device="cuda")), _sync("cuda")), None,
         cupy_sync(lambda: cupy.asarray(host)) if cupy else None, "cuda"),
        ("GPU to host", "GB/s", n * 4 / 1e9, lambda: ac.asnumpy(dev), None,
         (lambda: cupy.asnumpy(cd)) if cupy else None, "cuda"),
        ("launch overhead: a + b, 16 float32", "us", None,
         lambda: (_ev(small + small), _sync("cuda")), None,
         cupy_sync(lambda: cs + cs) if cupy else None, "cuda"),
    ]


def run(quick=False, stream=None):
    """Runs every case; returns a list of dicts (case, unit, accel, numpy, torch_or_cupy,
    ratio_numpy, ratio_other) with figures in the case's unit."""
    import accel as ac

    cases = _cases(quick)
    gpu = ac.cuda.is_available()
    if gpu:
        cases += _gpu_cases(quick)
    repeat = 2 if quick else 5
    rows = []
    with Progress(len(cases), "accel bench", stream=stream) as bar:
        for name, unit, work, fa, fn, fo, device in cases:
            number = 100 if work is None else 1
            ta = best_time(fa, repeat, number)
            tn = best_time(fn, repeat, number) if fn else None
            to = best_time(fo, repeat, number) if fo else None
            fig = (lambda t: t * 1e6) if work is None else (lambda t, w=work: w / t)
            rows.append({
                "case": name, "unit": unit, "device": device,
                "accel": fig(ta), "numpy": fig(tn) if tn else None,
                "other": fig(to) if to else None,
                "ratio_numpy": tn / ta if tn else None, "ratio_other": to / ta if to else None,
            })
            bar.step(name)
    return rows


def format_rows(rows):
    """The table: other = PyTorch on CPU rows, CuPy on GPU rows (where importable)."""
    head = (f"{'case':<38} {'unit':>8} {'accel':>10} {'numpy':>10} {'ratio':>7} "
            f"{'torch|cupy':>10} {'ratio':>7}")
    lines = [head, "-" * len(head)]
    num = lambda v: "-" if v is None else f"{v:.3g}"  # noqa: E731
    ratio = lambda v: "-" if v is None else f"{v:.2f}x"  # noqa: E731
    for r in rows:
        lines.append(f"{r['case']:<38} {r['unit']:>8} {num(r['accel']):>10} {num(r['numpy']):>10} "
                     f"{ratio(r['ratio_numpy']):>7} {num(r['other']):>10} {ratio(r['ratio_other']):>7}")
    lines.append("ratio = the other library's time / accel's (above 1: accel is faster); "
                 "us rows: time per call")
    return "\n".join(lines)


def main(argv=None):
    import argparse
    import os

    import accel as ac

    ap = argparse.ArgumentParser(prog="python -m accel bench",
                                 description="a short benchmark of this machine, accel beside "
                                             "NumPy (and PyTorch/CuPy where importable)")
    ap.add_argument("--quick", action="store_true", help="small sizes, fewer repeats (seconds)")
    ap.add_argument("--json", action="store_true", help="machine-readable output")
    args = ap.parse_args(argv)
    rows = run(quick=args.quick)
    if args.json:
        print(json.dumps({"cores": os.cpu_count(), "threads": ac.num_threads(), "rows": rows},
                         indent=2))
        return 0
    print(f"accel bench: {os.cpu_count()} cores, {ac.num_threads()} accel threads"
          f"{', a GPU' if ac.cuda.is_available() else ''}{' (quick sizes)' if args.quick else ''}")
    print(format_rows(rows))
    return 0
