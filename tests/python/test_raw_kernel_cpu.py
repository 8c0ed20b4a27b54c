"""CUDA C++ kernels (RawKernel / RawModule) run on the CPU, checked against NumPy.

The kernels are compiled by the host C++ compiler against accel/device_src/simt_cpu.h. Most are
gathered in two modules (one without barriers: its threads run as a loop; one with barriers and
warp functions: its threads run as fibers), so the suite pays for few compiles.
"""
import os
import subprocess
import sys

import numpy as np
import pytest

import accel

pytestmark = pytest.mark.cxx(note="the BackendUnavailable case is tested in a child")

rng = np.random.default_rng(10)

LOOP_SOURCE = r"""
#include <cuda_fp16.h>
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}
// Every index of a 3-d grid of 3-d blocks, written where the thread's global position says.
extern "C" __global__ void indices(int* out) {
  unsigned bx = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  unsigned tx = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  unsigned i = bx * (blockDim.x * blockDim.y * blockDim.z) + tx;
  int* o = out + 12 * i;
  o[0] = threadIdx.x; o[1] = threadIdx.y; o[2] = threadIdx.z;
  o[3] = blockIdx.x; o[4] = blockIdx.y; o[5] = blockIdx.z;
  o[6] = blockDim.x; o[7] = blockDim.y; o[8] = blockDim.z;
  o[9] = gridDim.x; o[10] = gridDim.y; o[11] = gridDim.z;
}
extern "C" __global__ void histogram_global(const int* x, unsigned* bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins[x[i]], 1u);
}
extern "C" __global__ void atomics(const int* x, int n, int* out_i, unsigned* out_u,
                                   unsigned long long* out_ull, float* out_f, double* out_d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = x[i];
  atomicAdd(&out_i[0], v);
  atomicSub(&out_i[1], v);
  atomicMax(&out_i[2], v);
  atomicMin(&out_i[3], v);
  atomicOr(&out_i[4], 1 << (v & 15));
  atomicAnd(&out_i[5], ~(1 << (v & 15)));
  atomicXor(&out_i[6], v);
  atomicInc(&out_u[0], 9u);
  atomicDec(&out_u[1], 9u);
  atomicAdd(&out_ull[0], (unsigned long long)v);
  atomicAdd(&out_f[0], 0.5f);
  atomicAdd(&out_d[0], (double)v);
  int seen = atomicCAS(&out_i[7], 0, v);   // exactly one thread finds 0
  if (seen == 0) atomicExch(&out_i[8], v);
}
extern "C" __global__ void math(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  float* o = out + 8 * i;
  o[0] = sinf(v); o[1] = __expf(v); o[2] = rsqrtf(v); o[3] = fmaf(v, v, 1.0f);
  o[4] = __fdividef(1.0f, v); o[5] = min(v, 0.5f); o[6] = max(v, 0.5f);
  o[7] = __saturatef(v - 0.5f);
}
extern "C" __global__ void bits(const unsigned* x, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned v = x[i];
  int* o = out + 6 * i;
  o[0] = __popc(v); o[1] = __clz((int)v); o[2] = __ffs((int)v);
  o[3] = (int)__brev(v); o[4] = __mul24((int)(v & 0xfff), 1000); o[5] = (int)__umulhi(v, 0x9e3779b9u);
}
extern "C" __global__ void half_roundtrip(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __half2float(__float2half(in[i]) * __float2half(2.0f) + __float2half(0.5f));
}
extern "C" __global__ void greet(int n) {
  if (threadIdx.x < n) printf("hello from block %u thread %u\n", blockIdx.x, threadIdx.x);
}
extern "C" __global__ void checked_positive(const float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) assert(x[i] > 0.0f);
}
template <class T>
__global__ void axpy(T a, const T* x, T* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
struct Affine { float scale; int offset; };
extern "C" __global__ void affine(Affine p, const int* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = p.scale * (float)(x[i] + p.offset);
}
__device__ int launches;
extern "C" __global__ void count_threads(int* out) {
  atomicAdd(&launches, 1);
  __threadfence();
  out[0] = launches;
}
// One explicit step of the 2-d heat equation (5-point stencil); the border is copied.
extern "C" __global__ void heat_step(const float* u, float* v, int ny, int nx, float alpha) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= nx || y >= ny) return;
  int i = y * nx + x;
  if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) { v[i] = u[i]; return; }
  v[i] = u[i] + alpha * (u[i - 1] + u[i + 1] + u[i - nx] + u[i + nx] - 4.0f * u[i]);
}
// Escape iterations of z -> z^2 + c over a grid of c.
extern "C" __global__ void mandelbrot(int* out, int w, int h, float x0, float y0, float dx, float dy, int limit) {
  int px = blockIdx.x * blockDim.x + threadIdx.x, py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= w || py >= h) return;
  float cr = x0 + px * dx, ci = y0 + py * dy, zr = 0.0f, zi = 0.0f;
  int k = 0;
  while (k < limit && zr * zr + zi * zi <= 4.0f) {
    float t = zr * zr - zi * zi + cr;
    zi = 2.0f * zr * zi + ci;
    zr = t;
    ++k;
  }
  out[py * w + px] = k;
}
extern "C" __global__ void scale_by_macro(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= SCALE;
}
"""

