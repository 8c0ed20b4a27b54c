"""NumPy's mathematical functions composed in python/accel/_np_math.py, against NumPy: dtypes,
every bit pattern's worth of special values (subnormals, ±0, ±inf, NaN, overflow), empty and
0-d arrays, negative axes, errors of the same class, and NumPy's own functions dispatching to
accel's for accel arrays."""

import math
import warnings

import numpy as np
import pytest

import accel as ac
from numpy_errors import matches as _matches

rng = np.random.default_rng(23)
SPECIAL = np.array([0.0, -0.0, 1.0, -1.5, 0.5, np.nan, -np.nan, np.inf, -np.inf, 5e-324, -1e-310,
                    2.2250738585072014e-308, 1e-300, 1e300, -1.7976931348623157e308, 3.0, 2.5])
SHAPES = [(), (0,), (9,), (3, 5), (2, 0, 3), (2, 3, 4)]
INT_DTYPES = ["int8", "uint8", "int16", "uint16", "int32", "int64", "uint64"]
FLOAT_DTYPES = ["float16", "float32", "float64"]
UNSIGNED = {"float16": np.uint16, "float32": np.uint32, "float64": np.uint64}


def sample(dt, shape=(4, 9)):
    """Random values of dtype dt: integers over their whole range, floats mixed from SPECIAL and
    random magnitudes, complex from two such."""
    dt = np.dtype(dt)
    if dt == bool:
        return rng.random(shape) < 0.5
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return rng.integers(info.min, info.max, shape, dtype=dt, endpoint=True)
    n = math.prod(shape)
    mixed = np.concatenate([SPECIAL, rng.standard_normal(n) * 10.0 ** rng.integers(-5, 5, n)])
    v = rng.permutation(mixed)[:n].reshape(shape)
    if dt.kind == "c":
        v = v + 1j * rng.permutation(mixed)[:n].reshape(shape)
    with np.errstate(all="ignore"):
        return v.astype(dt)


def bit_patterns(dt, n=6000):
    """n random bit patterns of float dtype dt (every exponent, subnormals, NaNs) and the edges."""
    fi = np.finfo(dt)
    u = UNSIGNED[dt]
    x = rng.integers(0, np.iinfo(u).max, n, dtype=u, endpoint=True).view(dt)
    edges = np.array([0, -0.0, np.inf, -np.inf, np.nan, -np.nan, fi.max, -fi.max, fi.tiny, -fi.tiny,
                      fi.smallest_subnormal, -fi.smallest_subnormal, 1, -1, 0.5, -0.75], dtype=dt)
    return np.concatenate([edges, x])


def host(x):
    return ac.asnumpy(x) if isinstance(x, ac.ndarray) else np.asarray(x)


def same(got, want):
    """Exactly NumPy's: dtype, shape, values, NaNs in the same places, and the sign of zeros and
    NaNs."""
    got, want = host(got), np.asarray(want)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_array_equal(got, want)
    if want.dtype.kind == "f":
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


def matches(run_accel, run_numpy, check=None):
    _matches(run_accel, run_numpy, check or same)


def close(got, want, rtol=1e-12, atol=0.0):
    got, want = host(got), np.asarray(want)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, equal_nan=True)


@pytest.fixture(autouse=True)
def _silence_numpy():
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        yield


# ---- float decomposition ----------------------------------------------------------------------

@pytest.mark.parametrize("dt", FLOAT_DTYPES)
def test_frexp_modf_spacing_fix_exact_on_every_kind_of_float(dt, device):
    x = bit_patterns(dt)
    a = ac.asarray(x, device=device)
    m, e = ac.frexp(a)
    wm, we = np.frexp(x)
    same(m, wm)
    same(e, we)
    f, i = ac.modf(a)
    wf, wi = np.modf(x)
    same(f, wf)
    same(i, wi)
    same(ac.spacing(a), np.spacing(x))
    same(ac.fix(a), np.fix(x))


@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_spacing_of_a_nan_is_numpys_quieted_nan_bit_for_bit(dt, device):
    # NumPy's spacing of a NaN is NaN - NaN: the same sign and payload with the quiet bit set, a
    # signalling NaN included (the first version returned it unquieted; same() does not see NaN
    # payloads).
    u = UNSIGNED[dt]
    bits = 8 * np.dtype(dt).itemsize
    mant = np.finfo(dt).nmant
    exp = ((1 << (bits - 1 - mant)) - 1) << mant
    payloads = np.array([1, 2, 5, (1 << (mant - 1)) - 1, 1 << (mant - 1), (1 << mant) - 1], dtype=u)
    x = np.concatenate([exp | payloads, (1 << (bits - 1)) | exp | payloads]).astype(u).view(dt)
    with np.errstate(invalid="ignore"):
        want = np.spacing(x)
    got = ac.asnumpy(ac.spacing(ac.asarray(x, device=device)))
    np.testing.assert_array_equal(got.view(u), want.view(u))


