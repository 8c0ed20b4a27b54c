"""CUDA C++ kernels (accel.RawKernel) on the CPU, each beside its baseline from the same run:

- vector add on 1e7 float32 vs accel's own `a + b` (target: at least 0.8x its throughput);
- a tiled shared-memory matmul at 1024^2 float32 vs a plain -O2 triple loop in C++ (target:
  faster) and vs the same kernel without shared memory (target: within 2x);
- a tree reduction with barriers on 1e7 float32 vs accel.sum (target: within 3x);
- a warm launch of a tiny kernel and of one with three arrays and a scalar (target: at most
  5 us), a new RawKernel of a source already loaded (an in-memory hit), a cold compile (under
  1.5 s) and a disk-cache hit in a new process (under 2 ms);
- the cost of one thread passing one __syncthreads (fibers), per thread and barrier;
- the vector add and the tree reduction under Numba's CUDA simulator (NUMBA_ENABLE_CUDASIM=1,
  the peer that runs CUDA kernels on a CPU), at a size it finishes, beside accel at that size.

Run: PYTHONPATH=python python3 benchmarks/bench_raw_kernel.py [--quick] [--against DIR]

--against DIR: the same cases also run, in the same run, by the accel package under DIR (another
build's python/ directory, e.g. of the commit before a change); each row then shows that build's
time too and the speed-up of this one over it.
"""

import ctypes
import json
import os
import shutil
import subprocess
import sys
import statistics
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _timing import fmt_time, median_time  # noqa: E402

import accel as ac  # noqa: E402

KERNELS = r"""
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
extern "C" __global__ void matmul_naive(const float* a, const float* b, float* c, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n || col >= n) return;
  float acc = 0.0f;
  for (int k = 0; k < n; ++k) acc += a[row * n + k] * b[k * n + col];
  c[row * n + col] = acc;
}
extern "C" __global__ void tiny(float* x) { x[threadIdx.x] = 1.0f; }
"""

LAUNCH_KERNELS = r"""
extern "C" __global__ void axpy3(const float* a, const float* b, float* c, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = s * a[i] + b[i];
}
extern "C" __global__ void barriers(float* out, int k) {
  __shared__ float s[1024];
  float acc = threadIdx.x;
  for (int j = 0; j < k; ++j) {
    s[threadIdx.x] = acc;
    __syncthreads();
    acc += s[(threadIdx.x + 1) % blockDim.x];
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
"""

BARRIER_KERNELS = r"""
#define TILE 16
extern "C" __global__ void matmul_tiled(const float* a, const float* b, float* c, int n) {
  __shared__ float ta[TILE][TILE], tb[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int t0 = 0; t0 < n; t0 += TILE) {
    ta[threadIdx.y][threadIdx.x] = a[row * n + t0 + threadIdx.x];
    tb[threadIdx.y][threadIdx.x] = b[(t0 + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k) acc += ta[threadIdx.y][k] * tb[k][threadIdx.x];
    __syncthreads();
  }
  c[row * n + col] = acc;
}
extern "C" __global__ void tree_sum(const float* x, float* out, long long n) {
  __shared__ float s[256];
  int t = threadIdx.x;
  float acc = 0.0f;
  for (long long i = blockIdx.x * (long long)blockDim.x + t; i < n; i += (long long)blockDim.x * gridDim.x)
    acc += x[i];
  s[t] = acc;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) atomicAdd(out, s[0]);
}
"""

TRIPLE_LOOP = r"""
extern "C" void matmul(const float* a, const float* b, float* c, int n) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < n; ++k) acc += a[i * n + k] * b[k * n + j];
      c[i * n + j] = acc;
    }
}
"""

NUMBA_CHILD = r"""
import os, sys, time
import numpy as np
from numba import cuda, float32

@cuda.jit
def vector_add(a, b, c, n):
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    if i < n:
        c[i] = a[i] + b[i]

@cuda.jit
def tree_sum(x, out, n):
    s = cuda.shared.array(256, float32)
    t = cuda.threadIdx.x
    acc = float32(0)
    i = cuda.blockIdx.x * cuda.blockDim.x + t
    while i < n:
        acc += x[i]
        i += cuda.blockDim.x * cuda.gridDim.x
    s[t] = acc
    cuda.syncthreads()
    k = cuda.blockDim.x // 2
    while k > 0:
        if t < k:
            s[t] += s[t + k]
        cuda.syncthreads()
        k //= 2
    if t == 0:
        cuda.atomic.add(out, 0, s[0])

n = int(sys.argv[1])
x = np.random.default_rng(0).random(n, dtype=np.float32)
c = np.empty_like(x)
out = np.zeros(1, np.float32)
t0 = time.perf_counter(); vector_add[(n + 255) // 256, 256](x, x, c, n); t1 = time.perf_counter()
tree_sum[4, 256](x, out, n); t2 = time.perf_counter()
assert np.array_equal(c, x + x) and abs(out[0] - x.sum()) < 1e-3 * n
print(t1 - t0, t2 - t1)
"""


