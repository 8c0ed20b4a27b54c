"""accel.linalg vs numpy.linalg, same run: solve, inv, cholesky, eigh and svd at 1024x1024
float64 (both call the same OpenBLAS LAPACK, NumPy's wheel's, so the difference is the copies
around it), and a batch of 10,000 4x4 matrices for inv, solve and det (NumPy loops over the
batch in one thread; accel spreads it over its pool). At 1024x1024 accel hands LAPACK the
matrix row-major where the transpose does as well (no transposing copies; lapack_batch.h)."""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _timing import paired_times, print_table  # noqa: E402

import accel as ac  # noqa: E402


def done(x):
    """Force a (possibly lazy) accel result, or each of a tuple's."""
    for v in (x if isinstance(x, tuple) else (x,)):
        v.eval()


def main():
    rng = np.random.default_rng(0)
    n = 1024
    a_np = rng.normal(size=(n, n)) + n * np.eye(n)
    spd_np = a_np @ a_np.T
    b_np = rng.normal(size=(n, 8))
    small_np = rng.normal(size=(10_000, 4, 4)) + 4 * np.eye(4)
    rhs_np = rng.normal(size=(10_000, 4, 1))
    a, spd, b, small, rhs = (ac.asarray(v) for v in (a_np, spd_np, b_np, small_np, rhs_np))
    L, N = ac.linalg, np.linalg
    cases = [
        ("solve 1024x1024 f64, 8 rhs", lambda: done(L.solve(a, b)), lambda: N.solve(a_np, b_np)),
        ("inv 1024x1024 f64", lambda: done(L.inv(a)), lambda: N.inv(a_np)),
        ("cholesky 1024x1024 f64", lambda: done(L.cholesky(spd)), lambda: N.cholesky(spd_np)),
        ("eigh 1024x1024 f64", lambda: done(tuple(L.eigh(spd))), lambda: N.eigh(spd_np)),
        ("svd 1024x1024 f64", lambda: done(tuple(L.svd(a))), lambda: N.svd(a_np)),
        ("inv 10000 x 4x4 f64", lambda: done(L.inv(small)), lambda: N.inv(small_np)),
        ("solve 10000 x 4x4 f64", lambda: done(L.solve(small, rhs)), lambda: N.solve(small_np, rhs_np)),
        ("det 10000 x 4x4 f64", lambda: done(L.det(small)), lambda: N.det(small_np)),
    ]
    # Alternated rounds, the best of each side: on a shared 2-core machine OpenBLAS's two threads
    # ran up to 10x slower while other processes took a core (svd 0.5 s single-threaded, 6 s),
    # so one side's block of runs could see a different load from the other's.
    rows = [(name, *paired_times(fa, fn, rounds=3, repeat=3)) for name, fa, fn in cases]
    print_table(f"accel.linalg ({ac.num_threads()} threads) vs numpy.linalg {np.__version__}; "
                "speedup = NumPy time / accel time", rows)


if __name__ == "__main__":
    main()
