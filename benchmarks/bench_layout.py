"""Results of transposed inputs vs NumPy, same run: NumPy lays a new result out in its inputs' axis
order (order='K'), so np.sin(m.T) reads and writes memory in order; a C-ordered result costs a
transposition. Each row is one op on a 2000x2000 float32 transpose (or a chain ending in one
evaluation); the last rows go on from such a result, as a program would, or reduce a 3-d
transpose (100x200x200 float32). accel is lazy, so every
timed accel call ends in .eval()."""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _timing import median_time, print_table  # noqa: E402

import accel as ac  # noqa: E402


def main():
    rng = np.random.default_rng(0)
    mn = rng.random((2000, 2000), dtype=np.float32)
    m = ac.asarray(mn, copy=True)
    rn, r = np.sin(mn.T), ac.sin(m.T).eval()  # a result made from a transpose
    cases = [
        ("m.T > 0.5", lambda: m.T > 0.5, lambda: mn.T > 0.5),
        ("isnan(m.T)", lambda: ac.isnan(m.T), lambda: np.isnan(mn.T)),
        ("m.T * 2 + 1, fused", lambda: m.T * 2 + 1, lambda: mn.T * 2 + 1),
        ("m.T.astype(float64)", lambda: m.T.astype(ac.float64), lambda: mn.T.astype(np.float64)),
        ("exp(m.T)", lambda: ac.exp(m.T), lambda: np.exp(mn.T)),
        ("m.T + m.T", lambda: m.T + m.T, lambda: mn.T + mn.T),
        ("m.T + m (mixed: C order)", lambda: m.T + m, lambda: mn.T + mn),
        ("r + 1, r = sin(m.T)", lambda: r + 1, lambda: rn + 1),
        ("r * r.T (mixed)", lambda: r * r.T, lambda: rn * rn.T),
        ("std(m.T)", lambda: ac.std(m.T), lambda: np.std(mn.T)),
        ("sum(m.T * 2, axis=0)", lambda: ac.sum(m.T * 2, axis=0), lambda: np.sum(mn.T * 2, axis=0)),
    ]
    # Reductions of a 3-d transpose keep its kept axes' order (NumPy's iterator): the result is
    # written in memory order, and a fused chain is reduced as it is computed, walked in order.
    tn = rng.random((100, 200, 200), dtype=np.float32).transpose(1, 2, 0)
    t = ac.asarray(tn.transpose(2, 0, 1), copy=True).transpose(1, 2, 0)
    cases += [
        ("sum(t, axis=0), t 3-d transposed", lambda: ac.sum(t, axis=0), lambda: np.sum(tn, axis=0)),
        ("sum(t * 2 - 1, axis=0), fused", lambda: ac.sum(t * 2 - 1, axis=0),
         lambda: np.sum(tn * 2 - 1, axis=0)),
        ("sum(t * 2 - 1, axis=2), fused, outermost", lambda: ac.sum(t * 2 - 1, axis=2),
         lambda: np.sum(tn * 2 - 1, axis=2)),
        ("var(t, axis=1)", lambda: ac.var(t, axis=1), lambda: np.var(tn, axis=1)),
        ("s + 1, s = max(t, axis=2)", lambda: ac.max(t, axis=2) + 1, lambda: np.max(tn, axis=2) + 1),
    ]
    rows = [(name, median_time(lambda f=fa: f().eval()), median_time(fn)) for name, fa, fn in cases]
    threads = os.environ.get("ACCEL_NUM_THREADS", str(os.cpu_count()))
    print_table(f"accel vs NumPy {np.__version__}: results of transposed inputs, 2000x2000 float32 "
                f"(accel threads: {threads})", rows)


if __name__ == "__main__":
    main()
