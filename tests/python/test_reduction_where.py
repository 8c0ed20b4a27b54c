"""NumPy's where= and initial= of the reductions (sum, prod, max, min, any, all, mean, var, std;
functions and methods), NumPy the oracle on random shapes, dtypes, masks that broadcast, empty
reductions and special values, on every device."""

import numpy as np
import pytest

import accel as ac

# NumPy warns of its own 0 / 0 (a lane with nothing taken) and inf - inf; accel stays silent.
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

DTYPES = ["bool", "int8", "uint8", "int32", "int64", "float16", "float32", "float64", "complex128"]
AXES = [None, 0, 1, -1, (0, 2), (0, 1, 2)]


def values(dtype, shape, rng):
    x = rng.integers(-4, 5, shape)  # small integers: every sum and product is exact
    if dtype == "complex128":
        return (x + 1j * rng.integers(-3, 4, shape)).astype(dtype)
    return x.astype(dtype)


def check(got, want, rtol=0.0):
    want = np.asarray(want)
    assert got.dtype == ac.asarray(want).dtype and got.shape == want.shape
    if rtol:
        np.testing.assert_allclose(ac.asnumpy(got), want, rtol=rtol, equal_nan=True)
    else:
        np.testing.assert_array_equal(ac.asnumpy(got), want)


def masks(shape, rng):
    m = rng.random(shape) > 0.4
    m[0] = False  # a lane with nothing taken: the identity, initial, NaN or 0 / 0
    return {"full": m, "row": m[0, :1], "broadcast": rng.random(shape[-1:]) > 0.5,
            "True": True, "False": False}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("axis", AXES)
def test_where_and_initial_of_sum_prod_any_all(dtype, axis, device):
    rng = np.random.default_rng(1)
    n = values(dtype, (3, 4, 5), rng)
    a = ac.asarray(n, device=device)
    for name, m in masks(n.shape, rng).items():
        am = ac.asarray(m, device=device) if isinstance(m, np.ndarray) else m
        for fn in ("sum", "prod", "any", "all"):
            check(getattr(ac, fn)(a, axis=axis, where=am), getattr(np, fn)(n, axis=axis, where=m))
            check(getattr(a, fn)(axis=axis, keepdims=True, where=am),
                  getattr(n, fn)(axis=axis, keepdims=True, where=m))
        if dtype != "bool":
            check(ac.sum(a, axis=axis, where=am, initial=3),
                  np.sum(n, axis=axis, where=m, initial=3))
            init = 2 if dtype[0] == "u" else -2  # -2 overflows uint64 in both
            check(a.prod(axis=axis, where=am, initial=init),
                  n.prod(axis=axis, where=m, initial=init))


@pytest.mark.parametrize("dtype", [d for d in DTYPES if d != "complex128"])
@pytest.mark.parametrize("axis", AXES)
def test_max_and_min_with_initial(dtype, axis, device):
    rng = np.random.default_rng(2)
    n = values(dtype, (3, 4, 5), rng)
    a = ac.asarray(n, device=device)
    init = True if dtype == "bool" else 2
    for name, m in masks(n.shape, rng).items():
        am = ac.asarray(m, device=device) if isinstance(m, np.ndarray) else m
        check(ac.max(a, axis=axis, where=am, initial=init),
              np.max(n, axis=axis, where=m, initial=init))
        check(a.min(axis=axis, where=am, initial=init, keepdims=True),
              n.min(axis=axis, where=m, initial=init, keepdims=True))
    check(ac.max(a, axis=axis, initial=init), np.max(n, axis=axis, initial=init))
    empty = ac.asarray(n[:0], device=device)  # an empty reduction gives initial
    check(ac.max(empty, axis=axis, initial=init), np.max(n[:0], axis=axis, initial=init))


def test_special_values_with_where(device):
    n = np.array([[np.nan, 1.0, -np.inf], [np.inf, -0.0, 2.0]])
    m = np.array([[False, True, True], [True, True, False]])
    a, am = ac.asarray(n, device=device), ac.asarray(m, device=device)
    for axis in (None, 0, 1):
        for fn in ("sum", "prod", "mean", "any", "all"):
            check(getattr(ac, fn)(a, axis=axis, where=am), getattr(np, fn)(n, axis=axis, where=m))
        check(ac.max(a, axis=axis, where=am, initial=-5), np.max(n, axis=axis, where=m, initial=-5))
        check(ac.min(a, axis=axis, where=am, initial=np.nan),
              np.min(n, axis=axis, where=m, initial=np.nan))


@pytest.mark.parametrize("dtype", ["int32", "float16", "float32", "float64", "complex128"])
@pytest.mark.parametrize("axis", AXES)
def test_mean_var_std_divide_by_the_elements_taken(dtype, axis, device):
    rng = np.random.default_rng(3)
    n = values(dtype, (3, 4, 5), rng)
    a = ac.asarray(n, device=device)
    rtol = 2e-3 if dtype == "float16" else 1e-5 if dtype == "float32" else 1e-12
    with np.errstate(all="ignore"):
        for name, m in masks(n.shape, rng).items():
            am = ac.asarray(m, device=device) if isinstance(m, np.ndarray) else m
            check(ac.mean(a, axis=axis, where=am), np.mean(n, axis=axis, where=m), rtol)
            check(a.var(axis=axis, where=am), n.var(axis=axis, where=m), rtol)
            check(ac.std(a, axis=axis, ddof=1, where=am, keepdims=True),
                  np.std(n, axis=axis, ddof=1, where=m, keepdims=True), rtol)


