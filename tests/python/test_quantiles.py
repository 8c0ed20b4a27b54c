"""quantile, percentile, median and their nan* forms against NumPy: every method, q as a Python
number, a NumPy scalar and arrays, axes (None, int, tuples), keepdims, out=, NaNs, empty and
length-1 slices, integer and bool inputs. Results must match NumPy's dtype and shape and its
values exactly (the same order statistics, the same interpolation arithmetic)."""

import warnings
import zlib

import numpy as np
import pytest

import accel as ac


METHODS = ["inverted_cdf", "averaged_inverted_cdf", "closest_observation",
           "interpolated_inverted_cdf", "hazen", "weibull", "linear", "median_unbiased",
           "normal_unbiased", "lower", "higher", "midpoint", "nearest"]
QS = [0.5, 0.0, 1.0, 0.3, 1, np.float32(0.7), [0.1, 0.25, 0.9], np.array([[0.33], [0.66]])]
CASES = [((7,), None), ((4, 5), 1), ((4, 5), 0), ((3, 4, 5), (0, 2)), ((2, 6), -1), ((1,), None),
         ((6, 1), 1)]


def _data(rng, shape, dtype, nans):
    a = (rng.normal(0, 30, shape)).astype(dtype)
    if nans and dtype.startswith("float") and a.size > 3:
        a.flat[rng.integers(a.size, size=2)] = np.nan
    return a


def _same(want, got):
    want = np.asarray(want)
    got = ac.asnumpy(got)
    assert got.dtype == want.dtype and got.shape == want.shape, (want.dtype, got.dtype, want.shape,
                                                                 got.shape)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "uint8", "int16"])
@pytest.mark.parametrize("fn", ["quantile", "percentile", "nanquantile", "nanpercentile"])
def test_every_method_matches_numpy(device, dtype, fn):
    rng = np.random.default_rng(zlib.crc32(f"{dtype} {fn}".encode()))
    for shape, axis in CASES:
        a = _data(rng, shape, dtype, nans=True)
        if fn.startswith("nan") and a.dtype.kind == "f" and np.isnan(a).all(axis=axis).any():
            # NaNs in some slices, never a whole slice: NumPy's nan* result dtype then depends
            # on the data (see test_all_nan_slices)
            a = np.nan_to_num(a, nan=1.5)
        x = ac.asarray(a, device=device)
        for method in METHODS:
            for q in QS:
                if fn.startswith("nan") and isinstance(axis, tuple) and np.ndim(q) > 1:
                    continue  # NumPy's nan* misplaces the q axes for tuple axes and 2-d q
                qq = q if "quantile" in fn else (q * 100 if np.ndim(q) == 0 else np.asarray(q) * 100)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    want = getattr(np, fn)(a, qq, axis=axis, method=method)
                _same(want, getattr(ac, fn)(x, qq, axis=axis, method=method))


@pytest.mark.parametrize("fn", ["median", "nanmedian"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "uint8", "bool", "complex64"])
def test_median_matches_numpy(device, fn, dtype):
    rng = np.random.default_rng(7)
    cases = CASES + [((4, 6), 0), ((3, 0), 1), ((0,), None), ((3, 0), 0)]
    for shape, axis in cases:
        a = _data(rng, shape, dtype, nans=True)
        if fn == "nanmedian" and a.dtype.kind == "f" and a.ndim == 2 and a.shape[1] > 2:
            a[0] = np.nan  # an all-NaN slice: NaN
        for keepdims in (False, True):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                want = getattr(np, fn)(a, axis=axis, keepdims=keepdims)
            _same(want, getattr(ac, fn)(ac.asarray(a, device=device), axis=axis, keepdims=keepdims))


def test_special_values(device):
    a = np.array([np.inf, -np.inf, 0.0, -0.0, 1e308, -1e308, 5e-324], dtype=np.float64)
    x = ac.asarray(a, device=device)
    for method in METHODS:
        for q in (0.0, 0.2, 0.5, 0.99, 1.0):
            with np.errstate(all="ignore"):
                want = np.quantile(a, q, method=method)
            _same(want, ac.quantile(x, q, method=method))
    _same(np.median(a), ac.median(x))


def test_all_nan_slices(device):
    a = np.array([[np.nan, np.nan, np.nan], [1.0, np.nan, 3.0]], dtype=np.float64)
    x = ac.asarray(a, device=device)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _same(np.nanquantile(a, 0.5, axis=1), ac.nanquantile(x, 0.5, axis=1))
        _same(np.nanmedian(a, axis=1), ac.nanmedian(x, axis=1))
        _same(np.quantile(a, [0.2, 0.5], axis=1), ac.quantile(x, [0.2, 0.5], axis=1))
    # accel's result dtype never depends on the data. NumPy's nan* functions take theirs from the
    # first slice, so a float32 input with an all-NaN first slice and an array q gives float32
    # there and float64 otherwise; accel always gives NumPy's float64 of the usual case.
    b = a.astype(np.float32)
    got = ac.nanquantile(ac.asarray(b, device=device), [0.5], axis=1)
    assert got.dtype == ac.float64
    assert np.isnan(ac.asnumpy(got)[0, 0]) and ac.asnumpy(got)[0, 1] == 2.0


