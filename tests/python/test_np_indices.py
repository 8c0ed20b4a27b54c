"""NumPy's index helpers, index-driven writes, function-mapping helpers and small queries composed
in python/accel/_np_indices.py, against NumPy: dtypes, special values (nan, -0.0), empty and 0-d
arrays, negative axes and offsets, error classes, and dispatch from `np.<name>(accel_array)`."""

import numpy as np
import pytest

import accel as ac

rng = np.random.default_rng(23)
SPECIAL = np.array([0.0, -0.0, 1.0, -1.5, np.nan, np.inf, -np.inf, 2.5])
DTYPES = ["bool", "int8", "uint16", "int64", "float32", "float64", "complex64"]


def sample(dt, shape):
    dt = np.dtype(dt)
    if dt == bool:
        return np.asarray(rng.random(shape) < 0.5)
    if dt.kind in "iu":
        return np.asarray(rng.integers(0, 50, shape).astype(dt))
    n = int(np.prod(shape))
    v = rng.permutation(np.resize(SPECIAL, n)).reshape(shape)
    if dt.kind == "c":
        with np.errstate(invalid="ignore"):
            v = v + 1j * rng.permutation(v.ravel()).reshape(shape)
    return np.asarray(v.astype(dt))


def same(got, want):
    """Equal dtype, shape and values, nan in the same places and -0.0 kept apart from 0.0."""
    assert isinstance(got, ac.ndarray), type(got)
    g, w = ac.asnumpy(got), np.asarray(want)
    assert g.dtype == w.dtype, (g.dtype, w.dtype)
    assert g.shape == w.shape, (g.shape, w.shape)
    np.testing.assert_array_equal(g, w)
    if w.dtype.kind in "fc":  # a nan's sign bit is not specified, so nan is left out
        keep = ~np.isnan(w.real)
        np.testing.assert_array_equal(np.signbit(g.real[keep]), np.signbit(w.real[keep]))


def same_tuple(got, want):
    assert isinstance(got, tuple) and len(got) == len(want)
    for g, w in zip(got, want):
        same(g, w)


def on(x, device):
    return ac.asarray(x, device=device)


def accel_error(cls):
    """The accel exception for NumPy's: accel's AxisError is, as NumPy's, a ValueError and an
    IndexError, but its own class."""
    return ac.AxisError if cls is np.exceptions.AxisError else cls


# ---- index arrays ------------------------------------------------------------------------------

@pytest.mark.parametrize("n,m", [(0, None), (1, None), (4, None), (3, 6), (5, 2), (3, 0)])
@pytest.mark.parametrize("k", [-7, -2, -1, 0, 1, 3, 9])
def test_tril_triu_indices_match_numpy(n, m, k, device):
    lo = ac.tril_indices(n, k, m, device=device)
    hi = ac.triu_indices(n, k=k, m=m, device=device)
    same_tuple(lo, np.tril_indices(n, k, m))
    same_tuple(hi, np.triu_indices(n, k=k, m=m))
    assert all(i.device == ac.Device(device) for i in lo + hi)
    a = np.zeros((n, n if m is None else m))
    x = on(a, device)
    same_tuple(ac.tril_indices_from(x, k), np.tril_indices_from(a, k))
    same_tuple(ac.triu_indices_from(x, k=k), np.triu_indices_from(a, k=k))


def test_index_helpers_take_numpy_argument_types(device):
    same_tuple(ac.tril_indices(3.0, device=device), np.tril_indices(3.0))
    same_tuple(ac.triu_indices(np.int32(4), np.int8(-1), device=device),
               np.triu_indices(np.int32(4), np.int8(-1)))
    same_tuple(ac.diag_indices(3.0, device=device), np.diag_indices(3.0))
    same_tuple(ac.diag_indices(-2, device=device), np.diag_indices(-2))
    with pytest.raises(TypeError, match=r"\[tril_indices\] the diagonal offset k"):
        ac.tril_indices(3, k=0.5)


def test_indices_from_need_2d_arrays(device):
    for a in (np.zeros(3), np.zeros((2, 2, 2)), np.zeros(())):
        x = on(a, device)
        for name in ("tril_indices_from", "triu_indices_from"):
            with pytest.raises(ValueError):
                getattr(np, name)(a)
            with pytest.raises(ValueError, match=rf"\[{name}\] input array must be 2-d"):
                getattr(ac, name)(x)