# Kernels whose only synchronisation is __syncthreads(): alone in a module they are split at
# their barriers into loops over threads; beside WARP_SOURCE (FIBER_SOURCE) they run as fibers.
BARRIER_SOURCE = r"""
// Tree reduction: a grid-stride sum per thread, then a shared-memory tree with barriers.
extern "C" __global__ void tree_sum(const float* x, float* out, int n) {
  __shared__ float s[256];
  int t = threadIdx.x;
  float acc = 0.0f;
  for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x) acc += x[i];
  s[t] = acc;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
// The same with dynamic shared memory declared at namespace scope and inside the kernel.
extern __shared__ float ns_dynamic[];
extern "C" __global__ void dyn_sum(const float* x, float* out, int n) {
  extern __shared__ __align__(16) float fn_dynamic[];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  fn_dynamic[t] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k) ns_dynamic[t] += ns_dynamic[t + k];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = ns_dynamic[0];
}
extern "C" __global__ void histogram_shared(const int* x, unsigned* bins, int n, int nbins) {
  extern __shared__ unsigned local[];
  for (int b = threadIdx.x; b < nbins; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local[x[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < nbins; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}
// Tiled matrix product through shared memory (16 x 16 tiles, any sizes).
extern "C" __global__ void matmul_tiled(const float* a, const float* b, float* c, int m, int k, int n) {
  __shared__ float ta[16][16], tb[16][16];
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int t0 = 0; t0 < k; t0 += 16) {
    ta[threadIdx.y][threadIdx.x] = row < m && t0 + threadIdx.x < k ? a[row * k + t0 + threadIdx.x] : 0.0f;
    tb[threadIdx.y][threadIdx.x] = col < n && t0 + threadIdx.y < k ? b[(t0 + threadIdx.y) * n + col] : 0.0f;
    __syncthreads();
    for (int j = 0; j < 16; ++j) acc += ta[threadIdx.y][j] * tb[j][threadIdx.x];
    __syncthreads();
  }
  if (row < m && col < n) c[row * n + col] = acc;
}
// Blelloch's work-efficient exclusive scan of 2 * blockDim.x elements per block.
extern "C" __global__ void blelloch_scan(const int* x, int* out, int n) {
  extern __shared__ int temp[];
  int t = threadIdx.x, m = 2 * blockDim.x, base = blockIdx.x * m;
  temp[2 * t] = base + 2 * t < n ? x[base + 2 * t] : 0;
  temp[2 * t + 1] = base + 2 * t + 1 < n ? x[base + 2 * t + 1] : 0;
  int offset = 1;
  for (int d = m >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d) temp[offset * (2 * t + 2) - 1] += temp[offset * (2 * t + 1) - 1];
    offset <<= 1;
  }
  if (t == 0) temp[m - 1] = 0;
  for (int d = 1; d < m; d <<= 1) {
    offset >>= 1;
    __syncthreads();
    if (t < d) {
      int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
      int v = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] += v;
    }
  }
  __syncthreads();
  if (base + 2 * t < n) out[base + 2 * t] = temp[2 * t];
  if (base + 2 * t + 1 < n) out[base + 2 * t + 1] = temp[2 * t + 1];
}
// Transpose through a 32 x 33 shared tile (the padding column avoids bank conflicts on a GPU).
extern "C" __global__ void transpose(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += blockDim.y)
    if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += blockDim.y)
    if (x < rows && y + j < cols) out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}
// N-body accelerations with the bodies staged through shared tiles (float4: x, y, z, mass).
extern "C" __global__ void nbody(const float4* p, float3* acc, int n, float eps2) {
  extern __shared__ float4 tile_p[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 me = i < n ? p[i] : make_float4(0, 0, 0, 0);
  float3 a = make_float3(0, 0, 0);
  for (int t0 = 0; t0 < n; t0 += blockDim.x) {
    int j = t0 + threadIdx.x;
    tile_p[threadIdx.x] = j < n ? p[j] : make_float4(0, 0, 0, 0);
    __syncthreads();
    for (int k = 0; k < blockDim.x; ++k) {
      float4 q = tile_p[k];
      float dx = q.x - me.x, dy = q.y - me.y, dz = q.z - me.z;
      float inv = rsqrtf(dx * dx + dy * dy + dz * dz + eps2);
      float s = q.w * inv * inv * inv;
      a.x += dx * s; a.y += dy * s; a.z += dz * s;
    }
    __syncthreads();
  }
  if (i < n) acc[i] = a;
}
// Bitonic sort of one block's elements in shared memory (blockDim.x a power of two).
extern "C" __global__ void bitonic_sort(float* x) {
  __shared__ float s[1024];
  unsigned t = threadIdx.x, n = blockDim.x;
  s[t] = x[blockIdx.x * n + t];
  __syncthreads();
  for (unsigned k = 2; k <= n; k <<= 1)
    for (unsigned j = k >> 1; j > 0; j >>= 1) {
      unsigned p = t ^ j;
      if (p > t) {
        bool up = (t & k) == 0;
        if ((s[t] > s[p]) == up) { float v = s[t]; s[t] = s[p]; s[p] = v; }
      }
      __syncthreads();
    }
  x[blockIdx.x * n + t] = s[t];
}
// Misuse: some threads return before the barrier (only checked mode reports it).
extern "C" __global__ void early_return(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __shared__ float s[64];
  s[threadIdx.x] = x[i];
  __syncthreads();
  x[i] = s[(threadIdx.x + 1) % (n - blockIdx.x * blockDim.x < 64 ? n - blockIdx.x * blockDim.x : 64)];
}
"""

