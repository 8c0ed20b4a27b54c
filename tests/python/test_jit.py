"""accel.jit: Python functions compiled as kernels, checked against NumPy (or against the same
Python function run by Python) on every device the suite knows.

Kernels are compiled by the host C++ compiler (CPU) or NVRTC (cuda); several constructs share a
kernel so the suite compiles little.
"""
import atexit
import math
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import pytest

if "ACCEL_CACHE_DIR" not in os.environ:
    os.environ["ACCEL_CACHE_DIR"] = tempfile.mkdtemp(prefix="accel-test-cache-")
    atexit.register(shutil.rmtree, os.environ["ACCEL_CACHE_DIR"], True)

import accel as ac  # noqa: E402
from accel.jit import types as JT  # noqa: E402

HAVE_CXX = shutil.which(os.environ.get("ACCEL_CXX") or "c++") or shutil.which("g++") or \
    shutil.which("clang++")
needs_cxx = pytest.mark.skipif(not HAVE_CXX, reason="no C++ compiler on PATH (jit kernels on "
                               "the CPU are compiled by it)")

rng = np.random.default_rng(11)
jit = ac.jit


def dev(a, device):
    return ac.asarray(np.ascontiguousarray(a), device=device)


# ---------------------------------------------------------------- the issue's three examples
@jit.kernel
def saxpy(a, x, y, out):
    i = jit.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]


@jit.vectorize
def clip_scale(v, lo, hi):
    return min(max(v, lo), hi) * 2.0


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


@needs_cxx
def test_issue_examples_match_numpy(device):
    n = 1000
    xn = rng.standard_normal(n).astype(np.float32)
    yn = rng.standard_normal(n).astype(np.float32)
    x, y = dev(xn, device), dev(yn, device)
    out = ac.zeros(n, dtype=ac.float32, device=device)
    saxpy[4, 256](2.0, x, y, out)
    np.testing.assert_allclose(ac.asnumpy(out), 2.0 * xn.astype(np.float64) + yn, rtol=1e-6)
    saxpy((4,), (256,), (np.float32(3), x, y, out))   # the CuPy-style call
    np.testing.assert_allclose(ac.asnumpy(out), 3 * xn + yn, rtol=1e-6)

    got = clip_scale(x.reshape(10, 100), -0.5, 0.5)
    np.testing.assert_array_equal(ac.asnumpy(got), np.clip(xn, -0.5, 0.5).reshape(10, 100) * 2)
    assert got.dtype == ac.float32  # the Python literals are weak (NEP 50)

    total = ac.zeros(1, dtype=ac.float32, device=device)
    block_sum[4, 256](x, total)
    np.testing.assert_allclose(ac.asnumpy(total)[0], xn.sum(dtype=np.float64), rtol=1e-4)


# ---------------------------------------------------------------- arithmetic semantics
@jit.kernel
def int_ops(a, b, out):
    i = jit.grid(1)
    if i < a.size:
        x = a[i]
        y = b[i]
        out[i, 0] = x // y
        out[i, 1] = x % y
        out[i, 2] = x + y * 3 - 7
        out[i, 3] = (x & y) | (x ^ 5)
        out[i, 4] = x ** 3 if y > 0 else -x
        out[i, 5] = x << 2
        out[i, 6] = x >> 1
        out[i, 7] = abs(x) + max(x, y, 3) - min(x, y)


@needs_cxx
@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.int8])
def test_integer_operators_follow_numpy(device, dtype):
    n = 300
    a = rng.integers(-50, 50, n).astype(dtype)
    b = rng.integers(-9, 9, n).astype(dtype)
    b[::7] = 0       # NumPy's integer division by zero gives 0
    a[5], b[5] = -7, 2
    out = ac.zeros((n, 8), dtype=ac.int64, device=device)
    int_ops[2, 256](dev(a, device), dev(b, device), out)
    got = ac.asnumpy(out)
    with np.errstate(all="ignore"):
        want = [a // b, a % b, a + b * 3 - 7, (a & b) | (a ^ 5),
                np.where(b > 0, a ** 3, -a), a << 2, a >> 1,
                np.abs(a) + np.maximum(np.maximum(a, b), 3) - np.minimum(a, b)]
    for k, w in enumerate(want):
        np.testing.assert_array_equal(got[:, k], w.astype(dtype).astype(np.int64), err_msg=k)


@jit.kernel
def float_ops(a, b, out):
    i = jit.grid(1)
    if i < a.size:
        x = a[i]
        y = b[i]
        out[i, 0] = x // y
        out[i, 1] = x % y
        out[i, 2] = x / y
        out[i, 3] = x ** 2 + math.sqrt(abs(y))
        out[i, 4] = math.sin(x) * ac.exp(y) - math.atan2(x, y)
        out[i, 5] = 1.0 if math.isnan(x / y) else 0.0
        out[i, 6] = ac.floor(x) + ac.ceil(y) + (math.floor(y) if abs(y) < 100 else 0)
        out[i, 7] = math.inf if x > 10 else -math.pi


@needs_cxx
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_float_operators_and_math_follow_numpy(device, dtype):
    n = 257
    a = (rng.standard_normal(n) * 5).astype(dtype)
    b = (rng.standard_normal(n) * 3).astype(dtype)
    b[:4] = [0, -0.0, np.inf, -np.inf]
    a[:4] = [1, -1, 2, -3]
    a[10], b[10] = np.nan, 1
    out = ac.zeros((n, 8), dtype=dtype, device=device)
    float_ops[3, 128](dev(a, device), dev(b, device), out)
    got = ac.asnumpy(out)
    with np.errstate(all="ignore"):
        want = [a // b, a % b, a / b, a ** 2 + np.sqrt(np.abs(b)),
                np.sin(a) * np.exp(b) - np.arctan2(a, b), np.isnan(a / b).astype(dtype),
                np.floor(a) + np.ceil(b) + np.where(np.abs(b) < 100, np.floor(b), 0),
                np.where(a > 10, np.inf, -np.pi)]
    tol = 1e-5 if dtype == np.float32 else 1e-12
    for k, w in enumerate(want):
        np.testing.assert_allclose(got[:, k], w.astype(dtype), rtol=tol, atol=tol, err_msg=k)


def test_promotion_matches_numpy_for_every_dtype_pair():
    for a in JT.DTYPES:
        for b in JT.DTYPES:
            got = JT.promote(JT.Scalar(a), JT.Scalar(b)).dtype
            assert got == np.result_type(a, b).name, (a, b)
        # Python literals are weak, as NEP 50's scalars
        for lit in (3, 2.5, 1j):
            want = (np.zeros(1, a) + lit).dtype.name if a != "bool" or \
                not isinstance(lit, int) else "int64"
            got = JT.promote(JT.Scalar(a), JT.literal_type(lit)).dtype
            assert got == want, (a, lit)


