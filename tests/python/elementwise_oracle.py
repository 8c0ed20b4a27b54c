"""The elementwise tests' registry, input values and NumPy oracle, and how accel's answers may
differ from NumPy's, stated once (test_elementwise.py, test_astype.py, test_fusion.py).

Where accel differs from NumPy on purpose, the tests assert accel's documented behaviour:
- the Array API standard's special values of floor_divide, complex expm1 and complex tanh
  (standard_special_values.py; docs/ARCHITECTURE.md, "Where accel departs from NumPy");
- integer pow with a negative exponent returns what the exact result truncates to (1, -1 or 0)
  instead of raising ValueError;
- integer reciprocal(0) is 0 (NumPy: INT_MIN after a divide-by-zero warning), as every other
  integer division by zero in both libraries;
- round(bool) keeps bool, like floor/ceil/trunc (NumPy's rint gives float16);
- where(c, int8_array, 300) raises OverflowError as every other op does for a Python int out of
  the dtype's range (NumPy's where wraps it silently to 44);
- a Python int beyond int64 (within uint64) gets an answer where it has one: beside a bool
  array in a comparison, and in the logical ops (NumPy raises OverflowError converting it to
  int64 there, and answers in comparisons with every other dtype).

On the GPU (device "cuda") accel also differs from NumPy in ways the tests allow for, each
stated here once (on the CPU accel computes as NumPy's loops do, on the same hardware):
- CUDA's math library (sinf, exp, pow, ...) is within 1 to 4 ulp of the exact result, like the
  C library's and NumPy's own, so results may differ by a few ulp (GPU_RTOL);
- complex exp, log, sqrt, pow and the complex trigonometric and hyperbolic functions
  (TEXTBOOK_COMPLEX) use textbook formulas on the GPU (device_src/nvrtc_std.cuh): accurate for
  finite values of moderate size, but not C99 Annex G at infinities, NaN and extreme
  magnitudes, where they are not compared (op_values gives them moderate inputs);
- complex products whose parts overflow (1e30 * 1e30 beside an infinite part) are NaN on the GPU
  and +-inf in NumPy, whose SIMD loops fuse them into FMAs: complex inputs keep their parts below
  1e15 there (inf and NaN parts stay), and the tests of overflowing complex products run on the
  CPU only;
- the sign of a NaN result: x86 makes negative NaNs, the GPU positive ones, and NumPy leaves it
  to the hardware.
Arithmetic (+ - * /, and the fused kernels) is compiled without FMA contraction, so it matches
NumPy bit for bit.
"""

import numpy as np
import pytest

import accel as ac
import standard_special_values as standard

REGISTRY = {name: (arity, bools, domain, output)
            for name, arity, bools, domain, output in ac._core._op_registry() if name != "cast"}
UNARY = sorted(n for n, info in REGISTRY.items() if info[0] == 1)
BINARY = sorted(n for n, info in REGISTRY.items() if info[0] == 2)

# Float math where NumPy's and the C library's results may differ by a few units in the last
# place (NumPy uses its own SIMD kernels for some of these).
# float16: one unit in the last place (2^-10), for float32 math libraries rounding apart.
RTOL = {"float16": 1e-3, "float32": 2e-6, "float64": 1e-13, "complex64": 2e-6, "complex128": 1e-13}
# CUDA's math library (module docstring); float16 is computed in float and rounded once there too.
GPU_RTOL = {**RTOL, "float32": 4e-6, "float64": 2e-13, "complex64": 4e-6, "complex128": 2e-13}
LOOSE_OPS = {"pow": 20, "logaddexp2": 4, "hypot": 2, "sinh": 4, "cosh": 4, "tanh": 4,
             "asinh": 4, "acosh": 4, "atanh": 4, "exp2": 4, "expm1": 4, "tan": 4, "cbrt": 4}
