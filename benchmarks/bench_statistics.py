"""Statistics on the sort vs NumPy, same run: median, quantile, histogram, bincount, digitize,
cov, einsum (a matrix chain, where NumPy's default optimize=False is the naive loop and
optimize=True its BLAS path), lexsort and interp. accel's order statistics and counting sort the
data (O(n log n)) where NumPy selects (introselect) or counts in one pass; the ratios say what
that costs on the CPU."""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _timing import median_time, print_table  # noqa: E402

import accel as ac  # noqa: E402


def done(x):
    """Force a (possibly lazy) accel result, or each of a tuple's."""
    for v in (x if isinstance(x, tuple) else (x,)):
        v.eval()


def main():
    rng = np.random.default_rng(0)
    n = 10**6
    a_np = rng.normal(size=n).astype(np.float32)
    m_np = rng.normal(size=(1000, 1000)).astype(np.float32)
    b_np = rng.integers(0, 100, n)
    keys_np = [rng.integers(0, 50, n), rng.integers(0, 50, n)]
    c_np = rng.normal(size=(50, 2000))
    x_np, y_np, z_np = rng.random((200, 300)), rng.random((300, 400)), rng.random((400, 50))
    xs_np = np.sort(rng.random(1000))
    a, m, b, c, x, y, z, xs = (ac.asarray(v) for v in (a_np, m_np, b_np, c_np, x_np, y_np, z_np, xs_np))
    keys = [ac.asarray(k) for k in keys_np]
    cases = [
        ("median float32 1e6", lambda: done(ac.median(a)), lambda: np.median(a_np)),
        ("median float32 1000x1000 axis=1", lambda: done(ac.median(m, axis=1)),
         lambda: np.median(m_np, axis=1)),
        ("quantile 5 q float32 1e6", lambda: done(ac.quantile(a, [.1, .25, .5, .75, .9])),
         lambda: np.quantile(a_np, [.1, .25, .5, .75, .9])),
        ("histogram 50 bins float32 1e6", lambda: done(ac.histogram(a, 50)),
         lambda: np.histogram(a_np, 50)),
        ("bincount int64 1e6 (100 values)", lambda: done(ac.bincount(b)),
         lambda: np.bincount(b_np)),
        ("digitize float32 1e6 into 10 edges", lambda: done(ac.digitize(a, np.linspace(-2, 2, 10))),
         lambda: np.digitize(a_np, np.linspace(-2, 2, 10))),
        ("lexsort 2 keys int64 1e6", lambda: done(ac.lexsort(keys)), lambda: np.lexsort(keys_np)),
        ("cov 50 variables x 2000", lambda: done(ac.cov(c)), lambda: np.cov(c_np)),
        ("einsum ij,jk,kl->il (numpy optimize=False)", lambda: done(ac.einsum("ij,jk,kl->il", x, y, z)),
         lambda: np.einsum("ij,jk,kl->il", x_np, y_np, z_np)),
        ("einsum ij,jk,kl->il (numpy optimize=True)", lambda: done(ac.einsum("ij,jk,kl->il", x, y, z)),
         lambda: np.einsum("ij,jk,kl->il", x_np, y_np, z_np, optimize=True)),
        ("interp 1e6 points, 1000 samples", lambda: done(ac.interp(a, xs, xs)),
         lambda: np.interp(a_np, xs_np, xs_np)),
    ]
    rows = [(name, median_time(fa, repeat=3), median_time(fn, repeat=3)) for name, fa, fn in cases]
    print_table(f"Statistics ({ac.__name__} vs NumPy {np.__version__}, {ac.num_threads()} threads; "
                "speedup = NumPy time / accel time)", rows)


if __name__ == "__main__":
    main()
