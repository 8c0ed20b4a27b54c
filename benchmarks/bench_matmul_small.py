"""Small and mid matrix products vs NumPy, same run (issue 15): n x n @ n x n for n in 8..256
in every float dtype, and `m.T @ m` at 100 x 100 float64. Each row is the whole call from
Python, result computed (accel evaluates on `eval()`), measured alternately with NumPy
(`paired_times`). NumPy's float16 product is its own loop (no BLAS); bfloat16 is ml_dtypes'
on NumPy (skipped without ml_dtypes). `--sizes 8,64` and `--dtypes float32` narrow the table.

On a machine others load, threaded BLAS calls of either side now and then wait for a core (a
call of 16-20 ms); `--single-thread` compares the code itself: one BLAS and one accel thread,
timed in the calling thread's CPU time."""

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _timing import paired_times, print_table  # noqa: E402

import accel as ac  # noqa: E402

SIZES = (8, 16, 32, 64, 128, 256)
DTYPES = ("float16", "bfloat16", "float32", "float64", "complex64", "complex128")


def numpy_dtype(name):
    if name == "bfloat16":
        import ml_dtypes

        return ml_dtypes.bfloat16
    return np.dtype(name)


def random_matrix(rng, shape, dt):
    x = rng.standard_normal(shape)
    if np.dtype(dt).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dt)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    parser.add_argument("--dtypes", default=",".join(DTYPES))
    parser.add_argument("--single-thread", action="store_true")
    args = parser.parse_args()
    clock = time.perf_counter
    if args.single_thread:
        # accel and NumPy share NumPy's OpenBLAS, which reads its thread count at load: set it
        # in a child's environment before either imports it.
        if os.environ.get("OPENBLAS_NUM_THREADS") != "1":
            env = dict(os.environ, OPENBLAS_NUM_THREADS="1", ACCEL_NUM_THREADS="1")
            os.execve(sys.executable, [sys.executable, *sys.argv], env)
        clock = time.thread_time
    rng = np.random.default_rng(0)
    rows = []
    for name in args.dtypes.split(","):
        try:
            dt = numpy_dtype(name)
        except ImportError:
            print(f"{name}: skipped (ml_dtypes is not installed)")
            continue
        for n in map(int, args.sizes.split(",")):
            a_np, b_np = random_matrix(rng, (n, n), dt), random_matrix(rng, (n, n), dt)
            a, b = ac.asarray(a_np), ac.asarray(b_np)
            ta, tn = paired_times(lambda: (a @ b).eval(), lambda: a_np @ b_np, clock=clock)
            rows.append((f"{n}x{n} @ {n}x{n}, {name}", ta, tn, ">= 1.0x"))
    m_np = rng.standard_normal((100, 100))
    m = ac.asarray(m_np)
    ta, tn = paired_times(lambda: (m.T @ m).eval(), lambda: m_np.T @ m_np, clock=clock)
    rows.append(("m.T @ m, 100x100, float64", ta, tn, ">= 1.0x"))
    threads = os.environ.get("ACCEL_NUM_THREADS", str(os.cpu_count()))
    print_table(f"accel vs NumPy {np.__version__}: small and mid matmul (accel threads: {threads})",
                rows)


if __name__ == "__main__":
    main()
