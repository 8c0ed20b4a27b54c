"""RawKernel on the CPU: what a launch costs and checks, beside test_raw_kernel_cpu.py.

The in-process module cache (a second RawKernel of one source compiles nothing), the compiler
identity kept beside the kernel cache (a new process runs no `--version`), __launch_bounds__
honoured as on a GPU, and the fiber scheduler's hand-over from lane to lane at barriers (partial
warps, threads that exit early, warp functions between barriers, a failure mid-warp), each
checked against NumPy.
"""
import os
import subprocess
import sys

import numpy as np
import pytest

import accel

pytestmark = pytest.mark.cxx

rng = np.random.default_rng(11)

SOURCE = r"""
#define BOUND 64
extern "C" __global__ void __launch_bounds__(BOUND, 2) bounded(int* x) { x[threadIdx.x] = 1; }
extern "C" __global__ void __launch_bounds__((2 * 16)) bounded_paren(int* x) { x[threadIdx.x] = 2; }

// Threads whose x[t] < 0 leave at once; the others pass their value round three times through
// shared memory (each round: the next live-or-not slot's value, then a barrier).
extern "C" __global__ void rotate_survivors(const int* x, int* out) {
  __shared__ int s[1024];
  const int t = threadIdx.x, n = blockDim.x;
  const int* xb = x + blockIdx.x * n;
  s[t] = xb[t];
  __syncthreads();
  if (xb[t] < 0) return;
  int v = xb[t];
  for (int round = 0; round < 3; ++round) {
    v += s[(t + 1) % n];
    __syncthreads();
    s[t] = v;
    __syncthreads();
  }
  out[blockIdx.x * n + t] = v;
}

// Warp sums by shuffles, block sums through shared memory, in a loop with both barriers.
extern "C" __global__ void warp_then_block(const int* x, int* out, int rounds) {
  __shared__ int warp_total[32];
  const int t = threadIdx.x, lane = t % 32, warp = t / 32;
  const int warps = (blockDim.x + 31) / 32;
  const int lanes = min(32, (int)blockDim.x - warp * 32);  // a partial last warp has fewer
  int v = x[blockIdx.x * blockDim.x + t];
  for (int r = 0; r < rounds; ++r) {
    int w = v;
    for (int d = 16; d > 0; d >>= 1) {
      const int got = __shfl_down_sync(__activemask(), w, d);
      if (lane + d < lanes) w += got;
    }
    if (lane == 0) warp_total[warp] = w;
    __syncthreads();
    int total = 0;
    for (int k = 0; k < warps; ++k) total += warp_total[k];
    __syncthreads();
    v = v + total % 7;
  }
  out[blockIdx.x * blockDim.x + t] = v;
}

extern "C" __global__ void fail_mid_warp(int* x) {
  __syncthreads();
  x[threadIdx.x] = 1;
  assert(threadIdx.x != 37);
  __syncthreads();
}
"""


@pytest.fixture(scope="module")
def module():
    return accel.RawModule(SOURCE)


def cpu(a):
    return accel.asarray(np.ascontiguousarray(a), copy=True)


def test_launch_bounds_is_a_launch_error_past_the_declared_threads(module):
    x = accel.zeros(1024, dtype=accel.int32)
    module.get_function("bounded")((1,), (64,), (x,))
    assert accel.asnumpy(x)[:64].tolist() == [1] * 64
    with pytest.raises(accel.LaunchError, match=r"block \(65, 1, 1\) has 65 threads, but the kernel "
                                                r"declares __launch_bounds__\(64\)"):
        module.get_function("bounded")((1,), (65,), (x,))
    module.get_function("bounded_paren")((1,), (8, 4), (x,))
    with pytest.raises(accel.LaunchError, match=r"__launch_bounds__\(32\)"):
        module.get_function("bounded_paren")((1,), (8, 8), (x,))


def rotate_reference(x):
    out = np.zeros_like(x)
    for b, xb in enumerate(x):
        n = xb.size
        s = xb.copy()
        live = xb >= 0
        v = xb.copy()
        for _ in range(3):
            v = np.where(live, v + s[(np.arange(n) + 1) % n], v)
            s = np.where(live, v, s)
        out[b] = np.where(live, v, 0)
    return out


