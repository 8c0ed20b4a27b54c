"""Core elementwise speed vs NumPy, same run: large a + b (bandwidth), small a + b (per-call
overhead), a scalar-broadcast op, a transcendental, strided inputs (of an add and of
vectorised functions), arctan2, floor and a mixed-dtype op.
accel is lazy, so every timed accel call ends in .eval()."""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _timing import median_time, print_table  # noqa: E402

import accel as ac  # noqa: E402


def main():
    rng = np.random.default_rng(0)
    n = 10**7
    an = rng.random(n, dtype=np.float32)
    bn = rng.random(n, dtype=np.float32)
    a, b = ac.asarray(an), ac.asarray(bn)
    small_n = np.ones(10, np.float32)
    small = ac.asarray(small_n)
    tn = np.ascontiguousarray(rng.random((3162, 3162), dtype=np.float32))
    t = ac.asarray(tn)
    i32n = rng.integers(0, 100, n, dtype=np.int32)
    i32 = ac.asarray(i32n)

    rows = [
        ("a + b, float32, 1e7", median_time(lambda: (a + b).eval()), median_time(lambda: an + bn),
         ">= 1.8x"),
        ("a + b, float32, 10 elements", median_time(lambda: (small + small).eval()),
         median_time(lambda: small_n + small_n), ">= 0.5x (at most 2x NumPy's time)"),
        ("a * 2.0, float32, 1e7", median_time(lambda: (a * 2.0).eval()), median_time(lambda: an * 2.0)),
        ("sin(a), float32, 1e7", median_time(lambda: ac.sin(a).eval()), median_time(lambda: np.sin(an))),
        ("t.T + t, float32, 3162x3162", median_time(lambda: (t.T + t).eval()),
         median_time(lambda: tn.T + tn)),
        # Strided inputs of a vectorised function: copied into blocks, as NumPy buffers them.
        ("sin(t.T), float32, 3162x3162", median_time(lambda: ac.sin(t.T).eval()),
         median_time(lambda: np.sin(tn.T))),
        ("exp(t[:, ::2]), float32", median_time(lambda: ac.exp(t[:, ::2]).eval()),
         median_time(lambda: np.exp(tn[:, ::2]))),
        ("sin(t.T) * 2, fused, float32", median_time(lambda: (ac.sin(t.T) * 2).eval()),
         median_time(lambda: np.sin(tn.T) * 2)),
        ("arctan2(a, b), float32, 1e7", median_time(lambda: ac.arctan2(a, b).eval()),
         median_time(lambda: np.arctan2(an, bn))),
        ("floor(a * 10), float32, 1e7", median_time(lambda: ac.floor(a * 10).eval()),
         median_time(lambda: np.floor(an * 10))),
        ("int32 + float32 -> float64, 1e7", median_time(lambda: (i32 + a).eval()),
         median_time(lambda: i32n + an)),
    ]
    threads = os.environ.get("ACCEL_NUM_THREADS", str(os.cpu_count()))
    print_table(f"accel vs NumPy {np.__version__}: elementwise (accel threads: {threads})", rows)


if __name__ == "__main__":
    main()
