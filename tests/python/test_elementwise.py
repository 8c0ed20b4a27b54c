"""Every elementwise op of the registry (accel/core/ops.def, read through accel._core._op_registry)
against NumPy on every device (the `device` fixture of conftest.py): every dtype and dtype pair,
special values, Python-scalar promotion (NEP 50), broadcasting and strided layouts made on the
device, 0-d and empty arrays, the Python operators (plain, reflected, in place), in-place aliasing
and casting, and the errors. NVRTC compilation of every CUDA kernel is checked without a GPU by
tests/cpp/cuda_elementwise_test.cpp; each distinct kernel costs one NVRTC compile (tens of ms) on
first use on a GPU.

The NumPy oracle, the input values and the ways accel may differ from NumPy (on purpose, and
on a GPU) are in elementwise_oracle.py.
"""

import itertools
import operator
import zlib

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import accel as ac
import standard_special_values as standard
from device_arrays import COMPLEX, DTYPES, FLOATS, INTS, on_device
from elementwise_oracle import (
    REGISTRY, UNARY, BINARY, RTOL, TEXTBOOK_COMPLEX, SMALL_RHS, on_gpu, rtol_on, np_func,
    FLOAT_SPECIALS, values, op_values, is_complex_result, apply_documented_differences,
    numpy_reference, assert_matches, accel_rejects, run_case)


# ---- the registry ------------------------------------------------------------------------------

def test_registry_ops_are_exposed_with_numpy_counterparts():
    assert len(REGISTRY) >= 70
    for name, (arity, *_rest) in REGISTRY.items():
        assert callable(getattr(ac, name)), name
        assert callable(np_func(name)), name
        assert arity in (1, 2, 3)


@pytest.mark.parametrize("name", UNARY)
def test_unary_op_every_dtype_matches_numpy(name, device):
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    for dtype in DTYPES:
        run_case(name, [op_values(name, dtype, 300, rng, device)], device)


@pytest.mark.parametrize("name", BINARY)
def test_binary_op_every_dtype_pair_matches_numpy(name, device):
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    for d1, d2 in itertools.product(DTYPES, DTYPES):
        c = is_complex_result(d1, d2)
        a = op_values(name, d1, 64, rng, device, complex_result=c)
        b = op_values(name, d2, 64, rng, device, small=name in SMALL_RHS, complex_result=c)
        run_case(name, [a, rng.permutation(b)], device)


@pytest.mark.parametrize("cond_dtype", ["bool", "int8", "float64", "complex64"])
def test_where_every_dtype_pair_matches_numpy(cond_dtype, device):
    rng = np.random.default_rng(7)
    cond = values(cond_dtype, 40, rng, small=True)
    for d1, d2 in itertools.product(DTYPES, DTYPES):
        run_case("where", [cond, values(d1, 40, rng), values(d2, 40, rng)], device)


@pytest.mark.parametrize("dtype", INTS)
def test_where_wraps_python_ints_outside_the_dtype_as_numpy(dtype, device):
    # np.where converts its Python values with a C cast, which wraps where ufuncs raise
    # OverflowError (fuzz seed 901602); past uint64 both raise.
    cond = np.array([True, False, True])
    x = np.array([1, 2, 3], dtype)
    for v in (-1, 300, -129, 2**40, 2**63 + 5, 2**64 - 1):
        for args in ((cond, v, x), (cond, x, v)):
            want = np.where(*args)
            got = ac.where(*[ac.asarray(a, device=device) if isinstance(a, np.ndarray) else a
                             for a in args])
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(ac.asnumpy(got), want)
    with pytest.raises(OverflowError):
        ac.where(ac.asarray(cond, device=device), 2**70, ac.asarray(x, device=device))


