"""Reductions, scans and nonzero on the GPU (device="cuda") against NumPy: every dtype, axes
(None, one, several, negative), keepdims, views with any strides, empty and 0-d arrays, NaN and
inf, ties, integer wrap-around, explicit accumulator dtypes, long rows (multi-pass kernels) and
the accuracy of large float32 sums. Every test needs a GPU (marker `cuda`); the kernels
themselves are compiled by NVRTC and run on a host emulator in the C++ tests, which need none.

Floating-point sums run in a different order on the GPU than in NumPy (a tree over many
threads instead of NumPy's pairwise blocks), so they are compared with the exact (float64)
answer within a bound proportional to the sum of magnitudes, not bit for bit."""

import atexit
import os
import shutil
import tempfile

# Compiled kernels go to a private cache, not the user's (read once, at the first compile).
if "ACCEL_CACHE_DIR" not in os.environ:
    os.environ["ACCEL_CACHE_DIR"] = tempfile.mkdtemp(prefix="accel-test-cache-")
    atexit.register(shutil.rmtree, os.environ["ACCEL_CACHE_DIR"], True)

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import accel as ac
import test_reduction as reduction_tests

HAVE_GPU = ac.cuda.is_available()
NO_GPU_REASON = "no CUDA driver/GPU: " + ac.cuda.unavailable_reason().split("\n")[0]
pytestmark = [pytest.mark.cuda, pytest.mark.skipif(not HAVE_GPU, reason=NO_GPU_REASON)]

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64", "complex64", "complex128"]
REAL = [d for d in DTYPES if not d.startswith("complex")]
SETTINGS = settings(max_examples=40, deadline=None)


def gpu(x):
    return ac.asarray(x, device="cuda")


def make(shape, dtype, rng, specials=False):
    x = reduction_tests.make(shape, dtype, rng)  # the CPU tests' inputs
    if specials and x.size and x.dtype.kind in "fc":
        flat = x.reshape(-1)
        picks = rng.integers(0, flat.size, size=max(1, flat.size // 20))
        specials_of_dtype = np.array([np.nan, np.inf, -np.inf, -0.0], dtype=x.dtype)
        flat[picks] = rng.choice(specials_of_dtype, picks.size)
    return x


def magnitude_sum(x, axis, keepdims):
    """Sum of |x| over the reduced axes: what bounds the rounding error of any summation order."""
    return np.sum(np.abs(x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)),
                  axis=axis, keepdims=keepdims)


def check(got, want, rtol=None, atol=None):
    got = ac.asnumpy(got)
    want = np.asarray(want)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    if want.dtype.kind in "fc":
        if rtol is None:
            rtol = {np.float32: 2e-5, np.complex64: 2e-5}.get(want.dtype.type, 1e-12)
        np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol * 10 if atol is None else atol,
                                   equal_nan=True)
    else:
        np.testing.assert_array_equal(got, want)


def check_sum(got, x, axis, keepdims, dtype=None):
    """A sum against the exact answer, within eps * (sum of magnitudes) per output."""
    want = np.sum(x, axis=axis, keepdims=keepdims, dtype=dtype)
    if want.dtype.kind not in "fc":
        return check(got, want)
    exact = np.sum(x.astype(np.complex128 if want.dtype.kind == "c" else np.float64),
                   axis=axis, keepdims=keepdims)
    eps = np.finfo(want.dtype).eps
    bound = 64 * eps * magnitude_sum(x, axis, keepdims) + np.finfo(want.dtype).tiny
    g = ac.asnumpy(got)
    assert g.dtype == want.dtype and g.shape == want.shape
    err = np.abs(g.astype(exact.dtype) - exact)
    assert np.all((err <= bound) | (np.isnan(exact) & np.isnan(g))), (err.max(), bound)


@st.composite
def array_and_axes(draw, dtypes=DTYPES, min_side=0, specials=False):
    ndim = draw(st.integers(0, 4))
    shape = tuple(draw(st.lists(st.integers(min_side, 6), min_size=ndim, max_size=ndim)))
    dtype = draw(st.sampled_from(dtypes))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    x = make(shape, dtype, rng, specials)
    g = gpu(x)
    # Views made on the device: transposed, reversed, every other element.
    view = draw(st.sampled_from(["plain", "transpose", "reverse", "step"]))
    if view == "transpose":
        x, g = x.T, g.T
    elif view == "reverse" and ndim:
        x, g = x[::-1], g[::-1]
    elif view == "step" and ndim:
        x, g = x[..., ::2], g[..., ::2]
    kind = draw(st.sampled_from(["none", "int", "tuple"]))
    if kind == "none" or ndim == 0:
        axis = None
    elif kind == "int":
        axis = draw(st.integers(-ndim, ndim - 1))
    else:
        axis = tuple(draw(st.sets(st.integers(-ndim, ndim - 1), max_size=ndim)))
        if len({a % ndim for a in axis}) != len(axis):
            axis = tuple(sorted({a % ndim for a in axis}))
    return x, g, axis, draw(st.booleans())


