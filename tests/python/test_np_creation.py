"""NumPy's array-building functions composed in python/accel/_np_creation.py, against NumPy:
dtypes, special values, empty and 0-d arrays, negative axes, errors and NumPy's dispatch."""

import warnings

import numpy as np
import pytest

import accel as ac
from numpy_errors import both_raise

rng = np.random.default_rng(23)
SPECIAL = np.array([0.0, -0.0, 1.0, -1.5, np.nan, np.inf, -np.inf, 2.5, 1e300])
DTYPES = ["bool", "int8", "int64", "uint16", "float32", "float64", "complex128"]


def sample(dt, shape):
    dt = np.dtype(dt)
    if dt == bool:
        return rng.random(shape) < 0.5
    if dt.kind in "iu":
        return rng.integers(0, 50, shape).astype(dt)
    v = rng.choice(SPECIAL, shape)
    with np.errstate(all="ignore"):
        if dt.kind == "c":
            v = v + 1j * rng.choice(SPECIAL, shape)
        return v.astype(dt)


def random_shape(ndim, low=0, high=5):
    return tuple(int(n) for n in rng.integers(low, high, ndim))


def host(x):
    assert isinstance(x, ac.ndarray), type(x)
    return ac.asnumpy(x)


def on(x, device):
    assert str(x.device) == device
    return x


def same(got, want, device=None, signed_zeros=True):
    """Equal values (signs of zeros too, unless signed_zeros is False) and dtype; got an accel
    array on device."""
    if device is not None:
        on(got, device)
    got, want = host(got), np.asarray(want)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_array_equal(got, want)
    if want.dtype.kind in "fc" and signed_zeros:
        np.testing.assert_array_equal(np.signbit(got.real), np.signbit(want.real))


def close(got, want, rtol=1e-12, device=None):
    if device is not None:
        on(got, device)
    got, want = host(got), np.asarray(want)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=0, equal_nan=True)


# accel's AxisError is a ValueError and an IndexError, as NumPy's is, but not NumPy's class.
AXIS_ERROR = (ac.AxisError, np.exceptions.AxisError)


# ---- array, asanyarray, asarray_chkfinite -------------------------------------------------------

@pytest.mark.parametrize("dt", DTYPES)
def test_array_copies_by_default_and_adds_ndmin_axes(dt, device):
    a = sample(dt, (3, 4))
    x = ac.asarray(a, device=device)
    r = ac.array(x)
    same(r, np.array(a), device)
    r[...] = ac.zeros_like(r)
    same(x, a)  # the copy is independent of x
    same(ac.array(x, ndmin=4), np.array(a, ndmin=4), device)
    same(ac.array(a.tolist(), dtype=dt, device=device), np.array(a.tolist(), dtype=dt), device)
    wider = "int64" if dt in ("bool", "int8", "uint16", "int64") else "complex128"
    same(ac.array(x, dtype=wider), np.array(a, dtype=wider), device)
    assert ac.array(x, copy=False) is x or ac.shares_memory(ac.array(x, copy=False), x)
    same(ac.array(3, ndmin=2, device=device), np.array(3, ndmin=2), device)
    same(ac.asanyarray(x), np.asanyarray(a), device)


def test_array_errors_and_numpy_like_dispatch(device):
    x = ac.asarray([1.0, 2.0], device=device)
    both_raise(ValueError, lambda: ac.array([1, 2], copy=False),
               lambda: np.array([1, 2], copy=False))
    with pytest.raises(ValueError, match="order must be one of"):
        ac.array(x, order="Q")
    with pytest.raises(ValueError, match="ndmax"):
        ac.array([[1, 2]], ndmax=1)
    same(np.array([[1, 2]], like=x), np.array([[1, 2]]), device)
    same(np.array([1, 2], ndmin=3, like=x), np.array([1, 2], ndmin=3), device)
    same(np.asanyarray([1.5], like=x), np.asanyarray([1.5]), device)


@pytest.mark.parametrize("dt", ["int8", "float32", "float64", "complex128"])
def test_asarray_chkfinite_rejects_inf_and_nan(dt, device):
    a = np.arange(6).astype(dt)
    same(ac.asarray_chkfinite(ac.asarray(a, device=device)), np.asarray_chkfinite(a), device)
    if np.dtype(dt).kind in "fc":
        for bad in (np.nan, np.inf, -np.inf):
            b = a.copy()
            b[2] = bad
            both_raise(ValueError, lambda: ac.asarray_chkfinite(ac.asarray(b, device=device)),
                       lambda: np.asarray_chkfinite(b))


