"""Reductions, scans and nonzero against NumPy on every device (the `device` fixture of
conftest.py): values, dtypes, shapes, axes (None, one, several, negative), keepdims, views with
any strides made on the device, empty and 0-d arrays, NaN and inf, ties, integer wrap-around,
explicit accumulator dtypes, long rows (multi-pass kernels on a GPU), the accuracy of large
float32 sums, and the errors. The CUDA kernels themselves are compiled by NVRTC and run on a host
emulator in the C++ tests, which need no GPU.

Floating-point sums run in a different order on each device (NumPy: pairwise blocks; accel's
CPU: pairwise blocks of vectors; a GPU: a tree over many threads), so they are compared with the
exact (float64) answer within a bound proportional to the sum of magnitudes (check_sum), not
with NumPy's rounding. Long float32 sums and scans are as close to the exact answer as NumPy's,
or within two units in its last place; on a GPU within twice NumPy's error or 1e-6 of its size
(error_allowed), and the random float scans within 1e-4. Complex products that overflow are
compared on the CPU only, where the factors meet in NumPy's order."""

import zlib

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import accel as ac
from device_arrays import DTYPES

REAL = [d for d in DTYPES if not d.startswith("complex")]
SETTINGS = settings(max_examples=50, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])
def on_gpu(device):
    return device.startswith("cuda")


def error_allowed(device, numpy_error, size):
    """How far from the exact answer (of magnitude `size`) a long sum or scan may be on
    `device` (module docstring)."""
    if on_gpu(device):
        return max(2 * numpy_error, 1e-6 * size)
    return max(numpy_error, 2 * np.finfo(np.float32).eps * size)


