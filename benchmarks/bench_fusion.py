"""Fused elementwise chains vs NumPy and numexpr, same run (float32, 10^7 elements, 2 threads):
time, peak memory (VmHWM growth in fresh subprocesses: tracemalloc cannot see C++ memory)
and single ops with fusion on and off. accel is lazy, so every timed accel call ends in .eval().
The host JIT compiles the fused kernels during warm-up; jit_wait() lets it finish first."""

import json
import os
import subprocess
import sys

os.environ.setdefault("ACCEL_NUM_THREADS", "2")
os.environ.setdefault("NUMEXPR_MAX_THREADS", "2")

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(__file__))
from _timing import median_time, paired_times, print_table  # noqa: E402

import accel as ac  # noqa: E402

N = 10**7
EXPR1 = "2*a*b + c - 1"
EXPR2 = "sin(a)**2 + cos(a)**2 - exp(-b)*c"


def inputs():
    rng = np.random.default_rng(0)
    return [rng.random(N, dtype=np.float32) for _ in range(3)]


def accel_fn(expr, a, b, c):
    ns = {"a": a, "b": b, "c": c, "sin": ac.sin, "cos": ac.cos, "exp": ac.exp}
    code = compile(expr, "<expr>", "eval")
    return lambda: eval(code, ns).eval()


def numpy_fn(expr, a, b, c):
    ns = {"a": a, "b": b, "c": c, "sin": np.sin, "cos": np.cos, "exp": np.exp}
    code = compile(expr, "<expr>", "eval")
    return lambda: eval(code, ns)


def timed_accel(fn):
    fn()
    ac.jit_wait()  # the compiled kernel is used from here on
    return median_time(fn)


# Peak memory: one evaluation in a fresh process, growth of the resident high-water mark (VmHWM).
MEMORY_SCRIPT = r"""
import json, sys
import numpy as np


def high_water():  # VmHWM: this process's peak resident size (ru_maxrss survives exec)
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith("VmHWM"))


lib, expr = sys.argv[1], sys.argv[2]
# Inputs filled in place (no temporaries), so the high-water mark starts at what is resident.
a, b, c = (np.full(%d, v, dtype=np.float32) for v in (0.25, 0.5, 0.75))
if lib == "accel":
    import accel as ac
    a, b, c = (ac.asarray(x, copy=True) for x in (a, b, c))
    ns = {"a": a, "b": b, "c": c, "sin": ac.sin, "cos": ac.cos, "exp": ac.exp}
else:
    ns = {"a": a, "b": b, "c": c, "sin": np.sin, "cos": np.cos, "exp": np.exp}
if lib == "accel":
    (ac.asarray(np.ones(64, np.float32)) * 2 + 1).eval()  # load the loops, start the pool
before = high_water()
inputs_in_use = ac.memory_stats()["in_use"] if lib == "accel" else 0
r = eval(expr, ns)
if lib == "accel":
    r.eval()
after = high_water()
out = {"delta_bytes": (after - before) * 1024}
if lib == "accel":
    out["allocator_peak"] = ac.memory_stats()["peak"] - inputs_in_use  # beyond the inputs' copies
print(json.dumps(out))
""" % N