# ---- append, delete, insert, resize -------------------------------------------------------------

@pytest.mark.parametrize("dt", DTYPES)
def test_append_flattens_or_joins_along_axis(dt, device):
    for ndim in (0, 1, 2, 3):
        a = sample(dt, random_shape(ndim))
        v = sample("float64", random_shape(2))
        x = ac.asarray(a, device=device)
        same(ac.append(x, ac.asarray(v, device=device)), np.append(a, v), device)
        same(ac.append(x, [1, 2]), np.append(a, [1, 2]), device)
        if ndim:
            axis = int(rng.integers(-ndim, ndim))
            same(ac.append(x, x, axis=axis), np.append(a, a, axis=axis), device)
    a = sample(dt, (2, 3))
    both_raise(ValueError, lambda: ac.append(ac.asarray(a, device=device), [[1, 2]], axis=0),
               lambda: np.append(a, [[1, 2]], axis=0))


@pytest.mark.parametrize("dt", DTYPES)
def test_delete_ints_slices_lists_and_masks(dt, device):
    a = sample(dt, (4, 5, 3))
    x = ac.asarray(a, device=device)
    cases = [(0, 0), (-1, 1), (2, -1), (np.int64(3), 0), (slice(None, None, 2), 1),
             (slice(None, None, -2), -2), (slice(4, 0, -3), 1), (slice(7, 9), 0),
             ([0, 2, 2, -1], 1), ([], 0), (np.array([], dtype=np.int64), 2), ([1], 2),
             (np.array([True, False, True, True, False]), 1), (ac.asarray([0, 3], device=device), 0),
             (5, None), (slice(1, None, 7), None), ([59, 0, -60], None)]
    for obj, axis in cases:
        want = np.delete(a, ac.asnumpy(obj) if isinstance(obj, ac.ndarray) else obj, axis=axis)
        same(ac.delete(x, obj, axis=axis), want, device)
    same(ac.delete(ac.asarray(a[:0], device=device), [], axis=0), np.delete(a[:0], [], axis=0))
    both_raise(IndexError, lambda: ac.delete(x, 4, axis=0), lambda: np.delete(a, 4, axis=0))
    both_raise(IndexError, lambda: ac.delete(x, [0, -6], axis=1),
               lambda: np.delete(a, [0, -6], axis=1))
    both_raise(IndexError, lambda: ac.delete(x, [1.0, 2.0], axis=1),
               lambda: np.delete(a, [1.0, 2.0], axis=1))
    both_raise(ValueError, lambda: ac.delete(x, [True, False], axis=1),
               lambda: np.delete(a, [True, False], axis=1))
    both_raise(AXIS_ERROR, lambda: ac.delete(x, 0, axis=-4), lambda: np.delete(a, 0, axis=-4))