# Warp functions and the _count/_and/_or barriers: these keep fibers (barrier_split.h).
WARP_SOURCE = r"""
extern "C" __global__ void barrier_forms(const int* x, int* out) {
  int t = threadIdx.x, v = x[blockIdx.x * blockDim.x + t];
  int* o = out + 3 * blockIdx.x;
  int c = __syncthreads_count(v > 0);
  int a = __syncthreads_and(v > 0);
  int r = __syncthreads_or(v > 0);
  if (t == 0) { o[0] = c; o[1] = a; o[2] = r; }
}
// Warp functions; a block of 48 threads has one full and one partial warp.
extern "C" __global__ void warp_ops(const int* x, int* out) {
  int t = threadIdx.x, lane = t % 32, v = x[blockIdx.x * blockDim.x + t];
  int* o = out + 8 * (blockIdx.x * blockDim.x + t);
  o[0] = __shfl_sync(0xffffffffu, v, 3);
  o[1] = __shfl_up_sync(0xffffffffu, v, 2);
  o[2] = __shfl_down_sync(0xffffffffu, v, 5);
  o[3] = __shfl_xor_sync(0xffffffffu, v, 1);
  o[4] = __shfl_sync(0xffffffffu, v, lane + 1, 8);
  o[5] = (int)__ballot_sync(0xffffffffu, v > 0);
  o[6] = __any_sync(0xffffffffu, v > 90) * 2 + __all_sync(0xffffffffu, v >= -100);
  o[7] = __reduce_add_sync(0xffffffffu, v);
}
extern "C" __global__ void warp_sum(const double* x, double* out, int n) {
  double v = 0.0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) v += x[i];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  if ((threadIdx.x & 31) == 0) atomicAdd(out, v);
}
// Misuse: half the warp waits at a warp function, the other half at __syncthreads.
extern "C" __global__ void never_meet(int* x) {
  if (threadIdx.x < 16) x[threadIdx.x] = __shfl_sync(0xffffffffu, (int)threadIdx.x, 0);
  else __syncthreads();
}
"""
FIBER_SOURCE = BARRIER_SOURCE + WARP_SOURCE



def cpu(a):
    """A CPU array of its own (kernels write it; the NumPy original stays the oracle's input)."""
    return accel.asarray(np.ascontiguousarray(a), copy=True)


@pytest.fixture(scope="module")
def loop_module():
    return accel.RawModule(LOOP_SOURCE, options=("-DSCALE=3.0f",), name_expressions=("axpy<float>", "axpy<double>", "axpy<int>"))


@pytest.fixture(scope="module")
def fiber_module():
    return accel.RawModule(FIBER_SOURCE)


class CheckedModule:
    """A module whose kernels launch in checked mode (bounds, barriers, shared-memory races)."""

    def __init__(self, module):
        self.module, self.code = module, module.code

    def get_function(self, name):
        k = self.module.get_function(name)
        k.check = True
        return k


@pytest.fixture(scope="module", params=["split", "fibers", "checked"])
def barrier_module(request, fiber_module):
    """The plain-barrier kernels three times: split at their barriers, as fibers, and in checked
    mode (correct kernels: no false report, atomics included)."""
    return {"split": lambda: accel.RawModule(BARRIER_SOURCE), "fibers": lambda: fiber_module,
            "checked": lambda: CheckedModule(accel.RawModule(BARRIER_SOURCE))}[request.param]()


# ------------------------------------------------------------------ barrier-free kernels

