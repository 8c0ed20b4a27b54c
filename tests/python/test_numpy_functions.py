"""NumPy functions outside the Array API composed in python/accel/_numpy_functions.py, against
NumPy: dtypes, special values, empty and 0-d arrays, offsets and axes."""

import numpy as np
import pytest

import accel as ac

rng = np.random.default_rng(11)
SPECIAL = np.array([0.0, -0.0, 1.0, -1.5, np.nan, np.inf, -np.inf, 1e-300, 1e300])
DTYPES = ["bool", "int8", "uint16", "int64", "float32", "float64", "complex64", "complex128"]


def sample(dt, shape=(4, 9)):
    dt = np.dtype(dt)
    if dt == bool:
        return rng.random(shape) < 0.5
    if dt.kind in "iu":
        return rng.integers(0, 50, shape).astype(dt)
    v = rng.permutation(np.resize(SPECIAL, shape).ravel()).reshape(shape)
    if dt.kind == "c":
        v = v + 1j * rng.permutation(v.ravel()).reshape(shape)
    with np.errstate(all="ignore"):
        return v.astype(dt)


def same(got, want):
    got = ac.asnumpy(got) if isinstance(got, ac.ndarray) else got
    want = np.asarray(want)
    assert np.asarray(got).dtype == want.dtype
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("equal_nan", [False, True])
def test_isclose_allclose(dt, equal_nan, device):
    a = sample(dt)
    with np.errstate(all="ignore"):
        b = a.copy() if dt == "bool" else (a + (a * 1e-7).astype(a.dtype) if np.dtype(dt).kind in "fc" else a + 1)
    x, y = ac.asarray(a, device=device), ac.asarray(b, device=device)
    with np.errstate(all="ignore"):
        same(ac.isclose(x, y, equal_nan=equal_nan), np.isclose(a, b, equal_nan=equal_nan))
        same(ac.isclose(x, y, rtol=0, atol=2), np.isclose(a, b, rtol=0, atol=2))
        assert ac.allclose(x, x, equal_nan=equal_nan) == np.allclose(a, a, equal_nan=equal_nan)
        assert ac.allclose(x, y) == np.allclose(a, b)


@pytest.mark.parametrize("dt", DTYPES)
def test_array_equal_and_equiv(dt, device):
    a = sample(dt)
    x = ac.asarray(a, device=device)
    for b in (a, a[:, ::-1], a[:2], a[:1]):
        y = ac.asarray(b, device=device)
        for equal_nan in (False, True):
            assert ac.array_equal(x, y, equal_nan=equal_nan) == np.array_equal(a, b, equal_nan=equal_nan)
        assert ac.array_equiv(x, y) == np.array_equiv(a, b)
    assert ac.array_equiv(x[:1], ac.asarray(a[:1, :1], device=device)) == np.array_equiv(a[:1], a[:1, :1])


@pytest.mark.parametrize("dt", ["float32", "float64", "complex64", "complex128", "int16", "bool"])
def test_nan_to_num(dt, device):
    a = sample(dt)
    x = ac.asarray(a, device=device)
    same(ac.nan_to_num(x), np.nan_to_num(a))
    same(ac.nan_to_num(x, nan=-1.0, posinf=7.0, neginf=-7.0),
         np.nan_to_num(a, nan=-1.0, posinf=7.0, neginf=-7.0))
    r = ac.nan_to_num(x, copy=False)
    assert r is x
    same(x, np.nan_to_num(a))


@pytest.mark.parametrize("shape,axes", [((3, 5), (0, 1)), ((4, 4), (1, 0)), ((2, 3, 4), (0, 2)),
                                        ((2, 3, 4), (2, 1)), ((0, 3), (0, 1))])
@pytest.mark.parametrize("offset", [-3, -1, 0, 2, 6])
def test_diagonal_and_trace(shape, axes, offset, device):
    a = rng.integers(-9, 9, shape).astype(np.int32)
    x = ac.asarray(a, device=device)
    same(ac.diagonal(x, offset, *axes), np.diagonal(a, offset, *axes))
    same(ac.trace(x, offset, *axes), np.trace(a, offset, *axes))
    same(ac.trace(x, offset, *axes, dtype=ac.float32), np.trace(a, offset, *axes, dtype=np.float32))
    with pytest.raises(ValueError):
        ac.diagonal(ac.asarray([1, 2], device=device))