@pytest.mark.parametrize("dt", DTYPES)
def test_insert_follows_numpy_rules_for_obj_and_values(dt, device):
    a = sample(dt, (3, 4))
    x = ac.asarray(a, device=device)
    v = sample(dt, (3,))
    cases = [(1, 0, 1), (0, v, 1), (-1, v, -1), (4, 9, 1), ([1], [[7], [8], [9]], 1),
             ([1], v, 1), ([0, 2, 2, -1], 5, 1), ([3, 1, 1], v[:, None], 1), (slice(None), 0, 1),
             (slice(None, None, -2), v[0], 0), (np.array([True, False, True]), 1, 0),
             (2, [1, 2, 3], None), ([12, 0, 5, 5], [1, 2, 3, 4], None), ([], [], None),
             (np.int64(2), 7, 0), (1, np.array([[5, 6, 7, 8], [1, 2, 3, 4]]), 0),
             (1, np.array([1.7, 2.2, 3.9, 0.5]), 0), ([0, 3], np.array([[1.7], [2.2], [3.9]]), 1)]
    for obj, values, axis in cases:
        values_x = ac.asarray(values, device=device) if isinstance(values, np.ndarray) else values
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
            want = np.insert(a, obj, values, axis=axis)
        same(ac.insert(x, obj, values_x, axis=axis), want, device)
    both_raise(IndexError, lambda: ac.insert(x, 5, 0, axis=1), lambda: np.insert(a, 5, 0, axis=1))
    err = both_raise(IndexError, lambda: ac.insert(x, [0, 9], 0, axis=1),
                     lambda: np.insert(a, [0, 9], 0, axis=1))
    assert "index 9" in str(err)
    # NumPy lets [0, -6] through to a wrapped-around write; accel calls it out of bounds.
    with pytest.raises(IndexError, match="index -6"):
        ac.insert(x, [0, -6], 0, axis=1)
    both_raise(ValueError, lambda: ac.insert(x, [[1]], 0, axis=1),
               lambda: np.insert(a, [[1]], 0, axis=1))
    both_raise(AXIS_ERROR, lambda: ac.insert(x, 0, 0, axis=2), lambda: np.insert(a, 0, 0, axis=2))
    f = np.arange(3.0)
    both_raise(TypeError, lambda: ac.insert(ac.asarray(f, device=device), [0, 1], [1j, 2j]),
               lambda: np.insert(f, [0, 1], [1j, 2j]))
    both_raise(ValueError, lambda: ac.insert(x, [0, 1], [1, 2, 3], axis=1),
               lambda: np.insert(a, [0, 1], [1, 2, 3], axis=1))


@pytest.mark.parametrize("dt", DTYPES)
def test_resize_repeats_the_flattened_array(dt, device):
    for _ in range(4):
        a = sample(dt, random_shape(int(rng.integers(0, 3)), 0, 4))
        shape = random_shape(int(rng.integers(0, 4)), 0, 6)
        same(ac.resize(ac.asarray(a, device=device), shape), np.resize(a, shape), device)
    a = sample(dt, (2, 3))
    same(ac.resize(ac.asarray(a, device=device), 7), np.resize(a, 7), device)
    both_raise(ValueError, lambda: ac.resize(ac.asarray(a, device=device), (2, -1)),
               lambda: np.resize(a, (2, -1)))


def test_trim_zeros_along_axes(device):
    f = np.array([0.0, -0.0, 0.0, 1.5, np.nan, 0.0, -np.inf, 0.0, -0.0])
    x = ac.asarray(f, device=device)
    for trim in ("fb", "f", "b", "BF"):
        same(ac.trim_zeros(x, trim), np.trim_zeros(f, trim), device)
    same(ac.trim_zeros(ac.zeros(4, device=device)), np.trim_zeros(np.zeros(4)), device)
    same(ac.trim_zeros(ac.zeros(0, dtype=ac.int8, device=device)),
         np.trim_zeros(np.zeros(0, np.int8)))
    for dt in ("bool", "int8", "uint16", "complex128"):
        a = np.zeros((5, 6), dtype=dt)
        a[1:3, 2] = 1
        a[3, 4] = 1
        xa = ac.asarray(a, device=device)
        for axis in (None, 0, -1, (0, 1), ()):
            for trim in ("fb", "f", "b"):
                same(ac.trim_zeros(xa, trim, axis=axis), np.trim_zeros(a, trim, axis=axis), device)
    both_raise(ValueError, lambda: ac.trim_zeros(x, "x"), lambda: np.trim_zeros(f, "x"))
    both_raise(AXIS_ERROR, lambda: ac.trim_zeros(x, axis=1), lambda: np.trim_zeros(f, axis=1))


def test_rot90_in_any_plane(device):
    a = sample("float64", (2, 3, 4))
    x = ac.asarray(a, device=device)
    for k in range(-5, 6):
        for axes in ((0, 1), (1, 0), (2, 0), (-1, -2), (0, 2)):
            same(ac.rot90(x, k, axes), np.rot90(a, k, axes), device)
    both_raise(ValueError, lambda: ac.rot90(x, 1, (0, 0)), lambda: np.rot90(a, 1, (0, 0)))
    both_raise(ValueError, lambda: ac.rot90(x, 1, (0, 3)), lambda: np.rot90(a, 1, (0, 3)))
    both_raise(ValueError, lambda: ac.rot90(x, 1, (0, -3)), lambda: np.rot90(a, 1, (0, -3)))
    both_raise(ValueError, lambda: ac.rot90(x, 1, (0, 1, 2)), lambda: np.rot90(a, 1, (0, 1, 2)))


