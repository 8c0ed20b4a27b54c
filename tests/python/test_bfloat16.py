"""bfloat16 against ml_dtypes-backed NumPy: casts over all 65,536 bit patterns, every elementwise
op of the registry (bit for bit where ml_dtypes computes in float32 and rounds once; within one
bfloat16 ulp for the transcendental functions, whose float32 kernels differ between libraries),
reductions, matmul, sort, indexing, the promotion table of docs/ARCHITECTURE.md ("Dtypes"), and
interop (NumPy through ml_dtypes, DLPack, printing, the error without ml_dtypes).
"""

import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import accel as ac
from device_arrays import DTYPES
from elementwise_oracle import REGISTRY

try:
    import ml_dtypes
    BF16 = np.dtype(ml_dtypes.bfloat16)
except ImportError:
    ml_dtypes = None
    BF16 = None

needs_ml_dtypes = pytest.mark.skipif(
    ml_dtypes is None, reason="ml_dtypes is not installed (scripts/setup installs it): NumPy has "
                              "no bfloat16 to compare with")

NP_NAMES = {"pow": "power", "bitwise_invert": "invert", "bitwise_left_shift": "left_shift",
            "bitwise_right_shift": "right_shift", "atan2": "arctan2", "asin": "arcsin",
            "acos": "arccos", "atan": "arctan", "asinh": "arcsinh", "acosh": "arccosh",
            "atanh": "arctanh", "conj": "conjugate"}
# Computed by a float32 math library: ml_dtypes' (glibc, one element at a time) and accel's
# (libmvec) may round to neighbouring bfloat16 values.
TRANSCENDENTAL = {"sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh",
                  "acosh", "atanh", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p",
                  "cbrt", "pow", "atan2", "hypot", "logaddexp", "logaddexp2", "deg2rad",
                  "rad2deg"}
SPECIALS = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 3.0, np.inf, -np.inf, np.nan, 3.3895e38, -3.3895e38,
            1.1754944e-38, 9.2e-41, -9.2e-41, 1e-39, 0.1, 7.5, -2.5, 100.0]

# The documented promotion of bfloat16 with each dtype (docs/ARCHITECTURE.md, "Dtypes").
PROMOTION = {"bool": "bfloat16", "int8": "bfloat16", "uint8": "bfloat16", "int16": "float32",
             "uint16": "float32", "int32": "float64", "uint32": "float64", "int64": "float64",
             "uint64": "float64", "float16": "float32", "float32": "float32",
             "float64": "float64", "complex64": "complex64", "complex128": "complex128",
             "bfloat16": "bfloat16"}


def np_func(name):
    return getattr(np, NP_NAMES.get(name, name))


def bf16_values(n, seed, *, scale=10.0):
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(n) * scale).astype(BF16)
    k = min(n, len(SPECIALS))
    x[:k] = np.array(SPECIALS[:k]).astype(BF16)
    return x


def bits(x):
    return np.asarray(x).view(np.uint16)


def assert_bf16_equal(got, want, *, ulps=0, what=""):
    """Equal as bfloat16 bit patterns (any NaN matches any NaN), or within `ulps` values."""
    got = np.asarray(got)
    assert got.dtype == want.dtype, (what, got.dtype, want.dtype)
    if want.dtype != BF16:
        np.testing.assert_array_equal(got, want, err_msg=what)
        return
    nan = np.isnan(want.astype(np.float32))
    np.testing.assert_array_equal(np.isnan(got.astype(np.float32)), nan, err_msg=what)
    g, w = got[~nan], want[~nan]
    if ulps == 0:
        np.testing.assert_array_equal(bits(g), bits(w), err_msg=what)
        return

    def line(v):  # bit patterns onto a monotonic integer line
        b = bits(v).astype(np.int32)
        return np.where(b & 0x8000, 0x8000 - b, b)
    far = np.abs(line(g) - line(w)) > ulps
    assert not far.any(), (what, g[far], w[far])


def to_ac(x, device="cpu"):
    return ac.asarray(x, device=device)


# ---- casts -------------------------------------------------------------------------------------