def test_keepdims_and_out(device):
    a = np.arange(24.0).reshape(2, 3, 4)
    x = ac.asarray(a, device=device)
    _same(np.quantile(a, [0.25, 0.75], axis=(0, 2), keepdims=True),
          ac.quantile(x, [0.25, 0.75], axis=(0, 2), keepdims=True))
    out = ac.empty((3,), dtype=ac.float64, device=device)
    r = ac.percentile(x, 40, axis=(0, 2), out=out)
    assert r is out
    _same(np.percentile(a, 40, axis=(0, 2)), out)


def test_result_of_an_array_of_q_is_a_new_array_laid_out_as_numpys(device):
    # quantile's is C-ordered, so its ravel() is a view a later write goes through (fuzz seed
    # 808587); nanquantile's along an axis keeps q's axis innermost (NumPy's apply_along_axis
    # buffer), so its ravel() is a copy and the write does not reach it.
    a = np.arange(20.0).reshape(4, 1, 5)
    for fn, q in (("quantile", [0.1, 0.9]), ("percentile", [[10], [90]]), ("nanquantile", [0.5, 1])):
        want = getattr(np, fn)(a, q, axis=0)
        got = getattr(ac, fn)(ac.asarray(a, device=device), q, axis=0)
        _same(want, got)
        flat, flat_n = got.ravel(), want.ravel()
        flat += flat
        flat_n += flat_n
        _same(want, got)
        _same(flat_n, flat)


def test_signed_zero_at_the_ends_as_numpy(device):
    # NumPy's gamma comes from the clamped index (-1 past the last value), so a quantile at or
    # past the last value is b - 0 * (1 - gamma), keeping a -0.0 (fuzz seed 844856); below the
    # first value (weibull at q = 0) it is a + 0 * gamma.
    for x in ([-0.0], [-0.0, -0.0, -0.0], [-0.0, 1.0], [1.0, -0.0, -0.0]):
        a = np.array(x, np.float32)
        for method in METHODS:
            if method in ("lower", "higher", "nearest", "inverted_cdf", "closest_observation"):
                continue  # order statistics: the element itself
            for q in ([0.0, 0.3, 1.0], 1.0, 0.0):
                want = np.quantile(a, q, method=method)
                got = ac.quantile(ac.asarray(a, device=device), q, method=method)
                _same(want, got)
                assert np.array_equal(np.signbit(want), np.signbit(ac.asnumpy(got))), (x, method, q)


def test_median_of_negative_zeros_is_positive_zero_as_numpy(device):
    # NumPy's median is a mean of the middle values, a sum that starts at +0.0 (seed 894167).
    for dt in ("float16", "float32", "float64", "complex128"):
        for x in ([-0.0], [-0.0, -0.0], [-0.0, -0.0, 1.0], [[-0.0, 2.0], [-0.0, -0.0]]):
            a = np.array(x, dt)
            for fn in ("median", "nanmedian"):
                if fn == "nanmedian" and dt == "complex128":
                    continue
                want = getattr(np, fn)(a, axis=-1)
                got = getattr(ac, fn)(ac.asarray(a, device=device), axis=-1)
                _same(want, got)
                assert np.array_equal(np.signbit(np.real(want)), np.signbit(np.real(ac.asnumpy(got))))


def test_numpy_dispatch_returns_accel(device):
    x = ac.asarray(np.arange(10.0), device=device)
    r = np.median(x)
    assert isinstance(r, ac.ndarray)
    assert float(r) == 4.5
    assert float(np.percentile(x, 50)) == 4.5


def test_errors(device):
    x = ac.asarray(np.arange(5.0), device=device)
    with pytest.raises(ValueError, match=r"Quantiles must be in the range \[0, 1\]"):
        ac.quantile(x, 1.5)
    with pytest.raises(ValueError, match=r"Percentiles must be in the range \[0, 100\]"):
        ac.percentile(x, [50, 101])
    with pytest.raises(ValueError, match="not a valid method"):
        ac.quantile(x, 0.5, method="bogus")
    with pytest.raises(TypeError, match="real numbers"):
        ac.quantile(ac.asarray(np.ones(3, np.complex128), device=device), 0.5)
    with pytest.raises(ac.AxisError, match="axis 3"):
        ac.median(x, axis=3)
    with pytest.raises(IndexError):
        ac.quantile(ac.asarray(np.zeros(0), device=device), 0.5)
    with pytest.raises(NotImplementedError, match="weights"):
        ac.quantile(x, 0.5, method="inverted_cdf", weights=np.ones(5))