def test_indices_from_dispatch_from_numpy(device):
    x = on(np.ones((3, 5)), device)
    same_tuple(np.tril_indices_from(x, -1), np.tril_indices_from(np.ones((3, 5)), -1))
    same_tuple(np.diag_indices_from(on(np.ones((2, 2, 2)), device)), np.diag_indices(2, 3))


@pytest.mark.parametrize("n,ndim", [(0, 2), (1, 1), (4, 2), (3, 3)])
def test_diag_indices_match_numpy(n, ndim, device):
    same_tuple(ac.diag_indices(n, ndim, device=device), np.diag_indices(n, ndim))
    if ndim < 2:
        return
    a = rng.random((n,) * ndim)
    same_tuple(ac.diag_indices_from(on(a, device)), np.diag_indices_from(a))
    x = on(a, device)
    x[ac.diag_indices_from(x)] = -0.0
    a[np.diag_indices_from(a)] = -0.0
    same(x, a)


def test_diag_indices_from_rejects_1d_and_unequal_shapes(device):
    for a in (np.zeros(3), np.zeros((2, 3))):
        with pytest.raises(ValueError):
            np.diag_indices_from(a)
        with pytest.raises(ValueError, match=r"\[diag_indices_from\]"):
            ac.diag_indices_from(on(a, device))


@pytest.mark.parametrize("n", [0, 1, 5])
@pytest.mark.parametrize("k", [-2, 0, 1])
def test_mask_indices_with_tril_and_triu(n, k, device):
    same_tuple(ac.mask_indices(n, ac.triu, k, device=device), np.mask_indices(n, np.triu, k))
    same_tuple(ac.mask_indices(n, ac.tril, k=k, device=device), np.mask_indices(n, np.tril, k=k))


# ---- select, piecewise, choose -----------------------------------------------------------------

@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shape", [(7,), (3, 4), (0, 3), ()])
def test_select_matches_numpy(dt, shape, device):
    a, b = sample(dt, shape), sample(dt, shape)
    c1, c2 = rng.random(shape) < 0.4, rng.random(shape) < 0.5
    x, y = on(a, device), on(b, device)
    k1, k2 = on(c1, device), on(c2, device)
    same(ac.select([k1, k2], [x, y]), np.select([c1, c2], [a, b]))
    default = True if dt == "bool" else 3
    same(ac.select([k1, k2], [x, y], default=default), np.select([c1, c2], [a, b], default))
    same(ac.select([k1], [x], default=-0.0), np.select([c1], [a], default=-0.0))
    same(ac.select([k1], [x], default=np.float32(2.5)), np.select([c1], [a], np.float32(2.5)))


def test_select_is_c_ordered_as_numpys(device):
    """NumPy's select writes a new C-ordered array whatever its inputs' layout, so its ravel()
    is a view that later writes reach (fuzz seed 1290455: accel kept the transposed layout)."""
    a = np.arange(12.0).reshape(3, 4)
    n, x = a.T, on(a, device).T
    got, want = ac.select([x > 3, x < 1], [x, -x], 1.5), np.select([n > 3, n < 1], [n, -n], 1.5)
    assert got.strides == want.strides and got.flags.c_contiguous
    flat, flat_n = got.ravel(), want.ravel()
    got[0, 0] = want[0, 0] = 99.0
    same(flat, flat_n)