# ---- tri, diag, diagflat, vander, kron ----------------------------------------------------------

@pytest.mark.parametrize("dt", [None, "bool", "int8", "uint16", "float32", "complex128", int])
def test_tri(dt, device):
    kw = {} if dt is None else {"dtype": dt}
    for n, m, k in [(3, None, 0), (4, 6, -1), (5, 2, 3), (0, 3, 0), (3, 0, -2), (4, 4, -9), (1, 1, 9)]:
        same(ac.tri(n, m, k, device=device, **kw), np.tri(n, m, k, **kw), device)
    same(ac.tri(3, like=ac.zeros(1, device=device)), np.tri(3), device)
    # NumPy's own tri with an accel like= array: on that array's device (__array_function__).
    same(np.tri(3, 4, 1, like=ac.zeros(1, device=device)), np.tri(3, 4, 1), device)


@pytest.mark.parametrize("dt", DTYPES)
def test_diag_and_diagflat(dt, device):
    for k in (-4, -1, 0, 2, 5):
        v = sample(dt, (int(rng.integers(0, 5)),))
        same(ac.diag(ac.asarray(v, device=device), k), np.diag(v, k), device)
        m = sample(dt, random_shape(2, 0, 5))
        same(ac.diag(ac.asarray(m, device=device), k), np.diag(m, k), device)
        same(ac.diagflat(ac.asarray(m, device=device), k), np.diagflat(m, k), device)
    s = sample(dt, ())
    same(ac.diagflat(ac.asarray(s, device=device), -1), np.diagflat(s, -1), device)
    a3 = sample(dt, (2, 2, 2))
    both_raise(ValueError, lambda: ac.diag(ac.asarray(a3, device=device)), lambda: np.diag(a3))


@pytest.mark.parametrize("dt", DTYPES)
def test_vander(dt, device):
    v = sample(dt, (5,)) if np.dtype(dt).kind not in "fc" else \
        np.array([0.0, -0.0, 1.5, -2.25, 3.0]).astype(dt)
    x = ac.asarray(v, device=device)
    for n in (None, 0, 1, 2, 7):
        for increasing in (False, True):
            with np.errstate(all="ignore"):
                want = np.vander(v, n, increasing)
            close(ac.vander(x, n, increasing), want, device=device)
    same(ac.vander(ac.asarray(v[:0], device=device)), np.vander(v[:0]), device)
    both_raise(ValueError, lambda: ac.vander(ac.asarray(v.reshape(5, 1), device=device)),
               lambda: np.vander(v.reshape(5, 1)))


@pytest.mark.parametrize("dta,dtb", [("bool", "bool"), ("int8", "int8"), ("uint16", "int64"),
                                     ("float32", "float64"), ("complex128", "int8"), ("int8", "float32")])
def test_kron_of_any_dimensions(dta, dtb, device):
    for nda, ndb in [(0, 2), (1, 1), (2, 2), (1, 3), (3, 2), (2, 0)]:
        a, b = sample(dta, random_shape(nda, 0, 4)), sample(dtb, random_shape(ndb, 0, 4))
        with np.errstate(all="ignore"):
            want = np.kron(a, b)
        same(ac.kron(ac.asarray(a, device=device), ac.asarray(b, device=device)), want, device)
    same(ac.kron(ac.asarray([[1, 2]], device=device), [[1], [3]]),
         np.kron([[1, 2]], [[1], [3]]), device)


# ---- indices, ix_, geomspace, logspace ----------------------------------------------------------

@pytest.mark.parametrize("dt", [int, "int8", "uint16", "float32", "bool"])
def test_indices_dense_and_sparse(dt, device):
    for dims in [(), (3,), (2, 3), (0, 4), (2, 1, 3)]:
        if dt == "bool" and any(d > 2 for d in dims):
            continue
        same(ac.indices(dims, dtype=dt, device=device), np.indices(dims, dtype=dt), device)
        got, want = ac.indices(dims, dt, sparse=True, device=device), np.indices(dims, dt, sparse=True)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            same(g, w, device)