# Complex functions built from textbook formulas on the GPU (module docstring): a few ulp of
# their O(1) parts become an absolute error, hence atol too. (Also asserted on the host build of
# the GPU kernels: tests/cpp/cuda_elementwise_host_test.cpp.)
TEXTBOOK_COMPLEX = {"exp", "exp2", "log", "log2", "log10", "sqrt", "sin", "cos", "tan", "sinh",
                    "cosh", "tanh", "asin", "acos", "atan", "asinh", "acosh", "atanh", "pow"}
TEXTBOOK_TOL = {"complex64": (3e-5, 3e-6), "complex128": (1e-12, 1e-13)}  # (rtol, atol)
# Second operands kept small: exponents and shift counts.
SMALL_RHS = ("pow", "bitwise_left_shift", "bitwise_right_shift", "ldexp")


def on_gpu(device):
    return device.startswith("cuda")


def rtol_on(device, dtype):
    return (GPU_RTOL if on_gpu(device) else RTOL)[dtype]


def np_func(name):
    """NumPy's function, with the standard's special values where accel follows the standard
    (floor_divide at infinities, complex expm1 and tanh: standard_special_values.py)."""
    return standard.BY_NAME.get(name) or getattr(np, name)


# ---- input values ------------------------------------------------------------------------------

FLOAT_SPECIALS = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, 3.0, np.inf, -np.inf, np.nan, 1e-30,
                  -1e-30, 1e30, 7.5, -2.5]


def values(dtype, n, rng, *, small=False):
    """n values of `dtype`: its edge values first, then random ones (small: a narrow range, for
    exponents and shift amounts)."""
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.integers(0, 2, n).astype(bool)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        if small:
            lo = 0 if dt.kind == "u" else -3
            return rng.integers(lo, min(int(info.max), 9) + 1, n).astype(dt)
        edges = [0, 1, info.max, info.min, info.max - 1]
        if dt.kind == "i":
            edges += [-1, info.min + 1]
        rand = rng.integers(info.min, int(info.max) + 1, n, dtype=dt)
        rand[: len(edges)] = np.array(edges).astype(dt)[:n]
        return rand
    if dt.kind == "f":
        scale = 3.0 if small else 10.0
        rand = (rng.standard_normal(n) * scale).astype(dt)
        k = min(n, len(FLOAT_SPECIALS))
        rand[:k] = np.array(FLOAT_SPECIALS[:k], dtype=dt)
        return rand
    real = values(dt.type(0).real.dtype, n, rng, small=small)
    imag = values(dt.type(0).real.dtype, n, rng, small=small)
    return (real + 1j * rng.permutation(imag)).astype(dt)


def moderate_complex(dtype, n, rng):
    """Finite complex values with parts in [-3, 3] and modulus at least 0.25: the domain where
    the GPU's textbook complex functions are accurate."""
    z = rng.uniform(-3, 3, n) + 1j * rng.uniform(-3, 3, n)
    small = np.abs(z) < 0.25
    z[small] = z[small] / np.abs(z[small]) * 0.5 if small.any() else z[small]
    return z.astype(dtype)


def op_values(name, dtype, n, rng, device, *, small=False, complex_result=False):
    """values() for op `name` on `device`. On the GPU (module docstring): complex values of
    moderate size, and real ones in [0.25, 3] beside them, where a textbook complex function will
    see them; elsewhere complex parts up to 1e15, so no product of two parts overflows."""
    if not on_gpu(device):
        return values(dtype, n, rng, small=small)
    if name in TEXTBOOK_COMPLEX and (dtype.startswith("complex") or complex_result):
        if dtype.startswith("complex"):
            return moderate_complex(dtype, n, rng)
        if dtype == "bool":
            return rng.integers(0, 2, n).astype(bool)
        if np.dtype(dtype).kind in "iu":
            return rng.integers(1, 4, n).astype(dtype)
        return rng.uniform(0.25, 3, n).astype(dtype)
    v = values(dtype, n, rng, small=small)
    if v.dtype.kind == "c":
        re, im = v.real.copy(), v.imag.copy()
        for part in (re, im):
            big = np.isfinite(part) & (np.abs(part) > 1e15)
            part[big] = np.copysign(1e15, part[big])
        v = v.copy()
        v.real, v.imag = re, im
    return v