def test_select_broadcasts_and_promotes(device):
    a = np.arange(12, dtype=np.int8).reshape(3, 4)
    c = np.array([True, False, True, False])
    same(ac.select([on(c, device), on(a, device) > 5], [on(a, device), 7], default=2.5),
         np.select([c, a > 5], [a, 7], default=2.5))
    f = np.float32([1.0, np.nan, -0.0])
    cond = np.array([[True], [False]])
    same(ac.select([on(cond, device)], [on(f, device)], default=np.nan),
         np.select([cond], [f], default=np.nan))
    same(ac.select([on(cond, device)], [on(f, device)], default=np.float64(1)),
         np.select([cond], [f], default=np.float64(1)))
    same(np.select([on(c, device)], [on(a, device)], 9), np.select([c], [a], 9))
    # Python integers out of the dtype's range wrap around, as NumPy's select writes them.
    u8 = np.array([1, 2], np.uint8)
    i8 = u8.astype(np.int8)
    same(ac.select([on(i8, device) > 1], [300], default=on(i8, device) - 1),
         np.select([i8 > 1], [300], default=i8 - 1))
    with pytest.raises(TypeError):  # a Python int choice is int64 to NumPy's copyto
        np.select([u8 > 1], [3], default=u8)
    with pytest.raises(TypeError, match=r"\[select\] cannot cast choice 0"):
        ac.select([on(u8, device) > 1], [3], default=on(u8, device))
    same(ac.select([on(u8, device) > 1], [on(u8, device)], default=-1),
         np.select([u8 > 1], [u8], default=-1))


def test_select_errors_as_numpy(device):
    x = on(np.arange(3), device)
    cases = [(ValueError, lambda m: m.select([], [])),
             (ValueError, lambda m: m.select([m.asarray([True, False, True])], [])),
             (TypeError, lambda m: m.select([m.asarray([1, 0, 1])], [m.asarray([1, 2, 3])]))]
    for cls, f in cases:
        with pytest.raises(cls):
            f(np)
    with pytest.raises(ValueError, match=r"\[select\]"):
        ac.select([], [])
    with pytest.raises(ValueError, match=r"\[select\] list of cases"):
        ac.select([x > 1], [])
    with pytest.raises(TypeError, match=r"\[select\] invalid entry 1 in condlist"):
        ac.select([x > 1, x], [x, x])


@pytest.mark.parametrize("dt", ["int32", "float32", "float64"])
def test_piecewise_callables_scalars_and_otherwise(dt, device):
    a = sample(dt, (5, 6))
    if np.dtype(dt).kind == "i":
        a = a - 25
    x = on(a, device)
    conds_np = [a < 0, a > 10]
    conds = [x < 0, x > 10]
    with np.errstate(all="ignore"):
        same(ac.piecewise(x, conds, [lambda v: -v, 7]),
             np.piecewise(a, conds_np, [lambda v: -v, 7]))
        same(ac.piecewise(x, conds, [lambda v, s: v * s, -0.0, lambda v, s: v + s], 2),
             np.piecewise(a, conds_np, [lambda v, s: v * s, -0.0, lambda v, s: v + s], 2))
        # One 1-d bool array is one condition (a 2-d one would be a list of rows, as NumPy's).
        same(ac.piecewise(x[1], x[1] < 1, [1.5, lambda v, s=0: v - s], s=3),
             np.piecewise(a[1], a[1] < 1, [1.5, lambda v, s=0: v - s], s=3))
    # A list of bools is one condition; an empty selection never calls the function.
    flags = [True, False, True, False, False, True]
    same(ac.piecewise(x[0], flags, [lambda v: v * 2]), np.piecewise(a[0], flags, [lambda v: v * 2]))
    same(ac.piecewise(x, [x > x], [lambda v: 1 / 0]), np.piecewise(a, [a > a], [lambda v: 1 / 0]))


def test_piecewise_on_0d_and_empty(device):
    for v in (-2.0, 3.0):
        a = np.array(v)
        x = on(a, device)
        same(ac.piecewise(x, [x < 0, x >= 0], [lambda t: -t, lambda t: t * 3]),
             np.piecewise(a, [a < 0, a >= 0], [lambda t: -t, lambda t: t * 3]))
        same(ac.piecewise(x, x < 0, [-1, 7]), np.piecewise(a, a < 0, [-1, 7]))
    e = np.zeros((0, 2), np.float32)
    same(ac.piecewise(on(e, device), [on(e, device) > 0], [1]), np.piecewise(e, [e > 0], [1]))
    same(np.piecewise(on(np.arange(4.0), device), [on(np.arange(4.0), device) > 1], [5, 9]),
         np.piecewise(np.arange(4.0), [np.arange(4.0) > 1], [5, 9]))


