"""float16 against NumPy: every elementwise op of the registry on float16 inputs (bit for bit
where NumPy computes in float32 and rounds once; within one half ulp for the transcendental
functions, whose float32 kernels differ between libraries), the result dtype of every op for
every dtype pair with float16 and of float math on small integers, casts of every pair with
special values, reductions, and interop (buffer protocol, __array__, DLPack, repr, finfo).
"""

import numpy as np
import pytest

import accel as ac
from device_arrays import DTYPES
from elementwise_oracle import REGISTRY

NP_NAMES = {"pow": "power", "bitwise_invert": "invert", "bitwise_left_shift": "left_shift",
            "bitwise_right_shift": "right_shift", "atan2": "arctan2", "asin": "arcsin",
            "acos": "arccos", "atan": "arctan", "asinh": "arcsinh", "acosh": "arccosh",
            "atanh": "arctanh", "conj": "conjugate"}
# Results computed by a float32 math library: NumPy's (SVML or its own SIMD kernels) and
# accel's (libmvec, glibc) may round to neighbouring halves.
TRANSCENDENTAL = {"sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh",
                  "acosh", "atanh", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p",
                  "cbrt", "pow", "atan2", "hypot", "logaddexp", "logaddexp2", "deg2rad",
                  "rad2deg"}

SPECIALS = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 3.0, np.inf, -np.inf, np.nan, 65504.0, -65504.0,
            6.1e-5, 6e-8, -6e-8, 1e-6, 0.1, 7.5, -2.5, 100.0]


def np_func(name):
    return getattr(np, NP_NAMES.get(name, name))


def half_values(n, seed, *, scale=10.0):
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(n) * scale).astype(np.float16)
    k = min(n, len(SPECIALS))
    x[:k] = np.array(SPECIALS[:k], dtype=np.float16)
    return x


def assert_half_equal(got, want, *, ulps=0, what=""):
    """Equal as float16 bit patterns (any NaN matches any NaN), or within `ulps` halves."""
    got = np.asarray(got)
    assert got.dtype == want.dtype, (what, got.dtype, want.dtype)
    if want.dtype != np.float16:
        np.testing.assert_array_equal(got, want, err_msg=what)
        return
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(got), nan, err_msg=what)
    g, w = got[~nan], want[~nan]
    if ulps == 0:
        np.testing.assert_array_equal(g.view(np.uint16), w.view(np.uint16), err_msg=what)
        return
    # Distance in representable halves: map the bit patterns onto a monotonic integer line.
    def line(v):
        b = v.view(np.uint16).astype(np.int32)
        return np.where(b & 0x8000, 0x8000 - b, b)
    assert np.all(np.abs(line(g) - line(w)) <= ulps), (what, g[line(g) != line(w)],
                                                         w[line(g) != line(w)])


# ---- elementwise ops ---------------------------------------------------------------------------

def float16_ops():
    ops = []
    for name, (arity, bools, domain, output) in sorted(REGISTRY.items()):
        if domain == "Integer" or bools == "Logical" or name == "where":
            continue
        ops.append(name)
    return ops


@pytest.mark.parametrize("name", float16_ops())
def test_op_on_float16_matches_numpy(device, name):
    arity = REGISTRY[name][0]
    n = 300
    args = [half_values(n, seed) for seed in range(arity)]
    if name in ("pow", "exp", "exp2", "expm1", "sinh", "cosh"):
        args = [half_values(n, seed, scale=2.0) for seed in range(arity)]
    with np.errstate(all="ignore"):
        want = np_func(name)(*args)
    got = getattr(ac, name)(*[ac.asarray(a, device=device) for a in args])
    assert_half_equal(ac.asnumpy(got), want, ulps=1 if name in TRANSCENDENTAL else 0, what=name)


def test_where_and_strided_broadcast_float16(device):
    x = half_values(60, 1).reshape(6, 10)
    y = half_values(10, 2)
    c = x > 0
    ax, ay = ac.asarray(x, device=device), ac.asarray(y, device=device)
    assert_half_equal(ac.asnumpy(ac.where(ac.asarray(c, device=device), ax, ay)),
                      np.where(c, x, y))
    with np.errstate(all="ignore"):
        assert_half_equal(ac.asnumpy(ax[:, ::3] * ay[::3]), x[:, ::3] * y[::3])
        assert_half_equal(ac.asnumpy(ac.sqrt(ax.T)), np.sqrt(x.T))
        assert_half_equal(ac.asnumpy(ax[::-1, 1:] / ay[1:]), x[::-1, 1:] / y[1:])


