"""accel.random vs numpy.random.Generator (PCG64), same run: standard_normal and random of 10^7
float32 and float64 on the CPU (accel: Philox4x32-10 threaded over the pool, NumPy: one thread,
ziggurat). The issue's target is 2x NumPy for standard_normal(1e7, float32). Each accel call is
evaluated (the draw is eager) before the clock stops."""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _timing import median_time, print_table  # noqa: E402

import accel as ac  # noqa: E402


def main():
    n = 10**7
    g = ac.random.default_rng(0)
    r = np.random.default_rng(0)
    cases = [
        ("standard_normal 1e7 float32", lambda: g.standard_normal(n, dtype=np.float32),
         lambda: r.standard_normal(n, dtype=np.float32), ">= 2x"),
        ("standard_normal 1e7 float64", lambda: g.standard_normal(n),
         lambda: r.standard_normal(n)),
        ("random 1e7 float64", lambda: g.random(n), lambda: r.random(n)),
        ("random 1e7 float32", lambda: g.random(n, dtype=np.float32),
         lambda: r.random(n, dtype=np.float32)),
        ("standard_exponential 1e7 float64", lambda: g.standard_exponential(n),
         lambda: r.standard_exponential(n)),
        ("integers [0, 1000) 1e7 int64", lambda: g.integers(0, 1000, size=n),
         lambda: r.integers(0, 1000, size=n)),
    ]
    rows = [(name, median_time(fa, repeat=5), median_time(fb, repeat=5), target[0] if target else "")
            for name, fa, fb, *target in cases]
    print_table(f"Random ({ac.__name__} Philox4x32-10 vs NumPy {np.__version__} PCG64, "
                f"{ac.num_threads()} threads; speedup = NumPy time / accel time)", rows)


if __name__ == "__main__":
    main()