@SETTINGS
@given(args=array_and_axes())
def test_sum_prod_match_numpy(args):
    x, g, axis, keepdims = args
    check_sum(ac.sum(g, axis=axis, keepdims=keepdims), x, axis, keepdims)
    check(g.prod(axis=axis, keepdims=keepdims), np.prod(x, axis=axis, keepdims=keepdims), rtol=1e-4)


@SETTINGS
@given(args=array_and_axes(min_side=1, specials=True))
def test_min_max_match_numpy_with_nan_and_inf(args):
    x, g, axis, keepdims = args
    with np.errstate(invalid="ignore"):
        check(ac.max(g, axis=axis, keepdims=keepdims), np.max(x, axis=axis, keepdims=keepdims))
        check(g.min(axis=axis, keepdims=keepdims), np.min(x, axis=axis, keepdims=keepdims))


@SETTINGS
@given(args=array_and_axes(min_side=1, specials=True))
def test_argmin_argmax_take_the_first_extreme_or_nan(args):
    x, g, axis, keepdims = args
    if isinstance(axis, tuple):
        axis = axis[0] if axis else -1
    if axis is None:  # the flattened index needs a contiguous copy of a view
        x, g = np.ascontiguousarray(x), gpu(np.ascontiguousarray(x))
    check(ac.argmax(g, axis=axis, keepdims=keepdims), np.argmax(x, axis=axis, keepdims=keepdims))
    check(g.argmin(axis=axis, keepdims=keepdims), np.argmin(x, axis=axis, keepdims=keepdims))


@SETTINGS
@given(args=array_and_axes(specials=True))
def test_any_all_match_numpy(args):
    x, g, axis, keepdims = args
    check(ac.any(g, axis=axis, keepdims=keepdims), np.any(x, axis=axis, keepdims=keepdims))
    check(g.all(axis=axis, keepdims=keepdims), np.all(x, axis=axis, keepdims=keepdims))
    b, gb = x != 0, gpu(x != 0)
    check(ac.count_nonzero(gb, axis=axis, keepdims=keepdims),
          np.count_nonzero(b, axis=axis, keepdims=keepdims))


@SETTINGS
@given(args=array_and_axes(min_side=1))
def test_mean_var_std_count_nonzero_match_numpy(args):
    x, g, axis, keepdims = args
    rtol = 1e-4 if x.dtype in (np.float32, np.complex64) else 1e-9
    check(ac.mean(g, axis=axis, keepdims=keepdims), np.mean(x, axis=axis, keepdims=keepdims), rtol)
    check(g.var(axis=axis, keepdims=keepdims), np.var(x, axis=axis, keepdims=keepdims), rtol)
    check(ac.std(g, axis=axis, keepdims=keepdims, correction=0.5),
          np.std(x, axis=axis, keepdims=keepdims, ddof=0.5), rtol)
    check(ac.count_nonzero(g, axis=axis, keepdims=keepdims),
          np.count_nonzero(x, axis=axis, keepdims=keepdims))


@SETTINGS
@given(args=array_and_axes())
def test_cumsum_cumprod_match_numpy(args):
    x, g, axis, _ = args
    if isinstance(axis, tuple):
        axis = axis[0] if axis else None
    if axis is None and x.ndim > 1:
        axis = -1
    rtol = 1e-4 if x.dtype.kind in "fc" else None
    check(ac.cumsum(g, axis=axis), np.cumsum(x, axis=axis), rtol=rtol)
    check(g.cumprod(axis=axis), np.cumprod(x, axis=axis), rtol=1e-4)