def test_piecewise_rejects_wrong_function_count(device):
    a = np.arange(3.0)
    with pytest.raises(ValueError):
        np.piecewise(a, [a > 0], [1, 2, 3])
    with pytest.raises(ValueError, match=r"\[piecewise\] with 1 condition\(s\)"):
        ac.piecewise(on(a, device), [on(a, device) > 0], [1, 2, 3])
    with pytest.raises(IndexError):
        np.piecewise(a, [], [1])
    with pytest.raises(IndexError, match=r"\[piecewise\] condlist is empty"):
        ac.piecewise(on(a, device), [], [1])


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
@pytest.mark.parametrize("dt", ["int8", "float32", "float64", "complex64"])
def test_choose_modes_and_broadcasting(mode, dt, device):
    choices = [sample(dt, (3, 4)), sample(dt, (1, 4)), sample(dt, (4,))]
    lo, hi = (0, 3) if mode == "raise" else (-4, 7)
    idx = rng.integers(lo, hi, (2, 3, 1))
    want = np.choose(idx, choices, mode=mode)
    cs = [on(c, device) for c in choices]
    same(ac.choose(on(idx, device), cs, mode=mode), want)
    out = ac.zeros(want.shape, dtype=ac.asarray(want).dtype, device=device)
    assert ac.choose(on(idx, device), cs, out=out, mode=mode) is out
    same(out, want)
    same(np.choose(on(idx, device), cs, mode=mode), want)


def test_choose_dtypes_scalars_and_stacked_choices(device):
    i = np.array([0, 1, 1, 0])
    x = on(i, device)
    i8 = np.array([1, 2, 3, 4], np.int8)
    same(ac.choose(x, [on(i8, device), 300]), np.choose(i, [i8, 300]))
    same(ac.choose(x, [on(i8, device), 3.5]), np.choose(i, [i8, 3.5]))
    stacked = np.arange(8, dtype=np.uint16).reshape(2, 4)
    same(ac.choose(x, on(stacked, device)), np.choose(i, stacked))
    same(ac.choose(on(np.array([True, False]), device), [[1, 2], [3, 4]]),
         np.choose(np.array([True, False]), [[1, 2], [3, 4]]))
    same(ac.choose(on(np.array(1), device), [on(np.int8(1), device), on(np.float32(-0.0), device)]),
         np.asarray(np.choose(1, [np.int8(1), np.float32(-0.0)])))
    empty = np.zeros(0, np.int64)
    same(ac.choose(on(empty, device), [[], []]), np.choose(empty, [[], []]))


def test_choose_errors_as_numpy(device):
    cs = [[1, 2], [3, 4]]
    cases = [(ValueError, [0, 2], cs, "raise", r"invalid entry"),
             (ValueError, [0, -1], cs, "raise", r"invalid entry"),
             (TypeError, np.array([0.0, 1.0]), cs, "raise", r"cannot cast"),
             (TypeError, np.array([0, 1], np.uint64), cs, "raise", r"cannot cast"),
             (ValueError, [0, 1], [], "raise", r"0-length"),
             (ValueError, [0, 1], cs, "foo", r"clipmode")]
    for cls, idx, choices, mode, msg in cases:
        with pytest.raises(cls):
            np.choose(idx, choices, mode=mode)
        with pytest.raises(cls, match=rf"\[choose\] .*{msg}"):
            ac.choose(on(np.asarray(idx), device), choices, mode=mode)
    with pytest.raises(ValueError, match=r"\[choose\] out has shape"):
        ac.choose(on(np.array([0, 1]), device), cs, out=ac.zeros(3, device=device))


# ---- writes in place ---------------------------------------------------------------------------

@pytest.mark.parametrize("shape,axis", [((4, 5), 1), ((4, 5), -2), ((2, 3, 4), -1), ((2, 3, 4), 0),
                                        ((0, 3), 1), ((3, 1), 1)])