def peak_memory(lib, expr):
    env = dict(os.environ, ACCEL_JIT="0")
    out = subprocess.run([sys.executable, "-c", MEMORY_SCRIPT, lib, expr], env=env,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    if "--strided" in sys.argv:  # only the strided chains
        strided_chains()
        return
    import numexpr as ne

    ne.set_num_threads(2)
    an, bn, cn = inputs()
    # Arrays accel owns (copied in once). Zero-copy imports of NumPy memory are measured too:
    # NumPy may write that memory at any time, so ops reading it run at once (only what follows
    # them fuses).
    a, b, c = (ac.asarray(x, copy=True) for x in (an, bn, cn))
    za, zb, zc = (ac.asarray(x) for x in (an, bn, cn))
    print(f"accel threads: {ac.num_threads()}, numexpr threads: 2, NumPy: 1 thread, n = {N:.0e} float32")

    rows_np, rows_ne = [], []
    for expr, target_np, target_ne in ((EXPR1, 2.2, 1.0), (EXPR2, 3.0, None)):
        t_ac = timed_accel(accel_fn(expr, a, b, c))
        t_zero_copy = timed_accel(accel_fn(expr, za, zb, zc))
        t_np = median_time(numpy_fn(expr, an, bn, cn))
        t_ne = median_time(lambda e=expr: ne.evaluate(e, local_dict={"a": an, "b": bn, "c": cn}))
        rows_np.append((expr, t_ac, t_np, f">= {target_np}x"))
        rows_np.append((expr + "  [inputs shared with NumPy]", t_zero_copy, t_np, ""))
        rows_ne.append((expr, t_ac, t_ne, "> 1x" if target_ne else ""))
    print_table("Fused chains vs NumPy", rows_np)
    print_table("Fused chains vs numexpr (2 threads)", rows_ne, baseline_name="numexpr")

    print("\nPeak memory of one evaluation of", EXPR2)
    m_np = peak_memory("numpy", EXPR2)
    m_ac = peak_memory("accel", EXPR2)
    print(f"  numpy  resident growth {m_np['delta_bytes'] / 2**20:8.1f} MiB")
    print(f"  accel  resident growth {m_ac['delta_bytes'] / 2**20:8.1f} MiB"
          f" (allocator peak in use {m_ac['allocator_peak'] / 2**20:.1f} MiB)   target: <= numpy")

    single = [
        ("a + b", lambda: (a + b).eval()),
        ("a * 2", lambda: (a * 2).eval()),
        ("sin(a)", lambda: ac.sin(a).eval()),
        ("astype(a, float64)", lambda: ac.astype(a, ac.float64).eval()),
        ("a + b.astype(float64)", lambda: (a + ac.astype(b, ac.float64)).eval()),
    ]
    rows = []
    for name, fn in single:
        ac.set_fusion(True)
        t_on = timed_accel(fn)
        ac.set_fusion(False)
        t_off = median_time(fn)
        ac.set_fusion(True)
        rows.append((name, t_on, t_off, ">= ~1x (not slower)"))
    print_table("Single ops: fusion on vs off", rows, baseline_name="unfused")
    strided_chains()
    print("\nhost JIT:", ac.jit_stats())


# Chains over strided operands (a transpose, a broadcast row, a broadcast column) on a 3162^2
# float32 matrix: the compiled kernel against the interpreter (JIT off), alternated, and NumPy.
STRIDED = [
    ("m.T*2 + m - 1", lambda m, col: m.T * 2 + m - 1),
    ("(m - m[0])*2 + 1", lambda m, col: (m - m[0]) * 2 + 1),
    ("(m - col)*2 + 1   [col: (3162, 1)]", lambda m, col: (m - col) * 2 + 1),
]


def strided_chains():
    side = 3162
    mn = np.random.default_rng(1).random((side, side), dtype=np.float32)
    coln = mn[:, :1].copy()
    m, col = ac.asarray(mn, copy=True), ac.asarray(coln, copy=True)
    rows_jit, rows_np = [], []
    for name, expr in STRIDED:
        def compiled(e=expr):
            return e(m, col).eval()

        def interpreted(e=expr):
            ac.set_jit(False)
            try:
                return e(m, col).eval()
            finally:
                ac.set_jit(True)

        compiled()
        ac.jit_wait()
        t_jit, t_interp = paired_times(compiled, interpreted)
        rows_jit.append((name, t_jit, t_interp))
        rows_np.append((name, t_jit, median_time(lambda e=expr: e(mn, coln))))
    print_table("Strided chains: compiled vs interpreted", rows_jit, baseline_name="interp")
    print_table("Strided chains: compiled vs NumPy", rows_np)


if __name__ == "__main__":
    main()