def test_ix_makes_an_open_mesh(device):
    args = ([1, 0, 2], np.array([True, False, True, True]), [], ac.asarray([3, 1], device=device),
            np.array([], dtype=np.float32), np.array([0.5, 2.0]))
    got = ac.ix_(*[ac.asarray(a, device=device) if isinstance(a, np.ndarray) else a for a in args])
    want = np.ix_(*[ac.asnumpy(a) if isinstance(a, ac.ndarray) else a for a in args])
    for g, w in zip(got, want):
        same(g, w, device)
    assert ac.ix_() == np.ix_()
    both_raise(ValueError, lambda: ac.ix_([[1, 2]]), lambda: np.ix_([[1, 2]]))
    a = sample("float64", (4, 5))
    i, j = ac.ix_(ac.asarray([0, 2], device=device), ac.asarray([1, 4, 3], device=device))
    same(ac.asarray(a, device=device)[i, j], a[np.ix_([0, 2], [1, 4, 3])], device)


@pytest.mark.parametrize("start,stop", [(1, 1000), (-1, -1e-3), (2.5, 0.5), (1j, 1000j),
                                        (-1 + 1j, 3 - 2j), ([1.0, -2.0], [8.0, -1e6])])
def test_geomspace(start, stop, device):
    for num in (0, 1, 2, 7):
        for endpoint in (True, False):
            close(ac.geomspace(start, stop, num, endpoint, device=device),
                  np.geomspace(start, stop, num, endpoint), device=device)
    close(ac.geomspace(np.float32(2), np.float32(32), 5, device=device),
          np.geomspace(np.float32(2), np.float32(32), 5), device=device)
    if np.ndim(start):
        x0, x1 = ac.asarray(start, device=device), ac.asarray(stop, device=device)
        close(ac.geomspace(x0, x1, 4, axis=-1),
              np.geomspace(start, stop, 4, axis=-1), device=device)
    elif not isinstance(start, complex):
        same(ac.geomspace(start, stop, 6, dtype="int16", device=device),
             np.geomspace(start, stop, 6, dtype="int16"), device)
    both_raise(ValueError, lambda: ac.geomspace(0, 5), lambda: np.geomspace(0, 5))
    both_raise(ValueError, lambda: ac.geomspace(1, [2, 0]), lambda: np.geomspace(1, [2, 0]))


@pytest.mark.parametrize("dt", ["float32", "float64", "int16", "uint8", "complex64", "float16"])
def test_linspace_between_arrays(dt, device):
    """Array ends broadcast, keep their precision and put the samples on `axis`; NumPy
    scalars and 0-d arrays are ends of their own dtype, not Python floats."""
    start, stop = sample(dt, (2, 3)), sample(dt, (3,))
    a0, a1 = ac.asarray(start, device=device), ac.asarray(stop, device=device)
    for num in (0, 1, 2, 5):
        for endpoint in (True, False):
            for axis in (0, 1, -1, 2):
                with np.errstate(all="ignore"):
                    want = np.linspace(start, stop, num, endpoint, axis=axis)
                close(ac.linspace(a0, a1, num, endpoint, axis=axis), want, rtol=1e-6,
                      device=device)
    zero_d = ac.asarray(start[0, 0], device=device)
    close(ac.linspace(zero_d, 3, 4), np.linspace(start[0, 0], 3, 4), rtol=1e-6, device=device)
    close(ac.linspace(start[0, 0], stop[1], 4, device=device),
          np.linspace(start[0, 0], stop[1], 4), rtol=1e-6, device=device)
    if np.dtype(dt).kind != "c":
        with np.errstate(all="ignore"):
            want = np.linspace(start, 100, 4, dtype="int32")
        same(ac.linspace(a0, 100, 4, dtype="int32"), want, device)
    else:  # NumPy floors the complex samples before the cast, and floor takes no complex
        both_raise(TypeError, lambda: ac.linspace(a0, 100, 4, dtype="int32"),
                   lambda: np.linspace(start, 100, 4, dtype="int32"))
    got, step = ac.linspace(a0, a1, 5, retstep=True)
    want, wstep = np.linspace(start, stop, 5, retstep=True)
    close(got, want, rtol=1e-6, device=device)
    close(step, wstep, rtol=1e-6, device=device)
    got, step = ac.linspace(0, 1, 1, retstep=True, device=device)
    same(got, np.linspace(0, 1, 1), device)
    assert np.isnan(float(step))
    both_raise(ValueError, lambda: ac.linspace(a0, a1, -1), lambda: np.linspace(start, stop, -1))
    both_raise(AXIS_ERROR, lambda: ac.linspace(a0, a1, 3, axis=3),
               lambda: np.linspace(start, stop, 3, axis=3))
    both_raise(AXIS_ERROR, lambda: ac.linspace(0, 1, 3, axis=1, device=device),
               lambda: np.linspace(0, 1, 3, axis=1))