@needs_ml_dtypes
def test_every_bit_pattern_widens_exactly_and_rounds_back(device):
    patterns = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(BF16)
    a = to_ac(patterns, device)
    assert a.dtype == ac.bfloat16
    for dst in ("float32", "float64"):
        got = ac.asnumpy(a.astype(dst))
        want = patterns.astype(dst)
        np.testing.assert_array_equal(got.view(f"u{got.itemsize}"), want.view(f"u{want.itemsize}"))
    # float32 -> bfloat16 on the patterns (exact) and on every float32 between them.
    rng = np.random.default_rng(0)
    f32 = np.concatenate([patterns.astype(np.float32),
                          rng.integers(0, 1 << 32, 200_000, dtype=np.uint64)
                          .astype(np.uint32).view(np.float32),
                          (np.arange(1 << 16, dtype=np.uint32) << 16 | 0x8000).view(np.float32)])
    got = ac.asnumpy(to_ac(f32, device).astype("bfloat16"))
    np.testing.assert_array_equal(bits(got), bits(f32.astype(BF16)))


@needs_ml_dtypes
def test_double_rounds_to_bfloat16_once(device):
    rng = np.random.default_rng(1)
    # Random doubles, and doubles just off the bfloat16 ties (where rounding through float32
    # would land on the tie and round to even).
    ties = (np.arange(1 << 16, dtype=np.uint64) << 48 | np.uint64(1 << 47)).view(np.float64)
    d = np.concatenate([rng.standard_normal(50_000) * 10.0 ** rng.integers(-45, 39, 50_000),
                        ties * (1 + 2.0 ** -40), ties * (1 - 2.0 ** -40),
                        [1.0 + 2.0 ** -8 + 2.0 ** -40, 2.0 ** -134 * 1.0001, 2.0 ** -134,
                         3.3961e38, 1e-300, -0.0, np.inf, np.nan]])
    with np.errstate(all="ignore"):
        want = d.astype(BF16)
    got = ac.asnumpy(to_ac(d, device).astype(ac.bfloat16))
    np.testing.assert_array_equal(bits(got), bits(want))
    assert bits(got)[-8] == 0x3f81  # through float32 this would be 1.0


def cast_sources(dt):
    d = np.dtype(dt)
    if d.kind == "b":
        return np.array([True, False])
    if d.kind in "iu":
        info = np.iinfo(d)
        vals = [0, 1, 2, 100, 255, 257, 2 ** 24 + 2 ** 16 + 1, 2 ** 24 + 2 ** 16, 2 ** 31 - 1,
                2 ** 60 + 2 ** 52 + 1, int(info.max), int(info.min)]
        if d.kind == "i":
            vals += [-1, -257, -(2 ** 24 + 2 ** 16 + 1)]
        return np.array([v for v in vals if info.min <= v <= info.max], dtype=d)
    vals = [0.0, -0.0, 1.0, -1.5, np.inf, -np.inf, np.nan, 3.39e38, 3.4e38, 1e-39, 1e-45, 0.1,
            1 / 3, 1.0 + 2.0 ** -8 + 2.0 ** -40, 1.0 + 2.0 ** -8, 65504.0, 6e-8]
    if d.kind == "c":
        return np.array([complex(v, 1) for v in vals], dtype=d)
    with np.errstate(all="ignore"):
        return np.array(vals).astype(d)


@needs_ml_dtypes
@pytest.mark.parametrize("src", DTYPES)
def test_cast_to_bfloat16_matches_ml_dtypes(device, src):
    x = cast_sources(src)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        want = x.astype(BF16)
        got = to_ac(x, device).astype("bfloat16")
    assert_bf16_equal(ac.asnumpy(got), want, what=src)


@needs_ml_dtypes
@pytest.mark.parametrize("dst", DTYPES)
def test_cast_from_bfloat16_matches_ml_dtypes(device, dst):
    x = bf16_values(300, 5, scale=50.0)
    if np.dtype(dst).kind in "iub":
        # NaN, inf and out-of-range values are left to the platform's conversion (NumPy's
        # float16 and ml_dtypes differ there): the values every conversion agrees on.
        f = x.astype(np.float32)
        keep = np.isfinite(f)
        if np.dtype(dst).kind != "b":
            info = np.iinfo(dst)
            keep &= (f >= max(info.min, -2.0 ** 62)) & (f <= min(info.max, 2.0 ** 62))
        x = x[keep]
    want = x.astype(dst)
    got = ac.asnumpy(to_ac(x, device).astype(dst))
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
    if np.dtype(dst).kind in "fc":
        np.testing.assert_array_equal(np.signbit(got.real), np.signbit(want.real))


# ---- elementwise ops ---------------------------------------------------------------------------

def bfloat16_ops():
    return sorted(name for name, (arity, bools, domain, output) in REGISTRY.items()
                  if domain != "Integer" and bools != "Logical" and name != "where")


