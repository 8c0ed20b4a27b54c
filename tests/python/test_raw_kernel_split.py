"""Kernels split at their barriers into loops over threads (accel/backend/cpu/barrier_split.h),
checked against NumPy: 3-d blocks, locals that cross barriers, uniform branches and loops around
barriers, early exits inside loops, __device__ functions that read threadIdx, assert messages,
and what keeps fibers. The classic kernels run split too (test_raw_kernel_cpu.py, barrier_module).
"""

import numpy as np
import pytest

import accel

pytestmark = pytest.mark.cxx

rng = np.random.default_rng(12)

SOURCE = r"""
__device__ unsigned linear_id() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

// Each thread of a 3-d block writes its slot, then reads the mirrored one.
extern "C" __global__ void mirror3d(const int* x, int* out) {
  __shared__ int s[1024];
  const unsigned n = blockDim.x * blockDim.y * blockDim.z;
  unsigned me = linear_id();
  int v = x[blockIdx.x * n + me] * 10 + (int)threadIdx.z;
  s[me] = v;
  __syncthreads();
  out[blockIdx.x * n + me] = s[n - 1 - me] + v;
}

// Rounds of neighbour sums in a uniform loop; in odd rounds a uniform branch holds its own
// barrier and a local that crosses it.
extern "C" __global__ void rounds(const float* x, float* out, int count) {
  __shared__ float s[256];
  int t = threadIdx.x;
  float v = x[blockIdx.x * blockDim.x + t];
  for (int r = 0; r < count; ++r) {
    s[t] = v;
    __syncthreads();
    v = v + 0.5f * s[(t + 1) % blockDim.x];
    __syncthreads();
    if (r % 2 == 1) {
      float w = s[(t + 2) % blockDim.x];
      __syncthreads();
      s[t] = w;
      __syncthreads();
      v -= 0.25f * s[(t + 3) % blockDim.x];
      __syncthreads();  // before the next round writes s
    }
  }
  out[blockIdx.x * blockDim.x + t] = v;
}

// Threads leave inside a loop of a region; the others go on through later barriers.
extern "C" __global__ void leave_in_loop(const int* x, int* out, int n) {
  __shared__ int s[128];
  int t = threadIdx.x, total = 0;
  for (int i = 0; i < 4; ++i) {
    if (x[t * 4 + i] < 0) return;
    total += x[t * 4 + i];
  }
  s[t] = total;
  __syncthreads();
  out[t] = total + s[(t + 1) % n];
}

extern "C" __global__ void assert_after_barrier(const int* x) {
  __shared__ int s[64];
  s[threadIdx.x] = x[threadIdx.x];
  __syncthreads();
  int v = s[63 - threadIdx.x];
  assert(v != 7);
}

extern "C" __global__ void no_barrier(float* x) { x[threadIdx.x] *= 2.0f; }
"""

DIVERGENT = r"""
extern "C" __global__ void divergent(int* x) {
  if (threadIdx.x < 16) { x[threadIdx.x] = 1; __syncthreads(); }
  else { x[threadIdx.x] = 2; __syncthreads(); }
}
"""


@pytest.fixture(scope="module")
def module():
    return accel.RawModule(SOURCE)


def cpu(a):
    return accel.asarray(np.ascontiguousarray(a), copy=True)


def test_every_kernel_of_a_module_of_plain_barriers_leaves_fibers(module):
    modes = {k: module.get_function(k).kernel("cpu").mode
             for k in ("mirror3d", "rounds", "leave_in_loop", "assert_after_barrier", "no_barrier")}
    assert modes == {"mirror3d": "split", "rounds": "split", "leave_in_loop": "split",
                     "assert_after_barrier": "split", "no_barrier": "loop"}


@pytest.mark.parametrize("block", [(8, 4, 2), (3, 5, 7), (1, 1, 1), (32, 32, 1)])
def test_three_dimensional_blocks_split(module, block):
    n = int(np.prod(block))
    x = rng.integers(-100, 100, (3, n)).astype(np.int32)
    out = accel.zeros(x.size, dtype=accel.int32)
    module.get_function("mirror3d")((3,), block, (cpu(x), out))
    z = np.arange(n) // (block[0] * block[1])
    v = x * 10 + z
    np.testing.assert_array_equal(accel.asnumpy(out).reshape(3, n), v[:, ::-1] + v)


