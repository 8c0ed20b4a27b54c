"""The ops that follow the Array API standard's special values instead of NumPy's (issue 12;
docs/ARCHITECTURE.md, "Where accel departs from NumPy") vs NumPy, same run: float floor_divide
(a test for one infinite operand before NumPy's divmod), complex expm1 and tanh (tests for the
axis and infinite real parts before the general formula), on ordinary values and on arrays where
a tenth of the values are special. The ratios say what the extra tests cost."""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _timing import median_time, print_table  # noqa: E402

import accel as ac  # noqa: E402


def with_specials(x, rng):
    """x with a tenth of its values replaced by infinities, NaNs and signed zeros."""
    x = x.copy()
    idx = rng.choice(x.size, x.size // 10, replace=False)
    specials = np.array([np.inf, -np.inf, np.nan, 0.0, -0.0])
    x.flat[idx] = specials[rng.integers(0, specials.size, idx.size)]
    return x


def main():
    rng = np.random.default_rng(0)
    n = 10**6
    cases = []
    for label, special in (("", False), (", 10% special", True)):
        for dt in ("float32", "float64"):
            a_np = (rng.normal(size=n) * 100).astype(dt)
            b_np = (rng.normal(size=n) * 3 + 0.5).astype(dt)
            if special:
                a_np, b_np = with_specials(a_np, rng), with_specials(b_np, rng)
            a, b = ac.asarray(a_np), ac.asarray(b_np)
            cases.append((f"floor_divide {dt} 1e6{label}", lambda a=a, b=b: (a // b).eval(),
                          lambda a=a_np, b=b_np: np.floor_divide(a, b)))
        for dt in ("complex64", "complex128"):
            re, im = rng.normal(size=n) * 3, rng.normal(size=n) * 3
            if special:
                re, im = with_specials(re, rng), with_specials(im, rng)
            z_np = np.empty(n, dt)
            z_np.real, z_np.imag = re, im
            z = ac.asarray(z_np)
            for name in ("expm1", "tanh"):
                cases.append((f"{name} {dt} 1e6{label}",
                              lambda f=getattr(ac, name), z=z: f(z).eval(),
                              lambda f=getattr(np, name), z=z_np: f(z)))
    with np.errstate(all="ignore"):
        rows = [(name, median_time(fa, repeat=5), median_time(fn, repeat=5))
                for name, fa, fn in cases]
    print_table(f"Standard special values ({ac.__name__} vs NumPy {np.__version__}, "
                f"{ac.num_threads()} threads; speedup = NumPy time / accel time)", rows)


if __name__ == "__main__":
    main()