@needs_ml_dtypes
@pytest.mark.parametrize("name", bfloat16_ops())
def test_op_on_bfloat16_matches_ml_dtypes(device, name):
    arity = REGISTRY[name][0]
    scale = 2.0 if name in ("pow", "exp", "exp2", "expm1", "sinh", "cosh") else 10.0
    args = [bf16_values(400, seed, scale=scale) for seed in range(arity)]
    with np.errstate(all="ignore"):
        want = np_func(name)(*args)
    if name == "sign":
        # sign(-0.0) is 0.0 as for NumPy's own floats (ml_dtypes returns -0.0).
        want[want.astype(np.float32) == 0] = 0
    got = getattr(ac, name)(*[to_ac(a, device) for a in args])
    assert got.dtype == (ac.bool if want.dtype == np.bool_ else ac.bfloat16), name
    assert_bf16_equal(ac.asnumpy(got), want, ulps=1 if name in TRANSCENDENTAL else 0, what=name)


@needs_ml_dtypes
def test_where_strided_and_broadcast_operands(device):
    x = bf16_values(60, 1).reshape(6, 10)
    y = bf16_values(10, 2)
    c = x.astype(np.float32) > 0
    ax, ay = to_ac(x, device), to_ac(y, device)
    assert_bf16_equal(ac.asnumpy(ac.where(to_ac(c, device), ax, ay)), np.where(c, x, y))
    with np.errstate(all="ignore"):
        assert_bf16_equal(ac.asnumpy(ax[:, ::3] * ay[::3]), x[:, ::3] * y[::3])
        assert_bf16_equal(ac.asnumpy(ac.sqrt(ax.T)), np.sqrt(x.T))
        assert_bf16_equal(ac.asnumpy(ax[::-1, 1:] / ay[1:]), x[::-1, 1:] / y[1:])


@needs_ml_dtypes
def test_fused_chain_rounds_each_op_to_bfloat16(device):
    x = bf16_values(5000, 3)
    y = bf16_values(5000, 4)
    ac.set_eager_small(False)
    try:
        for fusion in (True, False):
            ac.set_fusion(fusion)
            ax, ay = to_ac(x, device), to_ac(y, device)
            got = ac.asnumpy((ax * ay + ax) / (ay - 1.5) * 3)
            with np.errstate(all="ignore"):
                want = (x * y + x) / (y - BF16.type(1.5)) * BF16.type(3)
            assert_bf16_equal(got, want, what=f"fusion={fusion}")
    finally:
        ac.set_fusion(True)
        ac.set_eager_small(True)


@needs_ml_dtypes
def test_overflow_subnormals_and_signed_zero(device):
    x = np.array([3.3895e38, 1e38, 1e-39, -0.0, 9.2e-41], dtype=np.float64).astype(BF16)
    y = np.array([2, 4, 0.5, 1, 0.25]).astype(BF16)
    got = ac.asnumpy(to_ac(x, device) * to_ac(y, device))
    assert_bf16_equal(got, x * y)
    f = got.astype(np.float32)
    # inf past the largest; a subnormal halved; -0.0 kept; the smallest subnormal / 4 is 0.
    assert np.isinf(f[0]) and np.isinf(f[1]) and 0 < f[2] < 1e-39 and np.signbit(f[3])
    assert f[4] == 0


# ---- promotion ---------------------------------------------------------------------------------

def test_promotion_table_is_the_documented_one():
    for other, want in PROMOTION.items():
        assert ac.promote_types("bfloat16", other) == want, other
        assert ac.promote_types(other, "bfloat16") == want, other
        assert ac.result_type(ac.bfloat16, other) == want, other
        assert ac.can_cast("bfloat16", other) == (want == other), other
        assert ac.can_cast(other, "bfloat16") == (want == "bfloat16"), other


@needs_ml_dtypes
def test_promotion_table_agrees_with_ml_dtypes():
    for other, want in PROMOTION.items():
        assert np.promote_types(BF16, other).name == want, other


def test_binary_ops_promote_by_the_table(device):
    a = ac.ones(3, dtype="bfloat16", device=device)
    for other, want in PROMOTION.items():
        b = ac.ones(3, dtype=other, device=device)
        assert (a + b).dtype == want, other
        assert (b * a).dtype == want, other
    assert ac.result_type(ac.bfloat16, "int8", "float16") == "float32"


