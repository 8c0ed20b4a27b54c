"""Reductions and scans vs NumPy, same run: the sum of 10^7 float32 (whole array, and down the
columns / along the rows of a 3162x3162 view), mean, max, argmax and cumsum, plus an integer
sum (int32 -> int64 while reading), a reduction over a transposed view, and reductions of
elementwise chains (computed block by block as they are reduced, never stored: sum(x * x),
count_nonzero(x > t), var, std) and the Frobenius norm; and NumPy's ufunc methods subtract.accumulate,
subtract.reduce and reduceat."""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _timing import median_time, print_table  # noqa: E402

import accel as ac  # noqa: E402


def main():
    rng = np.random.default_rng(0)
    x_np = rng.random(10**7, dtype=np.float32)
    m_np = x_np[: 3162 * 3162].reshape(3162, 3162)
    i_np = rng.integers(-1000, 1000, size=10**7, dtype=np.int32)
    x, m, i = ac.asarray(x_np), ac.asarray(m_np), ac.asarray(i_np)
    # Chains over arrays accel owns stay lazy (over NumPy's memory they run at once, since
    # NumPy could write it behind accel's back), so their reductions read them as computed.
    xo, mo = ac.asarray(x_np, copy=True), ac.asarray(m_np, copy=True)
    seg = np.sort(rng.choice(10**7, 10**4, replace=False))
    seg[0] = 0
    cases = [
        ("sum float32 1e7", lambda: x.sum(), lambda: x_np.sum(), ">= 1.3x"),
        ("sum float32 3162x3162 axis=0", lambda: m.sum(axis=0), lambda: m_np.sum(axis=0)),
        ("sum float32 3162x3162 axis=1", lambda: m.sum(axis=1), lambda: m_np.sum(axis=1)),
        ("sum float32 3162x3162 .T axis=0", lambda: m.T.sum(axis=0), lambda: m_np.T.sum(axis=0)),
        ("mean float32 1e7", lambda: x.mean().eval(), lambda: x_np.mean()),
        ("max float32 1e7", lambda: x.max(), lambda: x_np.max()),
        ("argmax float32 1e7", lambda: x.argmax(), lambda: x_np.argmax()),
        ("sum int32 1e7 (-> int64)", lambda: i.sum(), lambda: i_np.sum()),
        ("any float32 1e7 (all zero but last)", None, None),
        ("sum(x * x) float32 1e7", lambda: (xo * xo).sum(), lambda: (x_np * x_np).sum()),
        ("count_nonzero(x > 0.5) float32 1e7", lambda: ac.count_nonzero(xo > 0.5),
         lambda: np.count_nonzero(x_np > 0.5)),
        ("max(abs(x - 0.5)) float32 1e7", lambda: ac.max(ac.abs(xo - 0.5)),
         lambda: np.max(np.abs(x_np - 0.5))),
        ("sum(x * x, axis=0) float32 3162x3162", lambda: (mo * mo).sum(axis=0),
         lambda: (m_np * m_np).sum(axis=0)),
        ("var float32 1e7", lambda: xo.var().eval(), lambda: x_np.var()),
        ("std float32 3162x3162 axis=1", lambda: mo.std(axis=1).eval(), lambda: m_np.std(axis=1)),
        ("linalg.norm float32 3162x3162", lambda: ac.linalg.norm(m), lambda: np.linalg.norm(m_np)),
        ("cumsum float32 1e7", lambda: x.cumsum(), lambda: x_np.cumsum()),
        ("cumsum float32 3162x3162 axis=0", lambda: m.cumsum(axis=0), lambda: m_np.cumsum(axis=0)),
        # NumPy's ufunc methods: subtract as one running sum of the negated terms, reduceat of
        # 10^4 segments as one fold (python/accel/_ufuncs.py).
        ("subtract.accumulate float32 1e7", lambda: ac.subtract.accumulate(x).eval(),
         lambda: np.subtract.accumulate(x_np)),
        ("subtract.reduce float32 3162x3162 axis=0", lambda: ac.subtract.reduce(m, axis=0).eval(),
         lambda: np.subtract.reduce(m_np, axis=0)),
        ("add.reduceat float32 1e7, 1e4 segments", lambda: ac.add.reduceat(x, seg).eval(),
         lambda: np.add.reduceat(x_np, seg)),
        ("maximum.reduceat float32 1e7, 1e4 segments",
         lambda: ac.maximum.reduceat(x, seg).eval(), lambda: np.maximum.reduceat(x_np, seg)),
    ]
    z_np = np.zeros(10**7, dtype=np.float32)
    z_np[-1] = 1
    z = ac.asarray(z_np)
    rows = []
    for case in cases:
        name, fa, fn = case[:3]
        if fa is None:
            fa, fn = (lambda: z.any()), (lambda: z_np.any())
        target = case[3] if len(case) > 3 else ""
        rows.append((name, median_time(fa, repeat=5), median_time(fn, repeat=5), target))
    print_table(f"Reductions ({ac.__name__} vs NumPy {np.__version__}; speedup = NumPy time / accel time)",
                rows)


if __name__ == "__main__":
    main()
