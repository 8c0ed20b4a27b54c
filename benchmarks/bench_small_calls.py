"""Per-call cost of the most common small calls, accel beside NumPy in one run: creation, views,
indexing, scalar extraction, joining, elementwise ops, reductions, len/shape/dtype and
conversions, at 1, 10 and 100 elements, plus the table of issue 15 and, for the rows where NumPy returns an
object it already has or a scalar, NumPy doing the work accel's call must do. Times are µs per call (each the minimum of
three medians, accel and NumPy measured alternately); ratio = NumPy time / accel time, so a
ratio >= 1.0 means accel is at least as fast.

accel computes elementwise ops on small computed arrays at once (eval/eager.h), so its results
are values when the call returns; a case whose result would still be pending is timed with
.eval() and marked "(+eval)".

    PYTHONPATH=python python3 benchmarks/bench_small_calls.py [--sizes 1,10,100] [--only NAME]
                                                              [--cpu-time]

--cpu-time times the calling thread's CPU time (time.thread_time) instead of the wall clock: on
a loaded machine the wall clock of a sub-microsecond call mostly measures waiting for a core.
Every call here runs on the calling thread (small ops are not split over the pool).
"""

import argparse
import operator
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _timing import paired_times  # noqa: E402

import accel as ac  # noqa: E402


def operands(n):
    rng = np.random.default_rng(n)
    an = (rng.random(n, dtype=np.float32) - 0.5).astype(np.float32)
    bn = rng.random(n, dtype=np.float32) + 1
    # accel's own copies (copy=True): zero-copy imports of NumPy memory are computed at once
    # anyway, since NumPy could write them behind accel's back.
    return an, bn, ac.asarray(an, copy=True), ac.asarray(bn, copy=True)