# ---- special values ------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", INTS)
def test_integer_division_by_zero_and_min_over_minus_one(dtype, device):
    info = np.iinfo(dtype)
    a = np.array([7, -7 if info.min < 0 else 7, info.min, info.max, 0, info.min], dtype)
    b = np.array([0, 0, 0, 0, 0, -1 if info.min < 0 else 1], dtype)
    for name in ("floor_divide", "remainder", "fmod", "divide", "reciprocal"):
        run_case(name, [a, b][: REGISTRY[name][0]], device, f" ({dtype} / 0)")
    # Python's operators take the same path.
    xa, xb = ac.asarray(a, device=device), ac.asarray(b, device=device)
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(ac.asnumpy(xa // xb), a // b)
        np.testing.assert_array_equal(ac.asnumpy(xa % xb), a % b)


@pytest.mark.parametrize("dtype", INTS)
def test_integer_overflow_wraps_like_numpy(dtype, device):
    info = np.iinfo(dtype)
    a = np.array([info.max, info.min, info.max, info.min], dtype)
    b = np.array([1, 1, info.max, info.min], dtype)
    for name in ("add", "subtract", "multiply", "square", "negative", "abs", "bitwise_invert"):
        run_case(name, [a, b][: REGISTRY[name][0]], device, f" overflow ({dtype})")
    run_case("pow", [a, np.array([2, 3, 2, 3], dtype)], device, f" overflow ({dtype})")


@pytest.mark.parametrize("dtype", INTS)
def test_shifts_past_the_width_and_negative_shifts(dtype, device):
    bits = np.iinfo(dtype).bits
    a = np.array([1, 3, np.iinfo(dtype).max, np.iinfo(dtype).min, 5, 1], dtype)
    counts = [0, bits - 1, bits, bits + 5, 1, 2]
    if np.dtype(dtype).kind == "i":
        counts[-1] = -1
    b = np.array(counts, dtype)
    run_case("bitwise_left_shift", [a, b], device)
    run_case("bitwise_right_shift", [a, b], device)


@pytest.mark.parametrize("dtype", FLOATS)
def test_float_specials_and_the_sign_of_zero_results_match_numpy(dtype, device):
    specials = np.array(FLOAT_SPECIALS, dtype)
    a, b = (x.ravel() for x in np.meshgrid(specials, specials))
    for name in ("add", "subtract", "multiply", "divide", "floor_divide", "remainder", "fmod",
                 "pow", "maximum", "minimum", "fmax", "fmin", "atan2", "copysign", "hypot",
                 "nextafter", "logaddexp", "logaddexp2", "equal", "less", "greater_equal"):
        run_case(name, [a, b], device, f" specials ({dtype})")
    for name in UNARY:
        if not accel_rejects(name, [dtype]):
            run_case(name, [specials], device, f" specials ({dtype})")
    # -0.0 and the sign of zero results must match bit for bit; the sign of NaN results too,
    # except on the GPU (elementwise_oracle.py).
    # (nextafter of equal zeros: float16 gives the first operand, as NumPy's npy_half_nextafter,
    # float32/float64 the second, as C's.)
    for name in ("floor_divide", "remainder", "copysign", "multiply", "add", "round", "trunc",
                 "ceil", "floor", "negative", "sign", "sqrt", "cbrt", "sin", "tanh", "nextafter"):
        args = [a, b][: REGISTRY[name][0]]
        got = ac.asnumpy(getattr(ac, name)(*[ac.asarray(x, device=device) for x in args]))
        with np.errstate(all="ignore"):
            want = np.asarray(np_func(name)(*args))
        compared = ~np.isnan(want) if on_gpu(device) else np.ones(want.shape, bool)
        np.testing.assert_array_equal(np.signbit(got[compared]), np.signbit(want[compared]),
                                      err_msg=name)


@pytest.mark.parametrize("dtype", COMPLEX)
def test_complex_order_with_nan_parts_matches_numpy(dtype, device):
    # NumPy orders complex numbers by real, then imaginary part, and a NaN in any part makes
    # the comparison false (so minimum/maximum return the operand with the NaN).
    parts = [0.0, -1.5, 1.5, np.inf, -np.inf, np.nan]
    re, im = (x.ravel() for x in np.meshgrid(parts, parts))
    z = np.empty(re.size, dtype)
    z.real, z.imag = re, im
    a, b = (x.ravel() for x in np.meshgrid(z, z))
    for name in ("less", "less_equal", "greater", "greater_equal", "maximum", "minimum", "fmax",
                 "fmin"):
        run_case(name, [a, b], device)


SPECIAL_PARTS = [0.0, -0.0, 1.0, -1.0, 1.5, -2.0, np.inf, -np.inf, np.nan, 1e308, 1e-308]
# Functions NumPy computes with its own complex routines (npy_cexp, ...) and accel with the C
# library's: the same special-value answers, finite values within a few units in the last place.
COMPLEX_LIBM = {"sqrt", "exp", "exp2", "expm1", "log", "log1p", "log2", "log10", "sin", "cos",
                "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh",
                "pow", "abs", "sign"}


def assert_same_parts(got, want, ulps, label):
    """Part by part: NaN exactly where NumPy has NaN; inf, zeros (with their sign) and, unless
    ulps, every other value exactly; else within ulps units in the last place."""
    got = ac.asnumpy(got)
    assert got.dtype == want.dtype and got.shape == want.shape, label
    parts = (np.real, np.imag) if want.dtype.kind == "c" else (lambda v: v,)
    for part in parts:
        g, w = part(got), part(want)
        if w.dtype.kind != "f":
            bad = g != w
        else:
            exact = ~np.isfinite(w) | (w == 0) | (np.abs(w) < np.finfo(w.dtype).tiny)
            close = np.abs(g - w) <= ulps * np.spacing(np.abs(w).astype(w.dtype))
            bad = (np.isnan(g) != np.isnan(w)) | (np.signbit(g) != np.signbit(w)) & ~np.isnan(w)
            bad |= ~np.isnan(w) & np.where(exact | (ulps == 0), g != w, ~close)
        k = np.flatnonzero(bad)
        assert k.size == 0, f"{label}: {k.size} differ, first at {k[0]}: {got.flat[k[0]]} != {want.flat[k[0]]}"


@pytest.mark.parametrize("fusion", [False, True])
@pytest.mark.parametrize("dtype", COMPLEX)
def test_every_complex_op_on_special_values_matches_numpy_part_by_part(dtype, fusion, device):
    # Every op that takes complex numbers, on every pair of {0, -0, 1, -1, 1.5, -2, inf, -inf,
    # nan, huge, tiny} parts: NumPy's textbook product, Smith's quotient, its NaN rules for
    # comparisons and extremes, down to which part is NaN and the sign of zeros. On the GPU
    # without the textbook complex functions, and without huge and tiny parts, whose products
    # depend on FMA contraction (elementwise_oracle.py).
    parts = [p for p in SPECIAL_PARTS if not (on_gpu(device) and p in (1e308, 1e-308))]
    z = np.array([complex(r, i) for r in parts for i in parts]).astype(dtype)
    a, b = np.repeat(z, z.size), np.tile(z, z.size)
    ops = [n for n, (arity, bools, domain, output) in REGISTRY.items()
           if domain in ("Any", "Inexact") and arity in (1, 2)
           and not (on_gpu(device) and n in TEXTBOOK_COMPLEX)]
    was = ac.fusion_enabled()
    ac.set_fusion(fusion)
    try:
        for name in ops:
            args = [z] if REGISTRY[name][0] == 1 else [a, b]
            with np.errstate(all="ignore"):
                want = np_func(name)(*args)
            got = getattr(ac, name)(*[ac.asarray(x, device=device) for x in args])
            if fusion:  # a second op makes a fused region (the kernel interpreter on the CPU)
                got = ac.where(ac.asarray(True, device=device), got, got)
            assert_same_parts(got, want, 4 if name in COMPLEX_LIBM else 0, f"{name} {dtype}")
    finally:
        ac.set_fusion(was)


@pytest.mark.parametrize("dtype", COMPLEX)
def test_fmax_fmin_of_two_complex_nans_keep_the_first(dtype, device):
    x = np.array([complex(np.nan, 2.5), complex(8.5, np.nan), 1 + 1j], dtype)
    y = np.array([complex(np.nan, np.nan), complex(np.nan, 0), complex(1, np.nan)], dtype)
    ax, ay = ac.asarray(x, device=device), ac.asarray(y, device=device)
    for name in ("fmax", "fmin", "maximum", "minimum"):
        assert_same_parts(getattr(ac, name)(ax, ay), np_func(name)(x, y), 0, name)
    mixed = np.array([0.5, np.nan, -4.75], np.float32)
    assert_same_parts(ac.fmin(ac.asarray(mixed, device=device), ax), np.fmin(mixed, x), 0, "fmin")


@pytest.mark.parametrize("dtype", FLOATS)
def test_float_power_with_a_scalar_half_is_sqrt_as_numpy(dtype, device):
    # NumPy's float power loop takes a scalar exponent of 0.5 as sqrt: sqrt(-inf) is nan where
    # pow(-inf, 0.5) is inf, and sqrt(-0.0) keeps the sign.
    x = np.array([-np.inf, -0.0, 0.0, 2.0, -2.0, np.inf, np.nan], dtype)
    a = ac.asarray(x, device=device)
    with np.errstate(all="ignore"):
        for exponent in [0.5, np.float64(0.5), np.array(0.5)]:
            # NumPy's float16 loop has no sqrt case (pow(-inf, 0.5) is inf); its ** operator
            # has, for every float dtype.
            assert_same_parts(ac.pow(a, exponent), np.power(x, exponent), 0, repr(exponent))
            assert_same_parts(a ** exponent, x ** exponent, 0, repr(exponent))
        # A one-element exponent array is a scalar to NumPy's loop when it broadcasts (stride
        # 0), not beside a base of its own shape or a 0-d base.
        for xs, es in [((7,), (1,)), ((1, 7), (1, 1)), ((1,), (1, 1)), ((1,), (1,)), ((), (1,)),
                       ((1, 1), (1, 1))]:
            for i in range(x.size):
                xi = np.full(xs, x[i], dtype)
                half = np.full(es, 0.5, dtype)
                assert_same_parts(ac.pow(ac.asarray(xi, device=device), ac.asarray(half, device=device)),
                                  np.power(xi, half), 0, f"{xs} {es} {x[i]}")
        # An exponent array is an elementwise pow in both (CUDA's pow: a few ulp, elementwise_oracle.py).
        halves = np.full(x.shape, 0.5, dtype)
        assert_same_parts(ac.pow(a, ac.asarray(halves, device=device)), np.power(x, halves),
                          4 if on_gpu(device) else 0, "array")


@pytest.mark.parametrize("dtype", FLOATS)
def test_float_power_with_a_lazily_computed_half_is_sqrt_as_numpy(dtype, device):
    # An exponent computed lazily (or living on a GPU) is not known when x ** e is recorded;
    # the kernel must still take a one-element 0.5 as sqrt where NumPy's loop does, as the
    # eager path does (fuzz seed 895786348: -inf ** reciprocal(2.0) was inf with fusion on).
    x = np.array([-np.inf, -0.0, 0.0, 2.0, -2.0, np.inf, np.nan], dtype)
    ac.set_eager_small(False)
    try:
        for value in [0.5, 2.0, 3.0, -0.5]:
            for es in [(), (1,), (1, 1)]:
                computed = ac.reciprocal(ac.full(es, 1 / value, dtype=dtype, device=device))
                with np.errstate(all="ignore"):
                    want = np.power(x, np.full(es, value, dtype))
                got = ac.asarray(x, device=device) ** computed
                # CUDA's pow: a few ulp (elementwise_oracle.py); 0.5 and 2.0 are exact.
                assert_same_parts(got, want, 4 if on_gpu(device) and value in (3.0, -0.5) else 0,
                                  f"{value} {es}")
    finally:
        ac.set_eager_small(True)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_power_of_one_keeps_every_bit_as_numpy(dtype, device):
    # x ** 1 is x itself in NumPy (its operator's fast path and the C library's pow): NaN signs
    # and payloads, signalling NaNs too; a vector pow quiets them (fuzz seed 1405184).
    bits = {"float32": ["0xffffffff", "0x7fc00001", "0xffc00000", "0x7f800001", "0x80000000"],
            "float64": ["0xffffffffffffffff", "0x7ff8000000000001", "0xfff8000000000000",
                        "0x7ff0000000000001", "0x8000000000000000"]}[dtype]
    uint = {"float32": np.uint32, "float64": np.uint64}[dtype]
    x = np.array([int(b, 16) for b in bits], uint).view(dtype)
    a = ac.asarray(x, device=device)
    for exponent in [1, 1.0, np.array(1.0, dtype)]:
        with np.errstate(all="ignore"):
            want = (x ** exponent).view(uint)
            want_fn = np.power(x, exponent).view(uint)
        np.testing.assert_array_equal(ac.asnumpy(a ** exponent).view(uint), want)
        np.testing.assert_array_equal(ac.asnumpy(ac.pow(a, exponent)).view(uint), want_fn)


def test_pow_negative_integer_exponent_truncates_instead_of_raising(device):
    base = ac.asarray(np.array([2, 1, -1, -1, 0, 5], np.int32), device=device)
    exp = ac.asarray(np.array([-1, -3, -3, -2, -1, 0], np.int32), device=device)
    np.testing.assert_array_equal(ac.asnumpy(ac.pow(base, exp)), [0, 1, -1, 1, 0, 1])
    np.testing.assert_array_equal(ac.asnumpy(base ** -1), [0, 1, -1, -1, 0, 0])


# ---- Python scalars (NEP 50) ---------------------------------------------------------------------

COMPARISONS = {"equal": operator.eq, "not_equal": operator.ne, "less": operator.lt,
               "less_equal": operator.le, "greater": operator.gt, "greater_equal": operator.ge}
PYTHON_ANSWERS = {**COMPARISONS, "logical_and": lambda a, b: bool(a) and bool(b),
                  "logical_or": lambda a, b: bool(a) or bool(b),
                  "logical_xor": lambda a, b: bool(a) != bool(b)}
PY_SCALARS = [True, 0, 1, -1, 7, 300, -129, 2**40, 2**63, 2**70, -2**70, 1.5, -0.0, float("nan"), float("inf"),
              1j, complex(1.5, -2)]


def numpy_outcome(fn):
    """(result, None) or (None, exception class) for a NumPy call."""
    try:
        with np.errstate(all="ignore"):
            return fn(), None
    except (TypeError, OverflowError, ValueError) as e:
        return None, type(e)


def gpu_leaves_uncompared(name, device, want, scalar):
    """A textbook complex function on the GPU at a non-finite or large Python scalar
    (elementwise_oracle.py): promotion is still checked, the values are not."""
    return (on_gpu(device) and name in TEXTBOOK_COMPLEX and want.dtype.kind == "c"
            and not (np.isfinite(scalar) and abs(scalar) <= 10))


@pytest.mark.parametrize("name", BINARY)
def test_python_scalar_operands_promote_like_numpy(name, device):
    rng = np.random.default_rng(zlib.crc32(name.encode()) + 1)
    f, nf = getattr(ac, name), np_func(name)
    for dtype in DTYPES:
        x = op_values(name, dtype, 12, rng, device, small=True, complex_result=True)
        ax = ac.asarray(x, device=device)
        for s in PY_SCALARS:
            for scalar_first in (False, True):
                np_args = (s, x) if scalar_first else (x, s)
                args = (s, ax) if scalar_first else (ax, s)
                context = f"({s!r} with {dtype}{', scalar first' if scalar_first else ''})"
                want, err = numpy_outcome(lambda: nf(*np_args))
                if name == "pow" and err is ValueError:
                    # An integer to a negative integer power: accel truncates (oracle's list).
                    dt = np.result_type(*np_args)
                    want, err = numpy_reference(name, [np.asarray(a).astype(dt) for a in np_args]), None
                if err is OverflowError and name in PYTHON_ANSWERS and s == 2**63:
                    # A Python int beyond int64 where NumPy raises: accel answers (oracle's list).
                    py = PYTHON_ANSWERS[name]
                    want = np.array([py(s, v.item()) if scalar_first else py(v.item(), s)
                                     for v in x])
                    err = None
                if err is not None:
                    with pytest.raises(err):
                        f(*args)
                    continue
                want = apply_documented_differences(
                    name, [np.asarray(a).astype(want.dtype) for a in np_args], np.asarray(want))
                got = f(*args)
                if gpu_leaves_uncompared(name, device, want, s):
                    assert (got.dtype, got.shape) == (want.dtype.name, want.shape), context
                    continue
                assert_matches(got, want, name, device, context)


def test_nep50_examples_from_the_brief(device):
    i8 = ac.asarray(np.array([1, 2], np.int8), device=device)
    u8 = ac.asarray(np.array([1, 2], np.uint8), device=device)
    f32 = ac.asarray(np.array([1, 2], np.float32), device=device)
    i64 = ac.asarray(np.array([1, 2], np.int64), device=device)
    assert (i8 + 1).dtype == ac.int8
    with pytest.raises(OverflowError, match=r"\[add\] Python integer 300 out of bounds for int8"):
        i8 + 300
    assert (f32 * 2.0).dtype == ac.float32
    assert (i64 + 1.5).dtype == ac.float64
    with pytest.raises(OverflowError, match="-1 out of bounds for uint8"):
        u8 + -1
    # Comparisons answer instead of raising (NumPy 2).
    np.testing.assert_array_equal(ac.asnumpy(i8 < 300), [True, True])
    np.testing.assert_array_equal(ac.asnumpy(u8 == -1), [False, False])
    np.testing.assert_array_equal(ac.asnumpy(-1 < u8), [True, True])
    assert (f32 + 1j).dtype == ac.complex64
    assert (i8 + True).dtype == ac.int8


# ---- operators -----------------------------------------------------------------------------------

OPERATORS = [
    (operator.add, "add"), (operator.sub, "subtract"), (operator.mul, "multiply"),
    (operator.truediv, "divide"), (operator.floordiv, "floor_divide"), (operator.mod, "remainder"),
    (operator.pow, "pow"), (operator.and_, "bitwise_and"), (operator.or_, "bitwise_or"),
    (operator.xor, "bitwise_xor"), (operator.lshift, "bitwise_left_shift"),
    (operator.rshift, "bitwise_right_shift"), (operator.eq, "equal"), (operator.ne, "not_equal"),
    (operator.lt, "less"), (operator.le, "less_equal"), (operator.gt, "greater"),
    (operator.ge, "greater_equal"),
]
INPLACE = {"add": operator.iadd, "subtract": operator.isub, "multiply": operator.imul,
           "divide": operator.itruediv, "floor_divide": operator.ifloordiv,
           "remainder": operator.imod, "pow": operator.ipow, "bitwise_and": operator.iand,
           "bitwise_or": operator.ior, "bitwise_xor": operator.ixor,
           "bitwise_left_shift": operator.ilshift, "bitwise_right_shift": operator.irshift}
OPERATOR_DTYPES = ["bool", "int8", "uint16", "int64", "float32", "float64", "complex128"]


@pytest.mark.parametrize("op,name", OPERATORS, ids=[n for _, n in OPERATORS])
def test_python_operators_plain_reflected_and_inplace(op, name, device):
    rng = np.random.default_rng(zlib.crc32(name.encode()) + 2)
    small = name in SMALL_RHS
    for d1, d2 in itertools.product(OPERATOR_DTYPES, OPERATOR_DTYPES):
        c = is_complex_result(d1, d2)
        a = op_values(name, d1, 50, rng, device, complex_result=c)
        b = op_values(name, d2, 50, rng, device, small=small, complex_result=c)
        xa, xb = ac.asarray(a, device=device), ac.asarray(b, device=device)
        if accel_rejects(name, [d1, d2]):
            with pytest.raises(TypeError):
                op(xa, xb)
            continue
        want = numpy_reference(name, [a, b])
        assert_matches(op(xa, xb), want, name, device, f" operator ({d1}, {d2})")
        if name in INPLACE:
            x = ac.asarray(a.copy(), device=device)
            if not np.can_cast(want.dtype, a.dtype, casting="same_kind"):
                with pytest.raises(TypeError, match="same_kind"):
                    INPLACE[name](x, xb)
                continue
            keep = x
            x = INPLACE[name](x, xb)
            assert x is keep
            assert_matches(x, want.astype(a.dtype), name, device, f" in place ({d1}, {d2})")
    # A Python scalar on either side (reflected: the scalar first), against NumPy's operator
    # (its ** takes fast paths np.power does not: bool ** 2 is square's int8).
    np_op = standard.BY_NAME.get(name) or op
    for dtype in OPERATOR_DTYPES:
        b = op_values(name, dtype, 50, rng, device, small=small,
                      complex_result=is_complex_result(dtype))
        xb = ac.asarray(b, device=device)
        for s in (2, 1.5, -3):
            for scalar_first in (False, True):
                np_args = (s, b) if scalar_first else (b, s)
                want, err = numpy_outcome(lambda: np_op(*np_args))
                if err is not None or accel_rejects(name, [want.dtype.name]):
                    continue
                want = apply_documented_differences(
                    name, [np.asarray(x).astype(want.dtype) for x in np_args], np.asarray(want))
                got = op(s, xb) if scalar_first else op(xb, s)
                assert_matches(got, want, name, device, f" ({np_args[0]!r}, {dtype})"
                               if scalar_first else f" ({dtype}, {s!r})")


def test_unary_operators_match_numpy(device):
    rng = np.random.default_rng(3)
    for dtype in DTYPES:
        a = values(dtype, 32, rng)
        x = ac.asarray(a, device=device)
        for op, name in ((operator.neg, "negative"), (operator.pos, "positive"),
                         (operator.abs, "abs"), (operator.invert, "bitwise_invert")):
            if accel_rejects(name, [dtype]):
                with pytest.raises(TypeError):
                    op(x)
            else:
                assert_matches(op(x), numpy_reference(name, [a]), name, device, f"({dtype})")


def test_inplace_aliasing_reads_the_old_values(device):
    a = np.arange(16, dtype=np.float64).reshape(4, 4)
    x = ac.asarray(a.copy(), device=device)
    x += x.T  # reads what it writes, transposed: must see the old values
    np.testing.assert_array_equal(ac.asnumpy(x), a + a.T)
    x = ac.asarray(a.copy(), device=device)
    x -= x[::-1]  # a reversed view of the same memory
    np.testing.assert_array_equal(ac.asnumpy(x), a - a[::-1])
    # Pending results and in-place updates of pending results.
    y = x * 2
    y += 1
    z = y * 3
    y += y
    np.testing.assert_array_equal(ac.asnumpy(z), ((a - a[::-1]) * 2 + 1) * 3)
    np.testing.assert_array_equal(ac.asnumpy(y), ((a - a[::-1]) * 2 + 1) * 2)
    w = ac.asarray(a, device=device) * 1.0
    ac.sin(ac.asarray(a, device=device), out=w)
    np.testing.assert_allclose(ac.asnumpy(w), np.sin(a), rtol=rtol_on(device, "float64"))
    v = np.arange(10, dtype=np.int64)
    s = ac.asarray(v.copy(), device=device)
    s[1:] = s[:-1] * 2  # overlapping shifted views
    want = v.copy()
    want[1:] = v[:-1] * 2
    np.testing.assert_array_equal(ac.asnumpy(s), want)


def test_inplace_updates_wrap_broadcast_and_cast_back(device):
    rng = np.random.default_rng(14)
    a, b = rng.standard_normal((6, 6)).astype(np.float32), rng.standard_normal(6).astype(np.float32)
    x = ac.asarray(a.copy(), device=device)
    x += ac.asarray(b, device=device)
    np.testing.assert_array_equal(ac.asnumpy(x), a + b)
    x -= 2
    np.testing.assert_array_equal(ac.asnumpy(x), a + b - 2)
    x += x.T  # the transpose of an updated array: its old values
    w = a + b - 2
    np.testing.assert_array_equal(ac.asnumpy(x), w + w.T)
    i8 = ac.asarray(np.array([127, -128, 5], np.int8), device=device)
    i8 += 1
    np.testing.assert_array_equal(ac.asnumpy(i8), np.array([-128, -127, 6], np.int8))
    f = ac.asarray(np.ones(4, np.float32), device=device)
    f *= ac.asarray(np.full(4, 2.5), device=device)  # float64 result cast back into float32
    np.testing.assert_array_equal(ac.asnumpy(f), np.full(4, 2.5, np.float32))


def test_pending_results_keep_the_values_they_were_computed_from(device):
    x = ac.asarray(np.arange(5, dtype=np.float32), device=device)
    y = x * 2
    z = ac.sin(y) + x
    x += 1
    np.testing.assert_array_equal(ac.asnumpy(y), np.arange(5, dtype=np.float32) * 2)
    np.testing.assert_allclose(ac.asnumpy(z), np.sin(np.arange(5, dtype=np.float32) * 2)
                               + np.arange(5, dtype=np.float32), rtol=rtol_on(device, "float32"))
    np.testing.assert_array_equal(ac.asnumpy(x), np.arange(5, dtype=np.float32) + 1)


def test_inplace_same_kind_casting_errors_and_overflow(device):
    i = ac.asarray(np.arange(3, dtype=np.int32), device=device)
    with pytest.raises(TypeError, match=r"cannot cast the result from float64 to int32 with "
                                        r"casting rule 'same_kind'"):
        i += 1.5
    with pytest.raises(TypeError, match="same_kind"):
        i /= 2
    f = ac.asarray(np.ones(3, np.float32), device=device)
    with pytest.raises(TypeError, match="complex64 to float32"):
        f *= 1j
    u = ac.asarray(np.ones(3, np.uint8), device=device)
    with pytest.raises(OverflowError, match="-1 out of bounds for uint8"):
        u += -1
    b = ac.asarray(np.ones(3, bool), device=device)
    with pytest.raises(TypeError):
        b += 1
    # Allowed: int into float, float64 result into float32 (same kind), and a wrap for ints.
    f += ac.asarray(np.ones(3, np.float64), device=device)
    np.testing.assert_array_equal(ac.asnumpy(f), [2, 2, 2])
    i8 = ac.asarray(np.array([127], np.int8), device=device)
    i8 += 1
    np.testing.assert_array_equal(ac.asnumpy(i8), [-128])


def test_inplace_result_must_keep_the_target_shape(device):
    x = ac.asarray(np.ones(3), device=device)
    with pytest.raises(ValueError, match=r"non-broadcastable output operand with shape \(3,\)"):
        x += ac.asarray(np.ones((2, 3)), device=device)


# ---- layouts, broadcasting, 0-d and empty ------------------------------------------------------

def layouts(a, device):
    """(name, accel view) of a's values on `device` in other memory layouts, made as device
    views: transposed, every other element, reversed, and at an offset into a larger buffer."""
    out = [(kind, on_device(a, device, kind)) for kind in ("contiguous", "transposed", "sliced",
                                                          "reversed")
           if kind == "contiguous" or a.ndim >= (2 if kind == "transposed" else 1)]
    if a.ndim >= 1:
        both = ac.asarray(np.concatenate([a, a], axis=-1), device=device)
        out.append(("offset", both[..., a.shape[-1]:]))
    return out


shapes = st.lists(st.integers(0, 5), min_size=0, max_size=4).map(tuple)


@st.composite
def broadcast_pair(draw):
    shape = draw(shapes)
    other = list(shape)
    for i in range(len(other)):
        if draw(st.booleans()):
            other[i] = 1
    drop = draw(st.integers(0, len(other)))
    return shape, tuple(other[drop:])


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(pair=broadcast_pair(), name=st.sampled_from(BINARY + UNARY),
       d1=st.sampled_from(DTYPES), d2=st.sampled_from(DTYPES), swap=st.booleans(),
       seed=st.integers(0, 2**16))
def test_random_shapes_broadcasting_and_layouts(pair, name, d1, d2, swap, seed, device):
    rng = np.random.default_rng(seed)
    s1, s2 = pair if not swap else pair[::-1]
    arity = REGISTRY[name][0]
    if accel_rejects(name, [d1, d2][:arity]):
        return
    n1, n2 = int(np.prod(s1)), int(np.prod(s2))
    c = is_complex_result(*[d1, d2][:arity])
    a = op_values(name, d1, max(1, n1), rng, device, complex_result=c)[:n1].reshape(s1)
    b = op_values(name, d2, max(1, n2), rng, device, small=name in SMALL_RHS,
                  complex_result=c)[:n2].reshape(s2)
    want = numpy_reference(name, [a, b][:arity])
    for (la, xa), (lb, xb) in itertools.product(layouts(a, device), layouts(b, device)[:3]):
        got = getattr(ac, name)(*[xa, xb][:arity])
        assert_matches(got, want, name, device, f" {la}/{lb} {s1} {s2} ({d1}, {d2})")


@pytest.mark.parametrize("name", UNARY + BINARY + ["where"])
def test_zero_d_and_empty_arrays(name, device):
    arity = REGISTRY[name][0]
    dtype = "float64" if not accel_rejects(name, ["float64"] * arity) else "int32"
    dtype = "bool" if name == "logical_not" else dtype
    rng = np.random.default_rng(5)
    for shapes_ in ([()] * arity, [(0,)] * arity, [(0, 3), (1, 3), (3,)][:arity],
                    [(2, 0), (), (1, 1)][:arity], [(4, 1), (), (1, 5)][:arity]):
        np_args = [values(dtype, max(1, int(np.prod(s))), rng, small=True)[: int(np.prod(s))]
                   .reshape(s) for s in shapes_]
        want = np.asarray(numpy_reference(name, np_args))
        got = getattr(ac, name)(*[ac.asarray(a, device=device) for a in np_args])
        assert got.shape == want.shape
        assert_matches(got, want, name, device, f" shapes {shapes_}")


def test_large_arrays_span_many_grid_strides(device):
    # On a GPU more elements than one grid covers (the kernel's grid-stride loop), on the CPU
    # more than one thread's share; strided on both sides.
    n = (1 << 22) + 3 if on_gpu(device) else (1 << 17) + 3
    a = np.random.default_rng(1).standard_normal(2 * n).astype(np.float32)
    x = ac.asarray(a, device=device)[::2]
    np.testing.assert_array_equal(ac.asnumpy(x * 3 - x), a[::2] * 3 - a[::2])
    np.testing.assert_array_equal(ac.asnumpy(ac.astype(x, ac.float64)), a[::2].astype(np.float64))


def test_more_than_eight_axes_that_do_not_merge(device):
    a = np.arange(2**11, dtype=np.int32).reshape((2,) * 11)
    axes = (10, 0, 9, 1, 8, 2, 7, 3, 6, 4, 5)
    x = ac.permute_dims(ac.asarray(a, device=device), axes)
    want = np.transpose(a, axes)
    np.testing.assert_array_equal(ac.asnumpy(x + 1), want + 1)
    np.testing.assert_allclose(ac.asnumpy(ac.sin(x)), np.sin(want), rtol=rtol_on(device, "float64"))
    np.testing.assert_array_equal(ac.asnumpy(ac.astype(x, ac.int8)), want.astype(np.int8))


# ---- keywords: out= and dtype= -----------------------------------------------------------------

def test_out_keyword_writes_into_the_given_array(device):
    a = np.linspace(-2, 2, 7)
    out = ac.asarray(np.zeros(7), device=device)
    r = ac.sin(ac.asarray(a, device=device), out=out)
    assert r is out
    np.testing.assert_allclose(ac.asnumpy(out), np.sin(a), rtol=rtol_on(device, "float64"))
    out32 = ac.asarray(np.zeros(7, np.float32), device=device)
    ac.add(ac.asarray(a, device=device), 1, out=(out32,))
    np.testing.assert_allclose(ac.asnumpy(out32), (a + 1).astype(np.float32))
    # Into a strided view.
    m = np.linspace(-2, 2, 12).reshape(3, 4)
    wide = ac.asarray(np.zeros((3, 8)), device=device)
    ac.sin(ac.asarray(m, device=device), out=wide[:, ::2])
    want = np.zeros((3, 8))
    want[:, ::2] = np.sin(m)
    np.testing.assert_allclose(ac.asnumpy(wide), want, rtol=rtol_on(device, "float64"))
    with pytest.raises(ValueError, match=r"\[add\] out= has shape \(3,\)"):
        ac.add(ac.asarray(a, device=device), 1, out=ac.asarray(np.zeros(3), device=device))


def test_out_may_be_passed_positionally_as_numpys(device):
    # np.multiply(x, 2, x): a ufunc's out follows its inputs positionally; dtype= and the rest
    # stay keywords. Also the functions accel writes in Python (fabs, ldexp, gcd, round, clip).
    x = np.linspace(-2, 2, 6)
    i = np.arange(1, 7)
    dev = lambda v: ac.asarray(v, device=device)  # noqa: E731
    o = dev(np.zeros(6))
    cases = [(lambda o: ac.multiply(dev(x), 2, o), x * 2),
             (lambda o: ac.sin(dev(x), o), np.sin(x)),
             (lambda o: ac.fabs(dev(x), o), np.fabs(x)),
             (lambda o: ac.ldexp(dev(x), 3, o), np.ldexp(x, 3)),
             (lambda o: ac.float_power(dev(x), 2, o), np.float_power(x, 2)),
             (lambda o: ac.round(dev(x), 1, o), np.round(x, 1)),
             (lambda o: ac.clip(dev(x), -1, 1, o), np.clip(x, -1, 1))]
    for call, want in cases:
        assert call(o) is o
        np.testing.assert_allclose(ac.asnumpy(o), want, rtol=rtol_on(device, "float64"))
    oi = dev(np.zeros(6, dtype=np.int64))
    assert ac.gcd(dev(i), 4, oi) is oi
    np.testing.assert_array_equal(ac.asnumpy(oi), np.gcd(i, 4))
    with pytest.raises(TypeError):
        ac.add(dev(x), 1, o, o)  # one output


@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind", "unsafe"])
def test_casting_keyword_with_out_and_dtype_as_numpy(casting, device):
    """NumPy's ufunc casting=, same_kind by default: it governs out= (a float result into an
    int array raises unless 'unsafe') and the input casts of dtype= (and, for 'no' and 'equiv',
    every input's cast to the loop). accel raises a TypeError exactly where NumPy does."""
    cases = [  # (function, inputs, out dtype or None, dtype= or None)
        ("add", (np.array([1.5, -2.5]), 1), "int32", None),
        ("add", (np.array([1, 2], np.int8), 1), "int64", None),
        ("add", (np.array([1, 2], np.int64), 1), "uint8", None),
        ("add", (np.array([1, 2], np.uint8), 1), "int16", None),
        ("multiply", (np.array([1.5, 2.0]), np.array([2.0, 0.5])), "float32", None),
        ("add", (np.array([1.5, 2.5]), np.array([1.0, 2.0])), None, "int32"),
        ("add", (np.array([1, 2], np.int8), np.array([1.5, 2.5], np.float32)), None, None),
        ("sin", (np.array([1, 2], np.int8),), None, None),
        ("less", (np.array([1.0, 2.0]), np.array([2.0, 1.0])), "int8", None),
    ]
    for name, args, out_dt, dt in cases:
        kw = {"casting": casting} | ({"dtype": dt} if dt else {})
        want = got = None
        try:
            want = getattr(np, name)(*args, **kw, **({"out": np.zeros(2, out_dt)} if out_dt else {}))
        except TypeError:
            pass
        xs = [ac.asarray(a, device=device) if isinstance(a, np.ndarray) else a for a in args]
        out = ac.asarray(np.zeros(2, out_dt), device=device) if out_dt else None
        try:
            got = getattr(ac, name)(*xs, **kw, **({"out": out} if out_dt else {}))
        except TypeError as e:
            assert want is None, (name, out_dt, dt, casting, e)
            continue
        assert want is not None, (name, out_dt, dt, casting, "accel did not raise")
        assert got.dtype == want.dtype
        np.testing.assert_allclose(ac.asnumpy(got), want, rtol=1e-3)
    with pytest.raises(ValueError, match="casting must be one of"):
        ac.add(ac.asarray([1.0], device=device), 1, casting="bogus")


def test_dtype_keyword_selects_the_loop_like_numpy(device):
    i8 = np.array([1, 2, 100], np.int8)
    x8 = ac.asarray(i8, device=device)
    got = ac.add(x8, x8, dtype=ac.float32)
    assert_matches(got, np.add(i8, i8, dtype=np.float32), "add", device)
    assert_matches(ac.sin(x8, dtype="float64"), np.sin(i8, dtype=np.float64), "sin", device)
    scalar = ac.sin(1, dtype="float32")  # on the default device
    assert_matches(scalar, np.sin(1, dtype=np.float32), "sin", str(scalar.device))
    with pytest.raises(TypeError, match=r"\[add\] cannot cast input 0 from float64 to int32 with "
                                        r"casting rule 'same_kind'"):
        ac.add(ac.asarray(np.ones(2), device=device), 1, dtype="int32")
    with pytest.raises(TypeError, match=r"\[less\] has no loop that returns dtype=float64"):
        ac.less(ac.asarray(np.ones(2), device=device), 1, dtype="float64")
    with pytest.raises(OverflowError, match="300 out of bounds for int8"):
        ac.add(x8, 300, dtype="int8")


# ---- errors --------------------------------------------------------------------------------------

def test_shape_mismatch_names_op_and_shapes(device):
    def on(v):
        return ac.asarray(v, device=device)
    with pytest.raises(ValueError, match=r"\[add\].*\(2, 3\).*\(4,\)"):
        ac.add(on(np.ones((2, 3))), on(np.ones(4)))
    with pytest.raises(ValueError, match=r"\[where\]"):
        ac.where(on(np.ones(2, bool)), on(np.ones(3)), 0.0)
    with pytest.raises(ValueError):
        on(np.ones((2, 3))) * on(np.ones((3, 2)))


def test_unsupported_dtype_names_op_and_dtype(device):
    def on(v):
        return ac.asarray(v, device=device)
    with pytest.raises(TypeError, match=r"\[bitwise_and\] not supported for dtype float64"):
        ac.bitwise_and(on(np.ones(2)), on(np.ones(2)))
    with pytest.raises(TypeError, match=r"\[subtract\] not supported for dtype bool"):
        on(np.ones(2, bool)) - on(np.ones(2, bool))
    with pytest.raises(TypeError, match=r"\[floor\] not supported for dtype complex128"):
        ac.floor(on(np.ones(2, complex)))
    with pytest.raises(ac.DTypeError):
        ac.atan2(on(np.ones(2, complex)), 1.0)


def test_non_array_operands_are_refused_or_converted(device):
    x = ac.asarray(np.arange(3.0), device=device)
    assert_matches(x + [1, 2, 3], np.arange(3.0) + [1, 2, 3], "add", device)
    with pytest.raises(TypeError):
        x + "text"
    with pytest.raises(TypeError):
        ac.sin("text")
    with pytest.raises(TypeError):
        ac.add(x)  # missing argument


def test_different_devices_raise_device_error():
    devices = ac.__array_namespace_info__().devices()
    if len(devices) < 2:
        pytest.skip("needs a second device (a usable CUDA GPU) besides the CPU")
    a = ac.asarray(np.ones(3), device=devices[0])
    b = ac.asarray(np.ones(3), device=devices[1])
    with pytest.raises(ac.DeviceError, match=r"\[add\] operands are on different devices"):
        a + b


# ---- NumPy names ---------------------------------------------------------------------------------

ALIASES = ["arccos", "arcsin", "arctan", "arctan2", "arccosh", "arcsinh", "arctanh", "power",
           "absolute", "invert", "bitwise_not", "left_shift", "right_shift", "conjugate",
           "true_divide", "mod", "degrees", "radians", "rint", "fabs", "float_power", "heaviside"]


@pytest.mark.parametrize("name", ALIASES)
def test_numpy_names_match_numpy(name, device):
    nf, f = getattr(np, name), getattr(ac, name)
    rng = np.random.default_rng(11)
    arity = nf.nin
    for dtype in ("int16", "float32", "float64"):
        np_args = [values(dtype, 20, rng, small=True) for _ in range(arity)]
        if name in ("arccosh",):
            np_args = [np.abs(a) + 1 for a in np_args]
        want, err = numpy_outcome(lambda: nf(*np_args))
        if name == "power" and err is ValueError:  # int ** negative int truncates in accel
            want, err = numpy_reference("pow", np_args), None
        if err is not None:
            with pytest.raises(err):
                f(*[ac.asarray(a, device=device) for a in np_args])
            continue
        got = f(*[ac.asarray(a, device=device) for a in np_args])
        got_np = ac.asnumpy(got)
        assert got_np.dtype == want.dtype, (name, dtype)
        rtol = RTOL["float16"] if dtype == "int16" else max(1e-6, rtol_on(device, "float32"))
        np.testing.assert_allclose(got_np, want, rtol=rtol,
                                   equal_nan=True, err_msg=f"{name}({dtype})")


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_heaviside_of_nan_is_numpys_quiet_nan(dtype, device):
    # NumPy's heaviside returns its quiet NaN, whatever the payload and sign of x's NaN: the
    # bits show through an integer view of a result written into `out`.
    bits = np.array([0x7FC00001, -5, 0x7F800001, -4194304, 0, 8], np.int32).view(np.float32)
    xn = bits.astype(dtype) if dtype != "float32" else bits
    with np.errstate(invalid="ignore"):
        want = np.heaviside(xn, np.asarray(0.5, dtype))
    got = ac.asnumpy(ac.heaviside(ac.asarray(xn, device=device), 0.5))
    u = f"u{want.itemsize}"
    np.testing.assert_array_equal(got.view(u), want.view(u))


@pytest.mark.parametrize("exponent", [0.5, np.float32(0.5), 2, [0.5], np.array(0.5)])
def test_float_power_calls_pow_for_every_element(exponent, device):
    # np.power takes a scalar exponent of 0.5 as sqrt ((-inf) ** 0.5 is nan, (-0.0) ** 0.5 is
    # -0.0); np.float_power's loop calls pow, which gives inf and 0.0 (fuzz seed 1674183).
    xn = np.array([np.inf, -np.inf, 4.0, -4.0, 0.0, -0.0, np.nan, 1e308])
    with np.errstate(all="ignore"):
        want = np.float_power(xn, exponent)
        got = ac.asnumpy(ac.float_power(ac.asarray(xn, device=device), exponent))
        np.testing.assert_array_equal(got, want)
        assert list(np.signbit(got)) == list(np.signbit(want))
        assert float(ac.float_power(-np.inf, 0.5)) == np.float_power(-np.inf, 0.5)
    # Laid out as its transposed int16 input, as NumPy's (fuzz seed 1710892).
    v = np.arange(20, dtype=np.int16).reshape(10, 2).T
    assert ac.float_power(ac.asarray(v, device=device), exponent).strides == \
        np.float_power(v, exponent).strides


def test_round_with_decimals_and_divmod(device):
    a = np.array([1.256, -2.5, 2.5, 0.125, 1234.5678, np.nan])
    for d in (0, 1, 2, -1, -2):
        np.testing.assert_allclose(ac.asnumpy(ac.round(ac.asarray(a, device=device), d)),
                                   np.round(a, d),
                                   equal_nan=True)
    ints = np.array([1250, 1350, -1250, -1350, 1251, 49, 50, 150], np.int64)
    for d in (-1, -2, 0, 2):
        np.testing.assert_array_equal(ac.asnumpy(ac.round(ac.asarray(ints, device=device), d)),
                                      np.round(ints, d))
    q, r = ac.divmod(ac.asarray(np.array([7, -7]), device=device), 3)
    np.testing.assert_array_equal(ac.asnumpy(q), [2, -3])
    np.testing.assert_array_equal(ac.asnumpy(r), [1, 2])
    # The quotient is accel's floor_divide, with the Array API standard's special cases (NumPy:
    # -1.0 and nan); the remainder is NumPy's.
    x = ac.asarray(np.array([-1.0, np.inf, 1.0, -0.0]), device=device)
    y = ac.asarray(np.array([np.inf, 5.0, np.inf, np.inf]), device=device)
    q, r = ac.divmod(x, y)
    np.testing.assert_array_equal(ac.asnumpy(q), ac.asnumpy(ac.floor_divide(x, y)))
    assert list(ac.asnumpy(q)) == [-0.0, np.inf, 0.0, -0.0] and np.signbit(ac.asnumpy(q)[0])
    with np.errstate(invalid="ignore"):
        np.testing.assert_array_equal(ac.asnumpy(r), np.remainder(ac.asnumpy(x), ac.asnumpy(y)))


@pytest.mark.parametrize("exponent", [2, 3, 2.0, np.int64(2), True])
def test_power_of_a_bool_array_has_numpys_dtype(exponent, device):
    # NumPy squares bool ** 2 (a Python 2) in square's loop: int8; other exponents promote.
    b = np.array([[False, True], [True, False]])
    want = b ** exponent
    got = ac.asarray(b, device=device) ** exponent
    assert got.dtype == want.dtype.name
    np.testing.assert_array_equal(ac.asnumpy(got), want)
    # np.power takes no fast path: bool with a Python int promotes to int64 (seed 9001363)
    want_fn = np.power(b, exponent)
    got_fn = ac.pow(ac.asarray(b, device=device), exponent)
    assert got_fn.dtype == want_fn.dtype.name
    np.testing.assert_array_equal(ac.asnumpy(got_fn), want_fn)


COMPLEX_SPECIALS = np.array([complex(np.inf, 0.907), complex(-np.inf, 1.0), complex(np.nan, np.inf),
                             complex(0.0, 0.0), complex(-0.0, 2.5), 2 + 3j, complex(1.5, 1e-40)])


@pytest.mark.parametrize("exponent", [0.5, -1, 2, -1.0, np.float64(0.5)])
@pytest.mark.parametrize("dtype", ["complex64", "complex128", "float32", "float64"])
def test_power_operator_takes_numpys_fast_paths(exponent, dtype, device):
    # NumPy's ** (not np.power) takes a Python 0.5 as sqrt and a Python -1 as reciprocal:
    # (inf+0.9j) ** 0.5 is inf+0j where pow gives inf+nanj. Fuzzer seed 9008091.
    if on_gpu(device) and dtype.startswith("complex"):
        pytest.skip("complex sqrt and pow at inf/NaN: textbook formulas on the GPU "
                    "(elementwise_oracle.py)")
    z = COMPLEX_SPECIALS.astype(dtype) if dtype[0] == "c" else np.array(
        [np.inf, -np.inf, np.nan, 0.0, -0.0, 2.5, -4.0, 1e-40]).astype(dtype)
    with np.errstate(all="ignore"):
        want = z ** exponent
        want_fn = np.power(z, exponent)
        want_in_place = z.copy()
        want_in_place **= exponent
    x = ac.asarray(z.copy(), device=device)
    np.testing.assert_array_equal(ac.asnumpy(x ** exponent), want)
    np.testing.assert_array_equal(ac.asnumpy(ac.pow(x, exponent)), want_fn)
    x **= exponent
    np.testing.assert_array_equal(ac.asnumpy(x), want_in_place)


@pytest.mark.parametrize("op", ["equal", "not_equal", "less", "less_equal", "greater",
                                "greater_equal"])
@pytest.mark.parametrize("signed", ["int8", "int32", "int64"])
def test_uint64_compares_exactly_with_signed_integers(op, signed, device):
    # Their common type is float64, which rounds 2^63 - 2 and 2^63 - 1 to the same value; NumPy 2
    # compares the integers exactly. Fuzzer seed 9072463.
    u = np.array([2**63 - 2, 2**63 + 5, 5, 2**64 - 1, 0, 127], np.uint64)
    s = np.array([2**63 - 1, -1, 5, -1, -128, 127], np.int64)
    s = s.astype(signed) if signed == "int64" else np.clip(s, np.iinfo(signed).min,
                                                            np.iinfo(signed).max).astype(signed)
    f, g = getattr(np, op), getattr(ac, op)

    def on(v):
        return ac.asarray(v, device=device)
    np.testing.assert_array_equal(ac.asnumpy(g(on(u), on(s))), f(u, s))
    np.testing.assert_array_equal(ac.asnumpy(g(on(s), on(u))), f(s, u))
    # broadcast, and 0-d on either side
    np.testing.assert_array_equal(ac.asnumpy(g(on(u[:, None]), on(s))),
                                  f(u[:, None], s))
    np.testing.assert_array_equal(ac.asnumpy(g(on(s[1]), on(u))), f(s[1], u))


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_integer_power_overflows_as_numpy(dtype):
    # np.power's repeated multiplication is unfused (nan+inf j where a fused product gives
    # inf+inf j); ** 2 is square's loop, which fuses (fuzzer seed 10001680). On the CPU only:
    # overflowing complex products depend on FMA contraction (elementwise_oracle.py).
    big = 3e18 if dtype == "complex64" else 1e153
    z = np.array([complex(3.8199062, -0.20036465), complex(big, big), complex(-big, big * 0.7),
                  complex(1.5, 2.5), complex(0.0, -0.0)], dtype)
    for e in (81.0, 9.0, 2.0, 3.0, -5.0, 2, 3):
        with np.errstate(all="ignore"):
            want = np.power(z, np.array(e, np.float32 if dtype == "complex64" else np.float64))
        exponent = np.array(e, want.real.dtype)
        got = ac.pow(ac.asarray(z, device="cpu"), ac.asarray(exponent, device="cpu"))
        np.testing.assert_array_equal(ac.asnumpy(got), want, err_msg=f"power {e}")
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(ac.asnumpy(ac.asarray(z, device="cpu") ** 2), z ** 2)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_sqrt_matches_numpy_bit_for_bit(dtype, device):
    # sqrt is correctly rounded on every device. On the CPU the contiguous float32/float64 loop
    # uses the vector instruction with a scalar tail: every length around the vector width,
    # special values (-0.0 stays -0.0, negatives and -inf give NaN), subnormals, and unaligned
    # starts.
    rng = np.random.default_rng(11)
    info = np.finfo(dtype)
    special = np.array([0.0, -0.0, -1.0, np.inf, -np.inf, np.nan, info.tiny, info.tiny / 4,
                        info.max, info.eps], dtype=dtype)
    for n in range(0, 20):
        for start in (0, 1):
            xn = np.concatenate([special, (rng.random(n) * 100).astype(dtype)])
            rng.shuffle(xn)
            xn = xn[start:]
            with np.errstate(invalid="ignore"):
                want = np.sqrt(xn)
            got = ac.asnumpy(ac.sqrt(ac.asarray(xn, copy=True, device=device)))
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(got.view(f"u{want.itemsize}"), want.view(f"u{want.itemsize}"))


# Single ops with a transposed operand walk tiles of the last two axes on the CPU
# (cpu/tile_walk.h): full tiles, ragged edges, batches, outputs written through transposed views,
# dtypes of every width.
@pytest.mark.parametrize("shape", [(1100, 1300), (3, 130, 70), (2, 1, 600, 515), (2, 700)])
@pytest.mark.parametrize("dtype", ["uint8", "float32", "complex128"])
def test_single_ops_on_transposed_operands_match_numpy(shape, dtype, device):
    rng = np.random.default_rng(len(shape))
    an = (rng.standard_normal(shape) * 50).astype(dtype)
    bn = (rng.standard_normal(shape[:-2] + shape[-2:][::-1]) * 50).astype(dtype)
    a, b = on_device(an, device), on_device(bn, device)
    bt, bnt = ac.matrix_transpose(b), np.swapaxes(bn, -1, -2)
    np.testing.assert_array_equal(ac.asnumpy(a + bt), an + bnt)
    np.testing.assert_array_equal(ac.asnumpy(bt * 3), bnt * np.array(3, dtype))
    np.testing.assert_array_equal(ac.asnumpy(ac.ascontiguousarray(bt)), np.ascontiguousarray(bnt))
    wide = "complex64" if dtype == "complex128" else "float64"
    np.testing.assert_array_equal(ac.asnumpy(ac.astype(bt, getattr(ac, wide))), bnt.astype(wide))
    c = ac.zeros(bn.shape, dtype=getattr(ac, dtype), device=device)
    ac.matrix_transpose(c)[...] = a  # a copy into a transposed view
    np.testing.assert_array_equal(ac.asnumpy(c), np.swapaxes(an, -1, -2))


# A strided operand (transposed, stepped, reversed) gives the same bits as its contiguous copy:
# on the CPU single ops and the fused interpreter copy it into blocks so the vector kernels run
# (elementwise_inner.h, fused_interpreter.cpp); element by element they took std::sin's values.
@pytest.mark.parametrize("fn", ["sin", "exp", "log1p", "tanh", "sqrt", "cbrt", "arctan"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_math_of_strided_views_equals_math_of_their_contiguous_copies(fn, dtype, device):
    rng = np.random.default_rng(7)
    xn = (rng.standard_normal((301, 517)) * 3).astype(dtype)
    xn[0, :4] = [np.nan, np.inf, -0.0, 0.5]
    f = getattr(ac, fn)
    x = on_device(xn, device)
    with np.errstate(invalid="ignore", divide="ignore"):
        for view in (x.T, x[:, ::3], x[::-1, ::-2], x[5:300:7, 1:]):
            flat = ac.asarray(view, copy=True)
            want = ac.asnumpy(f(flat))
            np.testing.assert_array_equal(ac.asnumpy(f(view)), want)
            # fused with a later op: the interpreter's loads
            np.testing.assert_array_equal(ac.asnumpy(f(view) * 2 + 1), ac.asnumpy(f(flat) * 2 + 1))
            np.testing.assert_allclose(want, getattr(np, fn)(ac.asnumpy(view)), rtol=4e-6 if dtype == "float32" else 1e-14)


# floor/ceil/trunc run as one rounding instruction and arctan2 through libmvec on the CPU
# (vector_math.h): the same bits as NumPy's for rounding, special values of arctan2 exactly,
# its other values within 4 ulp, on contiguous, strided and broadcast operands.
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_rounding_and_arctan2_of_every_layout_match_numpy(dtype, device):
    info = np.finfo(dtype)
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, -0.5, 0.5, 2.5, -2.5,
                        info.smallest_subnormal, -info.tiny, info.max, -info.max,
                        2.0 ** (info.nmant - 1) + 0.5, -(2.0 ** info.nmant) + 1], dtype)
    rng = np.random.default_rng(11)
    values = np.concatenate([special, (rng.standard_normal(3000) * 1e3).astype(dtype)])
    m = np.resize(values, (61, 53))
    x = on_device(m, device)
    for view, view_n in ((x, m), (x.T, m.T), (x[:, ::-3], m[:, ::-3])):
        for fn in ("floor", "ceil", "trunc"):
            got, want = ac.asnumpy(getattr(ac, fn)(view)), getattr(np, fn)(view_n)
            np.testing.assert_array_equal(got.view(f"u{got.itemsize}"), want.view(f"u{want.itemsize}"))
    y, xs = np.meshgrid(special, special)
    got = ac.asnumpy(ac.arctan2(on_device(y, device), on_device(xs, device)))
    want = np.arctan2(y, xs)
    finite = np.isfinite(y) & np.isfinite(xs) & (y != 0) & (xs != 0)
    np.testing.assert_array_equal(got[~finite], want[~finite])
    np.testing.assert_array_equal(np.signbit(got[~finite]), np.signbit(want[~finite]))
    a, b = on_device(m, device), on_device(m[::-1], device)
    for got, want in ((ac.arctan2(a, b.T.T), np.arctan2(m, m[::-1])),
                      (ac.arctan2(a.T, 0.5), np.arctan2(m.T, np.array(0.5, dtype))),
                      (ac.arctan2(a[:, 1::2], b[:, ::-2][:, :26]), np.arctan2(m[:, 1::2], m[::-1][:, ::-2][:, :26]))):
        got = ac.asnumpy(got)
        with np.errstate(invalid="ignore"):
            ulps = np.abs(got.astype("f8") - want.astype("f8")) / np.spacing(np.abs(want)).astype("f8")
        assert np.nanmax(np.where(np.isnan(want), 0, ulps)) <= 4
        np.testing.assert_array_equal(np.isnan(got), np.isnan(want))


# pow of floats through libmvec on the CPU (vector_math.h): C99's special values exactly, exact
# powers exactly, the rest within 2 ulp of NumPy's (whose float32 pow is itself 1 ulp from the
# correctly rounded value in places), on contiguous, strided and scalar-broadcast operands.
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_float_pow_matches_numpy_on_every_layout(dtype, device):
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 3.0],
                       dtype)
    x, y = np.meshgrid(special, special)
    with np.errstate(all="ignore"):
        want = np.power(x, y)
    got = ac.asnumpy(ac.pow(on_device(x, device), on_device(y, device)))
    special_case = ~np.isfinite(x) | ~np.isfinite(y) | (x == 0) | (y == 0) | (np.abs(x) == 1) | \
        (want == np.round(want))
    np.testing.assert_array_equal(got[special_case], want[special_case])
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))
    np.testing.assert_allclose(got, want, rtol=3 * np.finfo(dtype).eps)
    base, exp = np.meshgrid(np.arange(-20, 21, dtype=dtype), np.arange(-2, 9, dtype=dtype))
    with np.errstate(divide="ignore"):  # 0 ** -1
        exact = np.power(base.astype("f8"), exp.astype("f8"))
    exact_ok = (np.abs(exact) < 2.0 ** np.finfo(dtype).nmant) & (exact == np.round(exact))
    got = ac.asnumpy(on_device(base, device) ** on_device(exp, device))
    np.testing.assert_array_equal(got[exact_ok], exact[exact_ok].astype(dtype))
    rng = np.random.default_rng(4)
    m = (rng.random((60, 70)) * 10).astype(dtype)
    e = (rng.standard_normal((60, 70)) * 4).astype(dtype)
    a, b = on_device(m, device), on_device(e, device)
    for got, want in ((a ** b, m ** e), (a.T ** b.T, m.T ** e.T), (a[:, ::3] ** 2.5, np.power(m[:, ::3], np.array(2.5, dtype))),
                      (ac.pow(1.5, b[::-1]), np.power(np.array(1.5, dtype), e[::-1]))):
        got = ac.asnumpy(got)
        ulps = np.abs(got.astype("f8") - want.astype("f8")) / np.spacing(np.abs(want)).astype("f8")
        assert ulps.max() <= 2