@pytest.mark.parametrize("dt", ["int16", "float64", "complex64"])
def test_put_along_axis_matches_numpy(shape, axis, dt, device):
    a = sample(dt, shape)
    n = shape[axis]
    # Distinct positions along the axis (NumPy leaves the winner among duplicates unspecified),
    # negative ones included.
    order = np.argsort(rng.random(shape), axis=axis)
    idx = np.take(order, range(min(n, 2)), axis=axis) - (n if n > 1 else 0) * (rng.random() < 0.5)
    vals = sample(dt, idx.shape)
    x = on(a, device)
    assert ac.put_along_axis(x, on(idx, device), on(vals, device), axis) is None
    np.put_along_axis(a, idx, vals, axis)
    same(x, a)
    # A scalar value, and values broadcast along the axis.
    ac.put_along_axis(x, on(idx, device), -0.0 if dt != "int16" else 3, axis=axis)
    np.put_along_axis(a, idx, -0.0 if dt != "int16" else 3, axis=axis)
    same(x, a)


def test_put_along_axis_broadcasts_indices_and_flat(device):
    a = np.zeros((3, 4))
    x = on(a, device)
    idx = np.array([[1, 3]])
    ac.put_along_axis(x, on(idx, device), on(np.array([5.0, 6.0]), device), 1)
    np.put_along_axis(a, idx, [5.0, 6.0], 1)
    same(x, a)
    ac.put_along_axis(x, on(np.array([0, -1, 5]), device), on(np.array([7.0]), device), None)
    np.put_along_axis(a, np.array([0, -1, 5]), [7.0], None)
    same(x, a)
    np.put_along_axis(x, on(np.array([[2], [0], [1]]), device), 9.0, axis=-1)
    np.put_along_axis(a, np.array([[2], [0], [1]]), 9.0, axis=-1)
    same(x, a)


def test_put_along_axis_errors_as_numpy(device):
    a = np.zeros((2, 3))
    cases = [(IndexError, np.array([[0.0]]), 1), (ValueError, np.array([0]), 1),
             (np.exceptions.AxisError, np.array([[0]]), 2), (IndexError, np.array([[5]]), 1),
             (ValueError, np.array([[1]]), None)]
    for cls, idx, axis in cases:
        with pytest.raises(cls):
            np.put_along_axis(a.copy(), idx, 1.0, axis)
        with pytest.raises(accel_error(cls)):
            ac.put_along_axis(on(a, device), on(idx, device), 1.0, axis)
    with pytest.raises(TypeError, match=r"\[put_along_axis\]"):
        ac.put_along_axis([1, 2], ac.asarray([0]), 1, None)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shape", [(11,), (3, 5), (0, 4), ()])
def test_putmask_repeats_values_by_position(dt, shape, device):
    a = sample(dt, shape)
    mask = rng.random(shape) < 0.5
    for values in (sample(dt, (3,)), sample(dt, (2, 2)), sample(dt, (20,))):
        x, want = on(a, device), a.copy()
        assert ac.putmask(x, on(mask, device), on(values, device)) is None
        np.putmask(want, mask, values)
        same(x, want)
    x, want = on(a, device), a.copy()
    np.putmask(want, mask, np.zeros(0, dt))
    ac.putmask(x, on(mask, device), on(np.zeros(0, dt), device))
    same(x, want)


def test_putmask_casts_and_checks_sizes(device):
    a = np.arange(6).reshape(2, 3)
    x = on(a, device)
    mask = np.array([1, 0, 2, 0, 0, 3])  # any nonzero is true; only the size must agree
    np.putmask(a, mask, [1.7, -2.5])  # Python objects convert directly: 1.7 -> 1
    ac.putmask(x, on(mask, device), [1.7, -2.5])
    same(x, a)
    np.putmask(a, mask, np.array([True, False]))  # arrays cast safely
    ac.putmask(x, on(mask, device), on(np.array([True, False]), device))
    same(x, a)
    np.putmask(a, a > 3, 9)
    assert np.putmask(x, x > 3, 9) is None
    same(x, a)
    with pytest.raises(ValueError):
        np.putmask(a, np.ones(4, bool), 1)
    with pytest.raises(ValueError, match=r"\[putmask\] mask and data must be the same size"):
        ac.putmask(x, on(np.ones(4, bool), device), 1)
    for cls, vals in [(TypeError, np.array([1.5])), (TypeError, np.array([1], np.uint64)),
                      (OverflowError, [2**63])]:
        with pytest.raises(cls):
            np.putmask(a, mask, vals)
        with pytest.raises(cls):
            ac.putmask(x, on(mask, device), on(vals, device) if isinstance(vals, np.ndarray)
                       else vals)
    with pytest.raises(TypeError):
        np.putmask([1, 2], [True, False], 1)
    with pytest.raises(TypeError, match=r"\[putmask\]"):
        ac.putmask([1, 2], [True, False], 1)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shape", [(11,), (3, 5), (0, 4), ()])