def test_spacing_of_every_bfloat16_is_ml_dtypes(device):
    # bfloat16's spacing steps in its own values, as ml_dtypes' ufunc loop does (NumPy has no
    # bfloat16): away from zero and signed as x, -0 included; NaN for NaN and +-inf. Every bit
    # pattern, so each binade's edge and the subnormals are in.
    ml_dtypes = pytest.importorskip("ml_dtypes")
    x = np.arange(2**16, dtype=np.uint32).astype(np.uint16).view(ml_dtypes.bfloat16)
    with np.errstate(invalid="ignore"):
        want = np.spacing(x).astype(np.float32)
    got = ac.asnumpy(ac.astype(ac.spacing(ac.asarray(x, device=device)), ac.float32))
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    keep = ~np.isnan(want)
    np.testing.assert_array_equal(got[keep].view(np.uint32), want[keep].view(np.uint32))


@pytest.mark.parametrize("dt", FLOAT_DTYPES)
@pytest.mark.parametrize("span", [80, 400, 3000])
def test_ldexp_exact_through_subnormals_and_overflow(dt, span, device):
    x = bit_patterns(dt)
    n = rng.integers(-span, span, x.size)
    a = ac.asarray(x, device=device)
    same(ac.ldexp(a, ac.asarray(n, device=device)), np.ldexp(x, n))
    m, e = np.frexp(x)
    same(ac.ldexp(ac.asarray(m, device=device), ac.asarray(e, device=device)), x)


@pytest.mark.parametrize("dt", ["bool", "int8", "uint8", "int16", "int32", "int64", "uint64"])
def test_float_ufuncs_take_numpys_float_dtype_for_integers(dt, device):
    x = sample(dt, (3, 4))
    a = ac.asarray(x, device=device)
    for got, want in ((ac.frexp(a), np.frexp(x)), (ac.modf(a), np.modf(x))):
        same(got[0], want[0])
        same(got[1], want[1])
    same(ac.spacing(a), np.spacing(x))
    same(ac.fix(a), np.fix(x))
    n = rng.integers(-20, 20, (3, 4)).astype(np.int32)
    same(ac.ldexp(a, ac.asarray(n, device=device)), np.ldexp(x, n))


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_float_ufuncs_on_empty_and_0d(shape, device):
    x = sample("float64", shape)
    a = ac.asarray(x, device=device)
    same(ac.frexp(a)[0], np.frexp(x)[0])
    same(ac.frexp(a)[1], np.frexp(x)[1])
    same(ac.modf(a)[0], np.modf(x)[0])
    same(ac.spacing(a), np.spacing(x))
    same(ac.ldexp(a, 3), np.ldexp(x, 3))
    same(ac.fix(a), np.fix(x))


def test_ldexp_broadcasts_and_takes_numpys_exponent_dtypes(device):
    x = np.array([[1.5], [-3.0], [5e-324]], dtype=np.float32)
    n = np.array([-200, -149, 0, 127, 128], dtype=np.int16)
    same(ac.ldexp(ac.asarray(x, device=device), ac.asarray(n, device=device)), np.ldexp(x, n))
    same(ac.ldexp(ac.asarray(x, device=device), 7), np.ldexp(x, 7))
    same(ac.ldexp(ac.asarray([True, False], device=device), ac.asarray([3, 3], device=device)),
         np.ldexp([True, False], [3, 3]))
    big = np.array([2**40, -2**40, 2**62], dtype=np.int64)
    same(ac.ldexp(ac.asarray([1.0, 1.0, 0.0], device=device), ac.asarray(big, device=device)),
         np.ldexp([1.0, 1.0, 0.0], big))
    same(ac.ldexp(2.5, ac.asarray(np.uint32([3]), device=device)), np.ldexp(2.5, np.uint32([3])))


