"""packbits/unpackbits and the matvec/vecmat gufuncs of python/accel/_np_bits.py, against NumPy:
dtypes, both bit orders, every axis (negative ones included), empty and 0-d arrays, large
counts, broadcasting of batch axes, out=/dtype=/casting=/axes=, errors of the same class, and
NumPy's own functions dispatching to accel's for accel arrays."""

import numpy as np
import pytest

import accel as ac
from numpy_errors import matches as _matches

rng = np.random.default_rng(29)
SHAPES = [(), (0,), (13,), (16,), (3, 17), (2, 0, 5), (4, 3, 9)]
BITORDERS = ["big", "little"]


def host(x):
    return ac.asnumpy(x) if isinstance(x, ac.ndarray) else np.asarray(x)


def same(got, want):
    """Exactly NumPy's: dtype, shape and values."""
    got, want = host(got), np.asarray(want)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_array_equal(got, want)


def matches(run_accel, run_numpy, check=None):
    _matches(run_accel, run_numpy, check or same)


def close(got, want):
    """NumPy's dtype and shape, values to the rounding of the dtype (exact for integers)."""
    got, want = host(got), np.asarray(want)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    if want.dtype.kind in "biu":
        np.testing.assert_array_equal(got, want)
    else:
        rtol = 1e-5 if want.dtype in (np.float32, np.complex64) else 1e-12
        np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol)


def values(dt, shape):
    """Random values of dtype dt, zeros frequent (a 0 bit), negatives included."""
    if dt == "bool":
        return rng.random(shape) < 0.5
    info = np.iinfo(dt)
    v = rng.integers(info.min, info.max, shape, dtype=dt, endpoint=True)
    return np.where(rng.random(shape) < 0.4, 0, v).astype(dt)


def axes_of(ndim):
    return [None] + list(range(-max(ndim, 1), max(ndim, 1)))


# ---- packbits ---------------------------------------------------------------------------------

@pytest.mark.parametrize("dt", ["bool", "int8", "uint8", "int64"])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_packbits_matches_numpy_on_every_axis_and_bitorder(dt, shape, device):
    x = values(dt, shape)
    a = ac.asarray(x, device=device)
    for axis in axes_of(len(shape)):
        for bitorder in BITORDERS:
            same(ac.packbits(a, axis=axis, bitorder=bitorder),
                 np.packbits(x, axis=axis, bitorder=bitorder))


def test_packbits_large_count_pads_the_last_byte(device):
    x = rng.random(1_000_003) < 0.5
    a = ac.asarray(x, device=device)
    same(ac.packbits(a), np.packbits(x))
    same(ac.packbits(a, bitorder="little"), np.packbits(x, bitorder="little"))


def test_packbits_refuses_what_numpy_refuses(device):
    one = ac.asarray([1, 0, 1], device=device)
    for x in (np.array([1.0, 0.0]), np.array([1j]), np.array([1.0], dtype=np.float32)):
        with pytest.raises(TypeError):
            np.packbits(x)
        with pytest.raises(TypeError, match=r"\[packbits\]"):
            ac.packbits(ac.asarray(x, device=device))
    for bitorder, error in (("foo", ValueError), ("Big", ValueError), ("l", ValueError),
                            (None, TypeError), (3, TypeError)):
        with pytest.raises(error):
            np.packbits([1, 0, 1], bitorder=bitorder)
        with pytest.raises(error, match=r"\[packbits\]"):
            ac.packbits(one, bitorder=bitorder)
    for axis in (1, -2, 1.0, (0,)):
        matches(lambda: ac.packbits(one, axis=axis), lambda: np.packbits([1, 0, 1], axis=axis))
    with pytest.raises(ac.AxisError):
        ac.packbits(one, axis=1)


# ---- unpackbits -------------------------------------------------------------------------------