def test_place_fills_true_elements_in_order(dt, shape, device):
    a = sample(dt, shape)
    mask = rng.random(shape) < 0.6
    for vals in (sample(dt, (2,)), sample(dt, (30,))):
        x, want = on(a, device), a.copy()
        assert ac.place(x, on(mask, device), on(vals, device)) is None
        np.place(want, mask, vals)
        same(x, want)


def test_place_casts_and_errors_as_numpy(device):
    a = np.arange(6).reshape(2, 3)
    x = on(a, device)
    np.place(a, a > 1, [1.7, 2.5])
    ac.place(x, x > 1, [1.7, 2.5])
    same(x, a)
    np.place(a, np.zeros(6, bool), [])
    ac.place(x, on(np.zeros(6, bool), device), [])
    same(x, a)
    np.place(x, on(np.ones(6, bool), device), on(np.array([4, 5]), device))
    np.place(a, np.ones(6, bool), [4, 5])
    same(x, a)
    for cls, mask, vals, msg in [(ValueError, np.ones(6, bool), [], "empty"),
                                 (ValueError, np.ones(5, bool), [1], "same size"),
                                 (TypeError, np.ones(6, bool), np.array([0.5]), "cannot cast")]:
        with pytest.raises(cls):
            np.place(a, mask, vals)
        with pytest.raises(cls, match=rf"\[place\] .*{msg}"):
            ac.place(x, on(mask, device), vals)
    with pytest.raises(TypeError):
        np.place([1, 2], [True, False], [3])
    with pytest.raises(TypeError, match=r"\[place\]"):
        ac.place([1, 2], [True, False], [3])


# ---- applying functions ------------------------------------------------------------------------

@pytest.mark.parametrize("shape,axis", [((5,), 0), ((3, 4), 0), ((3, 4), -1), ((2, 3, 4), 1),
                                        ((0, 2), 0), ((2, 3, 4), -3)])
def test_apply_along_axis_scalar_and_array_results(shape, axis, device):
    a = sample("float64", shape)
    x = on(a, device)
    with np.errstate(all="ignore"):
        same(ac.apply_along_axis(ac.sum, axis, x), np.apply_along_axis(np.sum, axis, a))
        same(ac.apply_along_axis(lambda v: v[::-1] * 2, axis, x),
             np.apply_along_axis(lambda v: v[::-1] * 2, axis, a))
        same(ac.apply_along_axis(lambda v, s: ac.outer(v, v) + s, axis, x, s=-0.0),
             np.apply_along_axis(lambda v, s: np.outer(v, v) + s, axis, a, s=-0.0))
        # NumPy's own function dispatches here and gives func1d accel arrays.
        same(np.apply_along_axis(lambda v: float(v.size), axis, x),
             np.apply_along_axis(lambda v: float(v.size), axis, a))


def test_apply_along_axis_first_result_sets_dtype(device):
    a = np.arange(12, dtype=np.int32).reshape(3, 4)
    x = on(a, device)
    f = lambda v: v.max() if int(v[0]) == 0 else v.mean()  # noqa: E731
    same(ac.apply_along_axis(f, 1, x), np.apply_along_axis(f, 1, a))
    g = lambda v: (v > 2).astype(bool) if int(v[0]) == 0 else v  # noqa: E731
    same(ac.apply_along_axis(g, 1, x), np.apply_along_axis(g, 1, a))


def test_apply_along_axis_errors_as_numpy(device):
    for a, axis, cls in [(np.float64(3), 0, np.exceptions.AxisError),
                         (np.zeros((3, 4)), 2, np.exceptions.AxisError),
                         (np.zeros((0, 3)), 1, ValueError)]:
        with pytest.raises(cls):
            np.apply_along_axis(np.sum, axis, a)
        with pytest.raises(accel_error(cls), match=r"\[apply_along_axis\]"):
            ac.apply_along_axis(ac.sum, axis, on(a, device))