def test_fused_chain_rounds_each_op_to_half(device):
    # Fusion must not keep float32 between ops: each NumPy op rounds to float16.
    x = half_values(5000, 3)
    y = half_values(5000, 4)
    ac.set_eager_small(False)
    try:
        for fusion in (True, False):
            ac.set_fusion(fusion)
            ax, ay = ac.asarray(x, device=device), ac.asarray(y, device=device)
            got = ac.asnumpy((ax * ay + ax) / (ay - 1.5) * 3)
            with np.errstate(all="ignore"):
                assert_half_equal(got, (x * y + x) / (y - np.float16(1.5)) * np.float16(3),
                                  what=f"fusion={fusion}")
    finally:
        ac.set_fusion(True)
        ac.set_eager_small(True)


def test_overflow_subnormals_and_signed_zero(device):
    a = ac.asarray(np.array([65504, 60000, 6e-8, -0.0, 1e-7], np.float16), device=device)
    got = ac.asnumpy(a * ac.asarray(np.array([2, 2, 0.5, 1, 0.25], np.float16), device=device))
    want = np.array([65504, 60000, 6e-8, -0.0, 1e-7], np.float16) * np.array(
        [2, 2, 0.5, 1, 0.25], np.float16)
    assert_half_equal(got, want)
    assert np.isinf(got[0]) and np.isinf(got[1]) and np.signbit(got[3])


# ---- dtypes: promotion and loop selection ------------------------------------------------------

def numpy_dtype(name, args):
    try:
        with np.errstate(all="ignore"):
            return np.asarray(np_func(name)(*args)).dtype
    except TypeError:
        return None


def accel_dtype(name, args):
    try:
        return np.dtype(getattr(ac, name)(*[ac.asarray(a) for a in args]).dtype.name)
    except TypeError:
        return None


@pytest.mark.parametrize("name", sorted(n for n in REGISTRY if REGISTRY[n][0] == 2))
def test_binary_result_dtype_with_float16_matches_numpy(name):
    for other in DTYPES:
        for pair in (("float16", other), (other, "float16")):
            args = [np.ones(2, dtype=d) for d in pair]
            assert accel_dtype(name, args) == numpy_dtype(name, args), (name, pair)


@pytest.mark.parametrize("name", sorted(n for n in REGISTRY if REGISTRY[n][0] == 1))
def test_unary_result_dtype_on_small_types_matches_numpy(name):
    # round(bool) keeps bool in accel (a documented difference, elementwise_oracle.py).
    for dt in ("int8", "uint8", "int16", "uint16", "float16") + (() if name == "round" else ("bool",)):
        if name == "round" and dt != "float16":
            continue  # accel's round is NumPy's round (ints stay ints), not rint
        args = [np.ones(2, dtype=dt)]
        assert accel_dtype(name, args) == numpy_dtype(name, args), (name, dt)


def test_float_math_on_pairs_of_small_ints_matches_numpy():
    small = ["bool", "int8", "uint8", "int16", "uint16"]
    for name in ("atan2", "hypot", "logaddexp", "copysign", "nextafter", "divide"):
        for a in small:
            for b in small:
                args = [np.ones(2, dtype=a), np.ones(2, dtype=b)]
                assert accel_dtype(name, args) == numpy_dtype(name, args), (name, a, b)


def test_result_type_and_promote_types_with_float16():
    for d in DTYPES:
        assert ac.promote_types("float16", d) == np.promote_types("float16", d).name, d
        assert ac.result_type(ac.float16, d) == np.result_type(np.float16, d).name, d


def test_weak_python_scalars_keep_float16(device):
    x = ac.asarray(np.array([1.5, -2.0], np.float16), device=device)
    h = np.array([1.5, -2.0], np.float16)
    for value in (1, 2.5, True, 1j):
        assert (x + value).dtype == (h + value).dtype, value
    assert (x * 1e10).dtype == ac.float16  # overflows to inf, as NumPy
    assert np.isinf(ac.asnumpy(x * 1e10)).all()


def test_can_cast_and_finfo():
    for d in DTYPES:
        assert ac.can_cast("float16", d) == np.can_cast(np.float16, d), d
        assert ac.can_cast(d, "float16") == np.can_cast(d, np.float16), d
    fi, nf = ac.finfo(ac.float16), np.finfo(np.float16)
    assert (fi.bits, fi.eps, fi.max, fi.min, fi.smallest_normal) == (
        nf.bits, float(nf.eps), float(nf.max), float(nf.min), float(nf.smallest_normal))
    assert ac.float16.itemsize == 2 and ac.float16.kind == "f" and ac.float16.char == "e"
    assert np.dtype(ac.float16) == np.float16


# ---- casts -------------------------------------------------------------------------------------