def test_float_ufuncs_write_out(device):
    x = sample("float64", (3, 4))
    a = ac.asarray(x, device=device)
    out = ac.empty((3, 4), device=device)
    assert ac.ldexp(a, 2, out=out) is out
    same(out, np.ldexp(x, 2))
    m, e = ac.empty((3, 4), device=device), ac.empty((3, 4), dtype=ac.int32, device=device)
    r = ac.frexp(a, out=(m, e))
    assert r[0] is m and r[1] is e
    same(e, np.frexp(x)[1])
    f, i = ac.empty((3, 4), device=device), ac.empty((3, 4), device=device)
    ac.modf(a, out=(f, i))
    same(i, np.modf(x)[1])
    assert ac.spacing(a, out=out) is out
    same(out, np.spacing(x))
    assert ac.fix(a, out=out) is out
    same(out, np.fix(x))


@pytest.mark.parametrize("fn", ["frexp", "modf", "spacing", "fix"])
def test_float_ufuncs_refuse_complex_as_numpy(fn, device):
    z = np.array([1 + 2j])
    with pytest.raises(TypeError):
        getattr(np, fn)(z)
    with pytest.raises(TypeError):
        getattr(ac, fn)(ac.asarray(z, device=device))


def test_ldexp_refuses_what_numpy_refuses(device):
    one = ac.asarray([1.0], device=device)
    for x, n in ((np.array([1.0]), np.array([2.0])), (np.array([1j]), np.array([2])),
                 (np.array([1.0]), np.array([2], dtype=np.uint64))):
        with pytest.raises(TypeError):
            np.ldexp(x, n)
        with pytest.raises(TypeError, match=r"\[ldexp\]"):
            ac.ldexp(ac.asarray(x, device=device), ac.asarray(n, device=device))
    with pytest.raises(TypeError):
        ac.ldexp(one, 2.0)


# ---- integers ---------------------------------------------------------------------------------

@pytest.mark.parametrize("dt", INT_DTYPES)
def test_gcd_lcm_bitwise_count_over_the_whole_range(dt, device):
    info = np.iinfo(dt)
    x, y = sample(dt, (600,)), sample(dt, (600,))
    x[:200] = rng.integers(0, 60, 200).astype(dt)
    y[100:300] = rng.integers(0, 60, 200).astype(dt)
    x[:4] = [0, info.min, info.max, 0]
    y[:4] = [0, 0, info.min, info.max]
    a, b = ac.asarray(x, device=device), ac.asarray(y, device=device)
    same(ac.gcd(a, b), np.gcd(x, y))
    same(ac.lcm(a, b), np.lcm(x, y))
    same(ac.bitwise_count(a), np.bitwise_count(x))


def test_gcd_lcm_promote_and_broadcast(device):
    x = np.array([[12], [-18], [0]], dtype=np.int8)
    y = np.array([8, -27, 0, 5], dtype=np.int16)
    a, b = ac.asarray(x, device=device), ac.asarray(y, device=device)
    same(ac.gcd(a, b), np.gcd(x, y))
    same(ac.lcm(a, b), np.lcm(x, y))
    same(ac.gcd(a, 6), np.gcd(x, 6))
    u = np.array([200, 7, 0, 36], dtype=np.uint8)
    same(ac.gcd(a, ac.asarray(u, device=device)), np.gcd(x, u))
    with pytest.raises(OverflowError):
        np.gcd(x, 300)
    with pytest.raises(OverflowError):
        ac.gcd(a, 300)
    same(ac.lcm(ac.asarray(True, device=device), b), np.lcm(np.True_, y))
    same(ac.gcd(ac.asarray(np.zeros((0, 3), np.int32), device=device), 4),
         np.gcd(np.zeros((0, 3), np.int32), 4))
    out = ac.empty((3, 4), dtype=ac.int16, device=device)
    assert ac.gcd(a, b, out=out) is out
    same(out, np.gcd(x, y))


def test_bitwise_count_bools_and_0d(device):
    same(ac.bitwise_count(ac.asarray([True, False], device=device)),
         np.bitwise_count(np.array([True, False])))
    same(ac.bitwise_count(ac.asarray(np.int64(-1), device=device)), np.bitwise_count(np.int64(-1)))