def counts_for(n):
    """count= values around the n bits there: none, zero, fewer, negative, all, too many."""
    return [None, 0, 5, n, n + 11, -3, -n, -n - 1, 1000]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_unpackbits_matches_numpy_with_counts(shape, device):
    x = values("uint8", shape)
    a = ac.asarray(x, device=device)
    for axis in axes_of(len(shape)):
        n = 8 * (x.size if axis is None or x.ndim == 0 else x.shape[axis])
        for count in counts_for(n):
            for bitorder in BITORDERS:
                def want():
                    r = np.unpackbits(x, axis=axis, count=count, bitorder=bitorder)
                    # NumPy leaves the padding uninitialised when there are no bits at all.
                    return np.zeros_like(r) if n == 0 else r
                matches(lambda: ac.unpackbits(a, axis=axis, count=count, bitorder=bitorder),
                        want)


@pytest.mark.parametrize("bitorder", BITORDERS)
def test_unpackbits_inverts_packbits(bitorder, device):
    x = rng.random((5, 37)) < 0.5
    a = ac.asarray(x, device=device)
    for axis in (0, 1, -1, -2):
        packed = ac.packbits(a, axis=axis, bitorder=bitorder)
        back = ac.unpackbits(packed, axis=axis, count=x.shape[axis], bitorder=bitorder)
        same(back, x.astype(np.uint8))


def test_unpackbits_large_count(device):
    x = values("uint8", (125_001,))
    a = ac.asarray(x, device=device)
    for count in (None, 1_000_005, 999_999, -7, 1_000_013):
        same(ac.unpackbits(a, count=count), np.unpackbits(x, count=count))


def test_unpackbits_refuses_what_numpy_refuses(device):
    u = np.array([5, 255], dtype=np.uint8)
    a = ac.asarray(u, device=device)
    for x in (np.array([5], dtype=np.int8), np.array([True]), np.array([5]),
              np.array([1.0])):
        with pytest.raises(TypeError):
            np.unpackbits(x)
        with pytest.raises(TypeError, match=r"\[unpackbits\]"):
            ac.unpackbits(ac.asarray(x, device=device))
    for count in (-17, 2.0, True, "3"):
        matches(lambda: ac.unpackbits(a, count=count), lambda: np.unpackbits(u, count=count))
    for axis in (1, -2):
        matches(lambda: ac.unpackbits(a, axis=axis), lambda: np.unpackbits(u, axis=axis))
    matches(lambda: ac.unpackbits(a, bitorder="BIG"), lambda: np.unpackbits(u, bitorder="BIG"))


def test_numpy_bit_functions_dispatch_to_accel(device):
    x = values("int64", (6, 11))
    a = ac.asarray(x, device=device)
    got = np.packbits(a, axis=-1, bitorder="little")
    assert isinstance(got, ac.ndarray) and got.device == a.device
    same(got, np.packbits(x, axis=-1, bitorder="little"))
    got = np.unpackbits(got, axis=1, count=-2, bitorder="little")
    assert isinstance(got, ac.ndarray)
    same(got, np.unpackbits(np.packbits(x, axis=-1, bitorder="little"), axis=1, count=-2,
                            bitorder="little"))


# ---- matvec / vecmat --------------------------------------------------------------------------

def operand(dt, shape):
    if dt == "bool":
        return rng.random(shape) < 0.5
    if dt == "int64":
        return rng.integers(-50, 50, shape)
    v = rng.standard_normal(shape)
    if dt == "complex128":
        v = v + 1j * rng.standard_normal(shape)
    return v.astype(dt)


# (matrix shape, vector shape) for matvec; vecmat takes the transposed matrices.
MATVEC_SHAPES = [((3, 4), (4,)), ((2, 3, 4), (4,)), ((3, 4), (5, 4)), ((2, 1, 3, 4), (5, 4)),
                 ((0, 4), (4,)), ((3, 0), (0,)), ((0, 3, 4), (4,)), ((2, 3, 4), (0, 1, 4)),
                 ((1, 1), (1,)), ((6, 40, 33), (6, 33))]
MATMUL_DTYPES = ["bool", "int64", "float32", "float64", "complex128"]


