"""Python kernels (accel.jit) on the CPU, each beside its baseline from the same run:

- saxpy on 1e7 float32: the jit kernel vs the same kernel written as CUDA C++ (RawKernel; target:
  within 10%, the translation adds nothing at run time), vs accel's `a * x + y` and vs NumPy;
- a tree reduction with shared memory and barriers on 1e6 float32 (the issue's block_sum) vs
  the same CUDA C++ RawKernel;
- a warm launch of a tiny kernel: jit vs RawKernel (target: at most 2x);
- @jit.vectorize (clip_scale) on 1e7 float32 vs accel's expression, NumPy, and Numba's
  vectorize(target='parallel') where Numba is installed;
- compile time of a first call (cold cache, new process) and of a disk-cache hit (new process),
  beside Numba's first-call compile of the same vectorize (new process);
- the same block_sum source under Numba's CUDA simulator (NUMBA_ENABLE_CUDASIM=1, the peer
  that runs CUDA Python kernels on a CPU) at a size it finishes, beside accel at that size.

Run: PYTHONPATH=python python3 benchmarks/bench_jit.py [--quick]
"""

import os
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _timing import fmt_time, median_time  # noqa: E402

import accel as ac  # noqa: E402

jit = ac.jit
QUICK = "--quick" in sys.argv


@jit.kernel
def saxpy(a, x, y, out):
    i = jit.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]


SAXPY_CPP = r"""
extern "C" __global__ void saxpy(float a, const float* x, const float* y, float* out,
                                 long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}
"""


@jit.kernel
def block_sum(x, out):
    buf = jit.shared.array(256, ac.float32)
    t = jit.threadIdx.x
    i = jit.blockIdx.x * jit.blockDim.x + t
    buf[t] = x[i] if i < x.size else 0.0
    jit.syncthreads()
    s = 128
    while s > 0:
        if t < s:
            buf[t] += buf[t + s]
        jit.syncthreads()
        s //= 2
    if t == 0:
        jit.atomic.add(out, 0, buf[0])


BLOCK_SUM_CPP = r"""
extern "C" __global__ void block_sum(const float* x, float* out, long long n) {
  __shared__ float buf[256];
  int t = threadIdx.x;
  long long i = blockIdx.x * (long long)blockDim.x + t;
  buf[t] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int s = 128; s > 0; s /= 2) {
    if (t < s) buf[t] += buf[t + s];
    __syncthreads();
  }
  if (t == 0) atomicAdd(out, buf[0]);
}
"""


@jit.kernel
def tiny(x):
    x[jit.threadIdx.x] = 1.0


TINY_CPP = r"""extern "C" __global__ void tiny(float* x) { x[threadIdx.x] = 1.0f; }"""


@jit.vectorize
def clip_scale(v, lo, hi):
    return min(max(v, lo), hi) * 2.0


def row(name, t, base, base_name):
    print(f"  {name:52s} {fmt_time(t):>10s}  {base_name} {fmt_time(base):>10s}  "
          f"ratio {t / base:5.2f}x")


CHILD = r"""
import os, sys, time
t0 = time.perf_counter()
import accel as ac
t_import = time.perf_counter() - t0
src = open(sys.argv[1]).read()
ns = {}
exec(compile(src, sys.argv[1], "exec"), ns)
x = ac.ones(1024, dtype=ac.float32)
out = ac.zeros(1024, dtype=ac.float32)
t0 = time.perf_counter()
ns["saxpy_cold"][4, 256](2.0, x, x, out)
print(time.perf_counter() - t0)
"""

KERNEL_FILE = r"""
import accel as ac
@ac.jit.kernel
def saxpy_cold(a, x, y, out):
    i = ac.jit.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]
"""

NUMBA_CHILD = r"""
import time, numpy as np
import numba
t0 = time.perf_counter()
@numba.vectorize(["float32(float32, float32, float32)"], target="parallel")
def clip_scale(v, lo, hi):
    return min(max(v, lo), hi) * np.float32(2.0)
print(time.perf_counter() - t0)
"""


SIMULATOR_CHILD = r"""
import sys, time, numpy as np
from numba import cuda, float32
@cuda.jit
def block_sum(x, out):
    buf = cuda.shared.array(256, float32)
    t = cuda.threadIdx.x
    i = cuda.blockIdx.x * cuda.blockDim.x + t
    buf[t] = x[i] if i < x.size else 0.0
    cuda.syncthreads()
    s = 128
    while s > 0:
        if t < s:
            buf[t] += buf[t + s]
        cuda.syncthreads()
        s //= 2
    if t == 0:
        cuda.atomic.add(out, 0, buf[0])
n = int(sys.argv[1])
x = np.ones(n, np.float32)
out = np.zeros(1, np.float32)
block_sum[n // 256, 256](x, out)
t0 = time.perf_counter()
block_sum[n // 256, 256](x, out)
print(time.perf_counter() - t0)
"""