def test_integer_ufuncs_refuse_what_numpy_refuses(device):
    f = ac.asarray([1.0], device=device)
    i = ac.asarray([4], device=device)
    cases = [("gcd", (f, i), (np.array([1.0]), np.array([4]))),
             ("lcm", (ac.asarray([True], device=device),) * 2, (np.array([True]),) * 2),
             ("gcd", (ac.asarray(np.uint64([3]), device=device), i),
              (np.uint64([3]), np.array([4]))),
             ("bitwise_count", (f,), (np.array([1.0]),))]
    for name, args, np_args in cases:
        with pytest.raises(TypeError):
            getattr(np, name)(*np_args)
        with pytest.raises(TypeError, match=rf"\[{name}\]"):
            getattr(ac, name)(*args)


# ---- predicates -------------------------------------------------------------------------------

@pytest.mark.parametrize("dt", ["bool", "int8", "uint8", "int64", "float16", "float32", "float64",
                                "complex64", "complex128"])
def test_predicates_match_numpy(dt, device):
    x = sample(dt, (5, 6))
    if np.dtype(dt).kind == "c":
        x[0, :3] = [1 + 0j, -2 - 0j, complex(np.nan, 0)]
    a = ac.asarray(x, device=device)
    same(ac.isreal(a), np.isreal(x))
    same(ac.iscomplex(a), np.iscomplex(x))
    if np.dtype(dt).kind == "c":
        with pytest.raises(TypeError):
            np.isposinf(x)
        with pytest.raises(TypeError):
            ac.isposinf(a)
        with pytest.raises(TypeError):
            ac.isneginf(a)
    else:
        same(ac.isposinf(a), np.isposinf(x))
        same(ac.isneginf(a), np.isneginf(x))
        out = ac.empty((5, 6), dtype=ac.bool, device=device)
        assert ac.isneginf(a, out=out) is out
        same(out, np.isneginf(x))
    for shape in ((), (0, 2)):
        e = sample(dt, shape)
        same(ac.iscomplex(ac.asarray(e, device=device)), np.asarray(np.iscomplex(e)))
        same(ac.isreal(ac.asarray(e, device=device)), np.asarray(np.isreal(e)))


@pytest.mark.parametrize("dt", ["complex64", "complex128", "float32", "int16"])
@pytest.mark.parametrize("tol", [100, 1e-3, 0.5])
def test_real_if_close(dt, tol, device):
    base = rng.standard_normal((3, 4))
    for imag in (0.0, 1e-9, 1e-6, 1e-2):
        x = (base + 1j * imag).astype(dt) if np.dtype(dt).kind == "c" else base.astype(dt)
        same(ac.real_if_close(ac.asarray(x, device=device), tol=tol), np.real_if_close(x, tol=tol))


@pytest.mark.parametrize("dt", ["bool", "int8", "uint16", "int32", "int64", "float16", "float32",
                                "float64", "complex64", "complex128"])
@pytest.mark.parametrize("shape", [(0,), (11,), (3, 7), (2, 0)], ids=str)
def test_sort_complex(dt, shape, device):
    x = sample(dt, shape)
    same(ac.sort_complex(ac.asarray(x, device=device)), np.sort_complex(x))
    z = sample(dt, ())
    matches(lambda: ac.sort_complex(ac.asarray(z, device=device)), lambda: np.sort_complex(z))


# ---- special functions ------------------------------------------------------------------------

@pytest.mark.parametrize("dt", ["bool", "int8", "int64", "float16", "float32", "float64",
                                "complex128"])
@pytest.mark.parametrize("shape", [(), (0,), (5, 7)], ids=str)
def test_sinc(dt, shape, device):
    x = sample(dt, shape)
    if np.dtype(dt).kind in "fc":
        x = (x / 1e3).astype(dt) if x.size else x  # large arguments lose sin's accuracy
    rtol = {"float16": 2e-3, "float32": 2e-6}.get(dt, 1e-12)
    close(ac.sinc(ac.asarray(x, device=device)), np.sinc(x), rtol=rtol, atol=rtol)


@pytest.mark.parametrize("dt", ["bool", "int8", "uint8", "int64", "float16", "float32", "float64"])
@pytest.mark.parametrize("shape", [(), (0,), (5, 8)], ids=str)
def test_i0(dt, shape, device):
    x = sample(dt, shape)
    if np.dtype(dt).kind == "f":
        x = np.clip(x, -700, 700).astype(dt)
        x.ravel()[:4] = [0, -8, 8, 8.5][:x.size] if x.size >= 4 else x.ravel()[:4]
    rtol = {"float16": 4e-3, "float32": 4e-6}.get(dt, 1e-13)
    close(ac.i0(ac.asarray(x, device=device)), np.i0(x), rtol=rtol)