def transposed(shape):
    return shape[:-2] + (shape[-1], shape[-2])


@pytest.mark.parametrize("dt", MATMUL_DTYPES)
def test_matvec_and_vecmat_match_numpy(dt, device):
    for mshape, vshape in MATVEC_SHAPES:
        m, v = operand(dt, mshape), operand(dt, vshape)
        am, av = ac.asarray(m, device=device), ac.asarray(v, device=device)
        close(ac.matvec(am, av), np.matvec(m, v))
        mt = np.swapaxes(m, -1, -2).copy()
        close(ac.vecmat(av, ac.asarray(mt, device=device)), np.vecmat(v, mt))


def test_vecmat_conjugates_the_vector(device):
    v = np.array([1j, 2 - 1j])
    m = np.array([[1j, 1], [1, 3j]])
    got = ac.vecmat(ac.asarray(v, device=device), ac.asarray(m, device=device))
    close(got, np.vecmat(v, m))
    close(got, np.conj(v) @ m)


@pytest.mark.parametrize("d1, d2", [("int8", "uint8"), ("float32", "int64"), ("bool", "int64"),
                                    ("float32", "complex128"), ("int64", "float64")])
def test_matvec_promotes_as_numpy(d1, d2, device):
    m, v = operand("int64", (3, 5)).astype(d1), operand("int64", (5,)).astype(d2)
    am, av = ac.asarray(m, device=device), ac.asarray(v, device=device)
    close(ac.matvec(am, av), np.matvec(m, v))
    close(ac.vecmat(av, ac.asarray(m.T.copy(), device=device)), np.vecmat(v, m.T))


def test_matvec_takes_dtype_and_casting_as_numpy(device):
    m, v = operand("float64", (3, 4)), operand("float64", (4,))
    mi, vi = operand("int64", (3, 4)), operand("int64", (4,))
    am, av = ac.asarray(m, device=device), ac.asarray(v, device=device)
    ami, avi = ac.asarray(mi, device=device), ac.asarray(vi, device=device)
    close(ac.matvec(am, av, dtype=ac.float32), np.matvec(m, v, dtype=np.float32))
    close(ac.matvec(ami, avi, dtype="float64"), np.matvec(mi, vi, dtype="float64"))
    close(ac.vecmat(avi, ac.asarray(mi.T.copy(), device=device), dtype=np.complex128),
          np.vecmat(vi, mi.T, dtype=np.complex128))
    close(ac.matvec(am, av, dtype=np.int64, casting="unsafe"),
          np.matvec(m, v, dtype=np.int64, casting="unsafe"))
    matches(lambda: ac.matvec(am, av, dtype=ac.int64), lambda: np.matvec(m, v, dtype=np.int64))
    matches(lambda: ac.matvec(ami, av, casting="no"), lambda: np.matvec(mi, v, casting="no"))
    matches(lambda: ac.vecmat(av, ami, casting="safe", dtype=ac.float32),
            lambda: np.vecmat(v, mi, casting="safe", dtype=np.float32))


def test_matvec_and_vecmat_write_out(device):
    m, v = operand("float64", (2, 3, 4)), operand("float64", (4,))
    am, av = ac.asarray(m, device=device), ac.asarray(v, device=device)
    out = ac.empty((2, 3), device=device)
    assert ac.matvec(am, av, out=out) is out
    close(out, np.matvec(m, v))
    out32 = ac.empty((2, 3), dtype=ac.float32, device=device)
    assert ac.matvec(am, av, out=(out32,)) is out32
    close(out32, np.matvec(m, v).astype(np.float32))
    outc = ac.empty((2, 3), dtype=ac.complex128, device=device)
    mt = ac.asarray(np.swapaxes(m, -1, -2).copy(), device=device)
    assert ac.vecmat(av, mt, out=outc) is outc
    close(outc, np.vecmat(v, np.swapaxes(m, -1, -2)).astype(np.complex128))
    # A wider out= takes the result broadcast over its extra batch axes; the others are refused.
    for shape, dt in (((4, 2, 3), "float64"), ((2, 3), "int64"), ((3,), "float64"),
                      ((1, 3), "float64"), ((2, 1), "float64"), ((), "float64")):
        matches(lambda: ac.matvec(am, av, out=ac.empty(shape, dtype=dt, device=device)),
                lambda: np.matvec(m, v, out=np.empty(shape, dtype=dt)), close)
    outi = ac.empty((2, 3), dtype=ac.int64, device=device)
    ac.matvec(am, av, out=outi, casting="unsafe")
    same(outi, np.matvec(m, v, out=np.empty((2, 3), dtype=np.int64), casting="unsafe"))
    with pytest.raises(TypeError, match=r"\[matvec\]"):
        ac.matvec(am, av, out=[0.0, 0.0])