def test_logspace(device):
    for start, stop, base in [(0, 3, 10.0), (-2.5, 2.5, 2), (3, 0, 0.5), (0, 1, -2.0), (1, 2, 1j)]:
        for num in (0, 1, 5):
            for endpoint in (True, False):
                with np.errstate(all="ignore"):
                    want = np.logspace(start, stop, num, endpoint, base)
                close(ac.logspace(start, stop, num, endpoint, base, device=device), want, device=device)
    same(ac.logspace(0, 3, 7, dtype=int, device=device), np.logspace(0, 3, 7, dtype=int), device)
    same(ac.logspace(0, 2, 4, dtype="uint16", device=device),
         np.logspace(0, 2, 4, dtype="uint16"), device)
    x = ac.asarray(np.array([0.0, 1.0], dtype=np.float32), device=device)
    close(ac.logspace(x, 2, 4),
          np.logspace(np.array([0.0, 1.0], dtype=np.float32), 2, 4), rtol=1e-6)
    b = ac.asarray([2.0, 3.0], device=device)
    close(ac.logspace([0.0, 1.0], 3, 5, base=b, axis=-1),
          np.logspace([0.0, 1.0], 3, 5, base=[2.0, 3.0], axis=-1), device=device)
    close(ac.logspace(0, [1.0, 2.0], 3, base=b, axis=1),
          np.logspace(0, [1.0, 2.0], 3, base=[2.0, 3.0], axis=1))
    both_raise(ValueError, lambda: ac.logspace(0, 1, -1), lambda: np.logspace(0, 1, -1))


# ---- block, fill_diagonal -----------------------------------------------------------------------

def test_block_assembles_nested_lists(device):
    a = sample("float64", (2, 3))
    b = sample("int8", (2, 2))
    c = sample("float32", (1, 5))
    d = sample("complex128", (3,))
    x = {k: ac.asarray(v, device=device) for k, v in dict(a=a, b=b, c=c, d=d).items()}
    same(ac.block([[x["a"], x["b"]], [x["c"]]]), np.block([[a, b], [c]]), device)
    same(ac.block([x["d"], 1, np.array([2, 3])]), np.block([d, 1, np.array([2, 3])]), device)
    both_raise(ValueError, lambda: ac.block([x["d"], 1, [2, 3]]), lambda: np.block([d, 1, [2, 3]]))
    same(ac.block([[[x["a"]]], [[x["a"]]]]), np.block([[[a]], [[a]]]), device)
    same(ac.block([[x["d"]], [x["d"]]]), np.block([[d], [d]]), device)
    same(ac.block(x["a"]), np.block(a), device)
    same(ac.block([x["d"]]), np.block([d]), device)
    same(ac.block([[1, True], [2.5, 3]]), np.block([[1, True], [2.5, 3]]))
    same(ac.block([x["a"][:0], x["a"][:0]]), np.block([a[:0], a[:0]]), device)
    both_raise(TypeError, lambda: ac.block((x["a"], x["a"])), lambda: np.block((a, a)))
    both_raise(TypeError, lambda: ac.block([[x["a"]], (x["a"],)]), lambda: np.block([[a], (a,)]))
    both_raise(ValueError, lambda: ac.block([]), lambda: np.block([]))
    both_raise(ValueError, lambda: ac.block([[x["a"]], []]), lambda: np.block([[a], []]))
    err = both_raise(ValueError, lambda: ac.block([[x["a"]], x["a"]]), lambda: np.block([[a], a]))
    assert "arrays[1]" in str(err)
    both_raise(ValueError, lambda: ac.block([[x["a"], x["c"]]]), lambda: np.block([[a, c]]))