def test_errors_as_numpys(device):
    a = ac.asarray(np.arange(6.0).reshape(2, 3), device=device)
    m = ac.asarray([True, False, True], device=device)
    with pytest.raises(ValueError, match="does not have an identity"):
        ac.max(a, where=m)  # max/min need an initial with a mask, as NumPy's
    with pytest.raises(TypeError, match="where= must be a bool array"):
        ac.sum(a, where=ac.asarray([1, 0, 1], device=device))
    with pytest.raises(ValueError, match="broadcast"):
        ac.sum(a, where=ac.asarray([True, False], device=device))
    with pytest.raises(TypeError, match="initial"):
        ac.mean(a, initial=1)
    with pytest.raises(OverflowError, match="out of bounds for uint8"):
        ac.min(ac.asarray([1, 2], dtype=ac.uint8, device=device), initial=-2)
    with pytest.raises(TypeError):
        ac.sum(a.astype(ac.int32), initial=1 + 1j)
    ints = np.arange(6).reshape(2, 3).astype(np.int32)
    check(ac.sum(a.astype(ac.int32), initial=2.7), np.sum(ints, initial=2.7))  # int(2.7), as NumPy


def test_numpy_functions_dispatch_where_and_initial(device):
    """np.sum(accel_array, where=...) reaches accel through __array_function__."""
    n = np.arange(12.0).reshape(3, 4) - 5
    a = ac.asarray(n, device=device)
    m = n > 0
    got = np.sum(a, axis=1, where=ac.asarray(m, device=device), initial=1)
    assert isinstance(got, ac.ndarray)
    check(got, np.sum(n, axis=1, where=m, initial=1))
    check(np.max(a, initial=100), np.max(n, initial=100))
    # A NumPy array reduced with an accel mask: NumPy's ufunc.reduce path (it passes dtype=None),
    # which raised TypeError for max and min (fuzz seed 1235051).
    if device == "cpu":
        for fn in ("max", "min", "sum", "prod", "any", "all"):
            kw = {"initial": -3} if fn in ("max", "min", "sum", "prod") else {}
            got = getattr(np, fn)(n, axis=0, keepdims=True, where=ac.asarray(m), **kw)
            check(got, getattr(np, fn)(n, axis=0, keepdims=True, where=m, **kw))
    check(np.maximum.reduce(a, axis=None, dtype=np.float32), np.maximum.reduce(n, axis=None,
                                                                               dtype=np.float32))
    check(np.fmin.reduce(a, axis=1, where=ac.asarray(m, device=device), initial=7),
          np.fmin.reduce(n, axis=1, where=m, initial=7))


NAN_FUNCTIONS = ["nansum", "nanprod", "nanmax", "nanmin", "nanmean", "nanvar", "nanstd"]


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128", "int32"])
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 2)])
@pytest.mark.parametrize("fn", NAN_FUNCTIONS)
def test_where_and_initial_of_the_nan_reductions(fn, axis, dtype, device):
    rng = np.random.default_rng(2)
    n = values(dtype, (3, 4, 5), rng)
    # Complex nanmax/nanmin run without NaNs: which NaN parts NumPy's fmax keeps from complex
    # operands is its loop's choice, not a value to compare.
    if dtype != "int32" and not (dtype == "complex128" and fn in ("nanmax", "nanmin")):
        n[rng.random(n.shape) > 0.7] = np.nan
        n[1, 1] = np.nan  # a lane of NaNs only
    a = ac.asarray(n, device=device)
    rtol = 1e-6 if fn in ("nanmean", "nanvar", "nanstd") else 0.0
    for name, m in masks(n.shape, rng).items():
        if name == "False" and fn in ("nanmax", "nanmin"):
            continue  # NumPy: nothing taken and no initial raises; below with one
        am = ac.asarray(m, device=device) if isinstance(m, np.ndarray) else m
        want_fn, got_fn = getattr(np, fn), getattr(ac, fn)
        if fn in ("nanmax", "nanmin"):
            check(got_fn(a, axis=axis, where=am, initial=-2.5 if dtype != "int32" else -2),
                  want_fn(n, axis=axis, where=m, initial=-2.5 if dtype != "int32" else -2),
                  rtol)
            if name not in ("True",):
                continue  # a mask with no initial: NumPy refuses (tested in errors)
        check(got_fn(a, axis=axis, where=am), want_fn(n, axis=axis, where=m), rtol)
        if fn in ("nansum", "nanprod"):
            check(got_fn(a, axis=axis, keepdims=True, where=am, initial=2),
                  want_fn(n, axis=axis, keepdims=True, where=m, initial=2))
        if fn in ("nanvar", "nanstd"):  # lanes of at most ddof elements: NaN, not inf
            check(got_fn(a, axis=axis, ddof=3, where=am), want_fn(n, axis=axis, ddof=3, where=m),
                  rtol)