@pytest.mark.parametrize("dtype", ["bool", "int8", "float32", "complex64"])
def test_nonzero_coordinates_in_c_order(dtype):
    rng = np.random.default_rng(5)
    x = make((40, 33, 7), dtype, rng, specials=True)
    if dtype != "bool":
        x[rng.random(x.shape) < 0.6] = 0
    if dtype in ("float32", "complex64"):
        x[0, 0, :3] = [-0.0, np.nan, 0.0]
    g = gpu(x)
    for xv, gv in [(x, g), (x[::-1, :, ::2], g[::-1, :, ::2]), (x.T, g.T)]:
        got = ac.nonzero(gv)
        want = np.nonzero(xv)
        assert len(got) == len(want)
        for a, b in zip(got, want):
            check(a, b)
    one = gpu(np.arange(10**6) % 7 == 3)
    check(ac.nonzero(one)[0], np.nonzero(np.arange(10**6) % 7 == 3)[0])
    empty = gpu(np.zeros((5, 0), dtype=dtype))
    assert [ac.asnumpy(a).shape for a in ac.nonzero(empty)] == [(0,), (0,)]


@pytest.mark.parametrize("dtype", ["int32", "float32", "complex128", "uint8"])
def test_explicit_dtypes_convert_as_read(dtype):
    x = np.arange(1, 40, dtype=np.int16).reshape(3, 13)
    g = gpu(x)
    check(ac.sum(g, axis=1, dtype=dtype), np.sum(x, axis=1, dtype=dtype))
    check(ac.prod(g, axis=0, dtype=dtype), np.prod(x, axis=0, dtype=dtype))
    check(ac.cumulative_sum(g, axis=1, dtype=dtype), np.cumsum(x, axis=1, dtype=dtype))
    f = np.linspace(-3, 3, 50).reshape(5, 10)
    check(ac.sum(gpu(f), axis=0, dtype="int16"), np.sum(f.astype(np.int16), axis=0, dtype=np.int16))


def test_integer_sums_and_products_wrap_like_numpy():
    x = np.array([2**62, 2**62, 2**62, 7], dtype=np.int64)
    check(ac.sum(gpu(x)), np.sum(x))
    check(ac.prod(gpu(x)), np.prod(x))
    u = np.full(100000, 2**63 + 5, dtype=np.uint64)
    check(ac.sum(gpu(u)), np.sum(u))
    s = np.full(3000, 100, dtype=np.int8)
    check(ac.sum(gpu(s), dtype="int8"), np.sum(s, dtype=np.int8))
    check(ac.cumsum(gpu(s), dtype="int8"), np.cumsum(s, dtype=np.int8))


def test_empty_and_zero_d():
    e = np.zeros((0, 3), dtype=np.float32)
    g = gpu(e)
    check(ac.sum(g), np.sum(e))
    check(ac.sum(g, axis=0), np.sum(e, axis=0))
    check(ac.prod(g, axis=0), np.prod(e, axis=0))
    check(ac.any(g, axis=0), np.any(e, axis=0))
    check(ac.all(g, axis=0), np.all(e, axis=0))
    check(ac.max(g, axis=1), np.max(e, axis=1))
    check(ac.cumsum(g, axis=0), np.cumsum(e, axis=0))
    z = np.array(3.5)
    check(ac.sum(gpu(z)), np.sum(z))
    check(ac.max(gpu(z)), np.max(z))
    check(ac.argmax(gpu(z)), np.argmax(z))
    check(ac.sum(gpu(z), axis=()), np.sum(z, axis=()))
    check(ac.cumsum(gpu(z)), np.cumsum(z))
    with pytest.raises(ValueError, match="zero-size"):
        ac.max(gpu(np.zeros(0)))


def test_first_of_equal_extremes_and_first_nan_in_long_rows():
    x = np.zeros(1_000_000, dtype=np.int32)
    x[[7000, 300_000, 900_000]] = 5
    x[[10, 20]] = -3
    check(ac.argmax(gpu(x)), np.argmax(x))
    check(ac.argmin(gpu(x)), np.argmin(x))
    m = np.ascontiguousarray(np.tile(x[:20000], (3, 1)).T)
    check(ac.argmax(gpu(m), axis=0), np.argmax(m, axis=0))
    base = np.random.default_rng(1).standard_normal(300_000)
    for pos in [0, 255, 256, 100_001, 299_999]:
        y = base.copy()
        y[pos] = np.nan
        y[pos + 1 if pos + 1 < y.size else 0] = np.nan
        g = gpu(y)
        assert np.isnan(ac.asnumpy(ac.max(g)))
        assert int(ac.argmax(g)) == np.argmax(y) and int(ac.argmin(g)) == np.argmin(y)


