"""float16 vs NumPy, same run: a + b, sqrt(a) and sum(a) on 10^7 float16 values, and a cast
to float32. accel widens blocks to float with F16C (8 lanes an instruction) and runs the
float32 loop; NumPy converts one element at a time."""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _timing import median_time, print_table  # noqa: E402

import accel as ac  # noqa: E402


def main():
    rng = np.random.default_rng(0)
    a_np = rng.random(10**7, dtype=np.float32).astype(np.float16)
    b_np = rng.random(10**7, dtype=np.float32).astype(np.float16)
    a, b = ac.asarray(a_np, copy=True), ac.asarray(b_np, copy=True)
    cases = [
        ("a + b float16 1e7", lambda: (a + b).eval(), lambda: a_np + b_np),
        ("sqrt(a) float16 1e7", lambda: ac.sqrt(a).eval(), lambda: np.sqrt(a_np)),
        ("sum(a) float16 1e7", lambda: ac.sum(a), lambda: np.sum(a_np)),
        ("a.astype(float32) 1e7", lambda: a.astype("float32").eval(),
         lambda: a_np.astype(np.float32)),
    ]
    rows = [(name, median_time(fa), median_time(fn), *target) for name, fa, fn, *target in cases]
    print_table("float16 (10^7 elements)", rows)


if __name__ == "__main__":
    main()