def cast_sources(dt):
    d = np.dtype(dt)
    if d.kind == "b":
        return np.array([True, False])
    if d.kind in "iu":
        info = np.iinfo(d)
        vals = [0, 1, 2, 100, 2047, 2049, 65504, 65519, 65520, int(info.max), int(info.min)]
        if d.kind == "i":
            vals += [-1, -2049, -65520]
        return np.array([v for v in vals if info.min <= v <= info.max], dtype=d)
    vals = [0.0, -0.0, 1.0, -1.5, np.inf, -np.inf, np.nan, 65504.0, 65519.99, 65520.0, 1e10,
            5.9604644775390625e-08, 2.9802322387695312e-08, 2.98023223876953125e-08 * 1.0001,
            1.0 + 2.0 ** -11 + 2.0 ** -40, 1.0 + 2.0 ** -11, 0.1, 1 / 3]
    if d.kind == "c":
        return np.array([complex(v, 1) for v in vals], dtype=d)
    return np.array(vals).astype(d)


@pytest.mark.parametrize("src", DTYPES)
def test_cast_to_float16_matches_numpy(device, src):
    x = cast_sources(src)
    with np.errstate(all="ignore"):
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
            want = x.astype(np.float16)
            got = ac.asarray(x, device=device).astype("float16")
    assert_half_equal(ac.asnumpy(got), want, what=src)


@pytest.mark.parametrize("dst", DTYPES)
def test_cast_from_float16_matches_numpy(device, dst):
    x = half_values(200, 5)
    if np.dtype(dst).kind in "iub":
        # NumPy leaves NaN, inf and out-of-range values to the platform's conversion.
        info = np.iinfo(dst) if np.dtype(dst).kind != "b" else None
        x = x[np.isfinite(x)]
        if info is not None:
            x = x[(x >= max(info.min, -65504)) & (x <= min(info.max, 65504))]
    want = x.astype(dst)
    got = ac.asnumpy(ac.asarray(x, device=device).astype(dst))
    np.testing.assert_array_equal(got, want)
    assert got.dtype == want.dtype
    if np.dtype(dst).kind in "fc":
        np.testing.assert_array_equal(np.signbit(got.real), np.signbit(want.real))


def test_double_rounds_to_half_directly():
    # Through float this would round twice (to the tie 1 + 2^-11, then to even 1.0).
    v = np.array([1.0 + 2.0 ** -11 + 2.0 ** -40])
    assert ac.asnumpy(ac.asarray(v).astype("float16"))[0] == v.astype(np.float16)[0]
    assert v.astype(np.float16)[0] != np.float16(1.0)


# ---- reductions --------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [0, 1, 7, 1000, 100_000])
def test_sum_prod_mean_of_float16(device, n):
    x = half_values(max(n, 1), 6, scale=1.0)[:n]
    a = ac.asarray(x, device=device)
    # NumPy sums in float32 and rounds once; the order of float32 additions differs, which
    # moves the rounded result by at most a half ulp or two on long sums.
    ulps = 0 if n < 1000 else 2
    x = x[np.isfinite(x)]
    a = ac.asarray(x, device=device)
    assert_half_equal(ac.asnumpy(ac.sum(a)), np.sum(x), ulps=ulps, what="sum")
    with np.errstate(all="ignore"):
        if x.size:
            assert_half_equal(ac.asnumpy(ac.mean(a)), np.mean(x), ulps=ulps, what="mean")
        small = x[:50] * np.float16(0.5) + np.float16(1)
        assert_half_equal(ac.asnumpy(ac.prod(ac.asarray(small, device=device))), np.prod(small),
                          ulps=1, what="prod")


def test_reductions_along_axes_of_float16(device):
    x = half_values(24 * 50, 7, scale=3.0).reshape(24, 50)
    x = np.where(np.isfinite(x), x, np.float16(1))
    a = ac.asarray(x, device=device)
    for axis in (0, 1, None):
        assert_half_equal(ac.asnumpy(ac.max(a, axis=axis)), np.max(x, axis=axis))
        assert_half_equal(ac.asnumpy(ac.min(a, axis=axis)), np.min(x, axis=axis))
        # accel sums float16 in float32 along every axis; NumPy only along a contiguous one
        # (across rows it rounds every addition to half): compare with the float32 sum.
        assert_half_equal(ac.asnumpy(ac.sum(a, axis=axis)),
                          np.sum(x.astype(np.float32), axis=axis).astype(np.float16), ulps=1)
        np.testing.assert_array_equal(ac.asnumpy(ac.any(a, axis=axis)), np.any(x, axis=axis))
        np.testing.assert_array_equal(ac.asnumpy(ac.all(a, axis=axis)), np.all(x, axis=axis))
    np.testing.assert_array_equal(ac.asnumpy(ac.argmax(a, axis=1)), np.argmax(x, axis=1))
    np.testing.assert_array_equal(ac.asnumpy(ac.argmin(a)), np.argmin(x))