ROWS = []  # (case, kernel seconds, baseline name, baseline seconds or None, target)


def row(case, t, base, base_name, target=""):
    ROWS.append((case, t, base_name, base, target))


def print_rows(rows, before=None):
    print(f"{'case':50s} {'kernel':>10s} {'baseline':>22s} {'time':>10s} {'ratio':>8s}  "
          f"{'target':10s}" + (f" {'before':>10s} {'speed-up':>8s}" if before is not None else ""))
    for case, t, base_name, base, target in rows:
        line = (f"{case:50s} {fmt_time(t):>10s} {base_name:>22s} "
                + (f"{fmt_time(base):>10s} {base / t:7.2f}x" if base else f"{'-':>10s} {'-':>8s}")
                + f"  {target:10s}")
        if before is not None and case in before:
            line += f" {fmt_time(before[case]):>10s} {before[case] / t:7.2f}x"
        print(line)


def measure(quick):
    rng = np.random.default_rng(0)
    n = 10**7
    a_np, b_np = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    a, b = ac.asarray(a_np, copy=True), ac.asarray(b_np, copy=True)
    c = ac.empty(n, dtype=ac.float32)
    mod, bmod = ac.RawModule(KERNELS), ac.RawModule(BARRIER_KERNELS)
    vadd, naive, tiny = (mod.get_function(k) for k in ("vector_add", "matmul_naive", "tiny"))
    tiled, tree = (bmod.get_function(k) for k in ("matmul_tiled", "tree_sum"))

    grid = ((n + 255) // 256,)
    t_k = median_time(lambda: vadd(grid, (256,), (a, b, c, n)), repeat=5)
    assert np.array_equal(ac.asnumpy(c), a_np + b_np)
    t_add = median_time(lambda: (a + b).eval(), repeat=5)
    row("vector add 1e7 float32 (throughput ratio)", t_k, t_add, "accel a + b", ">= 0.8x")

    m = 512 if quick else 1024
    am, bm = rng.random((m, m), dtype=np.float32), rng.random((m, m), dtype=np.float32)
    A, B, C = ac.asarray(am, copy=True), ac.asarray(bm, copy=True), ac.empty((m, m), dtype=ac.float32)
    mgrid = (m // 16, m // 16)
    t_tiled = median_time(lambda: tiled(mgrid, (16, 16), (A, B, C, np.int32(m))), repeat=3)
    np.testing.assert_allclose(ac.asnumpy(C), am @ bm, rtol=1e-3)
    t_naive = median_time(lambda: naive(mgrid, (16, 16), (A, B, C, np.int32(m))), repeat=3)
    np.testing.assert_allclose(ac.asnumpy(C), am @ bm, rtol=1e-3)
    d = tempfile.mkdtemp(prefix="accel-bench-")
    try:
        with open(os.path.join(d, "mm.cpp"), "w") as f:
            f.write(TRIPLE_LOOP)
        cxx = os.environ.get("ACCEL_CXX") or shutil.which("c++") or "g++"
        subprocess.run([cxx, "-O2", "-shared", "-fPIC", "-o", os.path.join(d, "mm.so"),
                        os.path.join(d, "mm.cpp")], check=True)
        lib = ctypes.CDLL(os.path.join(d, "mm.so"))
        out = np.empty((m, m), np.float32)
        ptr = ctypes.c_void_p
        t_loop = median_time(lambda: lib.matmul(ptr(am.ctypes.data), ptr(bm.ctypes.data),
                                                ptr(out.ctypes.data), ctypes.c_int(m)), repeat=3)
        np.testing.assert_allclose(out, am @ bm, rtol=1e-3)
    finally:
        shutil.rmtree(d, True)
    row(f"tiled shared-memory matmul {m}^2 float32", t_tiled, t_loop, "C++ -O2 triple loop", "> 1x")
    row(f"tiled matmul {m}^2 vs no shared memory", t_tiled, t_naive, "same kernel, no tiles",
        ">= 0.5x")

    out1 = ac.zeros(1, dtype=ac.float32)

    def reduce():
        out1[...] = 0
        tree((64,), (256,), (a, out1, n))
    t_tree = median_time(reduce, repeat=5)
    assert abs(float(ac.asnumpy(out1)[0]) - float(a_np.sum(dtype=np.float64))) < 1e-3 * n
    t_sum = median_time(lambda: a.sum(), repeat=5)
    row("tree reduction 1e7 float32 (barriers)", t_tree, t_sum, "accel.sum", ">= 0.33x")

    # The module splits its kernels at their barriers; with a warp function beside them, the
    # same kernel runs as fibers.
    lmod = ac.RawModule(LAUNCH_KERNELS)
    fmod = ac.RawModule(LAUNCH_KERNELS + 'extern "C" __global__ void keep_fibers() { __syncwarp(); }')
    axpy3 = lmod.get_function("axpy3")
    ob = ac.zeros(64 * 256, dtype=ac.float32)
    for mode, module in (("split", lmod), ("fibers", fmod)):
        barriers = module.get_function("barriers")
        # (a build before splitting, run by --against, has no mode: it ran fibers)
        assert getattr(barriers.kernel("cpu"), "mode", mode) == mode
        t_bar = median_time(lambda: barriers((64,), (256,), (ob, np.int32(32))), repeat=5)
        row(f"one thread through one __syncthreads ({mode})", t_bar / (64 * 256 * 64), None, "-")

    x32, y32, z32 = (ac.zeros(32, dtype=ac.float32) for _ in range(3))
    t_warm = median_time(lambda: tiny((1,), (32,), (x32,)))
    row("warm launch, tiny kernel (Python call)", t_warm, 5e-6, "target 5 us", "<= 5 us")
    s32, n32 = np.float32(2), np.int32(32)
    t_warm3 = median_time(lambda: axpy3((1,), (32,), (x32, y32, z32, s32, n32)))
    row("warm launch, 3 arrays + 2 scalars", t_warm3, 5e-6, "target 5 us", "<= 5 us")

    def fresh():
        ac.RawKernel(LAUNCH_KERNELS, "axpy3")((1,), (32,), (x32, y32, z32, s32, n32))
    t_fresh = median_time(fresh, repeat=5)
    row("new RawKernel of a loaded source + launch", t_fresh, None, "-")

    cold_dir = tempfile.mkdtemp(prefix="accel-bench-cache-")
    try:
        child = ("import accel, time, numpy as np, sys\n"
                 "src = sys.argv[1]\n"
                 "x = accel.zeros(32, dtype=accel.float32)\n"
                 "t = time.perf_counter(); f = accel.RawModule(src).get_function('tiny');"
                 " f.kernel('cpu'); dt = time.perf_counter() - t\n"
                 "f((1,), (32,), (x,)); print(dt)\n")
        src = KERNELS.replace("tiny(float* x)", "tiny(float* x /* %d */)" % time.time_ns())
        env = {**os.environ, "ACCEL_CACHE_DIR": cold_dir}
        run = [sys.executable, "-c", child, src]
        t_cold = float(subprocess.run(run, env=env, capture_output=True, text=True, check=True).stdout)
        t_disk = statistics.median(
            float(subprocess.run(run, env=env, capture_output=True, text=True, check=True).stdout)
            for _ in range(5))
    finally:
        shutil.rmtree(cold_dir, True)
    row("cold compile (3 kernels, new cache)", t_cold, 1.5, "target 1.5 s", "< 1.5 s")
    row("disk-cache hit in a new process", t_disk, 2e-3, "target 2 ms", "< 2 ms")

    try:
        import numba  # noqa: F401
    except ImportError:
        print("Numba's CUDA simulator: numba is not installed (pip install numba)")
        return 0
    ns = 2**12 if quick else 2**14
    r = subprocess.run([sys.executable, "-c", NUMBA_CHILD, str(ns)], capture_output=True, text=True,
                       env={**os.environ, "NUMBA_ENABLE_CUDASIM": "1"}, timeout=3600)
    if r.returncode != 0:
        print("Numba's CUDA simulator failed:", r.stderr[-2000:])
        return 1
    t_nb_add, t_nb_tree = map(float, r.stdout.split())
    xs = ac.asarray(a_np[:ns], copy=True)
    cs = ac.empty(ns, dtype=ac.float32)
    t_add_s = median_time(lambda: vadd(((ns + 255) // 256,), (256,), (xs, xs, cs, ns)), repeat=5)
    o = ac.zeros(1, dtype=ac.float32)
    t_tree_s = median_time(lambda: tree((4,), (256,), (xs, o, ns)), repeat=5)
    row(f"vector add {ns} float32 vs Numba CUDA simulator", t_add_s, t_nb_add, "numba cudasim")
    row(f"tree reduction {ns} float32 vs Numba simulator", t_tree_s, t_nb_tree, "numba cudasim")
    return 0


def main():
    quick = "--quick" in sys.argv
    if "--json" in sys.argv:  # the child of --against: figures only
        rc = measure(quick)
        print(json.dumps({case: t for case, t, *_ in ROWS}))
        return rc
    before = None
    if "--against" in sys.argv:
        other = sys.argv[sys.argv.index("--against") + 1]
        r = subprocess.run([sys.executable, __file__, "--json"] + (["--quick"] if quick else []),
                           env={**os.environ, "PYTHONPATH": other}, capture_output=True, text=True)
        if r.returncode != 0:
            print(f"the build under {other} failed:", r.stderr[-2000:])
            return 1
        before = json.loads(r.stdout.strip().splitlines()[-1])
    print(f"{os.cpu_count()} cores; ratio = baseline time / kernel time (above 1: the kernel is faster)"
          + ("; speed-up = before / kernel time" if before is not None else ""))
    rc = measure(quick)
    print_rows(ROWS, before)
    return rc


if __name__ == "__main__":
    sys.exit(main())