# ---------------------------------------------------------------- control flow, via Python itself
@jit.func
def control(n, x):
    acc = 0
    for k in range(n):
        if k % 3 == 0:
            continue
        elif k > 20:
            break
        acc += k * x
    for k in range(n, -1, -2):
        acc -= k
    for k in range(1, n, 4):
        acc += 1 if (k > 2 and not k == 5) or k == 1 else -1
    j = n
    while True:
        j -= 1
        if j < 2:
            break
    if x < -1.5:
        return acc * 2.0
    return acc + j


@jit.vectorize
def run_control(n, x):
    return control(n, x)


@needs_cxx
def test_control_flow_matches_python(device):
    ns = rng.integers(0, 40, 64).astype(np.int32)
    xs = rng.standard_normal(64)
    got = ac.asnumpy(run_control(dev(ns, device), dev(xs, device)))
    want = [control.pyfunc(int(n), float(x)) for n, x in zip(ns, xs)]
    np.testing.assert_allclose(got, want, rtol=1e-12)


@jit.func
def divmod_(a, b):
    return a // b, a % b


@jit.kernel
def tuple_returns(a, b, q, r):
    i = jit.grid(1)
    if i < a.size:
        q[i], r[i] = divmod_(a[i], b[i])
        lo, hi = (a[i], b[i]) if a[i] < b[i] else (b[i], a[i])
        q[i] += lo - lo
        r[i] += hi - hi