def test_i0_refuses_complex(device):
    with pytest.raises(TypeError):
        np.i0(np.array([1j]))
    with pytest.raises(TypeError, match=r"\[i0\]"):
        ac.i0(ac.asarray([1j], device=device))


# ---- differences, integrals, derivatives ------------------------------------------------------

@pytest.mark.parametrize("dt", ["int8", "uint8", "int64", "float16", "float32", "complex128"])
def test_ediff1d(dt, device):
    for shape in ((), (0,), (7,), (3, 4)):
        x = sample(dt, shape)
        a = ac.asarray(x, device=device)
        same(ac.ediff1d(a), np.ediff1d(x))
        # int64 ends are refused for uint8 (not same_kind), as NumPy refuses them.
        matches(lambda: ac.ediff1d(a, to_begin=[5, 6]), lambda: np.ediff1d(x, to_begin=[5, 6]))
        matches(lambda: ac.ediff1d(a, to_end=ac.asarray(3, device=device), to_begin=-1),
                lambda: np.ediff1d(x, to_end=3, to_begin=-1))
        same(ac.ediff1d(a, to_end=ac.asarray([7, 8], dtype=a.dtype, device=device)),
             np.ediff1d(x, to_end=np.array([7, 8], dtype=x.dtype)))


def test_ediff1d_refuses_what_numpy_refuses(device):
    ints = ac.asarray([1, 5, 2], device=device)
    with pytest.raises(TypeError):
        np.ediff1d(np.array([1, 5, 2]), to_begin=[1.5])
    with pytest.raises(TypeError, match="to_begin"):
        ac.ediff1d(ints, to_begin=[1.5])
    with pytest.raises(TypeError, match="to_end"):
        ac.ediff1d(ints, to_end=ac.asarray([1j], device=device))
    with pytest.raises(TypeError):
        np.ediff1d(np.array([True, False]))
    with pytest.raises(TypeError):
        ac.ediff1d(ac.asarray([True, False], device=device))


@pytest.mark.parametrize("dt", ["bool", "int8", "int64", "float16", "float32", "float64",
                                "complex128"])
@pytest.mark.parametrize("axis", [-1, 0, -2])
def test_trapezoid(dt, axis, device):
    y = sample(dt, (4, 6)) if np.dtype(dt).kind in "biu" else rng.standard_normal((4, 6)).astype(dt)
    a = ac.asarray(y, device=device)
    rtol = {"float16": 3e-3, "float32": 1e-5}.get(dt, 1e-12)
    close(ac.trapezoid(a, axis=axis), np.trapezoid(y, axis=axis), rtol=rtol, atol=rtol)
    close(ac.trapezoid(a, dx=0.25, axis=axis), np.trapezoid(y, dx=0.25, axis=axis), rtol=rtol,
          atol=rtol)
    x1 = np.sort(rng.standard_normal(y.shape[axis]))
    close(ac.trapezoid(a, ac.asarray(x1, device=device), axis=axis),
          np.trapezoid(y, x1, axis=axis), rtol=rtol, atol=rtol)
    xn = np.cumsum(rng.random(y.shape), axis=axis).astype(np.float32)
    close(ac.trapezoid(a, ac.asarray(xn, device=device), axis=axis),
          np.trapezoid(y, xn, axis=axis), rtol=max(rtol, 1e-6), atol=max(rtol, 1e-6))


def test_trapezoid_empty_short_and_0d(device):
    for y in (np.zeros((0,)), np.ones((1,)), np.ones((3, 0)), np.arange(5.0)):
        close(ac.trapezoid(ac.asarray(y, device=device)), np.trapezoid(y))
    for y, axis in ((np.array(3.0), -1), (np.ones((2, 3)), 2), (np.ones((2, 3)), -3)):
        matches(lambda: ac.trapezoid(ac.asarray(y, device=device), axis=axis),
                lambda: np.trapezoid(y, axis=axis))  # IndexError, as NumPy's


@pytest.mark.parametrize("dt", ["bool", "int8", "uint8", "int64", "float16", "float32", "float64",
                                "complex128"])