def make(shape, dtype, rng, specials=False):
    """Random values of `dtype`; specials: one in twenty replaced by NaN, inf, -inf or -0.0."""
    if dtype == "bool":
        return np.asarray(rng.random(shape) < 0.5)
    if dtype.startswith(("int", "uint")):
        info = np.iinfo(dtype)
        return np.asarray(rng.integers(max(info.min, -50), min(info.max, 50), size=shape,
                                       endpoint=True), dtype=dtype)
    x = rng.standard_normal(shape)
    if dtype.startswith("complex"):
        x = x + 1j * rng.standard_normal(shape)
    x = np.asarray(x, dtype=dtype)
    if specials and x.size:
        flat = x.reshape(-1)
        picks = rng.integers(0, flat.size, size=max(1, flat.size // 20))
        flat[picks] = rng.choice(np.array([np.nan, np.inf, -np.inf, -0.0], dtype=x.dtype),
                                 picks.size)
    return x


def check(got, want, rtol=None, atol=None):
    got = ac.asnumpy(got)
    want = np.asarray(want)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    if rtol is None:
        # float16: NumPy sums along a non-contiguous axis rounding every addition to half,
        # accel in float32 (docs/ARCHITECTURE.md "Dtypes"): up to a few half ulps apart.
        rtol = {np.float16: 5e-3, np.float32: 2e-5, np.complex64: 2e-5}.get(want.dtype.type, 1e-12)
    if want.dtype.kind in "fc":
        np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol * 10 if atol is None else atol,
                                   equal_nan=True)
    else:
        np.testing.assert_array_equal(got, want)


def check_sum(got, x, axis=None, keepdims=False, dtype=None):
    """A sum against the exact answer, within eps * (sum of magnitudes) per output."""
    want = np.sum(x, axis=axis, keepdims=keepdims, dtype=dtype)
    if want.dtype.kind not in "fc":
        return check(got, want)
    wide = np.complex128 if want.dtype.kind == "c" else np.float64
    exact = np.sum(x.astype(wide), axis=axis, keepdims=keepdims)
    magnitudes = np.sum(np.abs(x.astype(wide)), axis=axis, keepdims=keepdims)
    bound = 64 * np.finfo(want.dtype).eps * magnitudes + np.finfo(want.dtype).tiny
    g = ac.asnumpy(got)
    assert g.dtype == want.dtype and g.shape == want.shape, (g.dtype, g.shape, want.shape)
    err = np.abs(g.astype(exact.dtype) - exact)
    assert np.all((err <= bound) | (np.isnan(exact) & np.isnan(g))), (err.max(), bound)


@st.composite
def array_and_axes(draw, device, dtypes=DTYPES, min_side=0, specials=False):
    ndim = draw(st.integers(0, 4))
    shape = tuple(draw(st.lists(st.integers(min_side, 6), min_size=ndim, max_size=ndim)))
    dtype = draw(st.sampled_from(dtypes))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    x = make(shape, dtype, rng, specials)
    a = ac.asarray(x, device=device)
    # Views made on the device: transposed, reversed, every other element.
    view = draw(st.sampled_from(["plain", "transpose", "reverse", "step"]))
    if view == "transpose":
        x, a = x.T, a.T
    elif view == "reverse" and ndim:
        x, a = x[::-1], a[::-1]
    elif view == "step" and ndim:
        x, a = x[..., ::2], a[..., ::2]
    kind = draw(st.sampled_from(["none", "int", "tuple"]))
    if kind == "none" or ndim == 0:
        axis = None
    elif kind == "int":
        axis = draw(st.integers(-ndim, ndim - 1))
    else:
        axis = tuple(sorted({a % ndim for a in draw(st.sets(st.integers(-ndim, ndim - 1),
                                                            max_size=ndim))}))
    return x, a, axis, draw(st.booleans())


@SETTINGS
@given(data=st.data())
def test_sum_prod_match_numpy(data, device):
    x, a, axis, keepdims = data.draw(array_and_axes(device))
    check_sum(ac.sum(a, axis=axis, keepdims=keepdims), x, axis, keepdims)
    # float16 products: NumPy rounds every step to half along a non-contiguous axis (as sums).
    check(a.prod(axis=axis, keepdims=keepdims), np.prod(x, axis=axis, keepdims=keepdims),
          rtol=5e-3 if x.dtype == np.float16 else 1e-4)


@SETTINGS
@given(data=st.data())
def test_min_max_match_numpy_with_nan_and_inf(data, device):
    x, a, axis, keepdims = data.draw(array_and_axes(device, min_side=1, specials=True))
    with np.errstate(invalid="ignore"):
        check(ac.max(a, axis=axis, keepdims=keepdims), np.max(x, axis=axis, keepdims=keepdims))
        check(a.min(axis=axis, keepdims=keepdims), np.min(x, axis=axis, keepdims=keepdims))


@SETTINGS
@given(data=st.data())
def test_any_all_count_nonzero_match_numpy(data, device):
    x, a, axis, keepdims = data.draw(array_and_axes(device, specials=True))
    check(ac.any(a, axis=axis, keepdims=keepdims), np.any(x, axis=axis, keepdims=keepdims))
    check(a.all(axis=axis, keepdims=keepdims), np.all(x, axis=axis, keepdims=keepdims))
    check(ac.count_nonzero(a, axis=axis, keepdims=keepdims),
          np.count_nonzero(x, axis=axis, keepdims=keepdims))
    check(ac.count_nonzero(ac.asarray(x != 0, device=device), axis=axis, keepdims=keepdims),
          np.count_nonzero(x != 0, axis=axis, keepdims=keepdims))


@SETTINGS
@given(data=st.data())
def test_mean_var_std_match_numpy(data, device):
    x, a, axis, keepdims = data.draw(array_and_axes(device, min_side=1))
    # float16 results are computed in float32 by both (rounded at the end), but NumPy's var
    # squares deviations from a mean rounded to half: a few half ulps apart.
    rtol = 5e-3 if x.dtype == np.float16 else 1e-4 if x.dtype in (np.float32, np.complex64) else 1e-9
    check(ac.mean(a, axis=axis, keepdims=keepdims), np.mean(x, axis=axis, keepdims=keepdims), rtol)
    check(a.var(axis=axis, keepdims=keepdims), np.var(x, axis=axis, keepdims=keepdims), rtol)
    check(ac.std(a, axis=axis, keepdims=keepdims, correction=0.5),
          np.std(x, axis=axis, keepdims=keepdims, ddof=0.5), rtol)


@SETTINGS
@given(data=st.data())
def test_argmin_argmax_take_the_first_extreme_or_nan(data, device):
    x, a, axis, keepdims = data.draw(array_and_axes(device, min_side=1, specials=True))
    if isinstance(axis, tuple):
        axis = axis[0] if axis else None
    check(ac.argmax(a, axis=axis, keepdims=keepdims), np.argmax(x, axis=axis, keepdims=keepdims))
    check(a.argmin(axis=axis, keepdims=keepdims), np.argmin(x, axis=axis, keepdims=keepdims))


@SETTINGS
@given(data=st.data())
def test_cumsum_cumprod_match_numpy(data, device):
    x, a, axis, _ = data.draw(array_and_axes(device))
    if isinstance(axis, tuple):
        axis = axis[0] if axis else None
    # Float scans on a GPU add in another order (module docstring).
    rtol = 1e-4 if on_gpu(device) and x.dtype.kind in "fc" else None
    check(ac.cumsum(a, axis=axis), np.cumsum(x, axis=axis), rtol=rtol)
    check(a.cumprod(axis=axis), np.cumprod(x, axis=axis), rtol=1e-4)


@pytest.mark.parametrize("dtype", DTYPES)
def test_result_dtypes_follow_numpy(dtype, device):
    x = make((3, 4), dtype, np.random.default_rng(0))
    a = ac.asarray(x, device=device)
    for name in ["sum", "prod", "mean", "max", "min", "any", "all", "cumsum", "cumprod"]:
        assert getattr(a, name)().dtype == getattr(np, name)(x).dtype, name
    if dtype != "bool":
        assert a.var().dtype == np.var(x).dtype
        assert a.std().dtype == np.std(x).dtype
    assert a.argmax().dtype == np.int64


@pytest.mark.parametrize("dtype", ["int32", "float32", "complex128", "uint8"])
def test_explicit_dtype_is_the_accumulator_and_converts_as_read(dtype, device):
    x = np.arange(1, 40, dtype=np.int16).reshape(3, 13)
    a = ac.asarray(x, device=device)
    check(ac.sum(a, axis=1, dtype=dtype), np.sum(x, axis=1, dtype=dtype))
    check(ac.prod(a, axis=0, dtype=dtype), np.prod(x, axis=0, dtype=dtype))
    check(ac.mean(a, dtype=dtype), np.mean(x, dtype=dtype))
    check(ac.cumulative_sum(a, axis=1, dtype=dtype), np.cumsum(x, axis=1, dtype=dtype))
    f = np.linspace(-3, 3, 50).reshape(5, 10)
    check(ac.sum(ac.asarray(f, device=device), axis=0, dtype="int16"),
          np.sum(f.astype(np.int16), axis=0, dtype=np.int16))


def test_integer_sums_and_products_wrap_like_numpy(device):
    def on(v):
        return ac.asarray(v, device=device)
    x = np.array([2**62, 2**62, 2**62, 7], dtype=np.int64)
    check(ac.sum(on(x)), np.sum(x))
    check(ac.prod(on(x)), np.prod(x))
    u = np.full(100_000, 2**63 + 5, dtype=np.uint64)
    check(ac.sum(on(u)), np.sum(u))
    s = np.full(3000, 100, dtype=np.int8)
    check(ac.sum(on(s), dtype="int8"), np.sum(s, dtype=np.int8))
    check(ac.cumsum(on(s), dtype="int8"), np.cumsum(s, dtype=np.int8))


def test_empty_reductions(device):
    e = np.zeros((0, 3), dtype=np.float32)
    a = ac.asarray(e, device=device)
    check(ac.sum(a), np.sum(e))
    check(ac.sum(a, axis=0), np.sum(e, axis=0))
    check(ac.prod(a, axis=0), np.prod(e, axis=0))
    check(ac.any(a, axis=0), np.any(e, axis=0))
    check(ac.all(a, axis=0), np.all(e, axis=0))
    check(ac.max(a, axis=1), np.max(e, axis=1))  # nothing reduced per output: no error
    with np.errstate(invalid="ignore"), pytest.warns(RuntimeWarning):
        want = np.mean(e, axis=0)
    check(ac.mean(a, axis=0), want)
    check(ac.cumsum(a, axis=0), np.cumsum(e, axis=0))


@pytest.mark.parametrize("name", ["max", "min", "amax", "amin"])
def test_min_max_of_nothing_raise_value_error_naming_the_op(name, device):
    with pytest.raises(ValueError, match=name.lstrip("a")):
        getattr(ac, name)(ac.asarray(np.zeros((3, 0)), device=device), axis=1)
    with pytest.raises(ValueError, match="zero-size"):
        getattr(ac, name)(ac.asarray(np.zeros((0,)), device=device))


@pytest.mark.parametrize("name", ["argmax", "argmin"])
def test_argmin_argmax_of_nothing_raise_value_error(name, device):
    with pytest.raises(ValueError, match=name):
        getattr(ac, name)(ac.asarray(np.zeros((0, 2)), device=device))
    with pytest.raises(ValueError, match=name):
        getattr(ac, name)(ac.asarray(np.zeros((2, 0)), device=device), axis=1)


def test_nan_propagates_and_argmax_picks_the_first_nan(device):
    x = np.array([[1.0, np.nan, 3.0, np.nan], [np.inf, -np.inf, 2.0, 0.5]], dtype=np.float32)
    a = ac.asarray(x, device=device)
    for axis in [None, 0, 1]:
        check(ac.max(a, axis=axis), np.max(x, axis=axis))
        check(ac.min(a, axis=axis), np.min(x, axis=axis))
        check(ac.argmax(a, axis=axis), np.argmax(x, axis=axis))
        check(ac.argmin(a, axis=axis), np.argmin(x, axis=axis))
        check(ac.sum(a, axis=axis), np.sum(x, axis=axis))
        check(ac.any(a, axis=axis), np.any(x, axis=axis))


def test_first_nan_of_a_long_run_found_in_every_position(device):
    # Positions around vector widths, thread blocks and passes; a second NaN right after.
    base = np.random.default_rng(1).standard_normal(300_000)
    for pos in [0, 15, 16, 255, 256, 4097, 4999, 100_001, 299_999]:
        x = base.copy()
        x[pos] = np.nan
        x[pos + 1 if pos + 1 < x.size else 0] = np.nan
        a = ac.asarray(x, device=device)
        assert np.isnan(ac.asnumpy(ac.max(a)))
        assert int(ac.argmax(a)) == np.argmax(x) and int(ac.argmin(a)) == np.argmin(x)


@pytest.mark.parametrize("view", [lambda n: n, lambda n: n[3:9], lambda n: n[::-2], lambda n: n[4:5],
                                  lambda n: n[::7][1:2], lambda n: n.reshape(3, 4).T, lambda n: n[5]],
                         ids=["1d", "offset", "reversed", "one", "one_strided", "2d_transposed", "0d"])
@pytest.mark.parametrize("name", ["argmax", "argmin"])
def test_argmin_argmax_of_views_without_axis_match_numpy(view, name):
    n = np.array([3, 9, 1, 9, 4, 0, 7, 0, 2, 8, 5, 6], dtype=np.float32)
    got = getattr(view(ac.asarray(n, copy=True)), name)
    want = getattr(view(n), name)
    assert int(got()) == int(want())
    np.testing.assert_array_equal(ac.asnumpy(got(keepdims=True)), want(keepdims=True))


def test_argmax_finds_the_first_of_equal_extremes(device):
    x = np.zeros(1_000_000, dtype=np.int32)
    x[[700, 7000, 300_000, 900_000]] = 5
    x[[10, 20]] = -3
    a = ac.asarray(x, device=device)
    assert int(ac.argmax(a)) == 700 and int(ac.argmin(a)) == 10
    m = np.ascontiguousarray(np.tile(x[:20000], (3, 1)).T)  # reduce along a non-contiguous axis
    check(ac.argmax(ac.asarray(m, device=device), axis=0), np.argmax(m, axis=0))


def test_float32_sum_of_many_values_is_as_accurate_as_numpy(device):
    rng = np.random.default_rng(2)
    # On a GPU enough for several passes of the tree.
    x = (rng.random(10_000_000 if on_gpu(device) else 3_000_000) * 10).astype(np.float32)
    exact = np.sum(x.astype(np.float64))
    ours = float(ac.sum(ac.asarray(x, device=device)))
    assert abs(ours - exact) <= error_allowed(device, abs(float(np.sum(x)) - exact), exact)
    # Down columns (the non-contiguous reduction) and along rows.
    m = x.reshape(-1, 1000)
    am = ac.asarray(m, device=device)
    for axis in (0, 1):
        exact_ax = m.astype(np.float64).sum(axis=axis)
        err_ours = np.abs(ac.asnumpy(ac.sum(am, axis=axis)) - exact_ax).max()
        err_numpy = np.abs(m.sum(axis=axis) - exact_ax).max()
        assert err_ours <= error_allowed(device, err_numpy, exact_ax.max()), (axis, err_ours)
    # A strided view.
    v = x[::3]
    assert abs(float(ac.sum(ac.asarray(x, device=device)[::3])) - np.sum(v.astype(np.float64))) \
        <= error_allowed(device, abs(float(np.sum(v)) - np.sum(v.astype(np.float64))),
                         np.sum(v))
    check_sum(ac.sum(am[:, ::3]), m[:, ::3])


def test_long_scans_match_the_exact_running_sum(device):
    rng = np.random.default_rng(3)
    n = 3_000_000 if on_gpu(device) else 300_000  # on a GPU: multi-pass scans
    cases = [((n,), 0), ((n // 30, 8), 0), ((16, n // 15), 1), ((n // 150, 50), 1)]
    for shape, axis in cases:
        x = rng.random(shape).astype(np.float32)
        exact = np.cumsum(x.astype(np.float64), axis=axis)
        got = ac.asnumpy(ac.cumsum(ac.asarray(x, device=device), axis=axis))
        err_ours = np.abs(got - exact).max()
        err_numpy = np.abs(np.cumsum(x, axis=axis) - exact).max()
        assert err_ours <= error_allowed(device, err_numpy, exact.max()), (shape, err_ours)
        i = rng.integers(-3, 4, size=shape).astype(np.int32)
        check(ac.cumulative_prod(ac.asarray(i % 2 + 1, device=device), axis=axis),
              np.cumprod(i % 2 + 1, axis=axis))
        check(ac.cumsum(ac.asarray(i, device=device), axis=axis), np.cumsum(i, axis=axis))


def test_large_reductions_over_every_axis_use_the_threads_correctly(device):
    rng = np.random.default_rng(3)
    x = rng.standard_normal((300, 257, 9))
    a = ac.asarray(x, device=device)
    for axis in [None, 0, 1, 2, (0, 2), (0, 1), (1, 2)]:
        check_sum(ac.sum(a, axis=axis), x, axis)
        check(ac.max(a, axis=axis), np.max(x, axis=axis))
        check(ac.any(a > 3, axis=axis), np.any(x > 3, axis=axis))
    for axis in [None, 0, 1, 2]:
        check(ac.argmax(a, axis=axis), np.argmax(x, axis=axis))
        check(ac.argmin(a[::-1], axis=axis), np.argmin(x[::-1], axis=axis))
        check(ac.cumsum(a, axis=axis), np.cumsum(x, axis=axis))
    check_sum(ac.sum(a[:, ::2, :]), x[:, ::2, :])
    few = np.random.default_rng(5).standard_normal((1_000_000, 3)).astype(np.float32)
    check_sum(ac.sum(ac.asarray(few, device=device), axis=0), few, 0)


def test_complex_sum_and_lexicographic_max(device):
    x = np.array([1 + 2j, 3 - 1j, 3 + 0j, -1 + 9j], dtype=np.complex64)
    a = ac.asarray(x, device=device)
    check(ac.sum(a), np.sum(x))
    check(ac.max(a), np.max(x))
    check(ac.min(a), np.min(x))
    check(ac.argmax(a), np.argmax(x))
    check(ac.var(a), np.var(x))
    big = (np.random.default_rng(6).standard_normal((2000, 300)) * (1 + 1j)).astype(np.complex128)
    abig = ac.asarray(big, device=device)
    for axis in [None, 0, 1]:
        check_sum(ac.sum(abig, axis=axis), big, axis)
        scan_axis = 1 if axis is None else axis
        check(ac.cumsum(abig, axis=scan_axis), np.cumsum(big, axis=scan_axis), rtol=1e-9, atol=1e-9)


def test_broadcast_input(device):
    x = np.broadcast_to(np.arange(5.0), (1000, 5))
    a = ac.broadcast_to(ac.asarray(np.arange(5.0), device=device), (1000, 5))
    for axis in [None, 0, 1]:
        check(ac.sum(a, axis=axis), np.sum(x, axis=axis))
        check(ac.argmax(a, axis=axis), np.argmax(x, axis=axis))


def test_zero_d_inputs(device):
    x = np.array(3.5)
    a = ac.asarray(x, device=device)
    check(ac.sum(a), np.sum(x))
    check(ac.max(a), np.max(x))
    check(ac.argmax(a), np.argmax(x))
    check(ac.sum(a, axis=()), np.sum(x, axis=()))
    check(ac.cumsum(a), np.cumsum(x))


@pytest.mark.parametrize("dtype", ["bool", "int8", "float32", "complex64"])
def test_nonzero_coordinates_in_c_order(dtype, device):
    rng = np.random.default_rng(5)
    x = make((40, 33, 7), dtype, rng, specials=True)
    if dtype != "bool":
        x[rng.random(x.shape) < 0.6] = 0
    if dtype in ("float32", "complex64"):
        x[0, 0, :3] = [-0.0, np.nan, 0.0]
    a = ac.asarray(x, device=device)
    for xv, av in [(x, a), (x[::-1, :, ::2], a[::-1, :, ::2]), (x.T, a.T)]:
        got = ac.nonzero(av)
        want = np.nonzero(xv)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            check(g, w)
    many = np.arange(10**6) % 7 == 3
    check(ac.nonzero(ac.asarray(many, device=device))[0], np.nonzero(many)[0])
    empty = ac.asarray(np.zeros((5, 0), dtype=dtype), device=device)
    assert [ac.asnumpy(i).shape for i in ac.nonzero(empty)] == [(0,), (0,)]

@pytest.mark.parametrize("density", [0.0, 0.003, 0.3, 0.97, 1.0])
def test_nonzero_of_masks_at_every_density(density, device):
    # Masks and bytes take 8 elements at a time on the CPU: lengths that are no multiple of 8,
    # rows of a 2-d mask, enough elements for every thread, and bool bytes other than 0 and 1
    # (NumPy's view of uint8 memory), which are true.
    rng = np.random.default_rng(6)
    for shape in [(300_007,), (517, 389), (3, 5)]:
        mask = rng.random(shape) < density
        values = (mask * rng.integers(1, 256, size=shape)).astype(np.uint8)
        for x in (mask, values, values.view(np.bool_), values.astype(np.int8)[..., ::-1]):
            a = ac.asarray(x, device=device)
            got = ac.nonzero(a)
            want = np.nonzero(x)
            for g, w in zip(got, want):
                check(g, w)
            assert int(ac.count_nonzero(a)) == np.count_nonzero(x)



def test_cumulative_sum_include_initial(device):
    x = np.arange(1, 13, dtype=np.int32).reshape(3, 4)
    a = ac.asarray(x, device=device)
    got = ac.asnumpy(ac.cumulative_sum(a, axis=1, include_initial=True))
    want = np.concatenate([np.zeros((3, 1), np.int64), np.cumsum(x, axis=1)], axis=1)
    np.testing.assert_array_equal(got, want)
    assert got.dtype == np.int64
    got = ac.asnumpy(ac.cumulative_prod(a, axis=0, include_initial=True))
    want = np.concatenate([np.ones((1, 4), np.int64), np.cumprod(x, axis=0)], axis=0)
    np.testing.assert_array_equal(got, want)
    check(ac.cumulative_sum(ac.asarray(np.arange(4.0), device=device)), np.cumsum(np.arange(4.0)))
    with pytest.raises(ValueError, match="axis"):
        ac.cumulative_sum(a)


def test_out_and_numpy_keywords(device):
    x = np.arange(12.0).reshape(3, 4)
    a = ac.asarray(x, device=device)
    out = ac.asarray(np.zeros((4,)), device=device)
    r = ac.sum(a, axis=0, out=out)
    assert r is out
    check(out, x.sum(axis=0))
    check(ac.var(a, ddof=1), np.var(x, ddof=1))
    check(a.std(axis=1, ddof=1), np.std(x, axis=1, ddof=1))
    with pytest.raises(ValueError, match="ddof and correction"):
        ac.var(a, ddof=1, correction=1)
    check(ac.amax(a, 1), np.amax(x, 1))
    check(ac.amin(a, axis=0, keepdims=True), np.amin(x, axis=0, keepdims=True))
    check(a.sum(0, "float32"), x.sum(0, "float32"))
    check(a.mean(axis=np.int64(1)), x.mean(axis=1))


def test_bad_axes_raise_axis_error(device):
    a = ac.asarray(np.zeros((2, 3)), device=device)
    with pytest.raises(ac.AxisError, match="out of bounds"):
        ac.sum(a, axis=2)
    with pytest.raises(IndexError):
        ac.max(a, axis=-3)
    with pytest.raises(ValueError, match="repeated axis"):
        ac.sum(a, axis=(0, -2))
    with pytest.raises(ac.AxisError):
        ac.argmax(a, axis=5)
    with pytest.raises(ac.AxisError):
        ac.cumsum(a, axis=2)
    with pytest.raises(TypeError):
        ac.argmax(a, axis=(0, 1))


def test_pending_inputs_are_computed_first(device):
    x = np.arange(10.0)
    a = ac.asarray(x, device=device)
    check(ac.sum(a * 2 + 1), np.sum(x * 2 + 1))
    check(ac.max(-a), np.max(-x))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NumPy warns on all-NaN slices
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128", "int32"])
def test_nan_reductions_ignore_nan(dtype, device):
    x = np.array([[1.0, np.nan, 3.0], [np.nan, np.nan, np.nan], [4.0, 5.0, -1.0]])
    if dtype == "int32":
        x = np.array([[1, 2, 3], [4, 5, 6], [7, 8, -9]])
    x = x.astype(dtype)
    a = ac.asarray(x, device=device)
    for axis in [None, 0, 1]:
        check(ac.nansum(a, axis=axis), np.nansum(x, axis=axis))
        check(ac.nanprod(a, axis=axis), np.nanprod(x, axis=axis))
        check(ac.nanmean(a, axis=axis), np.nanmean(x, axis=axis))
        check(ac.nanvar(a, axis=axis, ddof=1), np.nanvar(x, axis=axis, ddof=1))
        check(ac.nanstd(a, axis=axis), np.nanstd(x, axis=axis))
        if dtype != "complex128":
            check(ac.nanmax(a, axis=axis), np.nanmax(x, axis=axis))
            check(ac.nanmin(a, axis=axis), np.nanmin(x, axis=axis))
    check(ac.nancumsum(a, axis=1), np.nancumsum(x, axis=1))
    check(ac.nanargmax(a, axis=0), np.nanargmax(x, axis=0))
    check(ac.nanargmin(a, axis=0), np.nanargmin(x, axis=0))
    if dtype != "int32":
        with pytest.raises(ValueError, match="All-NaN"):
            ac.nanargmax(a, axis=1)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NumPy warns on inf - inf
@pytest.mark.parametrize("dtype", ["float16", "float64", "complex128"])
def test_nan_variance_of_infinities_is_nan_as_numpys(dtype, device):
    """An inf's deviation from the mean (inf - inf) is NaN, not a NaN to ignore: accel dropped it
    and answered 0 or inf (fuzz seeds 1240096, 1240680); lanes of at most ddof elements are NaN."""
    x = np.array([[np.inf, np.nan, np.nan], [1.0, -np.inf, 2.0], [np.nan, 3.0, 4.0]], dtype=dtype)
    a = ac.asarray(x, device=device)
    for axis in [None, 0, 1]:
        for ddof in [0, 1, 2]:
            check(ac.nanvar(a, axis=axis, ddof=ddof), np.nanvar(x, axis=axis, ddof=ddof))
            check(ac.nanstd(a, axis=axis, ddof=ddof), np.nanstd(x, axis=axis, ddof=ddof))



@pytest.mark.parametrize("dtype", ["complex64", "complex128", "float32", "int64", "bool"])
def test_runs_of_every_length_through_the_vector_paths(dtype, device):
    rng = np.random.default_rng(4)
    for n in [1, 7, 31, 32, 33, 64, 127, 255, 256, 257, 1000, 5000]:
        x = make((n,), dtype, rng)
        a = ac.asarray(x, device=device)
        check(ac.sum(a), np.sum(x), rtol=1e-5)
        check(ac.any(a), np.any(x))
        check(ac.all(a), np.all(x))
        if dtype != "bool":
            check(ac.max(a), np.max(x))
        m = make((n, 3), dtype, rng)
        check(ac.any(ac.asarray(m, device=device), axis=0), np.any(m, axis=0))
        check(ac.all(ac.asarray(m, device=device), axis=0), np.all(m, axis=0))


def assert_same_complex(got, want):
    """Equal part by part: NaN where NumPy has NaN, otherwise the same value and sign of zero."""
    got, want = ac.asnumpy(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape, want.shape)
    for part in (np.real, np.imag):
        g, w = part(got), part(want)
        np.testing.assert_array_equal(np.isnan(g), np.isnan(w), err_msg=f"{got} != {want}")
        np.testing.assert_array_equal(g[~np.isnan(g)], w[~np.isnan(w)])
        np.testing.assert_array_equal(np.signbit(g[~np.isnan(g)]), np.signbit(w[~np.isnan(w)]))


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_products_that_overflow_or_meet_inf_or_nan_give_numpys_parts(dtype, device):
    # NumPy multiplies complex numbers by the textbook formula, factor after factor: an
    # overflow or an inf turns into NaN parts (C's Annex G product would recover infinities).
    # (Values whose answer does not depend on whether a multiply-add is fused: NumPy's SIMD
    # loops fuse them, its scalar loops do not, and so with accel's vectorised and plain loops.)
    if on_gpu(device):
        pytest.skip("which factors meet an overflow depends on their order: NumPy's on the CPU, "
                    "a tree's on a GPU (module docstring)")
    big = float(np.finfo(dtype).max) / 2
    inf, nan = np.inf, np.nan
    x = np.array([[complex(big, 1), 4 + 1j, 1 + 1j, 0.3 + 0j],
                  [complex(inf, 0), 2 + 1j, 1, 1],
                  [2 + 1j, 1, 1, complex(inf, 0)],
                  [complex(1, nan), 1, 2, 3],
                  [complex(1, inf), -1j, 1e-3, 1]], dtype=dtype)
    a = ac.asarray(x, device=device)
    with np.errstate(all="ignore"):
        for axis in [None, 0, 1]:
            assert_same_complex(ac.prod(a, axis=axis), np.prod(x, axis=axis))
        for axis in [0, 1]:
            assert_same_complex(ac.cumprod(a, axis=axis), np.cumprod(x, axis=axis))
            assert_same_complex(ac.cumprod(ac.asarray(x.T.copy(), device=device).T, axis=axis),
                                np.cumprod(x, axis=axis))
        # Runs long enough for the vectorised paths: NumPy's order of the factors is kept.
        long = np.ones(100, dtype)
        long[[40, 41, 97]] = [complex(big, 1), 4 + 1j, 0.3 + 0j]
        assert_same_complex(ac.prod(ac.asarray(long, device=device)), np.prod(long))
        assert_same_complex(ac.cumprod(ac.asarray(long, device=device)), np.cumprod(long))


def test_cumulative_sums_and_products_start_from_the_first_element(device):
    # NumPy's accumulate copies the first element: no identity is combined with it.
    z = np.array([complex(np.inf, 0), 2 + 1j], dtype=np.complex128)
    with np.errstate(all="ignore"):
        assert_same_complex(ac.cumprod(ac.asarray(z, device=device)), np.cumprod(z))
    m = np.array([[-0.0, -0.0], [-0.0, 1.0]])
    for axis in [0, 1]:
        got = ac.asnumpy(ac.cumsum(ac.asarray(m, device=device), axis=axis))
        np.testing.assert_array_equal(np.signbit(got), np.signbit(np.cumsum(m, axis=axis)))


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_extremes_keep_the_first_nan_of_either_part(dtype, device):
    # A NaN only in the imaginary part is a NaN: min/max return the first such value and
    # argmin/argmax its position, as for real NaNs.
    nan = np.nan
    base = [complex(0.25, nan), 4.25 - 14.1j, 4.13 + 1.1j, complex(nan, 3.375), -8.65 + 0.25j,
            complex(2.5, nan)]
    rng = np.random.default_rng(7)
    cases = [np.array(base, dtype), np.array(base[::-1], dtype),
             np.array([[complex(0.75, nan), -8.65 + 0.25j]], dtype)]
    for n, spots in [(40, [5, 30]), (1000, [300, 999]), (5000, [4097, 17])]:
        x = (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(dtype)
        x[spots[0]] = complex(1.5, nan)
        x[spots[1]] = complex(nan, -2.0)
        cases.append(x)
    for x in cases:
        a = ac.asarray(x, device=device)
        axes = [None, (1, 0), 0, 1] if x.ndim == 2 else [None, 0]
        for axis in axes:
            assert_same_complex(ac.max(a, axis=axis), np.max(x, axis=axis))
            assert_same_complex(ac.min(a, axis=axis), np.min(x, axis=axis))
            if not isinstance(axis, tuple):
                check(ac.argmax(a, axis=axis), np.argmax(x, axis=axis))
                check(ac.argmin(a, axis=axis), np.argmin(x, axis=axis))
    # Down columns (rows folded into the running extremes) and along a strided view.
    m = np.tile(np.array(base, dtype), (3, 1)).T.copy()
    for axis in [0, 1]:
        assert_same_complex(ac.max(ac.asarray(m, device=device), axis=axis), np.max(m, axis=axis))
        check(ac.argmin(ac.asarray(m, device=device), axis=axis), np.argmin(m, axis=axis))
    v = cases[3][::-3]
    assert_same_complex(ac.min(ac.asarray(cases[3], device=device)[::-3]), np.min(v))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_long_float_sums_are_pairwise_accurate(dtype, device):
    # On the CPU contiguous float sums fold blocks of 1024 pairwise as vectors (reduce_ops.h,
    # pairwise_vector_sum); a GPU's tree is as accurate: 2**24 + 10 ones is exact in float32 (a
    # single running total stops at 2**24), and random sums of every length around the block
    # size stay within a few ulp of the exact sum (a running total per lane drifts far past
    # that), split over threads or not.
    ones = ac.ones(2**24 + 10, dtype=dtype, device=device)
    assert float(ones.sum()) == 2**24 + 10
    # 1 + 2**-14 per element: a running total past 2**17 drops the 2**-7 part of each block's
    # 128 + 2**-7 per lane (a total per lane over the blocks is off by about 500 ulp);
    # pairwise folds keep every bit.
    v = 1 + 2.0**-14
    got = float(ac.asarray(np.full(2**24 + 10, v, dtype=dtype), copy=True, device=device).sum())
    assert abs(got - (2**24 + 10) * v) <= 4 * np.finfo(dtype).eps * (2**24 + 10) * v
    rng = np.random.default_rng(5)
    for n in [1023, 1024, 1025, 2048 * 3 + 5, 65536 * 2 + 1, 1_000_003]:
        xn = rng.random(n).astype(dtype)
        for view in (slice(None), slice(1, None)):
            got = float(ac.asarray(xn[view], copy=True, device=device).sum())
            want = float(np.sum(xn[view].astype(np.float64)))
            assert abs(got - want) <= 8 * np.finfo(dtype).eps * want, (n, got, want)


@pytest.mark.parametrize("shape", [(1,), (7,), (3, 4), (2, 1, 5), (4, 1), (1, 1)])
@pytest.mark.parametrize("name", ["sum", "prod", "max", "min", "argmax", "argmin", "any", "all"])
def test_whole_reduction_of_a_contiguous_array_equals_numpy(name, shape):
    # Reducing every axis of a C-contiguous array takes the planner's shortcut (one run of
    # adjacent elements, reduce_layout.cpp): positions in C order, NaN first, ties the first.
    rng = np.random.default_rng(sum(shape))
    x = rng.integers(-3, 4, shape).astype(np.float32)
    if x.size > 2:
        x.reshape(-1)[x.size // 2] = np.nan
    for values in (x, np.nan_to_num(x, nan=3.0)):
        with np.errstate(invalid="ignore"):
            expected = getattr(values, name)()
        got = ac.asnumpy(getattr(ac.asarray(values, copy=True), name)())
        assert got.dtype == expected.dtype
        np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("shape", [(0,), (2, 0), (0, 3)])
@pytest.mark.parametrize("name", ["sum", "prod", "any", "all", "max", "argmax"])
def test_whole_reduction_of_an_empty_contiguous_array_equals_numpy(name, shape):
    # Empty inputs stay with the general planner: the identity, or NumPy's ValueError.
    x = np.zeros(shape, np.float32)
    a = ac.asarray(x, copy=True)
    if name in ("max", "argmax"):
        with pytest.raises(ValueError):
            getattr(x, name)()
        with pytest.raises(ValueError):
            getattr(a, name)()
        return
    expected = getattr(x, name)()
    got = ac.asnumpy(getattr(a, name)())
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)


# Reductions of pending elementwise chains: on the CPU the chain's values are computed in blocks
# and reduced there, never stored (cpu/reduce_kernel.cpp); other devices store, then reduce.
# Trailing axes with short rows (whole outputs per block) and long ones (each cut into partial
# blocks), leading axes (rows of outputs, combined per thread; rows longer than a block cut into
# columns, each a thread's own), every op that takes that path and the ones that decline it
# (other axes, float16 sums), compared with the same reduction of the stored chain (fusion off)
# and with NumPy.
CHAINS = {
    "x * 2 + 1": lambda m, x: x * 2 + 1,
    "x > 0.3": lambda m, x: x > 0.3,
    "sin(x) * x": lambda m, x: m.sin(x) * x,
    "abs(x - 0.5) as float64": lambda m, x: m.abs(x - 0.5).astype(m.float64),
}



@pytest.mark.parametrize("shape,axis", [((70000,), None), ((3, 7001), -1), ((3, 7001), None),
                                        ((20001, 3), 1), ((2, 3, 20000), (1, 2)),
                                        ((2, 3, 20000), 0), ((5,), None), ((20001, 3), 0),
                                        ((400, 50, 30), (0, 1)), ((3000, 700), 0),
                                        ((7, 9, 5), (0, 2)), ((40, 5, 6), 0),
                                        ((2, 3, 20000), -1), ((60, 5, 40), 2),
                                        ((9, 20001), 0), ((17, 5000, 7), 0)])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "float16", "complex64"])
def test_reductions_of_pending_chains_match_the_stored_chain_and_numpy(shape, axis, dtype, device):
    rng = np.random.default_rng(zlib.crc32(repr((shape, axis, dtype)).encode()))
    xn = (rng.random(shape) * 4 - 1).astype(dtype) if dtype != "int32" else \
        rng.integers(-3, 4, shape).astype(dtype)
    if np.dtype(dtype).kind == "f":
        xn.flat[::997] = np.nan
        xn.flat[5::997] = -0.0
    x = ac.asarray(xn, device=device)
    ac.set_eager_small(False)
    try:
        for name, chain in CHAINS.items():
            if dtype == "complex64" and ">" in name:
                continue
            with np.errstate(all="ignore"):
                want_chain = chain(np, xn)
            for op in ("sum", "max", "min", "any", "all", "mean", "count_nonzero", "prod"):
                if op in ("max", "min") and want_chain.dtype.kind == "c":
                    continue
                reduce = getattr(ac, op)
                kwargs = {} if op == "count_nonzero" else {"keepdims": axis == -1}
                got = ac.asnumpy(reduce(chain(ac, x), axis=axis, **kwargs))
                ac.set_fusion(False)
                try:
                    stored = ac.asnumpy(reduce(chain(ac, x), axis=axis, **kwargs))
                finally:
                    ac.set_fusion(True)
                with np.errstate(all="ignore"):
                    want = getattr(np, op)(want_chain, axis=axis, **kwargs)
                assert got.dtype == want.dtype and got.shape == want.shape, (name, op)
                exact = op in ("max", "min", "any", "all", "count_nonzero") or \
                    want.dtype.kind in "biu"
                if exact:
                    np.testing.assert_array_equal(got, stored, err_msg=f"{name} {op}")
                    if "sin" not in name:
                        np.testing.assert_array_equal(got, want, err_msg=f"{name} {op}")
                    else:  # accel's sin and NumPy's may differ in the last place
                        np.testing.assert_allclose(got, want, rtol=2e-3 if dtype == "float16"
                                                   else 1e-6, err_msg=f"{name} {op}")
                else:
                    rtol = {np.float16: 2e-3, np.float64: 1e-12, np.complex128: 1e-12}.get(
                        want.dtype.type, 2e-5)
                    # products of thousands of values below 1 end in subnormals, whose bits
                    # depend on the grouping: compared down to the smallest normal number
                    atol = np.finfo(want.dtype).tiny if op == "prod" else 0
                    np.testing.assert_allclose(got, stored, rtol=rtol, atol=atol,
                                               err_msg=f"{name} {op}")
                    if not (op == "prod" and dtype == "float16"):
                        # (NumPy multiplies float16 in float16 and overflows where accel's
                        # float32 accumulator does not)
                        np.testing.assert_allclose(got, want, rtol=10 * rtol, atol=atol,
                                                   err_msg=f"{name} {op}")
    finally:
        ac.set_eager_small(True)


def test_a_reduced_pending_chain_stays_pending_and_sees_no_later_write(device):
    """The reduction leaves its input pending: reading it later computes it, and a write into
    what it reads first computes it with the old values."""
    an = np.linspace(0, 1, 50000, dtype=np.float32)
    a = ac.asarray(an, copy=True, device=device)
    y = a * 2
    assert float(ac.sum(y)) == pytest.approx(float(np.sum(an * 2)), rel=1e-5)
    assert float(ac.max(y)) == 2.0
    a[0] = 100.0
    np.testing.assert_array_equal(ac.asnumpy(y), an * 2)
    assert float(ac.max(a * 2)) == 200.0


def test_var_and_std_of_large_arrays_read_them_in_one_fused_pass(device):
    rng = np.random.default_rng(3)
    xn = rng.standard_normal((300, 5000)).astype(np.float32) * 3 + 7
    x = ac.asarray(xn, device=device)
    for axis in (None, 1, 0):
        np.testing.assert_allclose(ac.asnumpy(ac.var(x, axis=axis)), np.var(xn, axis=axis), rtol=1e-4)
        np.testing.assert_allclose(ac.asnumpy(ac.std(x, axis=axis, correction=1)),
                                   np.std(xn, axis=axis, ddof=1), rtol=1e-4)


def test_the_profiler_shows_one_fused_reduction_kernel():
    a = ac.asarray(np.ones(100000, np.float32), copy=True)
    with ac.profile() as p:
        ac.sum(ac.sin(a) * a).eval()
    kernels = [e["name"] for e in p.events if e["kind"] == "kernel"]
    assert kernels == ["sum(fused(sin+multiply))"]


@pytest.mark.parametrize("n", [0, 1, 31, 32, 33, 255 * 32, 255 * 32 + 5, 300 * 32 + 1, 100003])
def test_counts_of_bool_arrays_match_numpy_at_every_length(n, device):
    """A contiguous bool run is counted 32 bytes at a time (reduce_ops.h, count_nonzero_bytes):
    lengths around the vector and the byte counters' 255-vector limit, narrower accumulators
    wrapping as NumPy's, a strided view beside it."""
    mask = np.random.default_rng(n).random(n) < 0.7
    m = ac.asarray(mask, device=device)
    assert int(ac.count_nonzero(m)) == np.count_nonzero(mask)
    assert int(ac.sum(m)) == int(mask.sum())
    for dtype in ("int8", "uint16", "int32", "uint64"):
        assert int(ac.sum(m, dtype=getattr(ac, dtype))) == int(mask.sum(dtype=dtype)), dtype
    assert int(ac.sum(m[::3])) == int(mask[::3].sum())
    if n:
        two = np.resize(mask, (2, n))
        np.testing.assert_array_equal(ac.asnumpy(ac.sum(ac.asarray(two, device=device), axis=1)),
                                      two.sum(axis=1))