@needs_cxx
def test_device_function_returns_a_tuple(device):
    a = rng.integers(-100, 100, 50)
    b = rng.integers(1, 9, 50) * rng.choice([-1, 1], 50)
    q = ac.zeros(50, dtype=ac.int64, device=device)
    r = ac.zeros(50, dtype=ac.int64, device=device)
    tuple_returns[1, 64](dev(a, device), dev(b, device), q, r)
    np.testing.assert_array_equal(ac.asnumpy(q), a // b)
    np.testing.assert_array_equal(ac.asnumpy(r), a % b)


# ---------------------------------------------------------------- n-d arrays and views
@jit.kernel
def transpose_add(x, y, out):
    i, j = jit.grid(2)
    n, m = out.shape
    if i < n and j < m:
        out[i, j] = x[j, i] + y[i, j] * out.ndim


@needs_cxx
def test_nd_indexing_with_strided_views(device):
    xn = rng.standard_normal((9, 14))
    yn = rng.standard_normal((28, 9))
    x = ac.asarray(xn, device=device)
    y = ac.asarray(yn, device=device)[::2, ::-1]    # a strided, reversed view
    out = ac.zeros((14, 9), device=device)
    transpose_add[(2, 1), (8, 16)](x, y, out)
    np.testing.assert_array_equal(ac.asnumpy(out), xn.T + yn[::2, ::-1] * 2)


@jit.kernel
def sum_3d(x, out):
    i = jit.grid(1)
    if i < x.shape[0]:
        tmp = jit.local.array((2, 3), ac.float64)
        for a in range(2):
            for b in range(3):
                tmp[a, b] = 0.0
        for j in range(x.shape[1]):
            for k in range(x.shape[2]):
                tmp[j % 2, k % 3] += x[i, j, k]
        s = 0.0
        for a in range(2):
            for b in range(3):
                s += tmp[a, b]
        out[i] = s + x[i, -1, -1] - x[i, -1, -1]


@needs_cxx
def test_3d_arrays_and_local_arrays(device):
    xn = rng.standard_normal((5, 4, 7))
    out = ac.zeros(5, device=device)
    sum_3d[1, 32](ac.asarray(xn, device=device), out)
    np.testing.assert_allclose(ac.asnumpy(out), xn.sum(axis=(1, 2)), rtol=1e-12)


# ---------------------------------------------------------------- atomics, warps, barriers
@jit.kernel
def atomics(x, ints, floats):
    i = jit.grid(1)
    if i < x.size:
        v = x[i]
        jit.atomic.add(ints, 0, v)
        jit.atomic.sub(ints, 1, v)
        jit.atomic.max(ints, 2, v)
        jit.atomic.min(ints, 3, v)
        jit.atomic.add(floats, 0, 0.5)
        jit.atomic.max(floats, 1, v * 1.5)
        jit.atomic.min(floats, 2, v * 1.5)
        if jit.atomic.cas(ints, 4, 0, v) == 0:
            jit.atomic.exch(ints, 5, v)


@needs_cxx
def test_atomics(device):
    xn = rng.integers(1, 1000, 700).astype(np.int32)
    ints = ac.zeros(6, dtype=ac.int32, device=device)
    ac.asnumpy(ints)
    ints_n = np.array([0, 0, -10**6, 10**6, 0, 0], np.int32)
    ints = dev(ints_n, device)
    floats = dev(np.array([0, -1e9, 1e9]), device)
    atomics[3, 256](dev(xn, device), ints, floats)
    got = ac.asnumpy(ints)
    assert got[:4].tolist() == [xn.sum(), -xn.sum(), xn.max(), xn.min()]
    assert got[4] in xn and got[5] == got[4]
    np.testing.assert_array_equal(ac.asnumpy(floats), [350.0, xn.max() * 1.5, xn.min() * 1.5])


@jit.kernel
def warp_ops(x, out):
    t = jit.threadIdx.x
    v = x[t]
    s = v
    off = 16
    while off > 0:
        s += jit.shfl_down_sync(0xFFFFFFFF, s, off)
        off //= 2
    lane = jit.laneid
    out[t, 0] = jit.shfl_sync(0xFFFFFFFF, s, 0)
    out[t, 1] = jit.shfl_xor_sync(0xFFFFFFFF, v, 1)
    out[t, 2] = jit.ballot_sync(0xFFFFFFFF, v > 0)
    out[t, 3] = 1 if jit.any_sync(0xFFFFFFFF, v > 40) else 0
    out[t, 4] = 1 if jit.all_sync(0xFFFFFFFF, v > -100) else 0
    out[t, 5] = jit.syncthreads_count(v > 0)
    out[t, 6] = jit.syncthreads_or(v > 49) + 10 * jit.syncthreads_and(v > -51)
    out[t, 7] = lane + jit.warpsize


@needs_cxx
def test_warp_shuffles_votes_and_barrier_reductions(device):
    xn = rng.integers(-50, 50, 64).astype(np.int32)
    out = ac.zeros((64, 8), dtype=ac.int64, device=device)
    warp_ops[1, 64](dev(xn, device), out)
    got = ac.asnumpy(out)
    w = xn.reshape(2, 32)
    np.testing.assert_array_equal(got[:, 0], np.repeat(w.sum(axis=1), 32))
    np.testing.assert_array_equal(got[:, 1], xn.reshape(-1, 2)[:, ::-1].ravel())
    ballots = [sum(1 << k for k in range(32) if row[k] > 0) for row in w]
    np.testing.assert_array_equal(got[:, 2], np.repeat(ballots, 32))
    np.testing.assert_array_equal(got[:, 3], np.repeat((w > 40).any(axis=1), 32))
    assert (got[:, 4] == 1).all()
    assert (got[:, 5] == (xn > 0).sum()).all()
    assert (got[:, 6] == int((xn > 49).any()) + 10).all()
    np.testing.assert_array_equal(got[:, 7], np.arange(64) % 32 + 32)


@jit.kernel
def dynamic_shared_reverse(x, out):
    buf = jit.shared.array(0, ac.float64)
    t = jit.threadIdx.x
    buf[t] = x[t]
    jit.syncthreads()
    out[t] = buf[jit.blockDim.x - 1 - t]


@needs_cxx
def test_dynamic_shared_memory(device):
    xn = rng.standard_normal(100)
    out = ac.zeros(100, device=device)
    dynamic_shared_reverse[1, 100, 0, 800](dev(xn, device), out)
    np.testing.assert_array_equal(ac.asnumpy(out), xn[::-1])


# ---------------------------------------------------------------- Numba-ported kernels
TPB = 16


@jit.kernel
def fast_matmul(A, B, C):
    # Numba's documentation example (shared-memory tiles), with `cuda.` changed to `jit.`.
    sA = jit.shared.array(shape=(TPB, TPB), dtype=ac.float32)
    sB = jit.shared.array(shape=(TPB, TPB), dtype=ac.float32)
    x, y = jit.grid(2)
    tx = jit.threadIdx.x
    ty = jit.threadIdx.y
    bpg = jit.gridDim.x
    tmp = ac.float32(0.)
    for i in range(bpg):
        sA[ty, tx] = 0
        sB[ty, tx] = 0
        if y < A.shape[0] and (tx + i * TPB) < A.shape[1]:
            sA[ty, tx] = A[y, tx + i * TPB]
        if x < B.shape[1] and (ty + i * TPB) < B.shape[0]:
            sB[ty, tx] = B[ty + i * TPB, x]
        jit.syncthreads()
        for j in range(TPB):
            tmp += sA[ty, j] * sB[j, tx]
        jit.syncthreads()
    if y < C.shape[0] and x < C.shape[1]:
        C[y, x] = tmp


@jit.kernel
def histogram(x, xmin, xmax, histogram_out):
    # Numba's "CUDA by example" histogram with a grid-stride loop.
    nbins = histogram_out.shape[0]
    bin_width = (xmax - xmin) / nbins
    start = jit.grid(1)
    stride = jit.gridsize(1)
    for i in range(start, x.shape[0], stride):
        bin_number = ac.int32((x[i] - xmin) / bin_width)
        if bin_number >= 0 and bin_number < histogram_out.shape[0]:
            jit.atomic.add(histogram_out, bin_number, 1)


@needs_cxx
def test_numba_ported_kernels(device):
    an = rng.standard_normal((40, 40)).astype(np.float32)
    bn = rng.standard_normal((40, 40)).astype(np.float32)
    c = ac.zeros((40, 40), dtype=ac.float32, device=device)
    fast_matmul[(3, 3), (TPB, TPB)](dev(an, device), dev(bn, device), c)
    np.testing.assert_allclose(ac.asnumpy(c), an @ bn, rtol=1e-4, atol=1e-4)

    xn = rng.standard_normal(5000)
    h = ac.zeros(10, dtype=ac.int32, device=device)
    histogram[4, 128](dev(xn, device), -2.0, 2.0, h)
    bins = ((xn + 2.0) / 0.4).astype(np.int32)    # truncation, as the kernel's int32()
    want = np.bincount(bins[(bins >= 0) & (bins < 10)], minlength=10)
    np.testing.assert_array_equal(ac.asnumpy(h), want)


# ---------------------------------------------------------------- vectorize / reduce
@jit.vectorize
def hypot_plus(a, b):
    return math.sqrt(a * a + b * b) + 1


@jit.reduce
def add(a, b):
    return a + b


@jit.reduce(identity=-math.inf)
def biggest(a, b):
    return a if a > b else b


@needs_cxx
def test_vectorize_broadcasts_and_takes_out(device):
    a = rng.standard_normal((3, 1, 5)).astype(np.float32)
    b = rng.standard_normal((4, 1)).astype(np.float32)
    got = hypot_plus(dev(a, device), dev(b, device))
    assert got.shape == (3, 4, 5) and got.dtype == ac.float32
    np.testing.assert_allclose(ac.asnumpy(got), np.sqrt(a * a + b * b) + 1, rtol=1e-6)
    out = ac.zeros((3, 4, 5), dtype=ac.float32, device=device)
    r = hypot_plus(dev(a, device), dev(b, device), out=out)
    np.testing.assert_allclose(ac.asnumpy(out), np.sqrt(a * a + b * b) + 1, rtol=1e-6)
    assert r is out or np.array_equal(ac.asnumpy(r), ac.asnumpy(out))


@needs_cxx
def test_reduce_with_axis(device):
    x = rng.standard_normal((6, 50))
    np.testing.assert_allclose(ac.asnumpy(add(dev(x, device))), x.sum(), rtol=1e-12)
    np.testing.assert_allclose(ac.asnumpy(add(dev(x, device), axis=1)), x.sum(axis=1),
                               rtol=1e-12)
    np.testing.assert_array_equal(ac.asnumpy(biggest(dev(x, device), axis=0)), x.max(axis=0))


# ---------------------------------------------------------------- errors at the Python source
def _line_of(fn, text):
    import inspect
    lines, first = inspect.getsourcelines(fn)
    for k, line in enumerate(lines):
        if text in line:
            return first + k, line.index(text) + 1
    raise AssertionError(text)


def bad_with(x):
    with open("f"):
        x[0] = 1


def bad_comprehension(x):
    x[0] = [v for v in range(3)][0]


def bad_reassign(x, out):
    v = x[0]
    v = 2.5
    out[0] = v


def bad_index(x):
    x[0, 1] = 1


def bad_string(x):
    x[0] = "s"


def bad_device_args(x):
    x[0] = divmod_(1)[0]


def bad_while_else(x):
    while x[0] < 1:
        x[0] += 1
    else:
        x[0] = 0


def bad_call(x):
    x[0] = open("f")


@pytest.mark.parametrize("fn,cls,text", [
    (bad_with, ac.KernelSyntaxError, "with open"),
    (bad_comprehension, ac.KernelSyntaxError, "[v for"),
    (bad_reassign, ac.KernelTypeError, "v = 2.5"),
    (bad_index, ac.KernelTypeError, "x[0, 1] = 1"),
    (bad_string, ac.KernelSyntaxError, '"s"'),
    (bad_call, ac.KernelTypeError, "open"),
    (bad_device_args, ac.KernelTypeError, "divmod_(1)"),
    (bad_while_else, ac.KernelSyntaxError, "while x[0]"),
])
def test_rejected_constructs_name_file_line_and_column(fn, cls, text):
    k = jit.kernel(fn)
    args = [ac.zeros(3, dtype=ac.int32)] * len(fn.__code__.co_varnames[:fn.__code__.co_argcount])
    with pytest.raises(cls) as e:
        k.source(*args)
    line, col = _line_of(fn, text)
    assert e.value.lineno == line
    assert e.value.offset == col
    assert os.path.basename(__file__) in str(e.value) or \
        os.path.basename(__file__) in e.value.filename
    assert isinstance(e.value, SyntaxError if cls is ac.KernelSyntaxError else TypeError)


def test_reassignment_error_says_what_is_allowed():
    with pytest.raises(ac.KernelTypeError, match=r"'v' is int32 .*cannot take a .*float"):
        jit.kernel(bad_reassign).source(ac.zeros(3, dtype=ac.int32), ac.zeros(3))


def test_kernels_reject_numpy_arrays_and_return_values():
    with pytest.raises(ac.KernelTypeError, match="NumPy array"):
        saxpy[1, 1](2.0, np.zeros(3), np.zeros(3), np.zeros(3))

    def returns(x):
        return x[0]
    with pytest.raises(ac.KernelTypeError, match="cannot return a value"):
        jit.kernel(returns).source(ac.zeros(2))


@jit.kernel(check=True)
def off_by_one(x, out):
    i = jit.grid(1)
    if i <= x.size:
        out[i] = x[i] * 2


@needs_cxx
def test_checked_mode_reports_the_python_line():
    x = ac.zeros(10)
    out = ac.zeros(10)
    line, _ = _line_of(off_by_one.pyfunc, "out[i] = x[i] * 2")
    with pytest.raises(ac.IndexError, match=rf"for x axis 0 at .*test_jit.py:{line}"):
        off_by_one[1, 16](x, out)


# ---------------------------------------------------------------- source, debug, caching
def test_source_shows_the_generated_cpp():
    src = saxpy.source(2.0, ac.zeros(4, dtype=ac.float32), ac.zeros(4, dtype=ac.float32),
                       ac.zeros(4, dtype=ac.float32))
    assert 'extern "C" __global__ void accel_jit_saxpy(double a, const float* x' in src
    assert "float* out" in src and "#line" in src
    by_types = saxpy.source(ac.float32, JT.Array("float32", 1, "C"),
                            JT.Array("float32", 1, "C"), JT.Array("float32", 1, "C"))
    assert by_types != src and "(float a, const float* x" in by_types
    assert saxpy.source("float32, float32[::1], float32[::1], float32[::1]") == by_types
    strided = saxpy.source("float64, float32[:], float32[:], float32[:]")
    assert "long long x_stride0" in strided
    with pytest.raises(ac.KernelTypeError, match="float33"):
        saxpy.source("float33, float32[:], float32[:], float32[:]")


@needs_cxx
def test_second_call_compiles_nothing():
    x = ac.ones(64, dtype=ac.float32)
    out = ac.zeros(64, dtype=ac.float32)
    saxpy[1, 64](1.0, x, x, out)
    before = ac._core._cpu_kernels.stats()
    saxpy[1, 64](2.0, x, x, out)
    after = ac._core._cpu_kernels.stats()
    assert after["compiles"] == before["compiles"]
    assert after["disk_hits"] == before["disk_hits"]
    assert (ac.asnumpy(out) == 3).all()


CHILD = r"""
import sys, accel as ac
sys.path.insert(0, sys.argv[1])
import jit_child_kernel as m
x = ac.ones(8)
m.double[1, 8](x)
print(ac.asnumpy(x).tolist(), ac._core._cpu_kernels.stats())
"""


@needs_cxx
def test_a_second_process_hits_the_disk_cache(tmp_path):
    (tmp_path / "jit_child_kernel.py").write_text(
        "import accel as ac\n@ac.jit.kernel\ndef double(x):\n    i = ac.jit.grid(1)\n"
        "    if i < x.size:\n        x[i] *= 2\n")
    (tmp_path / "child.py").write_text(CHILD)
    env = dict(os.environ, ACCEL_DEBUG="1")

    def run():
        r = subprocess.run([sys.executable, str(tmp_path / "child.py"), str(tmp_path)],
                           capture_output=True, text=True, env=env, timeout=300)
        assert r.returncode == 0, r.stderr
        return r
    first, second = run(), run()
    assert "[2.0, 2.0" in first.stdout and "'compiles': 1" in first.stdout
    assert "'compiles': 0" in second.stdout and "'disk_hits': 1" in second.stdout
    assert "accel_jit_double" in first.stderr   # ACCEL_DEBUG prints the source


# ---------------------------------------------------------------- NVRTC compiles the same sources
HAVE_NVRTC = ac.cuda.nvrtc_unavailable_reason() == ""
needs_nvrtc = pytest.mark.skipif(
    not HAVE_NVRTC, reason="no NVRTC: " + ac.cuda.nvrtc_unavailable_reason().split("\n")[0])


def _a(dtype, ndim=1, layout="C"):
    return JT.Array(dtype, ndim, layout)


def _nvrtc_cases():  # every kernel of this file, with a signature (a function: some come later)
    return [
        (saxpy, (JT.FLOAT64, _a("float32"), _a("float32"), _a("float32"))),
        (block_sum, (_a("float32"), _a("float32"))),
        (int_ops, (_a("int64"), _a("int64"), _a("int64", 2))),
        (int_ops, (_a("int8"), _a("int8"), _a("int64", 2))),
        (float_ops, (_a("float32"), _a("float32"), _a("float32", 2))),
        (tuple_returns, (_a("int64"), _a("int64"), _a("int64"), _a("int64"))),
        (transpose_add, (_a("float64", 2), _a("float64", 2, "A"), _a("float64", 2))),
        (sum_3d, (_a("float64", 3), _a("float64"))),
        (atomics, (_a("int32"), _a("int32"), _a("float64"))),
        (warp_ops, (_a("int32"), _a("int64", 2))),
        (dynamic_shared_reverse, (_a("float64"), _a("float64"))),
        (fast_matmul, (_a("float32", 2), _a("float32", 2), _a("float32", 2))),
        (histogram, (_a("float64"), JT.FLOAT64, JT.FLOAT64, _a("int32"))),
        (loops, (_a("int64"),)),
        (literal_locals, (_a("float32"), _a("float32"))),
        (prints, (_a("float64"),)),
        (complex_ops, (_a("complex64"), _a("complex64"), JT.Scalar("complex64"),
                       _a("complex128"), _a("float32"))),
        (indices, (_a("int32", 2),)),
        (histogram_shared, (_a("int32"), _a("uint32"))),
        (blelloch_scan, (_a("int64"), _a("int64"))),
        (bitonic_sort, (_a("float32"),)),
        (heat_step, (_a("float64", 2), _a("float64", 2), JT.FLOAT64)),
        (mandelbrot, (_a("int32", 2), JT.INT64)),
        (transpose_tiled, (_a("float64", 2), _a("float64", 2))),
        (nbody, (_a("float64", 2), _a("float64", 2))),
    ]


@needs_nvrtc
@pytest.mark.parametrize("checked", [False, True])
def test_nvrtc_compiles_every_kernel_for_sm_90(checked):
    for k, sig in _nvrtc_cases():
        m = ac.cuda.compile(k.source(*sig, checked=checked), arch="sm_90")
        assert m.is_cubin, k


@needs_nvrtc
def test_nvrtc_compiles_vectorize_and_reduce_kernels():
    x = ac.zeros(3, dtype=ac.float32)
    for src in (hypot_plus.source(x, x, device="cuda"),
                run_control.source(ac.zeros(3, dtype=ac.int32), ac.zeros(3), device="cuda"),
                rotate.source(ac.zeros(3, dtype=ac.complex64), 2.0, device="cuda")):
        # the templates are compiled as the CUDA backend does: -default-device
        assert ac.cuda.compile(src, arch="sm_90", options=["-default-device"]).is_cubin


# ---------------------------------------------------------------- scalars of every dtype, locals
@jit.kernel
def scalar_ops(a, b, out):
    i = jit.grid(1)
    if i < out.size:
        out[i] = a * b + i - a // 3


@needs_cxx
@pytest.mark.parametrize("dtype", [d for d in JT.DTYPES if not d.startswith("complex")])
def test_scalar_arguments_of_every_real_dtype(device, dtype):
    if dtype == "bool":
        a, b = np.bool_(True), np.bool_(True)
    else:
        a, b = np.dtype(dtype).type(7), np.dtype(dtype).type(3)
    out = ac.zeros(8, device=device)
    scalar_ops[1, 8](a, b, out)
    i = np.arange(8)
    with np.errstate(all="ignore"):
        want = (np.asarray(a * b).astype(np.float64) + i
                - np.asarray(a // 3 if dtype != "bool" else np.int8(a) // 3).astype(np.float64))
    np.testing.assert_allclose(ac.asnumpy(out), want)


@jit.kernel
def literal_locals(x, out):
    i = jit.grid(1)
    if i < x.size:
        acc = 0                # a literal: takes the type its later assignments promote it to
        for k in range(3):
            acc += x[i]
        n: ac.int16 = 7        # an annotation fixes the type
        n += 1
        if_ = 2                # a name that is a C++ keyword-ish is renamed
        int_ = if_ * n
        assert acc == acc, "acc is never NaN here"
        out[i] = acc + int_


@needs_cxx
def test_literal_initialised_locals_take_the_promoted_type(device):
    xn = rng.standard_normal(20).astype(np.float32)
    out = ac.zeros(20, dtype=ac.float32, device=device)
    literal_locals[1, 32](dev(xn, device), out)
    np.testing.assert_allclose(ac.asnumpy(out), xn * 3 + 16, rtol=1e-6)
    src = literal_locals.source(ac.zeros(2, dtype=ac.float32), ac.zeros(2, dtype=ac.float32))
    assert "  float acc;" in src and "  short n;" in src   # float32, not float64


@jit.func
def forever(n):
    return forever(n - 1)


def test_recursion_is_a_syntax_error():
    def calls_forever(x):
        x[0] = forever(3)
    with pytest.raises(ac.KernelSyntaxError, match="recursion"):
        jit.kernel(calls_forever).source(ac.zeros(2))


@jit.kernel
def loops(out):
    t = jit.threadIdx.x
    s = 0
    for k in range(10, t, -3):        # negative literal step
        s += k
    step = -1 if t % 2 else 2
    for k in range(t, 5, step):       # a step known only at run time
        s += 100
        if s > 10000:
            break
    k = 0
    while k < 50:
        k += 1
        if k % 2:
            continue
        s += 1
    out[t] = s


@needs_cxx
def test_range_steps_and_while_match_python(device):
    out = ac.zeros(16, dtype=ac.int64, device=device)
    loops[1, 16](out)
    want = []
    for t in range(16):
        s = sum(range(10, t, -3))
        step = -1 if t % 2 else 2
        for _ in range(t, 5, step):
            s += 100
            if s > 10000:
                break
        want.append(s + 25)
    np.testing.assert_array_equal(ac.asnumpy(out), want)


# ---------------------------------------------------------------- the same kernels under Numba
NUMBA_KERNELS = r'''
import math

@cuda.jit
def axpb(x, out):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        out[i] = 2.5 * v - math.floor(v) + (v // 2) % 3

@cuda.jit
def tiles(a, out):
    buf = cuda.shared.array((8, 8), float64)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    x, y = cuda.grid(2)
    if x < a.shape[0] and y < a.shape[1]:
        buf[tx, ty] = a[x, y]
    cuda.syncthreads()
    if x < a.shape[0] and y < a.shape[1]:
        out[x, y] = buf[tx, ty] + buf[ty, tx] * 0.5

@cuda.jit
def count(x, bins):
    for i in range(cuda.grid(1), x.shape[0], cuda.gridsize(1)):
        cuda.atomic.add(bins, int(x[i]) % bins.shape[0], 1)
'''

NUMBA_CHILD = r'''
import sys, numpy as np
from numba import cuda, float64
exec(open(sys.argv[1]).read())
rng = np.random.default_rng(3)
x = rng.standard_normal(100) * 10
a = rng.standard_normal((16, 16))
out1, out2, bins = np.zeros(100), np.zeros((16, 16)), np.zeros(7, np.int32)
axpb[4, 32](x, out1)
tiles[(2, 2), (8, 8)](a, out2)
count[2, 32](np.abs(x), bins)
np.savez(sys.argv[2], out1=out1, out2=out2, bins=bins)
'''


@needs_cxx
def test_numba_kernels_give_the_same_results_under_numbas_simulator(tmp_path):
    pytest.importorskip("numba", reason="Numba is not installed: the compatibility check "
                        "compares with Numba's CUDA simulator")
    src = tmp_path / "numba_kernels.py"
    src.write_text(NUMBA_KERNELS)
    (tmp_path / "child.py").write_text(NUMBA_CHILD)
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1")
    r = subprocess.run([sys.executable, str(tmp_path / "child.py"), str(src),
                        str(tmp_path / "numba.npz")], capture_output=True, text=True, env=env,
                       timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    ref = np.load(tmp_path / "numba.npz")
    # the same source under accel: only the import changes
    ns = {"cuda": ac.jit, "float64": ac.float64}
    exec(compile(NUMBA_KERNELS, str(src), "exec"), ns)
    rng_ = np.random.default_rng(3)
    x = rng_.standard_normal(100) * 10
    a = rng_.standard_normal((16, 16))
    out1, out2 = ac.zeros(100), ac.zeros((16, 16))
    bins = ac.zeros(7, dtype=ac.int32)
    ns["axpb"][4, 32](ac.asarray(x), out1)
    ns["tiles"][(2, 2), (8, 8)](ac.asarray(a), out2)
    ns["count"][2, 32](ac.asarray(np.abs(x)), bins)
    np.testing.assert_allclose(ac.asnumpy(out1), ref["out1"], rtol=1e-14)
    np.testing.assert_array_equal(ac.asnumpy(out2), ref["out2"])
    np.testing.assert_array_equal(ac.asnumpy(bins), ref["bins"])


def test_the_example_runs():
    example = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "python",
                           "jit_kernels.py")
    r = subprocess.run([sys.executable, example], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "[cpu] largest(axis=1)" in r.stdout and "accel_jit_saxpy" in r.stdout


# ---------------------------------------------------------------- random expressions vs NumPy
_DTYPES = [d for d in JT.DTYPES if d != "bool" and not d.startswith("complex")]
_OPS = ["+", "-", "*", "//", "%", "min", "max", "where", "&", "|"]


def _random_expr(r, depth, dtypes):
    """(jit text, NumPy text) of a random expression over a, b, c; a literal is only ever the
    right operand of a subexpression holding a variable (literal-only expressions are Python
    arithmetic in NumPy too, not array arithmetic)."""
    if depth == 0:
        v = "abc"[r.integers(3)]
        return v, v
    op = _OPS[r.integers(len(_OPS))]
    lhs = _random_expr(r, depth - 1, dtypes)
    if r.random() < 0.3:
        lit = str(int(r.integers(0, 6))) if r.random() < 0.7 else f"{r.integers(0, 6)}.5"
        rhs = (lit, lit)
    else:
        rhs = _random_expr(r, r.integers(depth), dtypes)
    if op in ("&", "|") and ("." in lhs[1] + rhs[1]):
        op = "+"
    if op in ("min", "max"):
        cmp = "<" if op == "min" else ">"
        return (f"{op}({lhs[0]}, {rhs[0]})",
                f"np.where(({rhs[1]}) {cmp} ({lhs[1]}), {rhs[1]}, {lhs[1]})")
    if op == "where":
        return (f"({lhs[0]} if {lhs[0]} < {rhs[0]} else {rhs[0]})",
                f"np.where(({lhs[1]}) < ({rhs[1]}), {lhs[1]}, {rhs[1]})")
    return f"({lhs[0]} {op} {rhs[0]})", f"(({lhs[1]}) {op} ({rhs[1]}))"


@needs_cxx
@pytest.mark.parametrize("seed", range(4))
def test_random_expressions_match_numpy_in_value_and_dtype(tmp_path, seed):
    r = np.random.default_rng(1000 + seed)
    dtypes = [_DTYPES[k] for k in r.integers(len(_DTYPES), size=3)]
    if any(d in ("int8", "uint8") for d in dtypes):  # keep products of small ints in range
        dtypes = [d.replace("8", "16") for d in dtypes]
    exprs = []
    for _ in range(8):
        jit_text, np_text = _random_expr(r, int(r.integers(1, 4)), dtypes)
        if "&" in jit_text or "|" in jit_text:
            if len({JT.Scalar(d).kind for d in dtypes}) > 1 or \
                    JT.Scalar(dtypes[0]).kind == "f":  # float or int64|uint64 -> float64
                jit_text, np_text = jit_text.replace("&", "+").replace("|", "-"), \
                    np_text.replace("&", "+").replace("|", "-")
        exprs.append((jit_text, np_text))
    values = {n: (r.integers(-6, 7, 64) if JT.Scalar(d).kind != "u" else r.integers(0, 7, 64))
              .astype(d) for n, d in zip("abc", dtypes)}
    with np.errstate(all="ignore"):
        want = [eval(t, {"np": np}, dict(values)) for _, t in exprs]
    body = "\n".join(f"        r{k} = {t}\n        out{k}[i] = r{k}" for k, (t, _) in
                     enumerate(exprs))
    outs = ", ".join(f"out{k}" for k in range(len(exprs)))
    (tmp_path / f"rand_kernel_{seed}.py").write_text(
        "import accel as ac\n\n\n@ac.jit.kernel\n"
        f"def rand_kernel(A, B, C, {outs}):\n    i = ac.jit.grid(1)\n    if i < A.size:\n"
        f"        a = A[i]\n        b = B[i]\n        c = C[i]\n{body}\n")
    sys.path.insert(0, str(tmp_path))
    try:
        mod = __import__(f"rand_kernel_{seed}")
    finally:
        sys.path.remove(str(tmp_path))
    ins = [ac.asarray(values[n]) for n in "abc"]
    outs_ = [ac.zeros(64, dtype=getattr(ac, w.dtype.name)) for w in want]
    src = mod.rand_kernel.source(*ins, *outs_)
    ctypes = {v: k for k, v in JT.C_TYPES.items()}
    for k, ((jit_text, np_text), w) in enumerate(zip(exprs, want)):
        declared = [line.strip()[:-len(f" r{k};")] for line in src.splitlines()
                    if line.strip().endswith(f" r{k};")]
        assert ctypes[declared[0]] == w.dtype.name, (jit_text, dtypes)
    mod.rand_kernel[1, 64](*ins, *outs_)
    for (jit_text, _), w, o in zip(exprs, want, outs_):
        np.testing.assert_array_equal(ac.asnumpy(o), w, err_msg=f"{jit_text} {dtypes}")


@jit.kernel
def prints(x):
    i = jit.threadIdx.x
    if i == 0:
        print("x[0] =", x[0], "100%", x[0] > 0, jit.threadIdx.x + 7, ac.uint8(250))


@needs_cxx
def test_print_writes_one_line(capfd):
    prints[1, 4](ac.asarray(np.array([2.5])))
    out, _ = capfd.readouterr()
    assert out == "x[0] = 2.5 100% True 7 250\n"


@jit.kernel
def negative_indices(x, m, out, counts):
    i = jit.grid(1)
    if i < x.size:
        j = i - x.size                  # -n .. -1 counts from the end, as NumPy and Numba
        out[i] = x[j] + m[-1, j % -3]   # j % -3 is in -2 .. 0
        jit.atomic.add(counts, j % 2 - 2, 1)


@needs_cxx
def test_negative_indices_wrap_around(device):
    xn = rng.standard_normal(10)
    mn = rng.standard_normal((2, 3))
    out = ac.zeros(10, device=device)
    counts = ac.zeros(2, dtype=ac.int32, device=device)
    negative_indices[1, 16](dev(xn, device), dev(mn, device), out, counts)
    j = np.arange(10) - 10
    np.testing.assert_array_equal(ac.asnumpy(out), xn[j] + mn[-1, j % -3])
    np.testing.assert_array_equal(ac.asnumpy(counts), [5, 5])
    src = negative_indices.source(ac.zeros(2), ac.zeros((2, 2)), ac.zeros(2),
                                  ac.zeros(2, dtype=ac.int32))
    assert "out[i]" in src      # an index known non-negative is used as it is


# ---------------------------------------------------------------- complex numbers
@jit.kernel
def complex_ops(z, w, s, out, mag):
    i = jit.grid(1)
    if i < z.size:
        a = z[i]
        b = w[i]
        c = a * b + s / (b - 1j) - a.conjugate() * 2
        if c != 0 and a == a:
            out[i] = c + complex(a.real, b.imag)
        mag[i] = abs(c) + a.imag


@jit.vectorize
def rotate(z, k):
    return z * 1j + k


@needs_cxx
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_arithmetic_matches_numpy(device, dtype):
    z = (rng.standard_normal(50) + 1j * rng.standard_normal(50)).astype(dtype)
    w = (rng.standard_normal(50) + 1j * rng.standard_normal(50)).astype(dtype)
    w[0] = 0
    out = ac.zeros(50, dtype=ac.complex128, device=device)
    real = ac.float32 if dtype == np.complex64 else ac.float64
    mag = ac.zeros(50, dtype=real, device=device)
    s = dtype(2 + 3j)
    complex_ops[1, 64](dev(z, device), dev(w, device), s, out, mag)
    c = z * w + s / (w - 1j) - np.conj(z) * 2
    tol = 1e-5 if dtype == np.complex64 else 1e-13
    np.testing.assert_allclose(ac.asnumpy(out), c + (z.real + 1j * w.imag), rtol=tol)
    np.testing.assert_allclose(ac.asnumpy(mag), np.abs(c) + z.imag, rtol=tol)

    r = rotate(dev(z, device), 2.0)
    assert r.dtype == getattr(ac, np.dtype(dtype).name)
    np.testing.assert_array_equal(ac.asnumpy(r), z * 1j + 2.0)


def test_complex_rejects_what_numpy_rejects():
    def floor_div(z):
        z[0] = z[0] // 2

    def ordered(z):
        z[0] = min(z[0], z[1])

    def less(z, out):
        out[0] = z[0] < z[1]
    for fn, what in ((floor_div, "complex numbers take"), (ordered, "no order"),
                     (less, "== and != only")):
        args = [ac.zeros(2, dtype=ac.complex64)] * fn.__code__.co_argcount
        with pytest.raises(ac.KernelTypeError, match=what):
            jit.kernel(fn).source(*args)


# ---------------------------------------------------------------- the CUDA C++ corpus, in Python
@jit.kernel
def indices(out):
    bx = jit.blockIdx.x + jit.gridDim.x * (jit.blockIdx.y + jit.gridDim.y * jit.blockIdx.z)
    tx = jit.threadIdx.x + jit.blockDim.x * (jit.threadIdx.y + jit.blockDim.y * jit.threadIdx.z)
    i = bx * (jit.blockDim.x * jit.blockDim.y * jit.blockDim.z) + tx
    out[i, 0] = jit.threadIdx.z
    out[i, 1] = jit.blockIdx.y
    out[i, 2] = jit.blockDim.z
    out[i, 3] = jit.gridDim.y


@jit.kernel
def histogram_shared(x, bins):
    local_bins = jit.shared.array(16, ac.uint32)
    t = jit.threadIdx.x
    if t < 16:
        local_bins[t] = 0
    jit.syncthreads()
    for i in range(jit.grid(1), x.size, jit.gridsize(1)):
        jit.atomic.add(local_bins, x[i] % 16, 1)
    jit.syncthreads()
    if t < 16:
        jit.atomic.add(bins, t, local_bins[t])


@jit.kernel
def blelloch_scan(x, out):
    # exclusive prefix sum of one block of 256 (Blelloch's up-sweep and down-sweep)
    buf = jit.shared.array(256, ac.int64)
    t = jit.threadIdx.x
    buf[t] = x[t]
    d = 1
    while d < 256:
        jit.syncthreads()
        k = (t + 1) * 2 * d - 1
        if k < 256:
            buf[k] += buf[k - d]
        d *= 2
    if t == 0:
        buf[255] = 0
    d = 128
    while d > 0:
        jit.syncthreads()
        k = (t + 1) * 2 * d - 1
        if k < 256:
            tmp = buf[k - d]
            buf[k - d] = buf[k]
            buf[k] += tmp
        d //= 2
    jit.syncthreads()
    out[t] = buf[t]


@jit.kernel
def bitonic_sort(x):
    buf = jit.shared.array(128, ac.float32)
    t = jit.threadIdx.x
    buf[t] = x[t]
    k = 2
    while k <= 128:
        j = k // 2
        while j > 0:
            jit.syncthreads()
            p = t ^ j
            if p > t:
                up = (t & k) == 0
                if (buf[t] > buf[p]) == up:
                    buf[t], buf[p] = buf[p], buf[t]
            j //= 2
        k *= 2
    jit.syncthreads()
    x[t] = buf[t]


@jit.kernel
def heat_step(u, out, alpha):
    i, j = jit.grid(2)
    n, m = u.shape
    if 0 < i < n - 1 and 0 < j < m - 1:
        out[i, j] = u[i, j] + alpha * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1]
                                       - 4 * u[i, j])


@jit.kernel
def mandelbrot(out, max_iter):
    x, y = jit.grid(2)
    h, w = out.shape
    if y < h and x < w:
        c_re = -2.0 + 3.0 * x / w
        c_im = -1.0 + 2.0 * y / h
        z_re = 0.0
        z_im = 0.0
        n = 0
        while n < max_iter and z_re * z_re + z_im * z_im <= 4.0:
            z_re, z_im = z_re * z_re - z_im * z_im + c_re, 2 * z_re * z_im + c_im
            n += 1
        out[y, x] = n


@jit.kernel
def transpose_tiled(a, out):
    tile = jit.shared.array((16, 17), ac.float64)   # padded: no bank conflicts on a GPU
    x = jit.blockIdx.x * 16 + jit.threadIdx.x
    y = jit.blockIdx.y * 16 + jit.threadIdx.y
    if y < a.shape[0] and x < a.shape[1]:
        tile[jit.threadIdx.y, jit.threadIdx.x] = a[y, x]
    jit.syncthreads()
    x = jit.blockIdx.y * 16 + jit.threadIdx.x
    y = jit.blockIdx.x * 16 + jit.threadIdx.y
    if y < out.shape[0] and x < out.shape[1]:
        out[y, x] = tile[jit.threadIdx.x, jit.threadIdx.y]


@jit.kernel
def nbody(pos, acc):
    i = jit.grid(1)
    if i < pos.shape[0]:
        ax = 0.0
        ay = 0.0
        for j in range(pos.shape[0]):
            fx = (pos[j, 0] - pos[i, 0])
            fy = (pos[j, 1] - pos[i, 1])
            inv = 1.0 / math.sqrt(fx * fx + fy * fy + 0.01)
            ax += fx * inv * inv * inv
            ay += fy * inv * inv * inv
        acc[i, 0] = ax
        acc[i, 1] = ay


@needs_cxx
def test_the_cuda_cpp_corpus_as_python_kernels(device):
    out = ac.zeros((2 * 3 * 2 * 4 * 2 * 2, 4), dtype=ac.int32, device=device)
    indices[(2, 3, 2), (4, 2, 2)](out)
    got = ac.asnumpy(out)
    assert sorted(set(got[:, 0])) == [0, 1] and sorted(set(got[:, 1])) == [0, 1, 2]
    assert (got[:, 2] == 2).all() and (got[:, 3] == 3).all()

    xn = rng.integers(0, 1000, 5000).astype(np.int32)
    bins = ac.zeros(16, dtype=ac.uint32, device=device)
    histogram_shared[4, 64](dev(xn, device), bins)
    np.testing.assert_array_equal(ac.asnumpy(bins), np.bincount(xn % 16, minlength=16))

    sn = rng.integers(-100, 100, 256)
    so = ac.zeros(256, dtype=ac.int64, device=device)
    blelloch_scan[1, 256](dev(sn, device), so)
    np.testing.assert_array_equal(ac.asnumpy(so), np.concatenate([[0], np.cumsum(sn)[:-1]]))

    bn = rng.standard_normal(128).astype(np.float32)
    b = dev(bn, device)
    bitonic_sort[1, 128](b)
    np.testing.assert_array_equal(ac.asnumpy(b), np.sort(bn))

    un = rng.standard_normal((20, 30))
    uo = ac.asarray(un.copy(), device=device)
    heat_step[(3, 4), (8, 8)](dev(un, device), uo, 0.1)
    want = un.copy()
    want[1:-1, 1:-1] = un[1:-1, 1:-1] + 0.1 * (un[:-2, 1:-1] + un[2:, 1:-1] + un[1:-1, :-2]
                                              + un[1:-1, 2:] - 4 * un[1:-1, 1:-1])
    np.testing.assert_allclose(ac.asnumpy(uo), want, rtol=1e-13, atol=1e-15)

    mo = ac.zeros((24, 36), dtype=ac.int32, device=device)
    mandelbrot[(3, 2), (16, 16)](mo, 50)
    ys, xs = np.mgrid[0:24, 0:36]
    c = (-2.0 + 3.0 * xs / 36) + 1j * (-1.0 + 2.0 * ys / 24)
    z, n = np.zeros_like(c), np.zeros(c.shape, np.int32)
    for _ in range(50):
        live = np.abs(z) <= 2.0
        z[live] = z[live] ** 2 + c[live]
        n += live
    assert (ac.asnumpy(mo) != n).mean() < 0.01   # the escape test's rounding at the boundary

    an = rng.standard_normal((40, 50))
    to = ac.zeros((50, 40), device=device)
    transpose_tiled[(4, 3), (16, 16)](dev(an, device), to)
    np.testing.assert_array_equal(ac.asnumpy(to), an.T)

    pn = rng.standard_normal((64, 2))
    ao = ac.zeros((64, 2), device=device)
    nbody[1, 64](dev(pn, device), ao)
    d = pn[None, :, :] - pn[:, None, :]
    inv = 1 / np.sqrt((d ** 2).sum(-1) + 0.01)
    np.testing.assert_allclose(ac.asnumpy(ao), (d * inv[..., None] ** 3).sum(1), rtol=1e-10)


@jit.kernel
def zero_d(x, out):
    out[()] = x[()] * 2 + x.size + len(out.shape)


@jit.kernel
def fill_ones(x):
    i = jit.grid(1)
    if i < x.size:
        x[i] = 1


@needs_cxx
def test_0d_and_empty_arrays(device):
    out = ac.asarray(np.array(0.0), device=device)
    zero_d[1, 1](ac.asarray(np.array(3.0), device=device), out)
    assert ac.asnumpy(out) == 7.0
    e = ac.zeros(0, device=device)
    fill_ones[1, 32](e)
    assert ac.asnumpy(e).shape == (0,)
    if device == "cpu":   # the CPU's launch check (CUDA's driver has its own)
        with pytest.raises(ac.LaunchError, match="zero dimension"):
            fill_ones[0, 32](e)
