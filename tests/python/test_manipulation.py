"""Manipulation functions against NumPy: values, dtypes, shapes, which results are views (zero
copy where NumPy's are) and the errors, over random shapes, dtypes and memory layouts."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import accel as ac
from device_arrays import WITHOUT_FLOAT16

DTYPES = WITHOUT_FLOAT16  # float16: test_float16.py
LAYOUTS = ["contiguous", "transposed", "strided", "reversed", "broadcast", "pending"]

fast = settings(max_examples=40, deadline=None)


def np_values(rng, shape, dtype):
    dtype = np.dtype(dtype)
    v = np.asarray(rng.integers(-50, 50, size=shape))
    if dtype.kind == "b":
        return np.asarray(v > 0)
    out = v.astype(dtype)
    if dtype.kind in "fc" and out.size:
        flat = out.reshape(-1)
        specials = np.array([np.nan, np.inf, -np.inf, -0.0]).astype(dtype)
        flat[: min(4, flat.size)] = specials[: min(4, flat.size)]
    return out


def layout_view(rng, shape, dtype, layout):
    """A NumPy array of `shape` in the given memory layout (accel imports it without a copy)."""
    if layout == "transposed" and len(shape) >= 2:
        return np_values(rng, shape[::-1], dtype).T
    if layout == "strided" and len(shape) >= 1:
        big = np_values(rng, (shape[0] * 2,) + tuple(shape[1:]), dtype)
        return big[::2]
    if layout == "reversed" and len(shape) >= 1:
        return np_values(rng, shape, dtype)[::-1]
    if layout == "broadcast" and len(shape) >= 1:
        row = np_values(rng, shape[1:], dtype)
        return np.broadcast_to(row, shape)
    return np_values(rng, shape, dtype)


@st.composite
def arrays(draw, min_dims=0, max_dims=4, max_side=5, dtypes=DTYPES, shape=None):
    """(numpy array, accel array with the same values and memory layout, layout)."""
    if shape is None:
        shape = tuple(draw(st.lists(st.integers(0, max_side), min_size=min_dims, max_size=max_dims)))
    dtype = draw(st.sampled_from(dtypes))
    layout = draw(st.sampled_from(LAYOUTS))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    a = layout_view(rng, shape, dtype, layout)
    x = ac.asarray(a)
    if layout == "pending":
        x = ac.astype(x, x.dtype)  # a not-yet-computed array
    return a, x, layout


def check(result, expected):
    got = np.asarray(result)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    np.testing.assert_array_equal(got, expected)


def check_view(result, source, expected_view):
    """result shares source's memory exactly when NumPy's result does."""
    assert np.shares_memory(np.asarray(result), source) == np.shares_memory(expected_view, source)


def factor_shape(draw, size, ndim):
    """A random shape of `ndim` dims whose product is `size`."""
    if size == 0:
        dims = [draw(st.integers(0, 3)) for _ in range(ndim)]
        if ndim:
            dims[draw(st.integers(0, ndim - 1))] = 0
        return dims
    dims = [1] * ndim
    n = size
    p = 2
    while n > 1:
        while n % p == 0 and ndim:
            dims[draw(st.integers(0, ndim - 1))] *= p
            n //= p
        p += 1
        if p * p > n and n > 1:
            if not ndim:
                break
            dims[draw(st.integers(0, ndim - 1))] *= n
            n = 1
    return dims


# ---------------------------------------------------------------- reshape and friends


@fast
@given(st.data())
def test_reshape_matches_numpy_and_is_a_view_when_numpy_is(data):
    a, x, layout = data.draw(arrays())
    ndim = data.draw(st.integers(0 if a.size == 1 else 1, 4))
    shape = factor_shape(data.draw, a.size, ndim)
    if shape and a.size and data.draw(st.booleans()):
        shape[data.draw(st.integers(0, len(shape) - 1))] = -1
    expected = np.reshape(a, shape)
    r = ac.reshape(x, shape)
    check(r, expected)
    if layout != "pending":
        check_view(r, a, expected)
        assert np.shares_memory(np.asarray(x.reshape(*shape) if shape else x.reshape(())), a) == \
            np.shares_memory(expected, a)


@fast
@given(st.data())
def test_reshape_copy_keyword(data):
    a, x, layout = data.draw(arrays(min_dims=1))
    shape = (-1,)
    try:
        expected = np.reshape(a, shape, copy=False)
    except ValueError:
        with pytest.raises(ValueError, match=r"\[reshape\].*copy=False"):
            ac.reshape(x, shape, copy=False)
    else:
        check(ac.reshape(x, shape, copy=False), expected)
    r = ac.reshape(x, shape, copy=True)
    check(r, np.reshape(a, shape))
    assert not np.shares_memory(np.asarray(r), a)


@fast
@given(st.data())
def test_ravel_and_flatten(data):
    a, x, layout = data.draw(arrays())
    check(ac.ravel(x), np.ravel(a))
    check(x.ravel(), a.ravel())
    check(x.flatten(), a.flatten())
    assert not np.shares_memory(np.asarray(x.flatten()), a)
    if layout != "pending":
        check_view(ac.ravel(x), a, np.ravel(a))


def test_reshape_errors():
    x = ac.asarray(np.arange(6.0))
    with pytest.raises(ac.ShapeError, match=r"\[reshape\] cannot reshape array of size 6 into shape \(4, 2\)"):
        ac.reshape(x, (4, 2))
    with pytest.raises(ValueError, match="one unknown dimension"):
        x.reshape(-1, -1)
    with pytest.raises(ValueError, match="negative dimension"):
        x.reshape(-3, 2)
    with pytest.raises(ValueError, match="order 'K' is not permitted"):  # as NumPy's
        ac.reshape(x, (2, 3), order="K")
    with pytest.raises(ValueError, match="order must be one of"):
        x.flatten(order="Q")


# ---------------------------------------------------------------- axes


@fast
@given(st.data())
def test_permute_dims_transpose_and_matrix_transpose(data):
    a, x, layout = data.draw(arrays())
    axes = data.draw(st.permutations(range(a.ndim)))
    axes = [ax - a.ndim if data.draw(st.booleans()) else ax for ax in axes]
    expected = np.transpose(a, axes)
    check(ac.permute_dims(x, axes), expected)
    check(ac.transpose(x, axes), expected)
    check(x.transpose(*axes) if axes else x.transpose(), expected)
    check(ac.transpose(x), a.T)
    check(x.transpose(), a.T)
    if a.ndim >= 2:
        check(ac.matrix_transpose(x), np.matrix_transpose(a))
    if layout != "pending":
        assert np.shares_memory(np.asarray(ac.permute_dims(x, axes)), a) == np.shares_memory(expected, a)


@fast
@given(st.data())
def test_swapaxes_and_moveaxis(data):
    a, x, _ = data.draw(arrays(min_dims=1))
    i = data.draw(st.integers(-a.ndim, a.ndim - 1))
    j = data.draw(st.integers(-a.ndim, a.ndim - 1))
    check(ac.swapaxes(x, i, j), np.swapaxes(a, i, j))
    check(x.swapaxes(i, j), a.swapaxes(i, j))
    k = data.draw(st.integers(1, a.ndim))
    src = data.draw(st.permutations(range(a.ndim)))[:k]
    dst = data.draw(st.permutations(range(a.ndim)))[:k]
    check(ac.moveaxis(x, src, dst), np.moveaxis(a, src, dst))
    check(ac.moveaxis(x, src[0], dst[0]), np.moveaxis(a, src[0], dst[0]))


def test_axis_errors():
    x = ac.asarray(np.zeros((2, 3)))
    with pytest.raises(ac.AxisError, match=r"\[swapaxes\] axis 2 is out of bounds for array of dimension 2"):
        ac.swapaxes(x, 0, 2)
    with pytest.raises(IndexError):  # AxisError is also an IndexError, as NumPy's
        ac.moveaxis(x, 5, 0)
    with pytest.raises(ValueError, match="repeated axis"):
        ac.permute_dims(x, (1, 1))
    with pytest.raises(ValueError, match="do not match"):
        ac.transpose(x, (0,))
    with pytest.raises(ValueError, match="same number"):
        ac.moveaxis(x, (0, 1), (0,))
    with pytest.raises(ac.ShapeError, match=r"\[matrix_transpose\]"):
        ac.matrix_transpose(ac.asarray(np.zeros(3)))


@fast
@given(st.data())
def test_squeeze_and_expand_dims(data):
    shape = data.draw(st.lists(st.sampled_from([0, 1, 1, 2, 3]), max_size=4))
    a, x, layout = data.draw(arrays(shape=tuple(shape)))
    check(ac.squeeze(x), np.squeeze(a))
    check(x.squeeze(), a.squeeze())
    ones = [i for i, d in enumerate(a.shape) if d == 1]
    if ones:
        sub = data.draw(st.lists(st.sampled_from(ones), unique=True, min_size=1))
        check(ac.squeeze(x, tuple(sub)), np.squeeze(a, tuple(sub)))
        check(ac.squeeze(x, sub[0] - a.ndim), np.squeeze(a, sub[0] - a.ndim))
    n_new = data.draw(st.integers(1, 3))
    out_ndim = a.ndim + n_new
    new = data.draw(st.lists(st.integers(-out_ndim, out_ndim - 1), min_size=n_new,
                             max_size=n_new, unique_by=lambda v: v % out_ndim))
    expected = np.expand_dims(a, tuple(new))
    check(ac.expand_dims(x, tuple(new)), expected)
    one = data.draw(st.integers(-a.ndim - 1, a.ndim))
    check(ac.expand_dims(x, axis=one), np.expand_dims(a, one))
    if layout != "pending":
        check_view(ac.expand_dims(x, tuple(new)), a, expected)
        check_view(ac.squeeze(x), a, np.squeeze(a))


def test_squeeze_and_expand_dims_errors():
    x = ac.asarray(np.zeros((1, 3)))
    with pytest.raises(ac.ShapeError, match=r"\[squeeze\] cannot remove axis 1 of size 3"):
        ac.squeeze(x, 1)
    with pytest.raises(ac.AxisError):
        ac.squeeze(x, 2)
    with pytest.raises(ac.AxisError, match=r"\[expand_dims\] axis 3"):
        ac.expand_dims(x, 3)
    with pytest.raises(ValueError, match="repeated axis"):
        ac.expand_dims(x, (0, 0))


# ---------------------------------------------------------------- broadcasting


@fast
@given(st.data())
def test_broadcast_to_and_broadcast_arrays(data):
    shape = data.draw(st.lists(st.sampled_from([1, 1, 2, 3]), max_size=3))
    a, x, layout = data.draw(arrays(shape=tuple(shape)))
    lead = data.draw(st.lists(st.integers(0, 3), max_size=2))
    target = tuple(lead) + tuple(d if d != 1 else data.draw(st.integers(0, 3)) for d in shape)
    expected = np.broadcast_to(a, target)
    b = ac.broadcast_to(x, target)
    check(b, expected)
    if layout != "pending" and expected.size:
        assert np.shares_memory(np.asarray(b), a)
    other = np.zeros(target[len(lead):], dtype=np.int8)
    got = ac.broadcast_arrays(x, ac.asarray(other))
    want = np.broadcast_arrays(a, other)
    assert len(got) == 2
    for g, w in zip(got, want):
        check(g, w)
    assert ac.broadcast_shapes(shape, target) == np.broadcast_shapes(shape, target)


def test_broadcast_errors():
    x = ac.asarray(np.zeros((2, 3)))
    with pytest.raises(ac.ShapeError, match=r"\[broadcast_to\] cannot broadcast an array of shape \(2, 3\) to shape \(3,\)"):
        ac.broadcast_to(x, (3,))
    with pytest.raises(ValueError, match="cannot be broadcast"):
        ac.broadcast_arrays(x, ac.asarray(np.zeros(4)))
    with pytest.raises(ValueError):
        ac.broadcast_shapes((2,), (3,))


# ---------------------------------------------------------------- joining


@st.composite
def joinable(draw, same_shape=False):
    """A few arrays of random dtypes and layouts that agree except along `axis`."""
    ndim = draw(st.integers(1, 3))
    base = [draw(st.integers(0, 4)) for _ in range(ndim)]
    axis = draw(st.integers(-ndim, ndim - 1))
    pairs = []
    for _ in range(draw(st.integers(1, 3))):
        shape = list(base)
        if not same_shape:
            shape[axis] = draw(st.integers(0, 4))
        a, x, _ = draw(arrays(shape=tuple(shape)))
        pairs.append((a, x))
    return [p[0] for p in pairs], [p[1] for p in pairs], axis


@fast
@given(joinable())
def test_concat_matches_numpy_with_promotion(case):
    arrs, xs, axis = case
    expected = np.concatenate(arrs, axis=axis)
    check(ac.concat(xs, axis=axis), expected)
    check(ac.concatenate(xs, axis), expected)
    check(ac.concat(xs, axis=None), np.concatenate(arrs, axis=None))


@fast
@given(joinable(same_shape=True), st.data())
def test_stack_and_unstack(case, data):
    arrs, xs, _ = case
    axis = data.draw(st.integers(-arrs[0].ndim - 1, arrs[0].ndim))
    expected = np.stack(arrs, axis=axis)
    s = ac.stack(xs, axis=axis)
    check(s, expected)
    un_axis = data.draw(st.integers(-expected.ndim, expected.ndim - 1))
    parts = ac.unstack(s, axis=un_axis)
    want = np.unstack(expected, axis=un_axis)
    assert isinstance(parts, tuple) and len(parts) == len(want)
    for p, w in zip(parts, want):
        check(p, w)
        if w.size:
            assert ac.shares_memory(p, s)


def test_concatenate_dtype_out_and_sequences():
    a = ac.asarray(np.arange(4, dtype=np.int32).reshape(2, 2))
    check(ac.concatenate([a, [[5, 6]]]), np.concatenate([np.asarray(a), [[5, 6]]]))
    check(ac.concatenate([a, a], dtype="float32"), np.concatenate([np.asarray(a)] * 2, dtype="float32"))
    out = ac.asarray(np.zeros((4, 2), dtype=np.float64))
    r = ac.concatenate([a, a], out=out)
    assert r is out
    check(out, np.concatenate([np.asarray(a)] * 2).astype(np.float64))
    check(ac.stack([a, a], dtype="int64"), np.stack([np.asarray(a)] * 2, dtype="int64"))
    check(ac.concatenate(a), np.concatenate(np.asarray(a)))  # an array is a sequence of rows
    with pytest.raises(TypeError, match="same_kind"):
        ac.concatenate([ac.asarray([1.5])], dtype="int32")
    f = ac.asarray(np.array([1.7, -2.2]))
    check(ac.concatenate([f], dtype="int32", casting="unsafe"),
          np.concatenate([np.asarray(f)], dtype="int32", casting="unsafe"))
    with pytest.raises(TypeError, match="casting='safe'"):
        ac.concatenate([a], dtype="float32", casting="safe")
    with pytest.raises(TypeError, match="casting='no'"):
        ac.stack([a, f[:2].reshape(1, 2).repeat(2, axis=0)], casting="no")
    check(ac.vstack([a, a], dtype="float32", casting="same_kind"),
          np.vstack([np.asarray(a)] * 2, dtype="float32", casting="same_kind"))
    with pytest.raises(ValueError, match="casting must be one of"):
        ac.concatenate([a], casting="sometimes")


def test_join_errors():
    a = ac.asarray(np.zeros((2, 2)))
    with pytest.raises(ac.ShapeError, match=r"\[concat\] array dimensions must match except on axis 0; array 0 has shape \(2, 2\) and array 1 has shape \(2, 3\)"):
        ac.concat([a, ac.asarray(np.zeros((2, 3)))])
    with pytest.raises(ac.ShapeError, match="same number of dimensions"):
        ac.concat([a, ac.asarray(np.zeros(2))])
    with pytest.raises(ac.ShapeError, match="zero-dimensional"):
        ac.concat([ac.asarray(1.0)])
    with pytest.raises(ValueError, match="at least one array"):
        ac.concat([])
    with pytest.raises(ac.AxisError):
        ac.concat([a], axis=2)
    with pytest.raises(ac.ShapeError, match=r"\[stack\] all arrays must have the same shape"):
        ac.stack([a, ac.asarray(np.zeros(3))])
    with pytest.raises(ac.AxisError):
        ac.stack([a], axis=3)
    with pytest.raises(TypeError, match="sequence"):
        ac.concat(3)


@fast
@given(st.data())
def test_split_and_array_split(data):
    a, x, _ = data.draw(arrays(min_dims=1))
    axis = data.draw(st.integers(-a.ndim, a.ndim - 1))
    n = data.draw(st.integers(1, 4))
    for got, want in zip(ac.array_split(x, n, axis), np.array_split(a, n, axis)):
        check(got, want)
    idx = data.draw(st.lists(st.integers(-7, 7), max_size=3))
    got, want = ac.split(x, idx, axis), np.split(a, idx, axis)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        check(g, w)
    if a.shape[axis] % n == 0:
        for g, w in zip(ac.split(x, n, axis), np.split(a, n, axis)):
            check(g, w)
    else:
        with pytest.raises(ValueError, match="equal sections"):
            ac.split(x, n, axis)


# ---------------------------------------------------------------- flip, roll, repeat, tile


@fast
@given(st.data())
def test_flip_is_a_view(data):
    a, x, layout = data.draw(arrays())
    check(ac.flip(x), np.flip(a))
    if a.ndim:
        axes = data.draw(st.lists(st.integers(0, a.ndim - 1), unique=True, min_size=1))
        axes = tuple(ax - a.ndim if data.draw(st.booleans()) else ax for ax in axes)
        expected = np.flip(a, axes)
        f = ac.flip(x, axes)
        check(f, expected)
        check(ac.flip(x, axes[0]), np.flip(a, axes[0]))
        if layout != "pending":
            check_view(f, a, expected)
    if a.ndim >= 1:
        check(ac.flipud(x), np.flipud(a))
    if a.ndim >= 2:
        check(ac.fliplr(x), np.fliplr(a))


@fast
@given(st.data())
def test_roll(data):
    a, x, _ = data.draw(arrays())
    shift = data.draw(st.integers(-7, 7))
    check(ac.roll(x, shift), np.roll(a, shift))
    if a.ndim:
        k = data.draw(st.integers(1, 3))
        axes = tuple(data.draw(st.integers(-a.ndim, a.ndim - 1)) for _ in range(k))
        shifts = tuple(data.draw(st.integers(-7, 7)) for _ in range(k))
        check(ac.roll(x, shifts, axes), np.roll(a, shifts, axes))
        check(ac.roll(x, shift, axes), np.roll(a, shift, axes))
    r = ac.roll(x, shift)
    if r.size:
        assert not np.shares_memory(np.asarray(r), a)


@fast
@given(st.data())
def test_repeat(data):
    a, x, _ = data.draw(arrays(max_dims=3))
    reps = data.draw(st.integers(0, 3))
    check(ac.repeat(x, reps), np.repeat(a, reps))
    check(x.repeat(np.int64(reps)), a.repeat(reps))
    if a.ndim:
        axis = data.draw(st.integers(-a.ndim, a.ndim - 1))
        check(ac.repeat(x, reps, axis=axis), np.repeat(a, reps, axis=axis))
        counts = data.draw(st.lists(st.integers(0, 3), min_size=a.shape[axis], max_size=a.shape[axis]))
        check(ac.repeat(x, counts, axis=axis), np.repeat(a, counts, axis=axis))
        check(ac.repeat(x, ac.asarray(np.array(counts, dtype=np.int32)), axis),
              np.repeat(a, counts, axis))
        check(ac.repeat(x, [reps], axis=axis), np.repeat(a, [reps], axis=axis))
    counts = data.draw(st.lists(st.integers(0, 3), min_size=a.size, max_size=a.size))
    check(ac.repeat(x, counts), np.repeat(a, counts))


@pytest.mark.parametrize("shape,axis", [((200,), 0), ((100, 3), 0), ((3, 100), 1), ((70, 2, 3), 0),
                                        ((5, 70), None), ((70, 70), 1)])
@pytest.mark.parametrize("reps", [1, 2, 5, 70])
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "reversed", "broadcast"])
def test_repeat_long_axes(shape, axis, reps, layout):
    # Long axes with few repeats take the one-copy-per-repeat path; many repeats the broadcast one.
    a = layout_view(np.random.default_rng(1), shape, "int16", layout)
    x = ac.asarray(a)
    check(ac.repeat(x, reps, axis=axis), np.repeat(a, reps, axis=axis))
    n = a.size if axis is None else a.shape[axis]
    # Counts of 0-4 are written 4 at a time, longer ones one by one; counts as a strided array.
    counts = np.random.default_rng(2).integers(0, 9, size=n)
    check(ac.repeat(x, counts, axis=axis), np.repeat(a, counts, axis=axis))
    strided = ac.asarray(np.repeat(counts, 2))[::2]
    check(ac.repeat(x, strided, axis=axis), np.repeat(a, counts, axis=axis))


def test_repeat_errors():
    x = ac.asarray(np.zeros((2, 3)))
    with pytest.raises(ValueError, match=r"\[repeat\] repeats may not be negative; got -1"):
        ac.repeat(x, -1)
    with pytest.raises(ValueError, match="repeats has 2 entries but axis 1 of the array has length 3"):
        ac.repeat(x, [1, 2], axis=1)
    with pytest.raises(TypeError, match="integers"):
        ac.repeat(x, [1.5, 2.0], axis=0)
    with pytest.raises(ac.AxisError):
        ac.repeat(x, 2, axis=2)


@fast
@given(st.data())
def test_tile(data):
    a, x, _ = data.draw(arrays(max_dims=3, max_side=3))
    reps = data.draw(st.lists(st.integers(0, 3), max_size=4))
    expected = np.tile(a, reps)
    t = ac.tile(x, reps)
    check(t, expected)
    if t.size:
        assert not np.shares_memory(np.asarray(t), a)
    if reps:
        check(ac.tile(x, reps[0]), np.tile(a, reps[0]))


def test_tile_and_roll_errors():
    x = ac.asarray(np.zeros(3))
    with pytest.raises(ValueError, match=r"\[tile\] repetitions may not be negative"):
        ac.tile(x, (2, -1))
    with pytest.raises(ValueError, match=r"\[roll\] shift"):
        ac.roll(ac.asarray(np.zeros((2, 2))), (1, 2, 3), (0, 1))


# ---------------------------------------------------------------- NumPy conveniences


@fast
@given(st.data())
def test_atleast_and_stacking_helpers(data):
    ndim = data.draw(st.integers(0, 3))
    shape = tuple(data.draw(st.integers(1, 3)) for _ in range(ndim))
    pairs = [data.draw(arrays(shape=shape)) for _ in range(data.draw(st.integers(1, 3)))]
    arrs = [p[0] for p in pairs]
    xs = [p[1] for p in pairs]
    for fn in ("atleast_1d", "atleast_2d", "atleast_3d"):
        check(getattr(ac, fn)(xs[0]), getattr(np, fn)(arrs[0]))
        got, want = getattr(ac, fn)(*xs), getattr(np, fn)(*arrs)
        if len(xs) > 1:
            assert isinstance(got, tuple)
            for g, w in zip(got, want):
                check(g, w)
    for fn in ("hstack", "vstack", "dstack", "column_stack"):
        if fn == "column_stack" and ndim > 2:
            continue
        check(getattr(ac, fn)(xs), getattr(np, fn)(arrs))


def test_split_helpers():
    a = np.arange(24.0).reshape(2, 3, 4)
    x = ac.asarray(a)
    for fn, n in (("hsplit", 3), ("vsplit", 2), ("dsplit", [1, 3])):
        for g, w in zip(getattr(ac, fn)(x, n), getattr(np, fn)(a, n)):
            check(g, w)
    with pytest.raises(ValueError, match="fliplr"):
        ac.fliplr(ac.asarray(np.zeros(3)))
    with pytest.raises(ValueError, match="dsplit"):
        ac.dsplit(ac.asarray(np.zeros((2, 2))), 2)


def test_inputs_from_python_sequences_and_numpy_scalars():
    check(ac.reshape([1, 2, 3, 4], (2, 2)), np.reshape([1, 2, 3, 4], (2, 2)))
    check(ac.expand_dims(3.5, 0), np.expand_dims(3.5, 0))
    check(ac.tile([1, 2], np.int64(2)), np.tile([1, 2], 2))
    x = ac.asarray(np.arange(6))
    check(x.reshape(np.int64(2), np.int64(3)), np.arange(6).reshape(2, 3))
    check(ac.squeeze(ac.asarray(np.zeros((1, 2))), np.int64(0)), np.zeros(2))


def test_results_of_views_follow_writes_to_the_source():
    a = np.arange(6.0)
    x = ac.asarray(a)
    v = ac.reshape(x, (2, 3))
    f = ac.flip(x)
    a[0] = 100.0
    assert np.asarray(v)[0, 0] == 100.0
    assert np.asarray(f)[-1] == 100.0