def test_matvec_and_vecmat_take_axes_as_numpy(device):
    m, v = operand("float64", (4, 2, 3)), operand("float64", (4, 5))
    am, av = ac.asarray(m, device=device), ac.asarray(v, device=device)
    for axes in ([(0, 2), (0,), (0,)], [(-1, 0), 0, 0], [(2, 0), (0,), (1,)]):
        matches(lambda: ac.matvec(am, av, axes=axes), lambda: np.matvec(m, v, axes=axes), close)
    vv = operand("float64", (2, 4))
    avv = ac.asarray(vv, device=device)
    for axes in ([(0,), (1, 0), (0,)], [(-1,), (0, 2), (0,)], [1, (0, 2), 1]):
        matches(lambda: ac.vecmat(avv, am, axes=axes), lambda: np.vecmat(vv, m, axes=axes),
                close)


def test_matvec_and_vecmat_shape_errors_as_numpy(device):
    cases = [((2, 3), (4,)), ((3,), (3,)), ((2, 3), ()), ((2, 2, 3), (3, 3)), ((), ()),
             ((0, 3), (2,))]
    for mshape, vshape in cases:
        m, v = np.ones(mshape), np.ones(vshape)
        am, av = ac.asarray(m, device=device), ac.asarray(v, device=device)
        matches(lambda: ac.matvec(am, av), lambda: np.matvec(m, v))
        mt = np.ones(transposed(mshape)) if len(mshape) >= 2 else m
        amt = ac.asarray(mt, device=device)
        matches(lambda: ac.vecmat(av, amt), lambda: np.vecmat(v, mt))
    with pytest.raises(ValueError, match=r"\[matvec\]"):
        ac.matvec(ac.ones((2, 3), device=device), ac.ones((4,), device=device))


def test_numpy_matvec_and_vecmat_dispatch_to_accel(device):
    m, v = operand("complex128", (3, 2, 4)), operand("complex128", (4,))
    am, av = ac.asarray(m, device=device), ac.asarray(v, device=device)
    got = np.matvec(am, av)
    assert isinstance(got, ac.ndarray) and got.device == am.device
    close(got, np.matvec(m, v))
    mt = np.swapaxes(m, -1, -2).copy()
    got = np.vecmat(av, ac.asarray(mt, device=device))
    assert isinstance(got, ac.ndarray)
    close(got, np.vecmat(v, mt))
    out = ac.empty((3, 2), dtype=ac.complex128, device=device)
    assert np.matvec(am, av, out=out) is out
    close(out, np.matvec(m, v))
    close(np.matvec(am, av, dtype=np.complex64), np.matvec(m, v, dtype=np.complex64))


def test_vecdot_is_accels_own_and_conjugates_the_first_argument(device):
    assert ac.vecdot.__module__ == "accel._core"
    x, y = operand("complex128", (3, 5)), operand("complex128", (5,))
    ax_, ay = ac.asarray(x, device=device), ac.asarray(y, device=device)
    close(ac.vecdot(ax_, ay), np.vecdot(x, y))
    close(np.vecdot(ax_, ay), np.vecdot(x, y))