def test_python_scalars_are_weak(device):
    a = ac.asarray([1.5, -2.0], dtype="bfloat16", device=device)
    assert (a + 1).dtype == ac.bfloat16
    assert (a * 2.5).dtype == ac.bfloat16
    assert (a - True).dtype == ac.bfloat16
    assert (a + 1j).dtype == ac.complex64
    assert np.isinf(ac.asnumpy((a * 1e39).astype("float32"))).all()


def test_float_math_on_small_ints_stays_float16():
    # bfloat16 never appears unless asked for: NumPy's float16 for bool and 8-bit ints.
    for dt in ("bool", "int8", "uint8"):
        assert ac.sin(ac.ones(2, dtype=dt)).dtype == ac.float16, dt
        assert ac.sqrt(ac.ones(2, dtype=dt)).dtype == ac.float16, dt
    assert ac.sin(ac.ones(2, dtype="bfloat16")).dtype == ac.bfloat16


def test_dtype_object_and_finfo():
    assert ac.bfloat16.name == "bfloat16" and ac.bfloat16.itemsize == 2
    assert ac.bfloat16.kind == "f" and ac.bfloat16.char == "E"
    assert ac.isdtype(ac.bfloat16, "real floating")
    fi = ac.finfo(ac.bfloat16)
    assert fi.dtype == ac.bfloat16 and fi.bits == 16
    assert (fi.eps, fi.smallest_normal) == (2.0 ** -7, 2.0 ** -126)
    assert fi.max == (2 - 2.0 ** -7) * 2.0 ** 127 == -fi.min
    big = ac.full(1, fi.max, dtype="bfloat16")
    assert float(big[0]) == fi.max and np.isinf(float((big * 2)[0]))
    if ml_dtypes is not None:
        mf = ml_dtypes.finfo(ml_dtypes.bfloat16)
        assert (fi.eps, fi.max, fi.min, fi.smallest_normal, fi.resolution, fi.precision) == (
            float(mf.eps), float(mf.max), float(mf.min), float(mf.smallest_normal),
            float(mf.resolution), mf.precision)


def test_unknown_dtype_names_bfloat16_among_supported():
    with pytest.raises(ac.DTypeError, match="bfloat16"):
        ac.zeros(2, dtype="bfloat17")


# ---- reductions, scans, matmul, sort -----------------------------------------------------------

@needs_ml_dtypes
@pytest.mark.parametrize("n", [0, 1, 7, 1000, 100_000])
def test_sum_prod_mean_accumulate_in_float32(device, n):
    x = bf16_values(max(n, 1), 6, scale=1.0)[:n]
    x = x[np.abs(x.astype(np.float32)) < 1e4]  # no +-3.4e38, whose float32 sum is order-bound
    a = to_ac(x, device)
    f = x.astype(np.float32)
    # Accumulated in float32 and rounded once (the order of the float32 additions may move the
    # rounded result by one bfloat16 value on long sums).
    ulps = 0 if n < 1000 else 1
    assert ac.sum(a).dtype == ac.bfloat16
    assert_bf16_equal(ac.asnumpy(ac.sum(a)), np.asarray(f.sum(dtype=np.float32)).astype(BF16),
                      ulps=ulps, what="sum")
    if x.size:
        assert_bf16_equal(ac.asnumpy(ac.mean(a)),
                          np.asarray(f.sum(dtype=np.float32) / np.float32(x.size)).astype(BF16),
                          ulps=ulps, what="mean")
    small = (x[:50].astype(np.float32) * 0.5 + 1).astype(BF16)
    want = np.asarray(np.prod(small.astype(np.float32))).astype(BF16)
    assert_bf16_equal(ac.asnumpy(ac.prod(to_ac(small, device))), want, ulps=1, what="prod")


@needs_ml_dtypes
def test_reductions_along_axes(device):
    x = bf16_values(24 * 50, 7, scale=3.0).reshape(24, 50)
    x = np.where(np.abs(x.astype(np.float32)) < 1e4, x, BF16.type(1))
    a = to_ac(x, device)
    f = x.astype(np.float32)
    for axis in (0, 1, None):
        assert_bf16_equal(ac.asnumpy(ac.max(a, axis=axis)), np.max(x, axis=axis))
        assert_bf16_equal(ac.asnumpy(ac.min(a, axis=axis)), np.min(x, axis=axis))
        assert_bf16_equal(ac.asnumpy(ac.sum(a, axis=axis)),
                          np.asarray(np.sum(f, axis=axis)).astype(BF16), ulps=1)
        np.testing.assert_array_equal(ac.asnumpy(ac.any(a, axis=axis)), np.any(f, axis=axis))
    np.testing.assert_array_equal(ac.asnumpy(ac.argmax(a, axis=1)), np.argmax(f, axis=1))
    np.testing.assert_array_equal(ac.asnumpy(ac.argmin(a)), np.argmin(f))