@pytest.mark.parametrize("n", [0, 1, 255, 256, 1000, 70001])
def test_vector_add_matches_numpy(loop_module, n):
    a, b = rng.standard_normal(n, dtype=np.float32), rng.standard_normal(n, dtype=np.float32)
    c = accel.zeros(n, dtype=accel.float32)
    k = loop_module.get_function("vector_add")
    k((max(1, (n + 255) // 256),), (256,), (cpu(a), cpu(b), c, n))
    np.testing.assert_array_equal(accel.asnumpy(c), a + b)
    assert not k.kernel("cpu").uses_fibers


def test_grid_stride_saxpy_and_special_values(loop_module):
    x = np.array([1.0, -0.0, np.inf, -np.inf, np.nan, 3.4e38, 1e-45] * 100, dtype=np.float32)
    y = rng.standard_normal(x.size, dtype=np.float32)
    out = cpu(y)
    loop_module.get_function("saxpy")((3,), (64,), (np.float32(2.0), cpu(x), out, np.int32(x.size)))
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(accel.asnumpy(out), np.float32(2.0) * x + y)


def test_three_dimensional_indices(loop_module):
    grid, block = (3, 2, 2), (4, 3, 2)
    nblocks, nthreads = 12, 24
    out = accel.zeros(12 * nblocks * nthreads, dtype=accel.int32)
    loop_module.get_function("indices")(grid, block, (out,))
    got = accel.asnumpy(out).reshape(nblocks * nthreads, 12)
    bz, by, bx, tz, ty, tx = np.meshgrid(*(np.arange(d) for d in (2, 2, 3, 2, 3, 4)), indexing="ij")
    want = np.stack([tx, ty, tz, bx, by, bz] + [np.full_like(tx, d) for d in block + grid], -1)
    np.testing.assert_array_equal(got, want.reshape(-1, 12))


def test_global_atomics_histogram(loop_module):
    x = rng.integers(0, 37, 100_000).astype(np.int32)
    bins = accel.zeros(37, dtype=accel.uint32)
    loop_module.get_function("histogram_global")(((x.size + 255) // 256,), (256,), (cpu(x), bins, np.int32(x.size)))
    np.testing.assert_array_equal(accel.asnumpy(bins), np.bincount(x, minlength=37))


def test_every_atomic(loop_module):
    x = rng.integers(-50, 100, 5000).astype(np.int32)
    out_i = cpu(np.array([0, 0, -1000, 1000, 0, -1, 0, 0, 0], np.int32))
    out_u, out_ull = cpu(np.array([0, 0], np.uint32)), cpu(np.zeros(1, np.uint64))
    out_f, out_d = cpu(np.zeros(1, np.float32)), cpu(np.zeros(1, np.float64))
    loop_module.get_function("atomics")((20,), (256,), (cpu(x), np.int32(x.size), out_i, out_u, out_ull, out_f, out_d))
    i = accel.asnumpy(out_i)
    bits = np.bitwise_or.reduce(1 << (x & 15))
    assert i[0] == x.sum() and i[1] == -x.sum() and i[2] == x.max() and i[3] == x.min()
    assert i[4] == bits and i[5] == ~bits and i[6] == np.bitwise_xor.reduce(x)
    assert i[7] in x and i[8] == i[7]
    # atomicInc wraps past 9 (x.size % 10 increments left), atomicDec from 0 goes to 9 first.
    np.testing.assert_array_equal(accel.asnumpy(out_u), [x.size % 10, (-x.size) % 10])
    assert int(accel.asnumpy(out_ull)[0]) == int(x.astype(np.int64).sum()) % 2**64
    assert accel.asnumpy(out_f)[0] == 0.5 * x.size
    assert accel.asnumpy(out_d)[0] == x.sum()


def test_math_api(loop_module):
    x = np.concatenate([rng.uniform(0.01, 3, 300), [0.5, 1.0, np.inf, np.nan]]).astype(np.float32)
    out = accel.zeros(8 * x.size, dtype=accel.float32)
    loop_module.get_function("math")((2,), (256,), (cpu(x), out, np.int32(x.size)))
    got = accel.asnumpy(out).reshape(-1, 8)
    with np.errstate(all="ignore"):
        want = np.stack([np.sin(x), np.exp(x), 1 / np.sqrt(x), x * x + 1, 1 / x,
                         np.fmin(x, 0.5), np.fmax(x, 0.5), np.clip(np.nan_to_num(x - 0.5, nan=0), 0, 1)], -1)
    np.testing.assert_allclose(got, want.astype(np.float32), rtol=2e-6, atol=0)


def test_integer_intrinsics(loop_module):
    x = np.concatenate([[0, 1, 0x80000000, 0xffffffff], rng.integers(0, 2**32, 200)]).astype(np.uint32)
    out = accel.zeros(6 * x.size, dtype=accel.int32)
    loop_module.get_function("bits")((1,), (256,), (cpu(x), out, np.int32(x.size)))
    got = accel.asnumpy(out).reshape(-1, 6)
    popc = np.array([bin(int(v)).count("1") for v in x])
    clz = np.array([32 - int(v).bit_length() for v in x])
    ffs = np.array([(int(v) & -int(v)).bit_length() for v in x])
    brev = np.array([int(f"{int(v):032b}"[::-1], 2) for v in x], np.uint64).astype(np.uint32).view(np.int32)
    mul24 = ((x & 0xfff).astype(np.int64) * 1000).astype(np.int32)
    umulhi = ((x.astype(np.uint64) * np.uint64(0x9e3779b9)) >> np.uint64(32)).astype(np.uint32).view(np.int32)
    np.testing.assert_array_equal(got, np.stack([popc, clz, ffs, brev, mul24, umulhi], -1))


def test_half_precision(loop_module):
    x = np.concatenate([rng.standard_normal(500) * 100, [65504.0, 1e-8, np.inf]]).astype(np.float32)
    out = accel.zeros(x.size, dtype=accel.float32)
    loop_module.get_function("half_roundtrip")((2,), (256,), (cpu(x), out, np.int32(x.size)))
    h = x.astype(np.float16)
    with np.errstate(over="ignore"):
        want = (h * np.float16(2) + np.float16(0.5)).astype(np.float32)
    np.testing.assert_array_equal(accel.asnumpy(out), want)


def test_printf_reaches_stdout(loop_module, capfd):
    loop_module.get_function("greet")((2,), (4,), (np.int32(2),))
    lines = capfd.readouterr().out.splitlines()
    assert sorted(lines) == sorted(f"hello from block {b} thread {t}" for b in range(2) for t in range(2))


def test_failed_assert_names_kernel_block_and_thread(loop_module):
    x = np.ones(1000, np.float32)
    x[700] = -1
    with pytest.raises(accel.KernelAssertionError,
                       match=r"kernel checked_positive, block \(2, 0, 0\), thread \(188, 0, 0\): "
                             r"assertion `x\[i\] > 0.0f` failed \(kernel.cu:\d+\)") as e:
        loop_module.get_function("checked_positive")((4,), (256,), (cpu(x), np.int32(1000)))
    assert isinstance(e.value, AssertionError)
    loop_module.get_function("checked_positive")((4,), (256,), (cpu(np.ones(1000, np.float32)), np.int32(1000)))


@pytest.mark.parametrize("T,dtype", [("float", np.float32), ("double", np.float64), ("int", np.int32)])
def test_template_kernels_by_name_expression(loop_module, T, dtype):
    x, y = (rng.integers(-9, 9, 300)).astype(dtype), rng.integers(-9, 9, 300).astype(dtype)
    out = cpu(y)
    loop_module.get_function(f"axpy<{T}>")((2,), (256,), (dtype(3), cpu(x), out, np.int32(300)))
    np.testing.assert_array_equal(accel.asnumpy(out), dtype(3) * x + y)


def test_struct_argument_as_bytes(loop_module):
    x = np.arange(10, dtype=np.int32)
    out = accel.zeros(10, dtype=accel.float32)
    struct = np.array([(0.5, 3)], dtype=[("scale", "<f4"), ("offset", "<i4")]).tobytes()
    loop_module.get_function("affine")((1,), (32,), (struct, cpu(x), out, np.int32(10)))
    np.testing.assert_array_equal(accel.asnumpy(out), 0.5 * (x + 3))


def test_device_variables_persist_across_launches(loop_module):
    out = accel.zeros(1, dtype=accel.int32)
    k = loop_module.get_function("count_threads")
    k((1,), (1,), (out,))
    first = int(accel.asnumpy(out)[0])
    k((1,), (1,), (out,))
    assert int(accel.asnumpy(out)[0]) == first + 1


def test_options_define_macros(loop_module):
    x = cpu(np.arange(5, dtype=np.float32))
    loop_module.get_function("scale_by_macro")((1,), (8,), (x, np.int32(5)))
    np.testing.assert_array_equal(accel.asnumpy(x), 3 * np.arange(5, dtype=np.float32))


def test_kernel_sees_lazy_inputs_and_lazy_readers_keep_old_values(loop_module):
    a = cpu(np.arange(8, dtype=np.float32))
    b = a * 2 + 1                       # lazy input: computed before the launch
    c = accel.zeros(8, dtype=accel.float32)
    old = c + 1                         # a lazy reader of c: must not see the kernel's write
    loop_module.get_function("vector_add")((1,), (8,), (a, b, c, np.int64(8)))
    np.testing.assert_array_equal(accel.asnumpy(c), np.arange(8) * 3 + 1)
    np.testing.assert_array_equal(accel.asnumpy(old), np.ones(8))


# ------------------------------------------------------------------ argument and launch errors

def test_arguments_are_checked_against_the_parameters(loop_module):
    k = loop_module.get_function("vector_add")
    a = accel.zeros(4, dtype=accel.float32)
    assert k.parameters == ["pointer to const", "pointer to const", "pointer", "8-byte signed integer"]
    with pytest.raises(accel.LaunchError, match="takes 4 parameters, but 3 arguments"):
        k((1,), (4,), (a, a, a))
    with pytest.raises(accel.LaunchError, match=r"parameter 3 is a 8-byte signed integer, but argument 3 is a int32 scalar"):
        k((1,), (4,), (a, a, a, np.int32(4)))
    with pytest.raises(accel.LaunchError, match="parameter 0 is a pointer to const, but argument 0 is a float32 scalar"):
        k((1,), (4,), (np.float32(1), a, a, 4))
    with pytest.raises(accel.LaunchError, match="parameter 0 is a 4-byte floating-point number"):
        loop_module.get_function("saxpy")((1,), (4,), (2.0, a, a, np.int32(4)))
    with pytest.raises(TypeError, match="argument 0 is a str"):
        k((1,), (4,), ("a", a, a, 4))


def test_read_only_arrays_need_const_pointers(loop_module):
    ro = accel.broadcast_to(accel.zeros(1, dtype=accel.float32), (4,))
    a = accel.zeros(4, dtype=accel.float32)
    loop_module.get_function("vector_add")((1,), (4,), (ro, ro, a, 4))   # const inputs: fine
    with pytest.raises(ValueError, match="argument 2 is read-only"):
        loop_module.get_function("vector_add")((1,), (4,), (a, a, ro, 4))


@pytest.mark.parametrize("grid,block,shared,match", [
    ((1,), (1025,), 0, r"block \(1025, 1, 1\) exceeds the block dimension limit"),
    ((1,), (32, 32, 2), 0, r"has 2048 threads"),
    ((1,), (1, 1, 65), 0, r"exceeds the block dimension limit"),
    ((1, 65536), (1,), 0, r"exceeds the grid dimension limit"),
    ((0,), (1,), 0, r"must have no zero dimension"),
    ((1,), (1,), 300 * 1024, r"307200 bytes of dynamic shared memory requested"),
])
def test_launch_limits_are_launch_errors(loop_module, grid, block, shared, match):
    a = accel.zeros(4, dtype=accel.float32)
    with pytest.raises(accel.LaunchError, match=match):
        loop_module.get_function("vector_add")(grid, block, (a, a, a, 4), shared_mem=shared)


def test_unknown_kernel_name(loop_module):
    with pytest.raises(accel.LaunchError, match="no kernel named 'vectoradd'"):
        loop_module.get_function("vectoradd")((1,), (1,), ())


def test_arrays_on_two_devices_or_a_stream_with_cpu_arrays(loop_module):
    a = accel.zeros(4, dtype=accel.float32)

    class FakeStream:
        device = 0
    with pytest.raises(accel.DeviceError, match="stream was given, but the arrays are on the cpu"):
        loop_module.get_function("vector_add")((1,), (4,), (a, a, a, 4), stream=FakeStream())


@pytest.mark.parametrize("snippet,match", [
    ('asm volatile("membar.gl;");', r"kernel.cu:2\] inline PTX \(asm\) cannot run on the CPU"),
    ("float v = tex1Dfetch<float>(t, 0);", "textures and surfaces cannot be used on the CPU"),
    ("cooperative_groups::this_grid().sync();", "grid-wide cooperative synchronisation"),
])
def test_what_cannot_run_on_the_cpu_is_a_compile_error(snippet, match):
    src = 'extern "C" __global__ void k(float* x) {\n  ' + snippet + "\n}\n"
    with pytest.raises(accel.CompileError, match=match):
        accel.RawKernel(src, "k")((1,), (1,), (accel.zeros(1, dtype=accel.float32),))


def test_unsupported_names_in_comments_do_not_count():
    src = 'extern "C" __global__ void k(float* x) {\n  // no asm("...") here, no tex2D(t, 0, 0)\n  x[0] = 1;\n}\n'
    x = accel.zeros(1, dtype=accel.float32)
    accel.RawKernel(src, "k")((1,), (1,), (x,))
    assert accel.asnumpy(x)[0] == 1


def test_compile_error_names_the_line():
    src = 'extern "C" __global__ void k(float* x) {\n  x[0] = 1;\n  x[1] = oops;\n}\n'
    with pytest.raises(accel.CompileError, match=r"mine\.cu:3:\d+: error: .oops. was not declared"):
        accel.RawModule(src, name="mine.cu").get_function("k")((1,), (1,), (accel.zeros(2, dtype=accel.float32),))


# ------------------------------------------------------------------ barriers and warp functions

def test_tree_reduction_with_barriers(barrier_module):
    x = rng.standard_normal(100_000).astype(np.float32)
    out = accel.zeros(40, dtype=accel.float32)
    k = barrier_module.get_function("tree_sum")
    k((40,), (256,), (cpu(x), out, np.int32(x.size)))
    # Alone, the plain-barrier kernels are split; beside warp functions they keep fibers.
    want = "split" if barrier_module.code == BARRIER_SOURCE else "fibers"
    assert k.kernel("cpu").mode == want and k.kernel("cpu", checked=True).mode == "fibers"
    np.testing.assert_allclose(accel.asnumpy(out).sum(dtype=np.float64), x.sum(dtype=np.float64), rtol=1e-5)


def test_dynamic_shared_memory_at_namespace_and_function_scope(barrier_module):
    x = rng.standard_normal(1000).astype(np.float32)
    out = accel.zeros(8, dtype=accel.float32)
    barrier_module.get_function("dyn_sum")((8,), (128,), (cpu(x), out, np.int32(1000)), shared_mem=128 * 4)
    want = np.pad(x, (0, 24)).reshape(8, 128).sum(1, dtype=np.float64)
    np.testing.assert_allclose(accel.asnumpy(out), want, rtol=1e-5, atol=1e-5)


def test_syncthreads_count_and_or(fiber_module):
    x = np.zeros((3, 64), np.int32)
    x[0, :] = 1
    x[1, ::3] = 1
    out = accel.zeros(9, dtype=accel.int32)
    fiber_module.get_function("barrier_forms")((3,), (64,), (cpu(x), out))
    np.testing.assert_array_equal(accel.asnumpy(out).reshape(3, 3), [[64, 1, 1], [22, 0, 1], [0, 0, 0]])


def shfl_reference(v, lane_src):
    """What each lane of each warp reads: lane_src(lane) in its warp, or itself when out of range."""
    out = np.empty_like(v)
    for w0 in range(0, v.size, 32):
        w = v[w0:w0 + 32]
        for lane in range(w.size):
            s = lane_src(lane)
            out[w0 + lane] = w[s] if 0 <= s < w.size else w[lane]
    return out


def test_warp_functions_in_full_and_partial_warps(fiber_module):
    block = 48
    x = rng.integers(-100, 100, (2, block)).astype(np.int32)
    out = accel.zeros(2 * block * 8, dtype=accel.int32)
    fiber_module.get_function("warp_ops")((2,), (block,), (cpu(x), out))
    got = accel.asnumpy(out).reshape(2, block, 8)
    for b in range(2):
        v = x[b]
        np.testing.assert_array_equal(got[b, :, 0], shfl_reference(v, lambda lane: 3))
        np.testing.assert_array_equal(got[b, :, 1], shfl_reference(v, lambda lane: lane - 2 if lane >= 2 else lane))
        np.testing.assert_array_equal(got[b, :, 2], shfl_reference(v, lambda lane: lane + 5 if lane + 5 < 32 else lane))
        np.testing.assert_array_equal(got[b, :, 3], shfl_reference(v, lambda lane: lane ^ 1))
        np.testing.assert_array_equal(got[b, :, 4], shfl_reference(v, lambda lane: (lane & ~7) + ((lane + 1) & 7)))
        for w0 in (0, 32):
            w = v[w0:w0 + 32]
            ballot = np.uint32(sum(1 << i for i in range(w.size) if w[i] > 0)).view(np.int32)
            assert (got[b, w0:w0 + 32, 5] == ballot).all()
            assert (got[b, w0:w0 + 32, 6] == 2 * int((w > 90).any()) + 1).all()
            assert (got[b, w0:w0 + 32, 7] == w.sum()).all()


def test_warp_shuffle_reduction(fiber_module):
    x = rng.standard_normal(50_000)
    out = accel.zeros(1, dtype=accel.float64)
    fiber_module.get_function("warp_sum")((16,), (128,), (cpu(x), out, np.int32(x.size)))
    np.testing.assert_allclose(accel.asnumpy(out)[0], x.sum(), rtol=1e-12)


def test_histogram_with_shared_and_global_atomics(barrier_module):
    x = rng.integers(0, 100, 200_000).astype(np.int32)
    bins = accel.zeros(100, dtype=accel.uint32)
    barrier_module.get_function("histogram_shared")((24,), (256,), (cpu(x), bins, np.int32(x.size), np.int32(100)),
                                                  shared_mem=100 * 4)
    np.testing.assert_array_equal(accel.asnumpy(bins), np.bincount(x, minlength=100))


@pytest.mark.parametrize("m,k,n", [(64, 64, 64), (37, 50, 21), (1, 17, 1)])
def test_tiled_shared_memory_matmul(barrier_module, m, k, n):
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    c = accel.zeros((m, n), dtype=accel.float32)
    barrier_module.get_function("matmul_tiled")(((n + 15) // 16, (m + 15) // 16), (16, 16),
                                              (cpu(a), cpu(b), c, np.int32(m), np.int32(k), np.int32(n)))
    np.testing.assert_allclose(accel.asnumpy(c), a @ b, rtol=1e-4, atol=1e-4)


def test_early_return_before_a_barrier_runs_but_checked_mode_reports_it(barrier_module):
    x = np.arange(100, dtype=np.float32)
    k = barrier_module.get_function("early_return")
    k.check = False  # unchecked first; then checked by the call
    y = cpu(x)
    k((2,), (64,), (y, np.int32(100)))           # as a GPU: exited threads do not hold the barrier
    want = np.concatenate([np.roll(x[:64], -1), np.roll(x[64:], -1)])
    np.testing.assert_array_equal(accel.asnumpy(y), want)
    with pytest.raises(accel.LaunchError, match=r"kernel early_return, block \(1, 0, 0\): divergent "
                                                r"__syncthreads: 28 of 64 threads exited while 36 wait"):
        k((2,), (64,), (cpu(x), np.int32(100)), check=True)


def test_threads_that_can_never_meet_are_an_error_not_a_hang(fiber_module):
    with pytest.raises(accel.LaunchError, match=r"kernel never_meet, block \(0, 0, 0\): the threads can "
                                                r"never all meet: 16 wait at __syncthreads, 16 at a warp"):
        fiber_module.get_function("never_meet")((1,), (32,), (accel.zeros(32, dtype=accel.int32),))


# ------------------------------------------------------------------ the classic kernels

def test_heat_stencil_step(loop_module):
    u = rng.standard_normal((37, 53)).astype(np.float32)
    v = accel.zeros(u.shape, dtype=accel.float32)
    loop_module.get_function("heat_step")((4, 3), (16, 16), (cpu(u), v, np.int32(37), np.int32(53), np.float32(0.2)))
    want = u.copy()
    want[1:-1, 1:-1] = u[1:-1, 1:-1] + np.float32(0.2) * (u[1:-1, :-2] + u[1:-1, 2:] + u[:-2, 1:-1] + u[2:, 1:-1]
                                                          - np.float32(4) * u[1:-1, 1:-1])
    np.testing.assert_allclose(accel.asnumpy(v), want, rtol=1e-6, atol=1e-6)


def test_mandelbrot(loop_module):
    w, h, limit = 96, 64, 50
    x0, y0, dx, dy = np.float32(-2), np.float32(-1), np.float32(3 / w), np.float32(2 / h)
    out = accel.zeros((h, w), dtype=accel.int32)
    loop_module.get_function("mandelbrot")((6, 4), (16, 16), (out, np.int32(w), np.int32(h), x0, y0, dx, dy, np.int32(limit)))
    cr = (x0 + np.arange(w, dtype=np.float32) * dx)[None, :].repeat(h, 0)
    ci = (y0 + np.arange(h, dtype=np.float32) * dy)[:, None].repeat(w, 1)
    zr, zi, k = np.zeros_like(cr), np.zeros_like(ci), np.zeros((h, w), np.int32)
    for _ in range(limit):
        live = zr * zr + zi * zi <= 4
        t = zr * zr - zi * zi + cr
        zi = np.where(live, np.float32(2) * zr * zi + ci, zi)
        zr = np.where(live, t, zr)
        k += live
    np.testing.assert_array_equal(accel.asnumpy(out), k)


@pytest.mark.parametrize("n", [1, 300, 1024, 5000])
def test_blelloch_scan(barrier_module, n):
    x = rng.integers(-50, 50, n).astype(np.int32)
    out = accel.zeros(n, dtype=accel.int32)
    barrier_module.get_function("blelloch_scan")(((n + 511) // 512,), (256,), (cpu(x), out, np.int32(n)),
                                                shared_mem=512 * 4)
    want = np.concatenate([np.concatenate([[0], np.cumsum(c)[:-1]]) for c in np.split(x, range(512, n, 512))])
    np.testing.assert_array_equal(accel.asnumpy(out), want)


@pytest.mark.parametrize("rows,cols", [(32, 32), (45, 70), (1, 33)])
def test_padded_tile_transpose(barrier_module, rows, cols):
    a = rng.standard_normal((rows, cols)).astype(np.float32)
    out = accel.zeros((cols, rows), dtype=accel.float32)
    barrier_module.get_function("transpose")(((cols + 31) // 32, (rows + 31) // 32), (32, 8),
                                           (cpu(a), out, np.int32(rows), np.int32(cols)))
    np.testing.assert_array_equal(accel.asnumpy(out), a.T)


def test_nbody_with_shared_tiles(barrier_module):
    n = 300
    p = rng.standard_normal((n, 4)).astype(np.float32)
    p[:, 3] = rng.uniform(0.5, 1.5, n)
    acc = accel.zeros((n, 3), dtype=accel.float32)
    barrier_module.get_function("nbody")(((n + 127) // 128,), (128,), (cpu(p), acc, np.int32(n), np.float32(0.01)),
                                       shared_mem=128 * 16)
    d = p[None, :, :3].astype(np.float64) - p[:, None, :3]
    inv3 = (np.sum(d * d, -1) + 0.01) ** -1.5
    want = np.sum(d * (p[None, :, 3] * inv3)[..., None], 1)
    np.testing.assert_allclose(accel.asnumpy(acc), want, rtol=2e-4, atol=2e-4)


@pytest.mark.parametrize("block", [2, 64, 1024])
def test_bitonic_sort(barrier_module, block):
    x = rng.standard_normal((3, block)).astype(np.float32)
    x[0, :2] = [np.inf, -np.inf]
    y = cpu(x)
    barrier_module.get_function("bitonic_sort")((3,), (block,), (y,))
    np.testing.assert_array_equal(accel.asnumpy(y), np.sort(x, axis=1))


# ------------------------------------------------------------------ the kernel cache and the compiler

CHILD = r"""
import accel, numpy as np
src = open(__import__("sys").argv[1]).read()
x = accel.zeros(4, dtype=accel.float32)
accel.RawKernel(src, "fill")((1,), (4,), (x, np.float32(7)))
assert (accel.asnumpy(x) == 7).all()
print(accel._core._cpu_kernels.stats())
"""


def run_child(tmp_path, env):
    (tmp_path / "k.cu").write_text('extern "C" __global__ void fill(float* x, float v) { x[threadIdx.x] = v; }\n')
    (tmp_path / "child.py").write_text(CHILD)
    return subprocess.run([sys.executable, str(tmp_path / "child.py"), str(tmp_path / "k.cu")],
                          env={**os.environ, **env}, capture_output=True, text=True, timeout=120)


def test_a_second_process_loads_the_kernel_from_the_disk_cache(tmp_path):
    env = {"ACCEL_CACHE_DIR": str(tmp_path / "cache")}
    first = run_child(tmp_path, env)
    assert first.returncode == 0, first.stderr
    assert "'compiles': 1" in first.stdout and "'disk_hits': 0" in first.stdout
    second = run_child(tmp_path, env)
    assert second.returncode == 0, second.stderr
    assert "'compiles': 0" in second.stdout and "'disk_hits': 1" in second.stdout


def test_no_compiler_is_backend_unavailable(tmp_path):
    r = run_child(tmp_path, {"ACCEL_CXX": str(tmp_path / "no-such-compiler"),
                             "ACCEL_CACHE_DIR": str(tmp_path / "cache")})
    assert r.returncode != 0
    assert "BackendUnavailable" in r.stderr and "no C++ compiler found" in r.stderr
    assert "install g++ or clang++, or name one with ACCEL_CXX" in r.stderr


# ------------------------------------------------------------------ the same sources for a GPU

HAVE_NVRTC = accel.cuda.nvrtc_unavailable_reason() == ""


@pytest.mark.skipif(not HAVE_NVRTC, reason="no NVRTC: " + accel.cuda.nvrtc_unavailable_reason()[:200])
@pytest.mark.parametrize("which", ["loop", "fiber"])
def test_the_same_sources_compile_for_cuda(which):
    source, exprs = ((LOOP_SOURCE, ["axpy<float>", "axpy<double>", "axpy<int>"]) if which == "loop"
                     else (FIBER_SOURCE, []))
    m = accel.cuda.compile(source, arch="sm_90", options=["-DSCALE=3.0f"], name_expressions=exprs)
    assert m.is_cubin and m.image[:4] == b"\x7fELF"


def test_shared_memory_example_runs():
    example = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "python",
                           "shared_memory_kernel.py")
    out = subprocess.run([sys.executable, example], capture_output=True, text=True, timeout=300,
                         env=dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p)))
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.startswith("cpu: sum = ")


# ------------------------------------------------------------------ checked mode: bounds

OFF_BY_ONE = r"""
extern "C" __global__ void copy_off_by_one(const float* __restrict__ src, float* dst, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) dst[i] = src[i];   // one past the end
}
// Arithmetic on a parameter keeps it checked (a copy into a plain `const float*` would not be).
extern "C" __global__ void strided_reader(const float* x, float* out, int n, int step) {
  x += blockIdx.x * step;
  out[blockIdx.x] = x[threadIdx.x];
}
"""


def test_checked_mode_reports_an_out_of_bounds_index():
    k = accel.RawKernel(OFF_BY_ONE, "copy_off_by_one")
    src, dst = cpu(np.arange(100, dtype=np.float32)), accel.zeros(100, dtype=accel.float32)
    with pytest.raises(accel.IndexError, match=r"kernel copy_off_by_one, block \(1, 0, 0\), thread "
                                               r"\(36, 0, 0\): index 100 is out of bounds for "
                                               r"argument 0 \(100 elements\)") as e:
        k((2,), (64,), (src, dst, np.int32(100)), check=True)
    assert isinstance(e.value, IndexError)
    assert k.kernel("cpu", checked=True).parameters[:2] == ["checked pointer", "checked pointer"]
    k((2,), (64,), (src, dst, np.int32(99)), check=True)          # in bounds: runs
    np.testing.assert_array_equal(accel.asnumpy(dst)[:100], np.arange(100))


def test_checked_mode_follows_pointer_arithmetic():
    k = accel.RawKernel(OFF_BY_ONE, "strided_reader", check=True)
    x, out = cpu(np.arange(40, dtype=np.float32)), accel.zeros(4, dtype=accel.float32)
    k((4,), (1,), (x, out, np.int32(40), np.int32(10)))
    np.testing.assert_array_equal(accel.asnumpy(out), [0, 10, 20, 30])
    with pytest.raises(accel.IndexError, match=r"block \(3, 0, 0\), thread \(0, 0, 0\): index 45 is out "
                                               r"of bounds for argument 0 \(40 elements\)"):
        k((4,), (1,), (x, out, np.int32(40), np.int32(15)))