@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient_uniform_spacing(dt, edge_order, device):
    f = sample(dt, (4, 5, 3)) if np.dtype(dt).kind in "biu" else \
        rng.standard_normal((4, 5, 3)).astype(dt)
    a = ac.asarray(f, device=device)
    rtol = {"float16": 3e-3, "float32": 1e-5}.get(dt, 1e-12)
    if dt == "bool":  # NumPy refuses boolean subtraction
        with pytest.raises(TypeError):
            np.gradient(f)
        with pytest.raises(TypeError):
            ac.gradient(a)
        return
    for args, kw in (((), {}), ((0.5,), {}), ((2.0, 0.5, 3.0), {}), ((), {"axis": -1}),
                     ((1.5,), {"axis": (0, -1)}), ((), {"axis": 1})):
        got, want = ac.gradient(a, *args, edge_order=edge_order, **kw), \
            np.gradient(f, *args, edge_order=edge_order, **kw)
        if isinstance(want, tuple):
            assert isinstance(got, tuple) and len(got) == len(want)
        else:
            got, want = (got,), (want,)
        for g, w in zip(got, want):
            close(g, w, rtol=rtol, atol=rtol)


@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient_coordinate_arrays(edge_order, device):
    f = rng.standard_normal((6, 5))
    x0 = np.cumsum(rng.random(6) + 0.1)
    x1 = np.arange(5) * 3  # integer and uniform: reduced to a scalar, as NumPy does
    a = ac.asarray(f, device=device)
    got = ac.gradient(a, ac.asarray(x0, device=device), ac.asarray(x1, device=device),
                      edge_order=edge_order)
    want = np.gradient(f, x0, x1, edge_order=edge_order)
    for g, w in zip(got, want):
        close(g, w, rtol=1e-11, atol=1e-12)
    close(ac.gradient(a, ac.asarray(x0, device=device), 2.0, edge_order=edge_order)[0],
          np.gradient(f, x0, 2.0, edge_order=edge_order)[0], rtol=1e-11, atol=1e-12)
    g1 = ac.gradient(ac.asarray(f[:, 0].astype(np.float32), device=device),
                     ac.asarray(x0, device=device), edge_order=edge_order)
    close(g1, np.gradient(f[:, 0].astype(np.float32), x0, edge_order=edge_order), rtol=1e-5,
          atol=1e-5)


def test_gradient_refuses_what_numpy_refuses(device):
    f = ac.asarray(np.arange(6.0).reshape(2, 3), device=device)
    with pytest.raises(ValueError, match="too small"):
        ac.gradient(f, edge_order=2)  # axis 0 has 2 points
    with pytest.raises(ValueError, match="edge_order"):
        ac.gradient(f, edge_order=3)
    with pytest.raises(TypeError):
        ac.gradient(f, 1.0, 2.0, 3.0)
    with pytest.raises(ValueError, match="match the length"):
        ac.gradient(f, ac.asarray([1.0, 2.0], device=device), ac.asarray([1.0, 2.0], device=device))
    with pytest.raises(ValueError, match="scalars or 1d"):
        ac.gradient(f, f, 1.0)
    with pytest.raises(np.exceptions.AxisError):
        np.gradient(np.ones((2, 3)), axis=-3)
    with pytest.raises(ac.AxisError):
        ac.gradient(f, axis=-3)
    assert ac.gradient(ac.asarray(3.0, device=device)) == ()
    assert np.gradient(np.array(3.0)) == ()


@pytest.mark.parametrize("dt", ["int64", "float32", "float64"])
@pytest.mark.parametrize("axis", [-1, 0])
def test_unwrap(dt, axis, device):
    steps = rng.uniform(-5, 5, (7, 9))
    p = np.cumsum(steps, axis=axis)
    p = np.round(p * 10).astype(dt) if dt == "int64" else p.astype(dt)
    a = ac.asarray(p, device=device)
    rtol = 1e-5 if dt == "float32" else 1e-12
    for kw in ({}, {"discont": 4.0}, {"period": 360}, {"period": 7}, {"period": 6},
               {"discont": 2, "period": 10}):
        close(ac.unwrap(a, axis=axis, **kw), np.unwrap(p, axis=axis, **kw), rtol=rtol, atol=rtol)
    close(ac.unwrap(ac.asarray(p[:0], device=device), axis=-1), np.unwrap(p[:0], axis=-1))
    for q in (np.array([True, False, True]), np.array(2.0)):
        matches(lambda: ac.unwrap(ac.asarray(q, device=device)), lambda: np.unwrap(q))


def test_unwrap_exact_half_period_jumps(device):
    p = np.array([0.0, np.pi, 0.0, -np.pi, 2 * np.pi, 7.0])
    close(ac.unwrap(ac.asarray(p, device=device)), np.unwrap(p))
    q = np.array([0, 3, 0, -3, 6, 1], dtype=np.int8)
    same(ac.unwrap(ac.asarray(q, device=device), period=6), np.unwrap(q, period=6))