def calls(n):
    """(name, accel call, NumPy call) for n elements."""
    an, bn, a, b = operands(n)
    ln = [float(v) for v in an]
    idx_n = np.arange(0, n, 2)
    idx = ac.asarray(idx_n, copy=True)
    mask_n = an > 0
    mask = ac.asarray(mask_n, copy=True)
    values_n = np.arange(len(idx_n), dtype=np.float32)
    values = ac.asarray(values_n, copy=True)
    shape2 = (1, n) if n < 10 else (n // 10, 10)
    a2, an2 = a.reshape(shape2), an.reshape(shape2)
    col = min(1, shape2[1] - 1)  # (one element: column 0)
    s, sn = a.sum(), an.sum()  # a 0-d accel array; a NumPy scalar
    return [
        # creation
        ("asarray(list of floats)", lambda: ac.asarray(ln), lambda: np.asarray(ln)),
        ("asarray(numpy array)", lambda: ac.asarray(an), lambda: np.asarray(an)),
        ("asarray(list, dtype=np.float32)", lambda: ac.asarray(ln, dtype=np.float32),
         lambda: np.asarray(ln, dtype=np.float32)),
        ("array(list)", lambda: ac.array(ln), lambda: np.array(ln)),
        ("zeros(n, dtype=float32)", lambda: ac.zeros(n, dtype=ac.float32),
         lambda: np.zeros(n, dtype=np.float32)),
        ("zeros(n)", lambda: ac.zeros(n), lambda: np.zeros(n)),
        ("ones(n, float32)", lambda: ac.ones(n, dtype=ac.float32),
         lambda: np.ones(n, dtype=np.float32)),
        ("full(n, 2.5)", lambda: ac.full(n, 2.5), lambda: np.full(n, 2.5)),
        ("empty(n)", lambda: ac.empty(n), lambda: np.empty(n)),
        ("arange(n)", lambda: ac.arange(n), lambda: np.arange(n)),
        ("zeros_like(a)", lambda: ac.zeros_like(a), lambda: np.zeros_like(an)),
        ("a.copy()", lambda: a.copy(), lambda: an.copy()),
        # views
        ("a[1:]", lambda: a[1:], lambda: an[1:]),
        ("a[::2]", lambda: a[::2], lambda: an[::2]),
        ("a.reshape(...)", lambda: a.reshape(shape2), lambda: an.reshape(shape2)),
        ("a2.T", lambda: a2.T, lambda: an2.T),
        ("a[None]", lambda: a[None], lambda: an[None]),
        ("a2[0]", lambda: a2[0], lambda: an2[0]),
        ("a2[:, 1]", lambda: a2[:, col], lambda: an2[:, col]),
        ("a2[..., 1:]", lambda: a2[..., 1:], lambda: an2[..., 1:]),
        ("a2.ravel()", lambda: a2.ravel(), lambda: an2.ravel()),
        # indexing that copies
        ("a[int array]", lambda: a[idx], lambda: an[idx_n]),
        ("a[bool mask]", lambda: a[mask], lambda: an[mask_n]),
        # scalar extraction
        ("a[0]", lambda: a[0], lambda: an[0]),
        ("float(a[-1])", lambda: float(a[-1]), lambda: float(an[-1])),
        ("a[0].item()", lambda: a[0].item(), lambda: an[0].item()),
        ("float(a.sum())", lambda: float(a.sum()), lambda: float(an.sum())),
        ("bool(s > 0)", lambda: bool(s > 0), lambda: bool(sn > 0)),
        ("s * 2.0 (0-d)", lambda: s * 2.0, lambda: sn * 2.0),
        ("s + s (0-d)", lambda: s + s, lambda: sn + sn),
        # elementwise
        ("a + b", lambda: a + b, lambda: an + bn),
        ("a * 2.0", lambda: a * 2.0, lambda: an * 2.0),
        ("a * 2 + 1", lambda: a * 2 + 1, lambda: an * 2 + 1),
        ("-a", lambda: -a, lambda: -an),
        ("abs(a)", lambda: abs(a), lambda: abs(an)),
        ("sqrt(b)", lambda: ac.sqrt(b), lambda: np.sqrt(bn)),
        ("sin(a)", lambda: ac.sin(a), lambda: np.sin(an)),
        ("exp(a)", lambda: ac.exp(a), lambda: np.exp(an)),
        ("a > 0", lambda: a > 0, lambda: an > 0),
        ("where(a > 0, a, b)", lambda: ac.where(a > 0, a, b), lambda: np.where(an > 0, an, bn)),
        ("maximum(a, b)", lambda: ac.maximum(a, b), lambda: np.maximum(an, bn)),
        ("a.astype(float64)", lambda: a.astype(ac.float64), lambda: an.astype(np.float64)),
        ("a += 1", lambda: a.__iadd__(1), lambda: an.__iadd__(1)),
        # stores (operator.setitem is the statement x[k] = v: the type's slot)
        ("a[1] = 2.0", lambda: operator.setitem(a, 1, 2.0), lambda: operator.setitem(an, 1, 2.0)),
        ("a[:] = 0.5", lambda: operator.setitem(a, slice(None), 0.5),
         lambda: operator.setitem(an, slice(None), 0.5)),
        ("a.fill(1.5)", lambda: a.fill(1.5), lambda: an.fill(1.5)),
        ("a[idx] = 1.0", lambda: operator.setitem(a, idx, 1.0),
         lambda: operator.setitem(an, idx_n, 1.0)),
        ("a[idx] = values", lambda: operator.setitem(a, idx, values),
         lambda: operator.setitem(an, idx_n, values_n)),
        ("a[mask] = 1.0", lambda: operator.setitem(a, mask, 1.0),
         lambda: operator.setitem(an, mask_n, 1.0)),
        # joining
        ("concatenate([a, b])", lambda: ac.concatenate([a, b]), lambda: np.concatenate([an, bn])),
        ("concatenate([a, b], axis=0)", lambda: ac.concatenate([a, b], axis=0),
         lambda: np.concatenate([an, bn], axis=0)),
        ("stack([a, b])", lambda: ac.stack([a, b]), lambda: np.stack([an, bn])),
        # reductions
        ("a.sum()", lambda: a.sum(), lambda: an.sum()),
        ("a.mean()", lambda: a.mean(), lambda: an.mean()),
        ("a.max()", lambda: a.max(), lambda: an.max()),
        ("a.argmax()", lambda: a.argmax(), lambda: an.argmax()),
        ("any(a > 0)", lambda: ac.any(a > 0), lambda: np.any(an > 0)),
        ("a2.sum(axis=0)", lambda: a2.sum(axis=0), lambda: an2.sum(axis=0)),
        # len / shape / dtype
        ("len(a)", lambda: len(a), lambda: len(an)),
        ("a.shape", lambda: a.shape, lambda: an.shape),
        ("a.dtype", lambda: a.dtype, lambda: an.dtype),
        ("a.flags.c_contiguous", lambda: a.flags.c_contiguous, lambda: an.flags.c_contiguous),
        ("a.ndim", lambda: a.ndim, lambda: an.ndim),
        ("a.size", lambda: a.size, lambda: an.size),
        # conversions
        ("np.asarray(a)", lambda: np.asarray(a), lambda: np.asarray(an)),
        ("asnumpy(a)", lambda: ac.asnumpy(a), lambda: np.array(an, copy=False)),
        ("int(a.argmax())", lambda: int(a.argmax()), lambda: int(an.argmax())),
        ("a.tolist()", lambda: a.tolist(), lambda: an.tolist()),
        # DLPack: a versioned capsule made and dropped; imports both ways
        ("a.__dlpack__(max_version=(1, 0))", lambda: a.__dlpack__(max_version=(1, 0)),
         lambda: an.__dlpack__(max_version=(1, 0))),
        ("np.from_dlpack(a)", lambda: np.from_dlpack(a), lambda: np.from_dlpack(an)),
        ("from_dlpack(numpy array)", lambda: ac.from_dlpack(an), lambda: np.from_dlpack(an)),
        ("list(a)", lambda: list(a), lambda: list(an)),
        # NumPy's functions given accel arrays (NEP 13 / NEP 18 dispatch)
        ("np.add(a, b)", lambda: np.add(a, b), lambda: np.add(an, bn)),
        ("np.sum(a)", lambda: np.sum(a), lambda: np.sum(an)),
    ]


def issue_table():
    """The calls of issue 15's table, at 10 float32 (m: 100x100 float64)."""
    an, bn, a, b = operands(10)
    ln = [1.0] * 10
    mn = np.random.default_rng(1).random((100, 100))
    m = ac.asarray(mn, copy=True)
    return [
        ("a + b", lambda: a + b, lambda: an + bn),
        ("a * 2 + 1", lambda: a * 2 + 1, lambda: an * 2 + 1),
        ("x[2:5]", lambda: a[2:5], lambda: an[2:5]),
        ("x[3]", lambda: a[3], lambda: an[3]),
        ("x.reshape(2, 5)", lambda: a.reshape(2, 5), lambda: an.reshape(2, 5)),
        ("x.shape", lambda: a.shape, lambda: an.shape),
        ("asarray([1.0] * 10)", lambda: ac.asarray(ln), lambda: np.asarray(ln)),
        ("where(a > 0, a, b)", lambda: ac.where(a > 0, a, b), lambda: np.where(an > 0, an, bn)),
        ("m.T @ m, 100x100 float64", lambda: m.T @ m, lambda: mn.T @ mn),
    ]


def same_work(n=10):
    """Rows below 1.0 where NumPy's call does less than accel's must: it returns an object it
    already has (np.asarray of a NumPy array is that array) or a scalar where accel returns a
    0-d array. Beside them, NumPy doing accel's work: a new array object over the same memory
    (an.view()), a buffer-protocol exporter other than its own (np.asarray of an
    array.array), a 0-d view (an[3, ...]). These ratios are the limit the first ones can reach
    with accel's object model (the NumPy column here is not the one of the rows above)."""
    import array
    an, _, a, _ = operands(n)
    buf = array.array("f", an.tolist())
    return [
        ("asarray(numpy) / an.view()", lambda: ac.asarray(an), lambda: an.view()),
        ("asnumpy(a) / an.view()", lambda: ac.asnumpy(a), lambda: an.view()),
        ("np.asarray(a) / array.array's", lambda: np.asarray(a), lambda: np.asarray(buf)),
        ("x[3] / an[3, ...]", lambda: a[3], lambda: an[3, ...]),
        ("float(a[-1]) / float(an[-1, ...])", lambda: float(a[-1]), lambda: float(an[-1, ...])),
    ]


def evaluated(fn):
    """fn, or fn followed by .eval() when its result would still be pending."""
    r = fn()
    if isinstance(r, ac.ndarray) and r.is_pending:
        return (lambda: fn().eval()), " (+eval)"
    return fn, ""


CLOCK = time.perf_counter


def run(title, cases, only):
    print(f"\n{title}")
    print(f"{'call':34s} {'numpy us':>9s} {'accel us':>9s} {'ratio':>6s}")
    ratios = []
    for name, fa, fn in cases:
        if only and only not in name:
            continue
        fa, mark = evaluated(fa)
        ta, tn = paired_times(fa, fn, clock=CLOCK)
        ratios.append(tn / ta)
        print(f"{name + mark:34s} {tn * 1e6:9.3f} {ta * 1e6:9.3f} {tn / ta:6.2f}")
    if ratios:
        below = sum(r < 1.0 for r in ratios)
        print(f"{len(ratios)} calls, {below} below ratio 1.0, median ratio "
              f"{sorted(ratios)[len(ratios) // 2]:.2f}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="1,10,100")
    ap.add_argument("--only", default="", help="run only calls whose name contains this")
    ap.add_argument("--no-issue-table", action="store_true")
    ap.add_argument("--cpu-time", action="store_true",
                    help="time the calling thread's CPU time, not the wall clock")
    args = ap.parse_args()
    global CLOCK
    if args.cpu_time:
        CLOCK = time.thread_time
    print(f"accel vs NumPy {np.__version__}, per-call time (threads: "
          f"{os.environ.get('ACCEL_NUM_THREADS', os.cpu_count())}; "
          f"{'thread CPU time' if args.cpu_time else 'wall clock'})")
    if not args.no_issue_table:
        run("issue 15's table (10 float32; m 100x100 float64)", issue_table(), args.only)
    for n in (int(s) for s in args.sizes.split(",")):
        run(f"{n} element{'s' if n > 1 else ''} (float32)", calls(n), args.only)
    run("the same work: accel beside NumPy doing what accel's call must (10 float32)",
        same_work(), args.only)


if __name__ == "__main__":
    main()