@needs_ml_dtypes
def test_max_and_argmax_propagate_nan(device):
    x = bf16_values(100, 8)
    a = to_ac(x, device)
    assert np.isnan(float(ac.max(a)))
    assert int(ac.argmax(a)) == int(np.argmax(x.astype(np.float32)))
    assert int(ac.argmin(a)) == int(np.argmin(x.astype(np.float32)))


@needs_ml_dtypes
def test_cumsum_rounds_each_step_like_ml_dtypes(device):
    x = bf16_values(3000, 9, scale=1.0)
    x = x[np.isfinite(x.astype(np.float32))]
    assert_bf16_equal(ac.asnumpy(ac.cumsum(to_ac(x, device))), np.add.accumulate(x))
    y = x[:2000].reshape(40, 50)
    assert_bf16_equal(ac.asnumpy(ac.cumsum(to_ac(y, device), axis=0)),
                      np.add.accumulate(y, axis=0))


@needs_ml_dtypes
def test_matmul_sums_in_float32_and_rounds_once(device):
    rng = np.random.default_rng(13)
    for shape_a, shape_b in [((7, 20), (20, 5)), ((3, 4, 6), (6, 2)), ((64, 64), (64, 64))]:
        x = rng.standard_normal(shape_a).astype(BF16)
        y = rng.standard_normal(shape_b).astype(BF16)
        got = to_ac(x, device) @ to_ac(y, device)
        assert got.dtype == ac.bfloat16
        want = np.asarray(x.astype(np.float32) @ y.astype(np.float32)).astype(BF16)
        assert_bf16_equal(ac.asnumpy(got), want, ulps=1)
    z = to_ac(x, device) @ ac.ones((64, 3), dtype="float32", device=device)
    assert z.dtype == ac.float32


@needs_ml_dtypes
def test_sort_puts_nan_last_like_numpy(device):
    x = bf16_values(500, 10).reshape(5, 100)
    x[2, 5] = np.nan
    a = to_ac(x, device)
    f = x.astype(np.float32)
    for axis in (0, 1, -1):
        # As values: -0.0 and 0.0 are equal keys, in either order.
        got = ac.asnumpy(ac.sort(a, axis=axis).astype("float32"))
        np.testing.assert_array_equal(got, np.sort(f, axis=axis))
    idx = ac.asnumpy(ac.argsort(a, axis=1, stable=True))
    np.testing.assert_array_equal(idx, np.argsort(f, axis=1, kind="stable"))


@needs_ml_dtypes
def test_indexing_and_setitem(device):
    x = bf16_values(30, 12).reshape(5, 6)
    a = to_ac(x, device)
    assert_bf16_equal(ac.asnumpy(a[1:4, ::2]), x[1:4, ::2])
    assert_bf16_equal(ac.asnumpy(a[[0, 2, 4]]), x[[0, 2, 4]])
    x[2, 3] = 0.1
    a[2, 3] = 0.1
    x[0] = np.arange(6).astype(BF16)
    a[0] = ac.arange(6, dtype="bfloat16", device=device)
    mask = x.astype(np.float32) > 5
    x[mask] = 7.25
    a[to_ac(mask, device)] = 7.25
    assert_bf16_equal(ac.asnumpy(a), x)


@needs_ml_dtypes
def test_creation_with_bfloat16(device):
    for got, want in [
        (ac.zeros((2, 3), dtype="bfloat16", device=device), np.zeros((2, 3), BF16)),
        (ac.ones(4, dtype=ac.bfloat16, device=device), np.ones(4, BF16)),
        (ac.full(3, 0.1, dtype=ml_dtypes.bfloat16, device=device), np.full(3, 0.1, BF16)),
        (ac.arange(0, 10, 0.7, dtype="bfloat16", device=device),
         np.arange(0, 10, 0.7, dtype=BF16)),
        (ac.arange(250, 300, dtype="bfloat16", device=device),
         np.arange(250, 300, dtype=BF16)),
        (ac.eye(3, dtype="bfloat16", device=device), np.eye(3, dtype=BF16)),
        (ac.asarray([0.1, 1 + 2 ** -8 + 2 ** -40, 3], dtype="bfloat16", device=device),
         np.array([0.1, 1 + 2 ** -8 + 2 ** -40, 3]).astype(BF16)),
    ]:
        assert_bf16_equal(ac.asnumpy(got), want)