# ---- convolution ------------------------------------------------------------------------------

def _conv_inputs(dt, n, m):
    if dt == "bool":
        return rng.random(n) < 0.5, rng.random(m) < 0.5
    if np.dtype(dt).kind in "iu":
        return (rng.integers(0, 120, n).astype(dt), rng.integers(0, 120, m).astype(dt))
    a, v = rng.standard_normal(n), rng.standard_normal(m)
    if np.dtype(dt).kind == "c":
        a, v = a + 1j * rng.standard_normal(n), v + 1j * rng.standard_normal(m)
    return a.astype(dt), v.astype(dt)


@pytest.mark.parametrize("dt", ["bool", "int8", "uint8", "int64", "float16", "float32", "float64",
                                "complex64", "complex128"])
@pytest.mark.parametrize("lengths", [(9, 4), (4, 9), (6, 6), (1, 5), (5, 1), (8, 3), (3, 8)],
                         ids=str)
def test_convolve_and_correlate(dt, lengths, device):
    x, y = _conv_inputs(dt, *lengths)
    a, v = ac.asarray(x, device=device), ac.asarray(y, device=device)
    rtol = {"float16": 1e-2, "float32": 1e-5, "complex64": 1e-5}.get(dt, 1e-12)
    for mode in ("full", "same", "valid"):
        for fn in ("convolve", "correlate"):
            got, want = getattr(ac, fn)(a, v, mode=mode), getattr(np, fn)(x, y, mode=mode)
            # A new C-ordered array, as NumPy's (its correlate with v the longer reverses its
            # result in place: not a reversed view).
            assert got.strides == want.strides, (fn, mode, got.strides, want.strides)
            if np.dtype(dt).kind in "fc":
                close(got, want, rtol=rtol, atol=rtol)
            else:
                same(got, want)  # integers wrap as NumPy's; bools are any-of-products


@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("small", [0, 4096])
def test_convolve_and_correlate_reach_infinities_only_where_they_overlap(dt, small, device,
                                                                         monkeypatch):
    # NumPy forms only the products where the sequences overlap: an inf or NaN at one end of v
    # reaches the lags that meet a, not the edges where v sticks out past a (0 * inf there
    # would be NaN). small=0: the inner lags as a product of a's windows with v.
    from accel import _np_math
    monkeypatch.setattr(_np_math, "_SLIDING_SMALL", small)
    for x, y in (([1.5, -2.0, 3.0, 0.5, 4.0], [np.inf, 1.0, 2.0]),
                 ([1.0, 2.0, -1.0, 0.25], [0.5, np.nan]),
                 ([np.inf, 1.0, 0.0, 2.0, -3.0, 1.0], [1.0, -np.inf, 2.0]),
                 ([-0.0, 2.0, 0.0], [np.nan, 0.0, 1.0])):
        a, v = np.array(x, dt), np.array(y, dt)
        for mode in ("full", "same", "valid"):
            for fn in ("convolve", "correlate"):
                want = getattr(np, fn)(a, v, mode=mode)
                got = getattr(ac, fn)(ac.asarray(a, device=device), ac.asarray(v, device=device),
                                      mode=mode)
                np.testing.assert_array_equal(ac.asnumpy(got), want)


@pytest.mark.parametrize("elements", [1, 7, 40])
@pytest.mark.parametrize("small", [0, 4096])
def test_convolve_and_correlate_in_blocks_of_lags_as_whole(elements, small, device, monkeypatch):
    # A long signal with a long kernel goes a block of lags at a time (memory bounded), the lags
    # where v lies inside a as a product of a's windows with v, the ends gathered (small=0), or
    # every lag gathered (small sizes): with blocks of one lag, of a few, and of uneven sizes,
    # every mode matches NumPy, integers exactly.
    from accel import _np_math
    monkeypatch.setattr(_np_math, "_SLIDING_ELEMENTS", elements)
    monkeypatch.setattr(_np_math, "_SLIDING_SMALL", small)
    rng = np.random.default_rng(3)
    for n, m in ((23, 5), (5, 23), (9, 9)):
        for x, y in ((rng.standard_normal(n), rng.standard_normal(m)),
                     (rng.integers(-9, 9, n), rng.integers(-9, 9, m))):
            a, v = ac.asarray(x, device=device), ac.asarray(y, device=device)
            for mode in ("full", "same", "valid"):
                for fn in ("convolve", "correlate"):
                    got, want = getattr(ac, fn)(a, v, mode=mode), getattr(np, fn)(x, y, mode=mode)
                    if x.dtype.kind == "f":
                        close(got, want, rtol=1e-12, atol=1e-12)
                    else:
                        same(got, want)