def test_out_larger_than_the_result_takes_it_broadcast_as_numpy(device):
    """NumPy's ufuncs broadcast their inputs against out=: a row written into every row of out
    (fuzz seed 981621); an out the result cannot broadcast to still raises."""
    row = on_device(np.array([1.0, 2.0, 3.0]), device)
    out = ac.zeros((2, 3), device=device)
    assert ac.add(row, 1, out=out) is out
    np.testing.assert_array_equal(ac.asnumpy(out), np.add(np.array([1.0, 2.0, 3.0]), 1,
                                                             out=np.zeros((2, 3))))
    out = ac.zeros((4, 1, 3), dtype=ac.float32, device=device)
    ac.pow(on_device(np.array(False), device), ac.zeros((1, 1), dtype=ac.float32, device=device),
           out=out)
    np.testing.assert_array_equal(ac.asnumpy(out), np.ones((4, 1, 3), np.float32))
    with pytest.raises(ValueError, match=r"\[add\] out= has shape \(2, 3\)"):
        ac.add(on_device(np.ones(2), device), 1, out=ac.zeros((2, 3), device=device))
    with pytest.raises(ValueError, match=r"\[add\] out= has shape \(3,\)"):
        ac.add(on_device(np.ones((2, 3)), device), 1, out=ac.zeros(3, device=device))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_nextafter_of_every_special_pair_has_numpys_bits(dtype, device):
    # The CPU steps the bits in vector code (backend/cpu/vector_math.h): every pair of zeros of
    # both signs, subnormals, the largest finite values, infinities, NaN and ordinary values,
    # contiguous, strided (through a transpose) and with one operand broadcast.
    info = np.finfo(dtype)
    v = np.array([0.0, -0.0, info.smallest_subnormal, -info.smallest_subnormal, info.tiny,
                  -info.tiny, info.max, -info.max, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5,
                  3.25, -1e-30], dtype=dtype)
    x, y = np.meshgrid(v, v, indexing="ij")
    ax, ay = ac.asarray(x, device=device), ac.asarray(y, device=device)
    for got, want in [(ac.nextafter(ax, ay), np.nextafter(x, y)),
                      (ac.nextafter(ax.T, ay.T), np.nextafter(x.T, y.T)),
                      (ac.nextafter(ax, ay[0]), np.nextafter(x, y[0])),
                      (ac.nextafter(ax, np.inf), np.nextafter(x, np.dtype(dtype).type(np.inf)))]:
        g = ac.asnumpy(got)
        nan = np.isnan(want)
        assert np.array_equal(np.isnan(g), nan)
        np.testing.assert_array_equal(g[~nan].view(f"u{g.itemsize}"),
                                      want[~nan].view(f"u{want.itemsize}"))