@pytest.mark.parametrize("count", [0, 1, 2, 5])
def test_locals_across_barriers_in_uniform_loops_and_branches(module, count):
    block, blocks = 64, 3
    x = rng.standard_normal((blocks, block)).astype(np.float32)
    out = accel.zeros(x.size, dtype=accel.float32)
    module.get_function("rounds")((blocks,), (block,), (cpu(x), out, np.int32(count)))
    v = x.copy()
    for r in range(count):
        s = v.copy()
        v = v + np.float32(0.5) * np.roll(s, -1, axis=1)
        if r % 2 == 1:
            s = np.roll(s, -2, axis=1)
            v = v - np.float32(0.25) * np.roll(s, -3, axis=1)
    np.testing.assert_allclose(accel.asnumpy(out).reshape(x.shape), v, rtol=1e-5, atol=1e-5)
    # the same kernel as fibers (checked mode keeps them) agrees
    out2 = accel.zeros(x.size, dtype=accel.float32)
    module.get_function("rounds")((blocks,), (block,), (cpu(x), out2, np.int32(count)), check=True)
    np.testing.assert_array_equal(accel.asnumpy(out2), accel.asnumpy(out))


def test_threads_that_leave_inside_a_loop_skip_the_later_regions(module):
    n = 100
    x = rng.integers(-3, 30, (n, 4)).astype(np.int32)
    out = accel.full(n, -1, dtype=accel.int32)
    module.get_function("leave_in_loop")((1,), (n,), (cpu(x), out, np.int32(n)))
    live = (x >= 0).all(axis=1)
    total = x.sum(axis=1)
    # a thread that left never wrote its slot of s: the kernel reads it only where it is live
    got = accel.asnumpy(out)
    assert (got[~live] == -1).all()
    nxt = np.roll(np.arange(n), -1)
    both = live & live[nxt]
    np.testing.assert_array_equal(got[both], total[both] + total[nxt][both])


def test_an_assert_after_a_barrier_names_its_thread_and_line(module):
    x = np.arange(64, dtype=np.int32)
    with pytest.raises(accel.KernelAssertionError,
                       match=r"kernel assert_after_barrier, block \(0, 0, 0\), thread \(56, 0, 0\): "
                             r"assertion `v != 7` failed \(kernel.cu:58\)"):
        module.get_function("assert_after_barrier")((1,), (64,), (cpu(x),))


def test_a_divergent_barrier_keeps_fibers():
    k = accel.RawKernel(DIVERGENT, "divergent")
    x = accel.zeros(32, dtype=accel.int32)
    k((1,), (32,), (x,))
    assert k.kernel("cpu").mode == "fibers"
    np.testing.assert_array_equal(accel.asnumpy(x), [1] * 16 + [2] * 16)


# Block- and grid-stride loops in split kernels run a round of iterations at a time, one per
# thread (barrier_split.cpp, StrideLoop); the results must not depend on it.
STRIDE = r"""
// Each thread maps its elements (skipping negative ones with `continue`) and counts them; the
// counts cross a barrier.
extern "C" __global__ void stride_map(const int* x, int* out, int* counts, int n) {
  __shared__ int c[1024];
  const unsigned nt = blockDim.x * blockDim.y;
  int t = threadIdx.x + blockDim.x * threadIdx.y;
  int count = 0;
  for (int i = blockIdx.x * nt + t; i < n; i += nt * gridDim.x) {
    if (x[i] < 0) continue;
    out[i] = x[i] * 2 + t;
    ++count;
  }
  c[t] = count;
  __syncthreads();
  counts[blockIdx.x * nt + t] = c[(t + 1) % nt];
}

// Threads past `live` leave first; two stride loops reuse one name; the second stops early with
// `break`, so it runs thread after thread.
extern "C" __global__ void stride_twice(const float* x, float* out, long long n, int live) {
  __shared__ float s[256];
  int t = threadIdx.x;
  if (t >= live) return;
  float acc = 0.0f;
  for (long long i = t; i < n; i += blockDim.x) acc += x[i];
  s[t] = acc;
  __syncthreads();
  float m = -1.0f;
  for (long long i = t; i < n; i += blockDim.x) {
    if (x[i] > 0.99f) break;
    m = x[i] > m ? x[i] : m;
  }
  out[t] = s[(t + 1) % live] + 1000.0f * m;
}
"""


@pytest.fixture(scope="module")
def stride_module():
    return accel.RawModule(STRIDE)


@pytest.mark.parametrize("grid,block,n", [((3,), (64, 1, 1), 1000), ((2,), (8, 4, 1), 777),
                                          ((5,), (256, 1, 1), 100), ((1,), (1, 1, 1), 9)])