def test_convolve_scalars_mixed_dtypes_and_default_modes(device):
    x, y = np.array([1, 2, 3], np.int16), np.array([0.5, -1.0])
    a, v = ac.asarray(x, device=device), ac.asarray(y, device=device)
    close(ac.convolve(a, v), np.convolve(x, y))
    close(ac.correlate(a, v), np.correlate(x, y))
    close(ac.convolve(ac.asarray(2.0, device=device), v), np.convolve(2.0, y))
    for mode in (0, 1, 2, "s", "Same", 3, True, None):
        matches(lambda: ac.correlate(a, v, mode=mode), lambda: np.correlate(x, y, mode=mode),
                check=close)


def test_convolve_refuses_what_numpy_refuses(device):
    e, one = ac.asarray(np.zeros(0), device=device), ac.asarray([1.0], device=device)
    for fn in ("convolve", "correlate"):
        for args in ((e, one), (one, e)):
            with pytest.raises(ValueError):
                getattr(np, fn)(*(host(x) for x in args))
            with pytest.raises(ValueError, match=rf"\[{fn}\]"):
                getattr(ac, fn)(*args)
        with pytest.raises(ValueError, match="mode"):
            getattr(ac, fn)(one, one, mode="bad")
        with pytest.raises(ValueError, match="too deep"):
            getattr(ac, fn)(ac.ones((2, 2), device=device), one)


# ---- windows ----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["bartlett", "blackman", "hamming", "hanning"])
def test_windows(name, device):
    for M in (-3, 0, 1, 2, 5, 16, 33, 6.5):
        got = getattr(ac, name)(M, device=device)
        assert got.device == ac.asarray(0, device=device).device
        close(got, getattr(np, name)(M), rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize("beta", [0.0, 1.5, 8.6, 14.0, 40.0])
def test_kaiser(beta, device):
    for M in (-1, 0, 1, 2, 7, 32):
        close(ac.kaiser(M, beta, device=device), np.kaiser(M, beta), rtol=1e-12, atol=1e-15)


# ---- NumPy's functions dispatch here ----------------------------------------------------------

def test_numpy_functions_dispatch_to_accel(device):
    x = sample("float64", (3, 5))
    i, j = sample("int16", (3, 5)), sample("int16", (5,))
    a, b, c = (ac.asarray(v, device=device) for v in (x, i, j))
    pairs = [(np.gcd(b, c), np.gcd(i, j)), (np.lcm(b, c), np.lcm(i, j)),
             (np.ldexp(a, c), np.ldexp(x, j)), (np.frexp(a)[0], np.frexp(x)[0]),
             (np.frexp(a)[1], np.frexp(x)[1]), (np.modf(a)[1], np.modf(x)[1]),
             (np.spacing(a), np.spacing(x)), (np.bitwise_count(b), np.bitwise_count(i)),
             (np.fix(a), np.fix(x)), (np.isposinf(a), np.isposinf(x)),
             (np.isneginf(a), np.isneginf(x)), (np.iscomplex(a), np.iscomplex(x)),
             (np.sort_complex(b), np.sort_complex(i)), (np.ediff1d(b), np.ediff1d(i))]
    for got, want in pairs:
        assert isinstance(got, ac.ndarray)
        same(got, want)
    y = np.cumsum(rng.standard_normal(12))
    d = ac.asarray(y, device=device)
    for got, want in ((np.gradient(d, edge_order=2), np.gradient(y, edge_order=2)),
                      (np.unwrap(d, period=3.0), np.unwrap(y, period=3.0)),
                      (np.convolve(d, d[:4], "same"), np.convolve(y, y[:4], "same")),
                      (np.correlate(d, d[:4]), np.correlate(y, y[:4])),
                      (np.sinc(d), np.sinc(y)), (np.i0(d), np.i0(y)),
                      (np.trapezoid(d, dx=0.5), np.trapezoid(y, dx=0.5))):
        assert isinstance(got, ac.ndarray)
        close(got, want, rtol=1e-12, atol=1e-12)
