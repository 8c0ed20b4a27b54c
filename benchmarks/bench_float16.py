"""float16 and bfloat16 vs NumPy, same run: a + b, sqrt(a) and sum(a) on 10^7 values, and the
casts to and from float32. accel widens blocks to float (float16 with F16C, 8 lanes an
instruction; bfloat16 with a shift, and rounds back with integer ops, both vectorised loops) and
runs the float32 loop; NumPy (and ml_dtypes, its bfloat16) converts one element at a time.
bfloat16's table needs ml_dtypes (NumPy has no bfloat16 of its own)."""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _timing import median_time, print_table  # noqa: E402

import accel as ac  # noqa: E402


def table(name, np_dtype):
    rng = np.random.default_rng(0)
    f32 = rng.random(10**7, dtype=np.float32)
    a_np = f32.astype(np_dtype)
    b_np = rng.random(10**7, dtype=np.float32).astype(np_dtype)
    a, b = ac.asarray(a_np, copy=True), ac.asarray(b_np, copy=True)
    f = ac.asarray(f32, copy=True)
    cases = [
        (f"a + b {name} 1e7", lambda: (a + b).eval(), lambda: a_np + b_np),
        (f"sqrt(a) {name} 1e7", lambda: ac.sqrt(a).eval(), lambda: np.sqrt(a_np)),
        (f"sum(a) {name} 1e7", lambda: ac.sum(a), lambda: np.sum(a_np)),
        (f"a.astype(float32) {name} 1e7", lambda: a.astype("float32").eval(),
         lambda: a_np.astype(np.float32)),
        (f"float32.astype({name}) 1e7", lambda: f.astype(name).eval(),
         lambda: f32.astype(np_dtype)),
    ]
    rows = [(case, median_time(fa), median_time(fn), *target) for case, fa, fn, *target in cases]
    print_table(f"{name} (10^7 elements)", rows)


def main():
    table("float16", np.float16)
    try:
        import ml_dtypes
    except ImportError:
        print("bfloat16: skipped, ml_dtypes is not installed (NumPy has no bfloat16)")
        return
    table("bfloat16", ml_dtypes.bfloat16)


if __name__ == "__main__":
    main()