@pytest.mark.parametrize("order", ["C", "F"])
def test_diagonal_is_a_read_only_view_as_numpys(order, device):
    a = np.asarray(np.arange(60.0).reshape(3, 4, 5), order=order)
    x = ac.asarray(a, device=device)
    assert x.strides == a.strides
    for offset, axes in ((0, (0, 1)), (1, (2, 1)), (-2, (1, 2)), (2, (0, -1)), (9, (0, 1))):
        d, want = ac.diagonal(x, offset, *axes), np.diagonal(a, offset, *axes)
        assert d.shape == want.shape and d.strides == want.strides
        same(d, want)
        assert not d.flags.writeable
        with pytest.raises(ValueError, match="read-only"):
            d[...] = 0
    # A view, not a copy: later writes into x show in it (accel's copy kept the old values).
    d, want = x.diagonal(1, 1, 2), a.diagonal(1, 1, 2)
    x[:, 1, 2] = -7.0
    a[:, 1, 2] = -7.0
    same(d, want)
    same(ac.linalg.diagonal(x[..., ::-1], offset=-1), np.linalg.diagonal(a[..., ::-1], offset=-1))
    same(ac.diagonal(x * 2), np.diagonal(a * 2))  # of a pending array: computed first
    with pytest.raises(ValueError, match="cannot be the same"):
        ac.diagonal(x, 0, 1, -2)


@pytest.mark.parametrize("dt", ["int32", "float32", "float64", "complex64"])
def test_average(dt, device):
    a = rng.integers(-5, 5, (3, 4)).astype(dt)
    w = rng.integers(1, 4, 4).astype(np.float32)
    x = ac.asarray(a, device=device)
    np.testing.assert_allclose(ac.asnumpy(ac.average(x)), np.average(a), rtol=1e-6)
    assert ac.asnumpy(ac.average(x)).dtype == np.average(a).dtype
    got, want = ac.average(x, axis=1, weights=ac.asarray(w, device=device)), np.average(a, axis=1, weights=w)
    assert ac.asnumpy(got).dtype == want.dtype
    np.testing.assert_allclose(ac.asnumpy(got), want, rtol=1e-6)
    g, s = ac.average(x, axis=0, weights=ac.asarray(np.ones((3, 4)), device=device), returned=True)
    wg, ws = np.average(a, axis=0, weights=np.ones((3, 4)), returned=True)
    np.testing.assert_allclose(ac.asnumpy(g), wg, rtol=1e-6)
    np.testing.assert_allclose(ac.asnumpy(s), ws)
    with pytest.raises(ZeroDivisionError):
        ac.average(x, axis=1, weights=ac.zeros(4, device=device))
    with pytest.raises(ValueError):
        ac.average(x, axis=1, weights=ac.ones(3, device=device))


# int16, not int8: NumPy's angle of int8 is float16, which accel does not have yet.
@pytest.mark.parametrize("dt", ["float32", "float64", "complex64", "complex128", "int16"])
def test_angle_ptp_and_queries(dt, device):
    a = sample(dt) if dt != "int16" else (sample(dt) - 25).astype(dt)
    x = ac.asarray(a, device=device)
    with np.errstate(all="ignore"):
        want = np.angle(a)
    got = ac.asnumpy(ac.angle(x))
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-6, equal_nan=True)
    np.testing.assert_allclose(ac.asnumpy(ac.angle(x, deg=True)), np.angle(a, deg=True), rtol=1e-6,
                               equal_nan=True)
    if np.dtype(dt).kind != "c":
        with np.errstate(all="ignore"):
            same(ac.ptp(x, axis=1), np.ptp(a, axis=1))
    assert ac.ndim(x) == 2 and ac.shape(x) == (4, 9) and ac.size(x) == 36 and ac.size(x, 0) == 4
    assert ac.iscomplexobj(x) == np.iscomplexobj(a) and ac.isrealobj(x) == np.isrealobj(a)
    c = ac.copy(x)
    assert c is not x
    same(c, a)
    assert ac.ndim(5.0) == 0 and ac.shape([[1, 2]]) == (1, 2)