def test_stride_loops_in_split_kernels_match_numpy(stride_module, grid, block, n):
    k = stride_module.get_function("stride_map")
    assert k.kernel("cpu").mode == "split"
    x = rng.integers(-5, 50, n).astype(np.int32)
    nt, blocks = block[0] * block[1], grid[0]
    out = accel.full(n, -7, dtype=accel.int32)
    counts = accel.zeros(nt * blocks, dtype=accel.int32)
    k(grid, block, (cpu(x), out, counts, np.int32(n)))
    i = np.arange(n)
    t = i % nt
    np.testing.assert_array_equal(accel.asnumpy(out), np.where(x >= 0, x * 2 + t, -7))
    per_thread = np.zeros(nt * blocks, np.int64)
    np.add.at(per_thread, i % (nt * blocks), x >= 0)
    per_block = per_thread.reshape(blocks, nt)
    np.testing.assert_array_equal(accel.asnumpy(counts).reshape(blocks, nt), np.roll(per_block, -1, axis=1))


@pytest.mark.parametrize("live", [64, 40, 1])
def test_stride_loops_after_exits_and_with_break(stride_module, live):
    k = stride_module.get_function("stride_twice")
    assert k.kernel("cpu").mode == "split"
    n, block = 3001, 64
    x = rng.random(n).astype(np.float32)
    out = accel.full(block, -1.0, dtype=accel.float32)
    k((1,), (block,), (cpu(x), out, np.int64(n), np.int32(live)))
    got = accel.asnumpy(out)
    assert (got[live:] == -1).all()
    sums = np.array([x[t::block].astype(np.float64).sum() for t in range(live)])
    maxima = []
    for t in range(live):
        m = -1.0
        for v in x[t::block]:
            if v > np.float32(0.99):
                break
            m = max(m, float(v))
        maxima.append(m)
    want = np.roll(sums, -1) + 1000.0 * np.array(maxima)
    np.testing.assert_allclose(got[:live], want, rtol=1e-5)
    if live < block:
        return  # checked mode reports threads that left before a barrier, as it should
    # the same kernel run checked (as fibers, thread after thread) agrees
    out2 = accel.full(block, -1.0, dtype=accel.float32)
    k((1,), (block,), (cpu(x), out2, np.int64(n), np.int32(live)), check=True)
    np.testing.assert_allclose(accel.asnumpy(out2), got, rtol=1e-6)


# A stride loop whose threads hold consecutive values and are all live runs a round without
# conditions (barrier_split.cpp, consecutive_round); a thread that changes its own variable,
# finishes early or starts elsewhere sends the round back to the general path.
STRIDE_FAST = r"""
extern "C" __global__ void stride_fast(const int* x, int* out, int* counts, int n, int spread) {
  __shared__ int c[256];
  int t = threadIdx.x;
  int limit = n - (t % 3);
  int count = 0;
  for (TYPE i = blockIdx.x * blockDim.x + spread * t; i < (TYPE)limit; i += blockDim.x * gridDim.x * spread) {
    out[i] += x[i] + t;
    ++count;
    if (x[i] == 7) i += blockDim.x * gridDim.x * spread;
  }
  c[t] = count;
  __syncthreads();
  counts[blockIdx.x * blockDim.x + t] = c[blockDim.x - 1 - t];
}
"""


@pytest.mark.parametrize("type_", ["int", "unsigned", "long long", "size_t"])
@pytest.mark.parametrize("grid,block,n,spread", [((3,), 64, 5000, 1), ((2,), 32, 999, 2),
                                                 ((1,), 256, 256, 1), ((4,), 16, 70, 1)])
def test_consecutive_stride_rounds_match_a_thread_by_thread_run(type_, grid, block, n, spread):
    k = accel.RawModule(STRIDE_FAST.replace("TYPE", type_)).get_function("stride_fast")
    assert k.kernel("cpu").mode == "split"
    x = rng.integers(0, 10, n).astype(np.int32)
    out = accel.full(n, 5, dtype=accel.int32)
    counts = accel.zeros(grid[0] * block, dtype=accel.int32)
    k(grid, (block,), (cpu(x), out, counts, np.int32(n), np.int32(spread)))
    want, per_thread = np.full(n, 5, np.int64), np.zeros((grid[0], block), np.int64)
    stride = block * grid[0] * spread
    for b in range(grid[0]):
        for t in range(block):
            i, limit = b * block + spread * t, n - t % 3
            while i < limit:
                want[i] += x[i] + t
                per_thread[b, t] += 1
                if x[i] == 7:
                    i += stride
                i += stride
    np.testing.assert_array_equal(accel.asnumpy(out), want)
    np.testing.assert_array_equal(accel.asnumpy(counts).reshape(grid[0], block), per_thread[:, ::-1])