# ---- interop -----------------------------------------------------------------------------------

@needs_ml_dtypes
def test_numpy_round_trip_is_exact_and_zero_copy():
    x = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(BF16)
    a = ac.asarray(x)
    assert a.dtype == ac.bfloat16
    back = np.asarray(a)
    assert back.dtype == BF16
    np.testing.assert_array_equal(bits(back), bits(x))
    x[1] = 5.0                       # accel reads NumPy's memory ...
    assert float(a[1]) == 5.0
    back[2] = -3.0                   # ... and NumPy reads accel's
    assert float(a[2]) == -3.0
    v = x[::-3]                      # views: strides and offsets carried over
    np.testing.assert_array_equal(bits(np.asarray(ac.asarray(v))), bits(v))
    s = ml_dtypes.bfloat16(1.5)      # a NumPy scalar of ml_dtypes' type
    assert ac.asarray(s).dtype == ac.bfloat16 and float(ac.asarray(s)) == 1.5


@needs_ml_dtypes
def test_dtype_is_accepted_wherever_a_dtype_is(device):
    a = ac.asarray([1.0, 2.5], device=device)
    for dt in (ac.bfloat16, "bfloat16", ml_dtypes.bfloat16, BF16):
        assert a.astype(dt).dtype == ac.bfloat16, dt
        assert ac.zeros(2, dtype=dt, device=device).dtype == ac.bfloat16, dt
    assert ac.bfloat16 == BF16 and ac.bfloat16 == "bfloat16"


def test_buffer_protocol_is_refused():
    a = ac.ones(3, dtype="bfloat16")
    with pytest.raises(BufferError, match="bfloat16"):
        memoryview(a)


class _Producer:
    """Only the DLPack protocol of an array, so that from_dlpack goes through the capsule."""

    def __init__(self, x):
        self.x = x

    def __dlpack__(self, **kwargs):
        return self.x.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self.x.__dlpack_device__()


def test_dlpack_round_trip_keeps_bfloat16():
    a = ac.asarray([1.5, -0.0, float("inf"), 3.0e38, 1e-40], dtype="bfloat16")
    b = ac.from_dlpack(_Producer(a))
    assert b.dtype == ac.bfloat16
    np.testing.assert_array_equal(ac.asnumpy(b.astype("float32")), ac.asnumpy(a.astype("float32")))
    assert ac.shares_memory(a, b)


def test_dlpack_with_torch():
    torch = pytest.importorskip("torch", reason="torch is not installed")
    t = torch.linspace(-3, 3, 17, dtype=torch.bfloat16)
    a = ac.from_dlpack(t)
    assert a.dtype == ac.bfloat16
    np.testing.assert_array_equal(ac.asnumpy(a.astype("float32")), t.float().numpy())
    back = torch.from_dlpack(a)
    assert back.dtype == torch.bfloat16 and torch.equal(back, t)


@needs_ml_dtypes
def test_repr_str_item_and_float():
    x = np.array([1.5, -0.0, np.inf, 3.0e38, 0.1]).astype(BF16)
    a = ac.asarray(x)
    assert repr(a) == repr(x)
    assert str(a) == str(x)
    assert float(a[0]) == 1.5 and a[3].item() == float(x[3])
    assert_bf16_equal(ac.asnumpy(a.astype("float32").astype("bfloat16")), x)


def test_without_ml_dtypes_numpy_conversion_names_it():
    # A child process where importing ml_dtypes fails, as on a machine without it.
    code = textwrap.dedent("""
        import sys
        sys.modules["ml_dtypes"] = None
        import numpy as np
        import accel as ac
        a = ac.asarray([1.5, 2.0], dtype="bfloat16")
        print(repr(a))
        try:
            np.asarray(a)
        except TypeError as e:
            print("TypeError:", e)
        try:
            ac.asnumpy(a)
        except TypeError as e:
            print("TypeError:", e)
        print(float((a * 2).sum()))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert out[0] == "array([1.5, 2. ], dtype=bfloat16)"
    assert out[1].startswith("TypeError:") and "ml_dtypes" in out[1] and "pip install" in out[1]
    assert out[2].startswith("TypeError:") and "ml_dtypes" in out[2]
    assert out[3] == "7.0"