@pytest.mark.parametrize("block", [1, 5, 32, 40, 96, 1024])
def test_barriers_with_early_exits_and_partial_warps_match_numpy(module, block):
    x = rng.integers(-50, 100, (3, block)).astype(np.int32)
    out = accel.zeros(x.size, dtype=accel.int32)
    module.get_function("rotate_survivors")((3,), (block,), (cpu(x), out))
    np.testing.assert_array_equal(accel.asnumpy(out).reshape(x.shape), rotate_reference(x))


@pytest.mark.parametrize("block", [32, 48, 256])
def test_warp_functions_between_barriers_match_numpy(module, block):
    x = rng.integers(-1000, 1000, (4, block)).astype(np.int32)
    out = accel.zeros(x.size, dtype=accel.int32)
    module.get_function("warp_then_block")((4,), (block,), (cpu(x), out, np.int32(3)))
    want = x.astype(np.int64)
    for _ in range(3):
        total = want.sum(axis=1, keepdims=True)
        # C's % truncates toward zero, like np.fmod
        want = want + np.fmod(total, 7)
    np.testing.assert_array_equal(accel.asnumpy(out).reshape(x.shape), want)


def test_a_failure_mid_warp_names_its_thread_and_stops_the_block(module):
    x = accel.zeros(64, dtype=accel.int32)
    with pytest.raises(accel.KernelAssertionError,
                       match=r"kernel fail_mid_warp, block \(0, 0, 0\), thread \(37, 0, 0\)"):
        module.get_function("fail_mid_warp")((1,), (64,), (x,))


def test_a_second_rawkernel_of_one_source_compiles_nothing(module):
    src = SOURCE.replace("#define BOUND 64", "#define BOUND 64 // memory-hit test")
    x = accel.zeros(1024, dtype=accel.int32)
    accel.RawKernel(src, "bounded")((1,), (4,), (x,))
    before = accel._core._cpu_kernels.stats()
    for _ in range(3):
        accel.RawKernel(src, "bounded")((1,), (4,), (x,))
    after = accel._core._cpu_kernels.stats()
    assert after["compiles"] == before["compiles"]
    assert after["disk_hits"] == before["disk_hits"]
    assert after["memory_hits"] == before["memory_hits"] + 3


def test_args_must_be_a_sequence_and_the_device_is_found_in_one_pass(module):
    x = accel.zeros(4, dtype=accel.int32)
    assert accel._core._cpu_kernels.arrays_device((x, 1, np.int32(2))) == -1
    assert accel._core._cpu_kernels.arrays_device((1, 2.0)) == -2
    with pytest.raises(TypeError, match="args must be a tuple or list"):
        module.get_function("bounded")((1,), (4,), x)


CHILD = r"""
import sys, accel
x = accel.zeros(4, dtype=accel.float32)
k = accel.RawKernel('extern "C" __global__ void one(float* x) { x[threadIdx.x] = 1.0f; }', "one")
k((1,), (4,), (x,))
print(accel._core._cpu_kernels.stats())
"""


def test_the_compiler_identity_is_kept_beside_the_cache(tmp_path):
    cache = tmp_path / "cache"
    env = {**os.environ, "ACCEL_CACHE_DIR": str(cache)}
    run = [sys.executable, "-c", CHILD]
    first = subprocess.run(run, env=env, capture_output=True, text=True, timeout=120)
    assert first.returncode == 0, first.stderr
    ids = list((cache / "compilers").iterdir())
    assert len(ids) == 1
    line = ids[0].read_text()
    assert line.strip() and "\n" == line[-1]  # the compiler's --version line
    second = subprocess.run(run, env=env, capture_output=True, text=True, timeout=120)
    assert second.returncode == 0 and "'disk_hits': 1" in second.stdout, second.stderr
    # A damaged line changes the key (a recompile), never what is loaded; it is asked again.
    ids[0].write_text("")
    third = subprocess.run(run, env=env, capture_output=True, text=True, timeout=120)
    assert third.returncode == 0 and "'disk_hits': 1" in third.stdout, third.stderr
    assert ids[0].read_text() == line