def first_call_seconds(cache_dir, tmp):
    kfile = os.path.join(tmp, "kernel_file.py")
    with open(kfile, "w") as f:
        f.write(KERNEL_FILE)
    child = os.path.join(tmp, "child.py")
    with open(child, "w") as f:
        f.write(CHILD)
    env = dict(os.environ, ACCEL_CACHE_DIR=cache_dir)
    out = subprocess.run([sys.executable, child, kfile], capture_output=True, text=True,
                         env=env, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def main():
    n = 10**6 if QUICK else 10**7
    rng = np.random.default_rng(0)
    xn = rng.standard_normal(n).astype(np.float32)
    yn = rng.standard_normal(n).astype(np.float32)
    x, y = ac.asarray(xn), ac.asarray(yn)
    out = ac.zeros(n, dtype=ac.float32)
    blocks = (n + 255) // 256
    a32 = np.float32(2.0)
    print(f"accel.jit on the CPU ({ac.num_threads()} threads), n = {n:.0e} float32")

    raw = ac.RawKernel(SAXPY_CPP, "saxpy")
    t_jit = median_time(lambda: saxpy[blocks, 256](a32, x, y, out))
    t_raw = median_time(lambda: raw((blocks,), (256,), (a32, x, y, out, np.int64(n))))
    t_expr = median_time(lambda: (a32 * x + y).eval())
    t_np = median_time(lambda: a32 * xn + yn)
    print("saxpy")
    row("jit kernel vs the same CUDA C++ RawKernel", t_jit, t_raw, "raw")
    row("jit kernel vs accel expression a * x + y", t_jit, t_expr, "expr")
    row("jit kernel vs NumPy", t_jit, t_np, "numpy")

    m = 10**6
    xs = ac.asarray(xn[:m])
    total = ac.zeros(1, dtype=ac.float32)
    raw_sum = ac.RawKernel(BLOCK_SUM_CPP, "block_sum")
    t_jit = median_time(lambda: block_sum[(m + 255) // 256, 256](xs, total), repeat=3)
    t_raw = median_time(lambda: raw_sum(((m + 255) // 256,), (256,), (xs, total, np.int64(m))),
                        repeat=3)
    print("block_sum (shared memory, barriers, atomics), 1e6 float32")
    row("jit kernel vs the same CUDA C++ RawKernel", t_jit, t_raw, "raw")

    small = ac.zeros(32, dtype=ac.float32)
    raw_tiny = ac.RawKernel(TINY_CPP, "tiny")
    t_jit = median_time(lambda: tiny[1, 32](small))
    t_raw = median_time(lambda: raw_tiny((1,), (32,), (small,)))
    print("warm launch of a tiny kernel (32 threads)")
    row("jit call vs RawKernel call (target <= 2x)", t_jit, t_raw, "raw")

    t_vec = median_time(lambda: clip_scale(x, -0.5, 0.5).eval())
    t_expr = median_time(lambda: (ac.clip(x, -0.5, 0.5) * 2.0).eval())
    t_np = median_time(lambda: np.clip(xn, -0.5, 0.5) * 2.0)
    print("clip_scale: @jit.vectorize")
    row("vectorize vs accel expression clip(x) * 2", t_vec, t_expr, "expr")
    row("vectorize vs NumPy", t_vec, t_np, "numpy")
    try:
        import numba

        @numba.vectorize(["float32(float32, float32, float32)"], target="parallel")
        def nb_clip_scale(v, lo, hi):
            return min(max(v, lo), hi) * np.float32(2.0)
        lo, hi = np.float32(-0.5), np.float32(0.5)
        t_nb = median_time(lambda: nb_clip_scale(xn, lo, hi))
        row("vectorize vs numba.vectorize(target='parallel')", t_vec, t_nb, "numba")
    except ImportError:
        print("  numba is not installed: no Numba comparison")

    with tempfile.TemporaryDirectory() as tmp:
        cache = os.path.join(tmp, "cache")
        cold = first_call_seconds(cache, tmp)
        hit = first_call_seconds(cache, tmp)
        print("first call in a new process (translate + compile or load)")
        row("cold cache vs disk-cache hit", cold, hit, "hit")
        try:
            import numba  # noqa: F401
            nb = os.path.join(tmp, "nb.py")
            with open(nb, "w") as f:
                f.write(NUMBA_CHILD)
            out = subprocess.run([sys.executable, nb], capture_output=True, text=True,
                                 check=True)
            t_nb = float(out.stdout.strip().splitlines()[-1])
            row("cold jit kernel vs Numba's first vectorize compile", cold, t_nb, "numba")
        except ImportError:
            pass
        try:
            import numba  # noqa: F401
            ns = 2048
            sim = os.path.join(tmp, "sim.py")
            with open(sim, "w") as f:
                f.write(SIMULATOR_CHILD)
            out = subprocess.run([sys.executable, sim, str(ns)], capture_output=True,
                                 text=True, check=True,
                                 env=dict(os.environ, NUMBA_ENABLE_CUDASIM="1"))
            t_sim = float(out.stdout.strip().splitlines()[-1])
            xs = ac.ones(ns, dtype=ac.float32)
            t_acc = median_time(lambda: block_sum[ns // 256, 256](xs, total))
            row(f"block_sum {ns} float32 vs Numba's CUDA simulator", t_acc, t_sim, "cudasim")
        except ImportError:
            pass
    print("ratio = accel time / baseline time (below 1: accel faster)")


if __name__ == "__main__":
    main()