@pytest.mark.parametrize("dt", DTYPES)
def test_fill_diagonal_writes_in_place(dt, device):
    for shape, wrap in [((4, 4), False), ((7, 3), False), ((7, 3), True), ((3, 6), True),
                        ((3, 3, 3), False), ((2, 2, 2, 2), True), ((0, 3), False)]:
        a = sample(dt, shape)
        val = sample(dt, (2,))
        for v in (val[0], val, 1):
            x = ac.asarray(a, device=device)
            want = a.copy()
            assert ac.fill_diagonal(x, v, wrap) is None
            np.fill_diagonal(want, v, wrap)
            same(x, want, device)
    view = ac.asarray(sample(dt, (5, 6)), device=device)
    want = ac.asnumpy(view)
    ac.fill_diagonal(view[1:, ::2], 0)
    np.fill_diagonal(want[1:, ::2], 0)
    same(view, want)
    for bad in ((3,), (2, 3, 3)):
        a = np.zeros(bad, dt)
        both_raise(ValueError, lambda: ac.fill_diagonal(ac.asarray(a, device=device), 1),
                   lambda: np.fill_diagonal(a, 1))


# ---- pad ----------------------------------------------------------------------------------------

PAD_MODES = ["constant", "edge", "reflect", "symmetric", "wrap", "linear_ramp", "maximum",
             "minimum", "mean", "median"]


def _pad_widths(ndim, big):
    high = 12 if big else 4
    return rng.integers(0, high, (ndim, 2)).tolist()


@pytest.mark.parametrize("mode", PAD_MODES)
@pytest.mark.parametrize("dt", DTYPES)
def test_pad_modes_match_numpy(mode, dt, device):
    stat = mode in ("mean", "median", "linear_ramp")
    for ndim in (1, 2, 3):
        shape = random_shape(ndim, 1, 5)
        a = sample(dt, shape)
        if stat and np.dtype(dt).kind in "fc":
            a = (rng.integers(-20, 20, shape) / 4).astype(dt)
        x = ac.asarray(a, device=device)
        for width in (2, (1, 3), [(0, 1)], _pad_widths(ndim, big=True)):
            with np.errstate(all="ignore"):
                want = np.pad(a, width, mode)
            got = ac.pad(x, width, mode)
            if stat and np.dtype(dt).kind in "fc":
                close(got, want, rtol=1e-6 if dt == "float32" else 1e-12, device=device)
            else:  # which of 0.0 and -0.0 a minimum or maximum picks is unspecified
                same(got, want, device, signed_zeros=mode not in ("maximum", "minimum"))


@pytest.mark.parametrize("dt", ["int8", "uint16", "float64", "complex128"])
def test_pad_options(dt, device):
    a = sample(dt, (3, 5)) if dt != "float64" else rng.integers(-9, 9, (3, 5)).astype(dt)
    x = ac.asarray(a, device=device)
    w = ((2, 7), (11, 3))
    for kwargs in [dict(mode="constant", constant_values=7), dict(mode="constant", constant_values=(1, 2)),
                   dict(mode="constant", constant_values=((1, 2), (3, 4))),
                   dict(mode="linear_ramp", end_values=((5, -3), (2, 9))),
                   dict(mode="reflect", reflect_type="odd"), dict(mode="symmetric", reflect_type="odd"),
                   dict(mode="maximum", stat_length=2), dict(mode="minimum", stat_length=((1, 2), (3, 1))),
                   dict(mode="mean", stat_length=(2, 9)), dict(mode="median", stat_length=3)]:
        with np.errstate(all="ignore"):
            want = np.pad(a, w, **kwargs)
        close(ac.pad(x, w, **kwargs), want, device=device)
    got = ac.pad(x, w, mode="empty")
    assert on(got, device).shape == np.pad(a, w, mode="empty").shape and got.dtype == x.dtype
    same(got[2:5, 11:16], a)


