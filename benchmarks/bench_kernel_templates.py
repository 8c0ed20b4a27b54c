"""Kernel templates on the CPU, same run: an ElementwiseKernel against accel's own equivalent
expression (fused, host-JIT compiled) and against NumPy; a ReductionKernel (L2 norm) against
accel's and NumPy's sqrt(sum(x * x)); and the per-call cost of a tiny kernel (float32,
2 threads). Ratios are baseline time / kernel time (above 1: the kernel is faster).

    PYTHONPATH=python python3 benchmarks/bench_kernel_templates.py [--n 10000000]
"""

import argparse
import os
import sys

os.environ.setdefault("ACCEL_NUM_THREADS", "2")

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(__file__))
from _timing import fmt_time, median_time  # noqa: E402

import accel as ac  # noqa: E402


def row(case, t_kernel, baselines):
    cells = "  ".join(f"{name} {fmt_time(t)} ({t / t_kernel:.2f}x)" for name, t in baselines)
    print(f"{case:34s} kernel {fmt_time(t_kernel):>10s}   {cells}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=10**7)
    n = parser.parse_args().n
    rng = np.random.default_rng(0)
    xs, ys = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    x, y = ac.asarray(xs, copy=True), ac.asarray(ys, copy=True)
    print(f"{n} float32 elements, {os.environ['ACCEL_NUM_THREADS']} threads")

    # z = 2xy + x - 1: one pass for the kernel and for accel's fused expression; NumPy makes
    # temporaries.
    k = ac.ElementwiseKernel("T x, T y", "T z", "z = 2 * x * y + x - 1", "bench_mul_add")
    z = ac.empty(n, dtype=ac.float32)
    expr = lambda: (2 * x * y + x - 1).eval()  # noqa: E731
    k(x, y, z)
    expr()
    ac.jit_wait()  # the fused expression's compiled kernel is used from here on
    np.testing.assert_allclose(ac.asnumpy(z), ac.asnumpy(expr()), rtol=1e-6)
    t_k = median_time(lambda: k(x, y, z))
    row("2xy + x - 1 (out= given)", t_k,
        [("accel expr", median_time(expr)), ("numpy", median_time(lambda: 2 * xs * ys + xs - 1))])
    t_alloc = median_time(lambda: k(x, y))
    row("2xy + x - 1 (output allocated)", t_alloc,
        [("accel expr", median_time(expr)), ("numpy", median_time(lambda: 2 * xs * ys + xs - 1))])

    l2 = ac.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "bench_l2norm",
                            reduce_type="float64")
    t_r = median_time(lambda: l2(x).eval())
    row("L2 norm (float64 accumulator)", t_r,
        [("accel sqrt(sum(x*x))", median_time(lambda: ac.sqrt(ac.sum(x * x)).eval())),
         ("numpy", median_time(lambda: np.sqrt(np.dot(xs, xs))))])

    small = ac.asarray(xs[:16], copy=True)
    small_out = ac.empty(16, dtype=ac.float32)
    t_small = median_time(lambda: k(small, small, small_out))
    row("per call, 16 elements", t_small,
        [("accel expr", median_time(lambda: (2 * small * small + small - 1).eval())),
         ("numpy", median_time(lambda: 2 * xs[:16] * xs[:16] + xs[:16] - 1))])


if __name__ == "__main__":
    main()