@pytest.mark.parametrize("order", ["C", "F"])
def test_unravel_index(order, device):
    shape = (3, 4, 5)
    idx = rng.integers(0, 60, 17)
    got = ac.unravel_index(ac.asarray(idx, device=device), shape, order=order)
    want = np.unravel_index(idx, shape, order=order)
    assert len(got) == 3
    for g, w in zip(got, want):
        same(g, w.astype(np.int64))
    same(ac.unravel_index(ac.asarray(7, device=device), (2, 5))[1], np.int64(2))
    with pytest.raises(ValueError):
        ac.unravel_index(ac.asarray([60], device=device), shape)
    with pytest.raises(TypeError):
        ac.unravel_index(ac.asarray([1.0], device=device), shape)


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_ravel_multi_index(order, mode, device):
    dims = (3, 4, 5)
    coords = [rng.integers(-2 if mode != "raise" else 0, n + (2 if mode != "raise" else 0), 11)
              for n in dims]
    got = ac.ravel_multi_index(tuple(ac.asarray(c, device=device) for c in coords), dims,
                               mode=mode, order=order)
    same(got, np.ravel_multi_index(coords, dims, mode=mode, order=order).astype(np.int64))
    if mode == "raise":
        with pytest.raises(ValueError):
            ac.ravel_multi_index((ac.asarray([3]), ac.asarray([0]), ac.asarray([0])), dims)


def test_ascontiguousarray(device):
    a = np.arange(12.0).reshape(3, 4)
    x = ac.asarray(a, device=device)
    for view in (x, x.T, x[:, ::2], x[::-1], x[1:2]):
        c = ac.ascontiguousarray(view)
        want = np.ascontiguousarray(ac.asnumpy(view))
        assert c.strides == want.strides and c.device == x.device
        np.testing.assert_array_equal(ac.asnumpy(c), want)
    assert ac.ascontiguousarray(ac.asarray(2.5, device=device)).shape == (1,)  # ndim >= 1
    assert ac.ascontiguousarray([1, 2], dtype=ac.float32).dtype == ac.float32


def _cross_pairs():
    # (a's shape, b's shape, keyword axes): 3- and 2-element vectors, broadcasting of the other
    # axes, vectors along other axes than the last.
    return [((5, 3), (5, 3), {}), ((4, 1, 3), (6, 3), {}), ((3,), (2, 3), {}),
            ((3, 4), (4, 3), {"axisa": 0}), ((2, 3, 5), (3, 5), {"axis": -2}),
            ((3, 7), (7, 3), {"axisa": 0, "axisb": 1, "axisc": 0}),
            ((0, 3), (1, 3), {}), ((6, 2), (6, 2), {}), ((6, 2), (6, 3), {"axisc": 0}),
            ((3, 6), (6, 2), {"axisa": 0})]


@pytest.mark.parametrize("dt", [d for d in DTYPES if d != "bool"] + ["float16"])
@pytest.mark.parametrize("shapes", _cross_pairs(), ids=str)
def test_cross_matches_numpy(dt, shapes, device):
    sa, sb, axes = shapes
    a, b = sample(dt, sa), sample(dt, sb)
    if np.dtype(dt).kind in "iu":  # large enough to wrap around in the products
        a, b = (v * np.array(7, dt) + np.array(100, dt) for v in (a, b))
    x, y = ac.asarray(a, device=device), ac.asarray(b, device=device)
    two = sa[axes.get("axisa", axes.get("axis", -1))] == 2 or sb[axes.get("axisb", axes.get("axis", -1))] == 2
    with np.errstate(all="ignore"), pytest.warns(DeprecationWarning) if two else _no_warning():
        got = ac.cross(x, y, **axes)
    with np.errstate(all="ignore"), pytest.warns(DeprecationWarning) if two else _no_warning():
        want = np.cross(a, b, **axes)
    same(got, want)
    # NumPy's own cross answers for accel arrays (through __array_function__).
    with np.errstate(all="ignore"), pytest.warns(DeprecationWarning) if two else _no_warning():
        same(np.cross(x, y, **axes), want)


def _no_warning():
    import contextlib
    import warnings

    @contextlib.contextmanager
    def guard():
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            yield
    return guard()


def test_cross_refuses_what_numpy_refuses(device):
    v3, v4 = ac.ones((3,), device=device), ac.ones((4,), device=device)
    with pytest.raises(ValueError, match="2 or 3 elements"):
        ac.cross(v3, v4)
    with pytest.raises(ac.AxisError, match="axisa 2"):
        ac.cross(v3, v3, axisa=2)
    with pytest.raises(ac.AxisError, match="axisc 3"):
        ac.cross(ac.ones((2, 3), device=device), v3, axisc=3)
    with pytest.raises(ValueError, match="at least one dimension"):
        ac.cross(v3, ac.asarray(5.0, device=device))
    with pytest.raises(ValueError):  # the other axes do not broadcast
        ac.cross(ac.ones((2, 3), device=device), ac.ones((4, 3), device=device))
    with pytest.raises(TypeError):  # NumPy: boolean subtract is not supported
        ac.cross(ac.ones((3,), dtype=ac.bool, device=device), ac.ones((3,), dtype=ac.bool, device=device))