def test_pad_special_values_and_shapes(device):
    f = np.array([-0.0, np.nan, np.inf, 1.5, -np.inf])
    x = ac.asarray(f, device=device)
    for mode in ("constant", "edge", "reflect", "symmetric", "wrap", "maximum", "minimum"):
        with np.errstate(all="ignore"):
            same(ac.pad(x, (3, 13), mode), np.pad(f, (3, 13), mode), device,
                 signed_zeros=mode not in ("maximum", "minimum"))
    same(ac.pad(x, 2, constant_values=-0.0), np.pad(f, 2, constant_values=-0.0), device)
    same(ac.pad(ac.asarray(np.array(2.5), device=device), 3), np.pad(np.array(2.5), 3), device)
    empty = np.zeros((0, 3))
    e = ac.asarray(empty, device=device)
    same(ac.pad(e, 2, constant_values=4), np.pad(empty, 2, constant_values=4), device)
    same(ac.pad(e, ((0, 0), (1, 2)), "edge"), np.pad(empty, ((0, 0), (1, 2)), "edge"), device)
    one = np.array([[4, 5, 6]])
    same(ac.pad(ac.asarray(one, device=device), 3, "reflect"), np.pad(one, 3, "reflect"), device)
    same(ac.pad(ac.asarray(one, device=device), 0, "wrap"), np.pad(one, 0, "wrap"), device)
    same(ac.pad(ac.asarray(one, device=device),
         np.array([1, 2]), "wrap"), np.pad(one, np.array([1, 2]), "wrap"))


def test_pad_errors(device):
    a = np.arange(6).reshape(2, 3)
    x = ac.asarray(a, device=device)
    both_raise(ValueError, lambda: ac.pad(x, 1, "nonsense"), lambda: np.pad(a, 1, "nonsense"))
    both_raise(ValueError, lambda: ac.pad(x, -1), lambda: np.pad(a, -1))
    both_raise(ValueError, lambda: ac.pad(x, ((1, 2), (3, -1))),
               lambda: np.pad(a, ((1, 2), (3, -1))))
    both_raise(TypeError, lambda: ac.pad(x, 1.5), lambda: np.pad(a, 1.5))
    both_raise(TypeError, lambda: ac.pad(x, np.array([1, 2], np.uint16)),
               lambda: np.pad(a, np.array([1, 2], np.uint16)))
    both_raise(ValueError, lambda: ac.pad(x, ((1, 2, 3),)), lambda: np.pad(a, ((1, 2, 3),)))
    both_raise(ValueError, lambda: ac.pad(x, 1, "edge", constant_values=3),
               lambda: np.pad(a, 1, "edge", constant_values=3))
    both_raise(ValueError, lambda: ac.pad(x, 1, "maximum", stat_length=0),
               lambda: np.pad(a, 1, "maximum", stat_length=0))
    e = np.zeros((0, 3))
    both_raise(ValueError, lambda: ac.pad(ac.asarray(e, device=device), 1, "wrap"),
               lambda: np.pad(e, 1, "wrap"))
    with pytest.raises(ValueError, match="callable"):
        ac.pad(x, 1, lambda vector, width, axis, kwargs: None)


# ---- NumPy's dispatch ---------------------------------------------------------------------------

def test_numpy_functions_dispatch_to_accel(device):
    a = rng.integers(-9, 9, (3, 4)).astype(np.float64)
    x = ac.asarray(a, device=device)
    same(np.pad(x, ((1, 2), (3, 0)), "reflect"), np.pad(a, ((1, 2), (3, 0)), "reflect"), device)
    same(np.insert(x, [1, 1], 0.5, axis=1), np.insert(a, [1, 1], 0.5, axis=1), device)
    same(np.delete(x, slice(0, 2), axis=-1), np.delete(a, slice(0, 2), axis=-1), device)
    same(np.append(x, x), np.append(a, a), device)
    same(np.rot90(x, -1), np.rot90(a, -1), device)
    same(np.kron(x, x[:1]), np.kron(a, a[:1]), device)
    same(np.diag(x, 1), np.diag(a, 1), device)
    same(np.resize(x, (5, 5)), np.resize(a, (5, 5)), device)
    same(np.block([[x, x]]), np.block([[a, a]]), device)
    same(np.trim_zeros(x[0]), np.trim_zeros(a[0]), device)
    close(np.vander(x[0]), np.vander(a[0]), device=device)
    y = ac.asarray(a, device=device)
    want = a.copy()
    np.fill_diagonal(y, 9.0)
    np.fill_diagonal(want, 9.0)
    same(y, want, device)