def test_max_and_argmax_propagate_nan(device):
    x = half_values(100, 8)
    a = ac.asarray(x, device=device)
    assert np.isnan(ac.asnumpy(ac.max(a)))
    assert int(ac.argmax(a)) == int(np.argmax(x))
    assert int(ac.argmin(a)) == int(np.argmin(x))


def test_cumsum_rounds_each_step_like_numpy(device):
    x = half_values(3000, 9, scale=1.0)
    x = x[np.isfinite(x)]
    got = ac.asnumpy(ac.cumsum(ac.asarray(x, device=device)))
    assert_half_equal(got, np.cumsum(x))
    y = x[:2000].reshape(40, 50)
    assert_half_equal(ac.asnumpy(ac.cumsum(ac.asarray(y, device=device), axis=0)),
                      np.cumsum(y, axis=0))


# ---- interop -----------------------------------------------------------------------------------

def test_numpy_round_trip_and_buffer_protocol(device):
    x = half_values(50, 10)
    a = ac.asarray(x, device=device)
    assert a.dtype == ac.float16
    assert_half_equal(ac.asnumpy(a), x)
    if device == "cpu":
        m = memoryview(a)
        assert m.format == "e" and m.itemsize == 2
        assert_half_equal(np.asarray(a), x)
        assert_half_equal(np.frombuffer(m, dtype=np.float16), x)
        assert_half_equal(ac.asnumpy(ac.asarray(memoryview(x))), x)


def test_dlpack_both_ways():
    x = half_values(40, 11)
    a = ac.asarray(x)
    assert_half_equal(np.from_dlpack(a), x)
    assert_half_equal(ac.asnumpy(ac.from_dlpack(x)), x)


def test_dlpack_with_torch():
    torch = pytest.importorskip("torch", reason="torch is not installed")
    t = torch.linspace(-3, 3, 17, dtype=torch.float16)
    a = ac.from_dlpack(t)
    assert a.dtype == ac.float16
    np.testing.assert_array_equal(ac.asnumpy(a), t.numpy())
    back = torch.from_dlpack(a)
    assert back.dtype == torch.float16 and torch.equal(back, t)


def test_repr_astype_and_item():
    x = np.array([1.5, -0.0, np.inf, 65504], np.float16)
    a = ac.asarray(x)
    assert repr(a) == repr(x)
    assert str(a) == str(x)
    assert float(a[0]) == 1.5
    assert a[3].item() == 65504.0
    assert_half_equal(ac.asnumpy(a.astype("float32").astype("float16")), x)


def test_indexing_and_setitem(device):
    x = half_values(30, 12).reshape(5, 6)
    a = ac.asarray(x, device=device)
    assert_half_equal(ac.asnumpy(a[1:4, ::2]), x[1:4, ::2])
    assert_half_equal(ac.asnumpy(a[[0, 2, 4]]), x[[0, 2, 4]])
    x[2, 3] = 0.1
    a[2, 3] = 0.1
    x[0] = np.arange(6, dtype=np.float16)
    a[0] = ac.arange(6, dtype="float16", device=device)
    x[x > 5] = 7.25
    a[a > 5] = 7.25
    assert_half_equal(ac.asnumpy(a), x)


def test_creation_with_float16(device):
    for got, want in [
        (ac.zeros((2, 3), dtype="float16", device=device), np.zeros((2, 3), np.float16)),
        (ac.ones(4, dtype=ac.float16, device=device), np.ones(4, np.float16)),
        (ac.full(3, 0.1, dtype="float16", device=device), np.full(3, 0.1, np.float16)),
        (ac.arange(0, 10, 0.7, dtype="float16", device=device),
         np.arange(0, 10, 0.7, dtype=np.float16)),
        (ac.arange(2048, 2100, dtype="float16", device=device),
         np.arange(2048, 2100, dtype=np.float16)),
        (ac.eye(3, dtype="float16", device=device), np.eye(3, dtype=np.float16)),
        (ac.linspace(0, 1, 11, dtype="float16", device=device),
         np.linspace(0, 1, 11, dtype=np.float16)),
    ]:
        assert_half_equal(ac.asnumpy(got), want)


def test_matmul_float16(device):
    rng = np.random.default_rng(13)
    x = rng.standard_normal((7, 20)).astype(np.float16)
    y = rng.standard_normal((20, 5)).astype(np.float16)
    got = ac.asnumpy(ac.asarray(x, device=device) @ ac.asarray(y, device=device))
    # NumPy's float16 matmul sums the products in float and rounds once, as accel's loop.
    assert_half_equal(got, x @ y, ulps=1)