@pytest.mark.parametrize("axes", [0, -1, [0, 2], (2, -3), [], [1, 1]])
@pytest.mark.parametrize("dt", ["int32", "float32"])
def test_apply_over_axes_matches_numpy(axes, dt, device):
    # -0.0 made 0.0: which of two equal zeros max keeps is NumPy's loop's accident.
    a = sample(dt, (2, 3, 4)) + np.zeros((), dt)
    x = on(a, device)
    with np.errstate(all="ignore"):
        same(ac.apply_over_axes(ac.sum, x, axes), np.apply_over_axes(np.sum, a, axes))
        keep = lambda v, ax: ac.max(v, axis=ax, keepdims=True)  # noqa: E731
        same(ac.apply_over_axes(keep, x, axes), np.apply_over_axes(np.max, a, axes))
        same(np.apply_over_axes(np.sum, x, axes), np.apply_over_axes(np.sum, a, axes))


def test_apply_over_axes_rejects_a_wrong_shape(device):
    a = np.ones((2, 3))
    with pytest.raises(ValueError):
        np.apply_over_axes(lambda v, ax: np.sum(v), a, [0])
    with pytest.raises(ValueError, match=r"\[apply_over_axes\]"):
        ac.apply_over_axes(lambda v, ax: ac.sum(v), on(a, device), [0])


# ---- queries -----------------------------------------------------------------------------------

def test_may_share_memory_is_a_bounds_check(device):
    a = np.arange(24.0).reshape(4, 6)
    x = on(a, device)
    pairs = [(lambda t: t, lambda t: t), (lambda t: t[:, 0], lambda t: t[:, 1]),
             (lambda t: t[:2], lambda t: t[2:]), (lambda t: t[::2], lambda t: t[1::2]),
             (lambda t: t[::-1], lambda t: t[3]), (lambda t: t[1:1], lambda t: t)]
    for f, g in pairs:
        want = np.may_share_memory(f(a), g(a))
        assert ac.may_share_memory(f(x), g(x)) == want
        assert np.may_share_memory(f(x), g(x)) == want
        assert ac.may_share_memory(f(x), g(x), max_work=None) == want
    assert not ac.may_share_memory(x, ac.asarray(a, copy=True, device=device))
    if device == "cpu":  # a NumPy array imported without a copy is the same memory
        assert ac.may_share_memory(ac.asarray(a), a[1:]) and np.may_share_memory(ac.asarray(a), a)
    assert not ac.may_share_memory(x, x + 1)
    assert not ac.may_share_memory([1, 2], [1, 2]) and not np.may_share_memory([1, 2], [1, 2])
    # max_work=-1: the exact answer, shares_memory's (interleaved rows share nothing).
    assert not ac.may_share_memory(x[::2], x[1::2], max_work=-1)
    assert ac.may_share_memory(x[::2], x[2:], max_work=-1)


def test_shares_memory_is_exact_as_numpy(device):
    # Interleaved and strided views inside one address range, against NumPy's exact solver.
    a = np.arange(60.0)
    x = on(a, device)
    views = [lambda t: t[::2], lambda t: t[1::2], lambda t: t[::5], lambda t: t[3:51].reshape(4, 12)[:, ::2],
             lambda t: t[::-3], lambda t: t[2:17].reshape(3, 5).T, lambda t: t[10:11],
             lambda t: t[:15], lambda t: t.reshape(6, 10)[1::2, 3::4], lambda t: t[59:]]
    for f in views:
        for g in views:
            want = np.shares_memory(f(a), g(a))
            assert ac.shares_memory(f(x), g(x)) == want
            assert np.shares_memory(f(x), g(x)) == want  # NumPy's function, accel's answer
            try:
                bounds = np.shares_memory(f(a), g(a), max_work=0)
            except np.exceptions.TooHardError:
                # The ranges overlap: NumPy needs work to decide. accel's search may decide
                # some such cases with none; if it answers, the answer is the exact one.
                try:
                    assert ac.shares_memory(f(x), g(x), max_work=0) == want
                except RuntimeError as e:
                    assert "max_work=0" in str(e)
            else:
                assert ac.shares_memory(f(x), g(x), max_work=0) == bounds
    assert not ac.shares_memory(x, x + 1)
    with pytest.raises(RuntimeError, match="max_work=0"):  # one step of search needed
        ac.shares_memory(x[::2], x[::2], max_work=0)