def test_large_float32_sums_are_as_accurate_as_numpy():
    rng = np.random.default_rng(2)
    x = (rng.random(10_000_000) * 10).astype(np.float32)
    exact = np.sum(x.astype(np.float64))
    ours = float(ac.sum(gpu(x)))
    theirs = float(np.sum(x))
    assert abs(ours - exact) <= max(2 * abs(theirs - exact), 1e-6 * exact)
    m = x.reshape(10_000, 1000)
    gm = gpu(m)
    for axis in (0, 1):
        exact_ax = m.astype(np.float64).sum(axis=axis)
        err_ours = np.abs(ac.asnumpy(ac.sum(gm, axis=axis)) - exact_ax).max()
        err_numpy = np.abs(m.sum(axis=axis) - exact_ax).max()
        assert err_ours <= max(2 * err_numpy, 1e-6 * exact_ax.max()), (axis, err_ours, err_numpy)
    v = gm[:, ::3]
    check_sum(ac.sum(v), m[:, ::3], None, False)


def test_long_scans_match_the_exact_running_sum():
    rng = np.random.default_rng(3)
    cases = [((3_000_000,), 0), ((100_000, 8), 0), ((16, 200_000), 1), ((20_000, 50), 1)]
    for shape, axis in cases:
        x = rng.random(shape).astype(np.float32)
        exact = np.cumsum(x.astype(np.float64), axis=axis)
        err_ours = np.abs(ac.asnumpy(ac.cumsum(gpu(x), axis=axis)) - exact).max()
        err_numpy = np.abs(np.cumsum(x, axis=axis) - exact).max()
        assert err_ours <= max(2 * err_numpy, 1e-6 * exact.max()), (shape, err_ours, err_numpy)
        i = rng.integers(-3, 4, size=shape).astype(np.int32)
        check(ac.cumulative_prod(gpu(i % 2 + 1), axis=axis), np.cumprod(i % 2 + 1, axis=axis))
        check(ac.cumsum(gpu(i), axis=axis), np.cumsum(i, axis=axis))


def test_large_reductions_over_every_axis():
    rng = np.random.default_rng(4)
    x = rng.standard_normal((300, 257, 9))
    g = gpu(x)
    for axis in [None, 0, 1, 2, (0, 2), (0, 1), (1, 2)]:
        check_sum(ac.sum(g, axis=axis), x, axis, False)
        check(ac.max(g, axis=axis), np.max(x, axis=axis))
        check(ac.any(g > 3, axis=axis),
              np.any(x > 3, axis=axis))
    for axis in [0, 1, 2]:
        check(ac.argmax(g, axis=axis), np.argmax(x, axis=axis))
        check(ac.argmin(g[::-1], axis=axis), np.argmin(x[::-1], axis=axis))
        check(ac.cumsum(g, axis=axis), np.cumsum(x, axis=axis))
    few = np.random.default_rng(5).standard_normal((1_000_000, 3)).astype(np.float32)
    check_sum(ac.sum(gpu(few), axis=0), few, 0, False)


def test_complex_reductions():
    x = np.array([1 + 2j, 3 - 1j, 3 + 0j, -1 + 9j], dtype=np.complex64)
    g = gpu(x)
    check(ac.sum(g), np.sum(x))
    check(ac.max(g), np.max(x))
    check(ac.min(g), np.min(x))
    check(ac.argmax(g), np.argmax(x))
    big = (np.random.default_rng(6).standard_normal((2000, 300)) * (1 + 1j)).astype(np.complex128)
    for axis in [None, 0, 1]:
        check_sum(ac.sum(gpu(big), axis=axis), big, axis, False)
        check(ac.cumsum(gpu(big), axis=axis if axis is not None else 1),
              np.cumsum(big, axis=axis if axis is not None else 1), rtol=1e-9, atol=1e-9)


def test_reductions_run_on_the_current_stream():
    x = np.random.default_rng(7).random(5_000_000).astype(np.float32)
    s = ac.cuda.Stream()
    with s:
        g = gpu(x)
        r = ac.sum(g)
        c = ac.cumsum(g)
        n = ac.nonzero(gpu(x > 0.5))[0]
    s.synchronize()
    check_sum(r, x, None, False)
    exact = np.sum(x.astype(np.float64))
    assert abs(ac.asnumpy(c)[-1] - exact) <= 1e-4 * exact
    check(n, np.nonzero(x > 0.5)[0])
