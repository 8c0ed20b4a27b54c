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
    m = 10**6
    lam_np = np.linspace(0.0, 50.0, m)
    lam_ac = ac.asarray(lam_np)
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
        # Rejection samplers, 1e6 elements: gamma (Marsaglia-Tsang on both sides), Poisson
        # (accel: inversion below 10, PTRS above; NumPy: multiplication below 10, PTRS above),
        # binomial (accel: inversion or BTRS; NumPy: inversion or BTPE).
        ("standard_gamma(2.5) 1e6", lambda: g.standard_gamma(2.5, size=m),
         lambda: r.standard_gamma(2.5, size=m)),
        ("poisson(3.0) 1e6", lambda: g.poisson(3.0, size=m), lambda: r.poisson(3.0, size=m)),
        ("poisson(100.0) 1e6", lambda: g.poisson(100.0, size=m), lambda: r.poisson(100.0, size=m)),
        ("poisson(lam array 0..50) 1e6", lambda: g.poisson(lam_ac), lambda: r.poisson(lam_np)),
        ("binomial(20, 0.3) 1e6", lambda: g.binomial(20, 0.3, size=m),
         lambda: r.binomial(20, 0.3, size=m)),
        ("binomial(1000, 0.3) 1e6", lambda: g.binomial(1000, 0.3, size=m),
         lambda: r.binomial(1000, 0.3, size=m)),
    ]
    rows = [(name, median_time(fa, repeat=5), median_time(fb, repeat=5), target[0] if target else "")
            for name, fa, fb, *target in cases]
    print_table(f"Random ({ac.__name__} Philox4x32-10 vs NumPy {np.__version__} PCG64, "
                f"{ac.num_threads()} threads; speedup = NumPy time / accel time)", rows)


if __name__ == "__main__":
    main()
