"""Every float math function NumPy and accel share, on 2e6 contiguous values, NumPy side by side
in the same run: the transcendental functions (libmvec on the CPU), rounding, classification and
the two-argument functions (pow, arctan2, hypot, ...). Arguments lie in (0.05, 0.95), where every
function is defined (arccosh gets 1 + that). accel is lazy, so every timed call ends in eval.

    python benchmarks/bench_math.py [float32|float64 ...]"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _timing import median_time, print_table  # noqa: E402

import accel as ac  # noqa: E402

UNARY = ["sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh",
         "arccosh", "arctanh", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt",
         "cbrt", "square", "reciprocal", "negative", "absolute", "sign", "floor", "ceil", "trunc",
         "rint", "isnan", "isinf", "isfinite", "signbit", "deg2rad", "rad2deg", "spacing"]
BINARY = ["add", "subtract", "multiply", "divide", "power", "arctan2", "hypot", "maximum",
          "minimum", "fmax", "fmin", "copysign", "nextafter", "logaddexp", "logaddexp2",
          "remainder", "fmod", "floor_divide", "less", "equal", "heaviside", "float_power"]


def main():
    dtypes = sys.argv[1:] or ["float32", "float64"]
    rng = np.random.default_rng(0)
    for dtype in dtypes:
        an = (rng.random(2_000_000) * 0.9 + 0.05).astype(dtype)
        bn = (rng.random(2_000_000) * 0.9 + 0.05).astype(dtype)
        a, b = ac.asarray(an, copy=True), ac.asarray(bn, copy=True)
        a1n = an + 1
        a1 = ac.asarray(a1n, copy=True)
        rows = []
        for name in UNARY + BINARY:
            fn, fa = getattr(np, name), getattr(ac, name)
            if name in UNARY:
                args_n, args_a = ((a1n,), (a1,)) if name == "arccosh" else ((an,), (a,))
            else:
                args_n, args_a = (an, bn), (a, b)
            rows.append((name, median_time(lambda: ac.eval(fa(*args_a)), repeat=5),
                         median_time(lambda: fn(*args_n), repeat=5)))
        print_table(f"math functions, 2e6 {dtype} (accel vs NumPy {np.__version__})", rows)


if __name__ == "__main__":
    main()