def is_complex_result(*dtypes):
    return np.result_type(*[np.dtype(d) for d in dtypes]).kind == "c"


def expected_of(name, np_args):
    """NumPy's answer."""
    with np.errstate(all="ignore"):
        return np_func(name)(*np_args)


def apply_documented_differences(name, np_args, want):
    """Patches NumPy's answer where accel deliberately differs (module docstring)."""
    if name == "pow" and want.dtype.kind in "iu" and np_args[1].dtype.kind == "i":
        base, exp = np.broadcast_arrays(*np_args)
        neg = exp < 0
        if neg.any():
            b = base.astype(want.dtype)
            truncated = np.where(b == 1, 1, np.where(b == -1, np.where(exp % 2 == 1, -1, 1), 0))
            want = np.where(neg, truncated.astype(want.dtype), want)
    if name == "reciprocal" and want.dtype.kind in "iu":
        want = np.where(np.broadcast_to(np_args[0], want.shape) == 0, 0, want).astype(want.dtype)
    if name == "round" and np_args[0].dtype == bool:
        want = np_args[0].copy()
    return want


def numpy_reference(name, np_args):
    """NumPy's result with accel's documented differences applied, or the exception type."""
    safe_args = np_args
    if name == "pow" and np_args[1].dtype.kind == "i" and np.result_type(*np_args).kind in "iu":
        safe_args = [np_args[0], np.where(np_args[1] < 0, 0, np_args[1]).astype(np_args[1].dtype)]
    want = expected_of(name, safe_args)
    return apply_documented_differences(name, np_args, want)


def assert_matches(got, want, name, device, context=""):
    got_np = ac.asnumpy(got)
    want = np.asarray(want)
    assert got_np.dtype == want.dtype, f"{name}{context}: dtype {got_np.dtype} != {want.dtype}"
    assert got_np.shape == want.shape, f"{name}{context}: shape {got_np.shape} != {want.shape}"
    if want.dtype.kind in "biu":
        np.testing.assert_array_equal(got_np, want, err_msg=f"{name}{context} on {device}")
        return
    if on_gpu(device) and want.dtype.kind == "c" and name in TEXTBOOK_COMPLEX:
        rtol, atol = TEXTBOOK_TOL[want.dtype.name]
    else:
        rtol = rtol_on(device, want.dtype.name) * LOOSE_OPS.get(name, 1)
        atol = rtol * 1e-3 if name in ("sin", "cos", "tan", "sinh", "expm1", "log1p") else 0
    np.testing.assert_allclose(got_np, want, rtol=rtol, atol=atol, equal_nan=True,
                               err_msg=f"{name}{context} on {device}")


def accel_rejects(name, dtypes):
    """Whether the registry's rule refuses these input dtypes (a restatement of op_accepts)."""
    arity, bools, domain, output = REGISTRY[name]
    typed = dtypes[1:] if name == "where" else dtypes
    promoted = np.result_type(*[np.dtype(d) for d in typed])
    kind = promoted.kind
    if bools == "Logical":
        return False
    if kind == "b":
        if bools == "Reject":
            return True
        if bools == "Keep" and domain in ("Inexact", "RealInexact"):
            return False  # computed in float
        kind = "i" if bools == "Int8" else "b"
    if kind == "b":
        return False
    if domain == "Real":
        return kind == "c"
    if domain == "RealInexact":
        return kind == "c"
    if domain == "Integer":
        return kind not in "iu"
    return False


def run_case(name, np_args, device, context=""):
    dtypes = [a.dtype.name for a in np_args]
    context = context or f"({', '.join(dtypes)})"
    f = getattr(ac, name)
    args = [ac.asarray(a, device=device) for a in np_args]
    if accel_rejects(name, dtypes):
        with pytest.raises(TypeError, match=rf"\[{name}\] not supported for dtype"):
            f(*args)
        with pytest.raises(TypeError):
            with np.errstate(all="ignore"):
                np_func(name)(*np_args)
        return
    want = numpy_reference(name, np_args)
    got = f(*args)
    assert str(got.device).startswith(device)
    assert_matches(got, want, name, device, context)
