"""Kernels written as Python functions (accel.jit), on every device present: the issue's three
examples (saxpy launched Numba-style, a shared-memory block sum with barriers and an atomic, and
an elementwise op from @vectorize), a device function returning a tuple, and a reduction from
@reduce, each checked against NumPy. The same Python function is translated once per signature
to CUDA C++, run on the CPU by the SIMT runtime and on a GPU by NVRTC."""

import math

import numpy as np

import accel as ac

jit = ac.jit


@jit.kernel
def saxpy(a, x, y, out):
    i = jit.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]


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


@jit.vectorize
def clip_scale(v, lo, hi):
    return min(max(v, lo), hi) * 2.0


@jit.func
def polar(x, y):
    return math.hypot(x, y), math.atan2(y, x)   # a tuple: several results


@jit.kernel
def to_polar(xy, out):
    i = jit.grid(1)
    if i < xy.shape[0]:
        out[i, 0], out[i, 1] = polar(xy[i, 0], xy[i, 1])


@jit.reduce(identity=-math.inf)
def largest(a, b):
    return a if a > b else b


def run_on(device):
    rng = np.random.default_rng(0)
    n = 10_000
    x_np = rng.standard_normal(n).astype(np.float32)
    y_np = rng.standard_normal(n).astype(np.float32)
    x, y = ac.asarray(x_np, device=device), ac.asarray(y_np, device=device)

    out = ac.empty(n, dtype=ac.float32, device=device)
    saxpy[(n + 255) // 256, 256](np.float32(2), x, y, out)
    assert np.allclose(ac.asnumpy(out), 2 * x_np + y_np)
    print(f"[{device}] saxpy: {ac.asnumpy(out)[:4]}")

    total = ac.zeros(1, dtype=ac.float32, device=device)
    block_sum[(n + 255) // 256, 256](x, total)
    assert np.isclose(ac.asnumpy(total)[0], x_np.sum(dtype=np.float64), rtol=1e-4)
    print(f"[{device}] block_sum: {ac.asnumpy(total)[0]:.4f}")

    c = clip_scale(x, -0.5, 0.5)                      # broadcasting, dtype from x (float32)
    assert np.array_equal(ac.asnumpy(c), np.clip(x_np, -0.5, 0.5) * 2)
    print(f"[{device}] clip_scale: {c.dtype}, {ac.asnumpy(c)[:4]}")

    xy = ac.asarray(rng.standard_normal((100, 2)), device=device)
    p = ac.empty((100, 2), device=device)
    to_polar[1, 128](xy, p)
    xy_np = ac.asnumpy(xy)
    assert np.allclose(ac.asnumpy(p)[:, 0], np.hypot(xy_np[:, 0], xy_np[:, 1]))
    print(f"[{device}] to_polar: {ac.asnumpy(p)[0]}")

    m = largest(x.reshape(100, 100), axis=1)
    assert np.array_equal(ac.asnumpy(m), x_np.reshape(100, 100).max(axis=1))
    print(f"[{device}] largest(axis=1): {ac.asnumpy(m)[:3]}")


def main():
    run_on("cpu")
    x = ac.zeros(4, dtype=ac.float32)
    print("\nthe C++ generated for saxpy(float32, float32[:], float32[:], float32[:]):")
    print(saxpy.source(np.float32(2), x, x, x).split('extern "C"')[1])
    if ac.cuda.is_available():
        run_on("cuda")
        return
    print("CUDA is not usable here: " + ac.cuda.unavailable_reason().split("\n")[0])
    if not ac.cuda.nvrtc_unavailable_reason():
        m = ac.cuda.compile(block_sum.source(x, x), arch="sm_90")
        print(f"block_sum's CUDA C++ compiles with NVRTC for {m.arch} ({len(m.image)} bytes)")


if __name__ == "__main__":
    main()