def test_isscalar_and_iterable_match_numpy(device):
    things = [3, 2.5, 1j, True, "s", b"b", np.float32(1), np.int8(2), None, [1], (1,),
              np.array(1.0), np.arange(3), on(np.array(1.0), device), on(np.arange(3), device),
              {1: 2}, iter([]), object()]
    for t in things:
        ref = ac.asnumpy(t) if isinstance(t, ac.ndarray) else t
        assert ac.isscalar(t) == np.isscalar(ref), t
        assert ac.iterable(t) == np.iterable(ref), t


def test_writes_go_through_strided_views(device):
    a = rng.random((4, 6))
    x = ac.asarray(a, copy=True, device=device)
    np.put_along_axis(a[::-1, 1::2], np.array([[2], [0], [1], [2]]), -0.0, 1)
    ac.put_along_axis(x[::-1, 1::2], on(np.array([[2], [0], [1], [2]]), device), -0.0, 1)
    np.putmask(a.T, a.T > 0.5, [7.0, 8.0, 9.0])
    ac.putmask(x.T, x.T > 0.5, [7.0, 8.0, 9.0])
    np.place(a[:, ::-2], a[:, ::-2] < 0.3, [np.nan, -1.0])
    ac.place(x[:, ::-2], x[:, ::-2] < 0.3, [np.nan, -1.0])
    same(x, a)
    # axis=None writes through the view too (NumPy 2.4's raises for a view that is not
    # contiguous, as its flat copy is read-only); here against a contiguous copy.
    flat = a[:, ::2].copy()
    np.put_along_axis(flat, np.array([0, 5, -1]), [1.0, 2.0, 3.0], None)
    ac.put_along_axis(x[:, ::2], on(np.array([0, 5, -1]), device), [1.0, 2.0, 3.0], None)
    same(x[:, ::2], flat)


def test_copyto_with_where_casts_the_values_to_dst_and_leaves_the_rest_alone(device):
    # NumPy casts what it copies to dst's dtype (same_kind: uint64 -> int64 wraps 2**64 - 1 to
    # -1) and does not touch the elements `where` leaves out; a where() of the two dtypes
    # promoted them to float64 (INT64_MIN) and passed dst's own values through complex128,
    # quieting a signalling NaN (fuzz seeds 1707295, 1705619).
    dst_n = np.array([0, 1, 2], np.int64)
    src_n = np.array(2**64 - 1, np.uint64)
    dst = on(dst_n.copy(), device)
    ac.copyto(dst, on(src_n, device), where=dst > 0)
    np.copyto(dst_n, src_n, where=dst_n > 0)
    np.testing.assert_array_equal(ac.asnumpy(dst), dst_n)
    bits = np.array([0xFF968B15, 0x40068B62, 0x3F800000, 0], np.uint32)  # an sNaN real part
    c_n = bits.view(np.complex64)
    c = on(c_n.copy(), device)
    src = np.array([2.5, 7.0])
    ac.copyto(c, on(src, device), where=on(np.array([False, True]), device))
    np.copyto(c_n, src, where=np.array([False, True]))
    np.testing.assert_array_equal(ac.asnumpy(c).view(np.uint32), c_n.view(np.uint32))


def test_copyto_of_an_array_onto_itself_copies_nothing(device):
    # NumPy returns before writing when src is dst's own elements, even into a read-only view
    # (a diagonal); a different view of the same memory is written (fuzz seed 1693).
    w_n = np.zeros((2, 2))
    d_n = w_n.diagonal()
    w = on(w_n.copy(), device)
    d = w.diagonal()
    for src, src_n in [(d, d_n), (d[...], d_n[...]), (d[::-1][::-1], d_n[::-1][::-1])]:
        ac.copyto(d, src)
        np.copyto(d_n, src_n)
    ac.copyto(d, d, where=on(np.array([True, False]), device))
    with pytest.raises(ValueError):
        np.copyto(d_n, d_n[::-1])
    with pytest.raises(ValueError):
        ac.copyto(d, d[::-1])
