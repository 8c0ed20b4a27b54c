"""Indexing against NumPy: basic indexing (views), advanced indexing (integer and boolean
arrays, NumPy's placement rule), setitem of every form with broadcasting and casting, take,
take_along_axis, put, nonzero and its relatives, and the errors."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import accel as ac
import device_arrays as dev

DTYPES = ["bool", "int8", "uint8", "int32", "int64", "float32", "float64", "complex64"]
SETTINGS = settings(max_examples=int(__import__("os").environ.get("ACCEL_TEST_EXAMPLES", 60)), deadline=None)


def make_array(rng, shape, dtype):
    if dtype == "bool":
        return np.asarray(rng.random(shape) < 0.5)
    if np.dtype(dtype).kind == "c":
        return np.asarray((rng.normal(size=shape) + 1j * rng.normal(size=shape)).astype(dtype))
    if np.dtype(dtype).kind == "f":
        return np.asarray((rng.normal(size=shape) * 10).astype(dtype))
    return np.asarray(rng.integers(0, 100, size=shape).astype(dtype))


def same(got, want):
    want = np.asarray(want)
    assert isinstance(got, ac.ndarray)
    assert got.shape == want.shape
    assert got.dtype == want.dtype.name
    np.testing.assert_array_equal(ac.asnumpy(got), want)


def layouts(n):
    """An accel array with the values of NumPy array n in one of several memory layouts."""
    yield ac.asarray(n)
    if n.ndim >= 2:
        yield ac.asarray(np.ascontiguousarray(n.T)).T  # transposed view
    big = np.zeros(tuple(2 * d + 1 for d in n.shape), n.dtype)
    sl = tuple(slice(1, None, 2) for _ in n.shape)
    big[sl] = n
    yield ac.asarray(big)[sl]  # strided view made by accel's own slicing


@st.composite
def index_tuples(draw, shape):
    """A random NumPy index for `shape`: ints, slices (negative steps too), None, Ellipsis,
    integer arrays that broadcast together, boolean masks (0-d too), and now and then an
    out-of-range integer. Choices come from a generator seeded by hypothesis so every kind
    is drawn evenly."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    ndim = len(shape)
    entries = []
    d = 0
    use_ellipsis = rng.random() < 0.3
    ellipsis_at = int(rng.integers(0, ndim + 1))
    b_shape = tuple(int(v) for v in rng.integers(0, 4, size=rng.integers(0, 3)))
    has_mask = has_intarray = False
    consumed_target = int(rng.integers(0, ndim + 1)) if rng.random() < 0.3 else ndim
    placed = False
    bad = rng.random() < 0.05  # one index out of range
    while d < consumed_target:
        if use_ellipsis and d >= ellipsis_at and not placed:
            entries.append(Ellipsis)
            placed = True
            d = max(d, consumed_target - int(rng.integers(0, consumed_target - d + 1)))
            if d >= consumed_target:
                break
        kind = rng.choice(["int", "slice", "intarray", "bool", "none"], p=[.2, .3, .25, .15, .1])
        n = shape[d]
        if kind == "none":
            entries.append(None)
            continue
        if kind == "int" and n > 0:
            entries.append(int(rng.integers(-n, n)) if not bad else n)
            bad = False
        elif kind == "intarray" and (n > 0 or bad):
            s = b_shape if not has_mask else [(), (1,)][int(rng.integers(0, 2))]
            s = tuple(1 if rng.random() < 0.3 else v for v in s)
            s = s[int(rng.integers(0, len(s) + 1)):]
            arr = rng.integers(-n, max(n, 1), size=s)
            if bad and arr.size:
                arr.flat[-1] = -n - 1
                bad = False
            entries.append(arr)
            has_intarray = True
        elif kind == "bool" and not has_intarray:
            k = int(rng.integers(0, min(2, consumed_target - d) + 1))
            if k == 0:
                v = bool(rng.random() < 0.5)
                entries.append(np.bool_(v) if rng.random() < 0.5 else v)
                continue
            entries.append(rng.random(shape[d:d + k]) < 0.5)
            has_mask = True
            d += k
            continue
        else:
            lo = None if rng.random() < 0.3 else int(rng.integers(-n - 2, n + 3))
            hi = None if rng.random() < 0.3 else int(rng.integers(-n - 2, n + 3))
            step = None if rng.random() < 0.3 else int(rng.choice([1, 2, 3, -1, -2, -3]))
            entries.append(slice(lo, hi, step))
        d += 1
    if use_ellipsis and not placed:
        entries.append(Ellipsis)
    if rng.random() < 0.2:
        entries.insert(int(rng.integers(0, len(entries) + 1)), None)
    if len(entries) == 1 and rng.random() < 0.5:
        return entries[0]  # a bare index, not a tuple
    return tuple(entries)


INDEX_DTYPES = ["int64", "int32", "int8", "uint8", "uint16", "uint64"]


def to_accel_index(idx, style, index_dtype="int64"):
    """The same index for accel: arrays as accel arrays, NumPy arrays or lists; integer arrays
    in `index_dtype` when their values fit it."""
    def conv(e):
        if isinstance(e, np.ndarray) and e.dtype.kind == "i":
            if np.can_cast(np.min_scalar_type(e.min()) if e.size else e.dtype, index_dtype) and \
                    (e.size == 0 or np.can_cast(np.min_scalar_type(e.max()), index_dtype)):
                e = e.astype(index_dtype)
        if isinstance(e, np.ndarray):
            if style == 0:
                return ac.asarray(e)
            if style == 1 or e.ndim == 0 or e.size == 0:
                return e
            return e.tolist()
        return e
    if not isinstance(idx, tuple):
        return conv(idx)
    return tuple(conv(e) for e in idx)


def numpy_or_error(fn):
    try:
        return fn(), None
    except (IndexError, ValueError, TypeError) as e:
        return None, type(e)


@SETTINGS
@given(shape=st.lists(st.integers(0, 4), max_size=4).map(tuple), dtype=st.sampled_from(DTYPES),
       data=st.data())
def test_getitem_matches_numpy(shape, dtype, data):
    rng = np.random.default_rng(0)
    n = make_array(rng, shape, dtype)
    idx = data.draw(index_tuples(shape))
    want, err = numpy_or_error(lambda: n[idx])
    style = data.draw(st.integers(0, 2))
    index_dtype = data.draw(st.sampled_from(INDEX_DTYPES))
    for x in layouts(n):
        if err is not None:
            with pytest.raises(err):
                x[to_accel_index(idx, style, index_dtype)]
            continue
        got = x[to_accel_index(idx, style, index_dtype)]
        same(got, want)


@SETTINGS
@given(shape=st.lists(st.integers(0, 4), max_size=4).map(tuple), dtype=st.sampled_from(DTYPES),
       value_dtype=st.sampled_from(DTYPES), data=st.data())
def test_setitem_matches_numpy(shape, dtype, value_dtype, data):
    rng = np.random.default_rng(1)
    n = make_array(rng, shape, dtype)
    idx = data.draw(index_tuples(shape))
    target, err = numpy_or_error(lambda: n[idx])
    if err is not None:
        x = ac.asarray(n.copy())
        with pytest.raises(err):
            x[to_accel_index(idx, 0)] = 1
        return
    tshape = np.shape(target)
    cut = data.draw(st.integers(0, len(tshape)))
    vshape = tuple(1 if data.draw(st.booleans()) else s for s in tshape[cut:])
    if data.draw(st.booleans()):
        value = make_array(rng, vshape, value_dtype)
    else:
        value = data.draw(st.sampled_from([True, 3, -1.5, 2 + 1j]))
        if isinstance(value, complex) and n.dtype.kind != "c":
            value = 7
        if n.dtype == np.uint8 and value == -1.5:
            value = 1.5
    want = n.copy()
    with np.errstate(all="ignore"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want[idx] = value
    style = data.draw(st.integers(0, 2))
    for x in layouts(n):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            x[to_accel_index(idx, style)] = ac.asarray(value) if isinstance(value, np.ndarray) and style == 0 else value
        got = ac.asnumpy(x)
        if n.dtype.kind in "iu" and np.asarray(value).dtype.kind in "fc":
            # Out-of-range float -> int conversion is undefined in C++ and NumPy alike.
            continue
        np.testing.assert_array_equal(got, want)


def test_basic_indexing_returns_views_that_share_memory():
    n = np.arange(24.0).reshape(2, 3, 4)
    x = ac.asarray(n.copy())
    v = x[1, ::-2, None, 1:3]
    assert ac.shares_memory(v, x)
    assert v.shape == (2, 1, 2)
    v[...] = -1
    want = n.copy()
    want[1, ::-2, None, 1:3] = -1
    np.testing.assert_array_equal(ac.asnumpy(x), want)
    w = x[..., 0]
    w[0] = 100
    assert ac.asnumpy(x)[0, 0, 0] == 100


# Index tuples of up to four entries are held inline by the bindings, longer ones on the heap.
@pytest.mark.parametrize("key", [(), (1,), (-1, 0, 2, -1), (None, -1, 0, 2, -1),
                                 (1, None, slice(None, None, -1), Ellipsis, None, 0),
                                 (None, None, None, None, None, None, 0), (0, [0, 1], -1, None, 1)])
def test_index_tuples_of_every_length_match_numpy(key):
    n = np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5)
    x = ac.asarray(n, copy=True)
    same(x[key], n[key])
    x[key] = -1.0
    n[key] = -1.0
    same(x, n)


def test_advanced_indexing_copies():
    x = ac.asarray(np.arange(6))
    y = x[[0, 1]]
    y[0] = 99
    assert ac.asnumpy(x)[0] == 0


def test_shifted_self_assignment_matches_numpy():
    n = np.arange(10.0)
    x = ac.asarray(n.copy())
    x[1:] = x[:-1] * 2
    n[1:] = n[:-1] * 2
    np.testing.assert_array_equal(ac.asnumpy(x), n)
    x[::-1] = x
    n[::-1] = n
    np.testing.assert_array_equal(ac.asnumpy(x), n)
    x[1:] = x[:-1]
    n[1:] = n[:-1]
    np.testing.assert_array_equal(ac.asnumpy(x), n)


def test_advanced_self_assignment_reads_old_values():
    n = np.arange(8)
    x = ac.asarray(n.copy())
    x[[1, 2, 3]] = x[:3]
    n[[1, 2, 3]] = n[:3]
    np.testing.assert_array_equal(ac.asnumpy(x), n)
    x[x[:4]] = x[4:]  # indices and values both read x
    n[n[:4]] = n[4:]
    np.testing.assert_array_equal(ac.asnumpy(x), n)


def test_pending_results_keep_old_values_after_setitem():
    x = ac.asarray(np.arange(5.0))
    y = x * 2
    x[0] = 100
    x[[1, 2]] = -1
    x[x > 3] = 0
    np.testing.assert_array_equal(ac.asnumpy(y), np.arange(5.0) * 2)


def test_repeated_index_last_value_wins():
    x = ac.asarray(np.zeros(3))
    x[[0, 0, 1, 0]] = ac.asarray([1.0, 2.0, 3.0, 4.0])
    np.testing.assert_array_equal(ac.asnumpy(x), [4.0, 3.0, 0.0])


def test_zero_d_boolean_indices():
    n = np.arange(6).reshape(2, 3)
    x = ac.asarray(n)
    same(x[True], n[True])
    same(x[False], n[False])
    same(x[np.bool_(True), 1], n[np.bool_(True), 1])
    same(x[:, True, [0, 1]], n[:, True, [0, 1]])
    z = ac.asarray(np.array(5))
    same(z[True], np.array(5)[True])
    same(z[()], np.array(5)[()])
    same(z[...], np.array(5)[...])
    x[False] = 7
    np.testing.assert_array_equal(ac.asnumpy(x), n)
    m = n.copy()
    x2 = ac.asarray(m.copy())
    x2[True] = 7
    m[True] = 7
    np.testing.assert_array_equal(ac.asnumpy(x2), m)


def test_separated_advanced_indices_move_to_front():
    n = np.arange(2 * 3 * 4 * 5).reshape(2, 3, 4, 5)
    x = ac.asarray(n)
    for idx in [(0, slice(None), [0, 1]), ([0, 1], slice(None), 0), ([[0], [1]], None, [0, 1]),
                (slice(None), [0, 2], [1, 3]), (slice(None), [0, 2], slice(None), [1, 3]),
                ([1], Ellipsis, [2]), (Ellipsis, [0, 1], 2, slice(None)),
                (n[:, 0, 0, 0] > 0, slice(None), [1, 1, 0])]:
        same(x[idx], n[idx])


def test_numpy_integer_scalars_index_like_ints():
    n = np.arange(12).reshape(3, 4)
    x = ac.asarray(n)
    r = x[np.int64(1)]
    assert ac.shares_memory(r, x)
    same(r, n[1])
    same(x[np.int32(-1), np.uint8(2)], n[-1, 2])
    same(x[ac.asarray(np.array(1))], n[np.array(1)])
    same(x[[]], n[[]])


def test_zero_d_integer_arrays_and_index_objects_index_like_ints():
    # accel's 0-d results stand where NumPy returns integer scalars (a reduction, arithmetic on
    # 0-d values), and NumPy indexes with those as with ints: a view, which sees later writes.
    n = np.arange(12.0).reshape(3, 4)
    x = ac.asarray(n.copy())
    i = ac.argmax(ac.asarray(np.array([0, 5, 2]))) % 3  # 1, as a 0-d int64 array
    assert np.shares_memory(n[np.argmax(np.array([0, 5, 2])) % 3], n)
    for key, np_key in [(i, 1), ((i, slice(1, 3)), (1, slice(1, 3))), ((Ellipsis, i), (Ellipsis, 1)),
                        ((slice(None), ac.asarray(np.array(2, np.uint8))), (slice(None), 2))]:
        v = x[key]
        assert ac.shares_memory(v, x), key
        same(v, n[np_key])
    v = x[i]
    x[1, 0] = -7
    assert float(ac.asnumpy(v)[0]) == -7
    x[i, i] = 42  # writes through the same rule
    assert float(ac.asnumpy(x)[1, 1]) == 42

    class Index:
        def __index__(self):
            return 2

    n2 = np.arange(5)
    same(ac.asarray(n2)[Index()], n2[Index()])
    same(ac.asarray(n)[Index(), Index()], n[Index(), Index()])
    # NumPy's own 0-d arrays stay advanced indices (NumPy copies for them); 0-d bools are masks.
    same(x[np.array(1)], ac.asnumpy(x)[np.array(1)])
    assert not ac.shares_memory(x[np.array(1)], x)
    same(x[ac.asarray(np.array(True))], ac.asnumpy(x)[np.array(True)])
    with pytest.raises(IndexError):
        x[ac.asarray(np.array(1.0))]


def test_iteration_over_first_axis():
    n = np.arange(6).reshape(3, 2)
    rows = list(ac.asarray(n))
    assert len(rows) == 3
    for got, want in zip(rows, n):
        same(got, want)
    with pytest.raises(TypeError, match="0-d"):
        iter(ac.asarray(np.array(1)))


def test_setitem_casts_and_broadcasts():
    x = ac.asarray(np.zeros((2, 3), np.int32))
    x[:, 1] = 2.7
    x[0] = [1, 2, 3]
    x[[1], [0, 2]] = np.array([True, True])
    np.testing.assert_array_equal(ac.asnumpy(x), [[1, 2, 3], [1, 2, 1]])
    b = ac.asarray(np.zeros(3, bool))
    b[1] = 5
    b[[0]] = 0.0
    np.testing.assert_array_equal(ac.asnumpy(b), [False, True, False])


def test_setitem_python_int_out_of_range_raises_overflow_error():
    x = ac.asarray(np.zeros(3, np.uint8))
    with pytest.raises(OverflowError):
        x[0] = 300
    with pytest.raises(OverflowError):
        x[[0]] = -1


PYTHON_VALUES = [float("nan"), float("inf"), -float("inf"), 1e30, 300.0, -1.5, 2.7, -0.5,
                 1 + 2j, 2 + 0j, 2**70, -2**70, 2**64 - 1, 2**64, -2**63 - 1, 2**2000, True]


@pytest.mark.parametrize("dtype", ["int8", "int64", "uint8", "uint64", "float16", "float32",
                                   "float64", "bool", "complex64"])
@pytest.mark.parametrize("key", [0, slice(None), Ellipsis, [0, 1]])
def test_setitem_stores_python_numbers_as_numpy(dtype, key, device):
    """A Python number stored into an array follows NumPy's rules: a float into integers as
    int(v) (NaN: ValueError, infinities and values beyond the dtype: OverflowError), a complex
    into integers or floats is a TypeError, a huge int into floats is float(v) and into bools
    its truth. Every key form, fill() too."""
    for v in PYTHON_VALUES:
        n = np.zeros(3, dtype)
        a = ac.zeros(3, dtype=dtype, device=device)
        try:
            with np.errstate(over="ignore"):
                n[key] = v
        except (ValueError, OverflowError, TypeError) as e:
            with pytest.raises(type(e)):
                a[key] = v
            with pytest.raises(type(e)):
                a.fill(v)
            continue
        a[key] = v
        np.testing.assert_array_equal(ac.asnumpy(a), n, err_msg=repr(v))


def test_large_gather_scatter_and_nonzero_use_threads_correctly():
    rng = np.random.default_rng(5)
    n = rng.normal(size=(300, 700))
    x = ac.asarray(n)
    idx = rng.integers(-300, 300, size=100_000)
    same(x[idx, 5], n[idx, 5])
    same(x[idx[:500]], n[idx[:500]])
    same(x[:, idx[:900] % 700], n[:, idx[:900] % 700])
    same(x[::-2, idx[:900] % 700], n[::-2, idx[:900] % 700])
    same(x[n > 1.0], n[n > 1.0])
    same(ac.argwhere(x > 0.5), np.argwhere(n > 0.5))
    rows = rng.permutation(300)[:200]
    y = ac.asarray(n.copy())
    y[rows] = x[rows] * 3
    m = n.copy()
    m[rows] = n[rows] * 3
    np.testing.assert_array_equal(ac.asnumpy(y), m)
    y[:, [3, 1]] = 0.0
    m[:, [3, 1]] = 0.0
    y[:, idx[:900] % 700] = x[:, idx[1:901] % 700] * 2
    m[:, idx[:900] % 700] = n[:, idx[1:901] % 700] * 2
    np.testing.assert_array_equal(ac.asnumpy(y), m)


@SETTINGS
@given(shape=st.lists(st.integers(0, 5), min_size=1, max_size=3).map(tuple),
       dtype=st.sampled_from(DTYPES), data=st.data())
def test_take_matches_numpy(shape, dtype, data):
    rng = np.random.default_rng(2)
    n = make_array(rng, shape, dtype)
    axis = data.draw(st.none() | st.integers(-len(shape), len(shape) - 1))
    size = n.size if axis is None else shape[axis]
    ishape = tuple(data.draw(st.lists(st.integers(0, 3), max_size=2)))
    mode = data.draw(st.sampled_from(["raise", "wrap", "clip"]))
    if size == 0:
        ishape = (0,) + ishape
        idx = np.zeros(ishape, np.int64)
    elif mode == "raise":
        idx = rng.integers(-size, size, size=ishape)
    else:
        idx = rng.integers(-3 * size, 3 * size, size=ishape)
    for x in layouts(n):
        same(ac.take(x, ac.asarray(idx), axis=axis, mode=mode), np.take(n, idx, axis=axis, mode=mode))


@SETTINGS
@given(shape=st.lists(st.integers(1, 4), min_size=1, max_size=3).map(tuple), data=st.data())
def test_take_along_axis_matches_numpy(shape, data):
    rng = np.random.default_rng(3)
    n = rng.normal(size=shape)
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    ishape = list(shape)
    ishape[axis] = data.draw(st.integers(0, 5))
    for d in range(len(shape)):
        if d != axis % len(shape) and data.draw(st.booleans()):
            ishape[d] = 1
    idx = rng.integers(-shape[axis], shape[axis], size=ishape)
    for x in layouts(n):
        same(ac.take_along_axis(x, idx, axis=axis), np.take_along_axis(n, idx, axis=axis))
    sorted_idx = np.argsort(n, axis=axis)
    same(ac.take_along_axis(ac.asarray(n), ac.asarray(sorted_idx), axis=axis), np.sort(n, axis=axis))
    same(ac.take_along_axis(ac.asarray(n), ac.asarray(np.array([0, -1])), axis=None),
         np.take_along_axis(n, np.array([0, -1]), axis=None))


@SETTINGS
@given(shape=st.lists(st.integers(0, 5), max_size=3).map(tuple), dtype=st.sampled_from(DTYPES))
def test_nonzero_family_matches_numpy(shape, dtype):
    rng = np.random.default_rng(4)
    n = make_array(rng, shape, dtype)
    if n.dtype.kind in "iu":
        n = n % 3
    for x in layouts(n):
        same(ac.argwhere(x), np.argwhere(n))
        same(ac.flatnonzero(x), np.flatnonzero(n))
        if n.ndim == 0:
            with pytest.raises(ValueError):
                ac.nonzero(x)
            continue
        got = ac.nonzero(x)
        want = np.nonzero(n)
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            same(g, w)
        for g, w in zip(ac.where(x), np.where(n)):
            same(g, w)
        same(ac.extract(x, x), np.extract(n, n))


def test_nonzero_counts_nan_and_not_negative_zero():
    n = np.array([0.0, -0.0, np.nan, np.inf, 1e-300])
    same(ac.flatnonzero(ac.asarray(n)), np.flatnonzero(n))
    c = np.array([0j, 1j, complex(0, -0.0), 2 + 0j])
    same(ac.flatnonzero(ac.asarray(c)), np.flatnonzero(c))


def test_where_with_one_and_three_arguments():
    n = np.array([[1, 0, 3], [0, 5, 0]])
    x = ac.asarray(n)
    for g, w in zip(ac.where(x), np.where(n)):
        same(g, w)
    same(ac.where(x > 0, x, -x), np.where(n > 0, n, -n))
    same(ac.where(n > 2, 1.5, 0), np.where(n > 2, 1.5, 0))
    with pytest.raises(ValueError, match="both or neither"):
        ac.where(x, x)
    out = ac.asarray(np.zeros((2, 3), np.int64))
    assert ac.where(x > 0, x, 0, out=out) is out
    np.testing.assert_array_equal(ac.asnumpy(out), np.where(n > 0, n, 0))


def test_compress_and_extract_with_bool_conditions_match_numpy(device):
    """compress and extract with a bool condition as long as the axis (or the array) pick rows
    in one pass (Backend::compress_rows, as x[mask]); shorter conditions, integer conditions and
    strided operands on either side of that path against NumPy."""
    rng = np.random.default_rng(3)
    for dtype in ["bool", "int16", "float32", "complex128"]:
        n = dev.random_array(rng, (5, 4, 3), dtype)
        for layout in ["contiguous", "sliced", "reversed", "transposed"]:
            x = dev.on_device(n, device, layout)
            for axis in [0, 1, 2, -1, None]:
                length = n.size if axis is None else n.shape[axis]
                for cond in [rng.random(length) < 0.5, np.zeros(length, bool), np.ones(length, bool),
                             rng.random(length - 1) < 0.5, rng.integers(0, 3, length)]:
                    c = dev.on_device(cond, device)
                    dev.check_close(ac.compress(c, x, axis=axis), np.compress(cond, n, axis=axis))
                    dev.check_close(ac.compress(c[::-1], x, axis=axis), np.compress(cond[::-1], n, axis=axis))
                    # C-ordered, as NumPy's: a reshape of it is a view (fuzz seed 952965)
                    got = ac.compress(c, x, axis=axis)
                    if got.size:
                        assert got.strides == np.compress(cond, n, axis=axis).strides
                        assert ac.shares_memory(ac.reshape(got, (-1,)), got)
        for cond in [rng.random(n.shape) < 0.5, rng.integers(0, 2, n.shape), rng.random((5, 4)) < 0.5]:
            x = dev.on_device(n, device, "reversed")
            c = dev.on_device(cond, device, "transposed")
            dev.check_close(ac.extract(c, x), np.extract(cond, n))
    with pytest.raises(ac.AxisError, match=r"\[compress\] axis 1 is out of bounds for array of dimension 1"):
        ac.compress(dev.on_device(np.ones(3, bool), device), dev.on_device(np.ones(3), device), axis=1)


def test_compress_extract_put_match_numpy():
    n = np.arange(12).reshape(3, 4)
    x = ac.asarray(n)
    cond = np.array([True, False, True])
    same(ac.compress(cond, x, axis=0), np.compress(cond, n, axis=0))
    same(ac.compress([False, True], x, axis=1), np.compress([False, True], n, axis=1))
    same(ac.compress(cond, x), np.compress(cond, n))
    same(x.compress(cond, axis=0), n.compress(cond, axis=0))
    same(ac.extract(x % 3 == 0, x), np.extract(n % 3 == 0, n))
    for mode in ["raise", "wrap", "clip"]:
        m = n.copy()
        y = ac.asarray(m.copy())
        ind = [0, -1, 5] if mode == "raise" else [0, -20, 30, 7]
        ac.put(y, ind, [100, 200], mode=mode)
        np.put(m, ind, [100, 200], mode=mode)
        np.testing.assert_array_equal(ac.asnumpy(y), m)
    t = ac.asarray(np.ascontiguousarray(n.T)).T  # not C-contiguous: flat order is still C order
    m = n.copy()
    ac.put(t, [1, 5, 6], [-1, -2, -3])
    np.put(m, [1, 5, 6], [-1, -2, -3])
    np.testing.assert_array_equal(ac.asnumpy(t), m)
    same(x.take([0, 2], axis=1), n.take([0, 2], axis=1))
    for g, w in zip(x.nonzero(), n.nonzero()):
        same(g, w)


def test_take_scalar_index_and_out():
    n = np.arange(5.0)
    x = ac.asarray(n)
    same(ac.take(x, 3), np.take(n, 3))
    out = ac.asarray(np.zeros(2))
    r = ac.take(x, [4, 0], out=out)
    assert r is out
    np.testing.assert_array_equal(ac.asnumpy(out), [4.0, 0.0])


# ---- errors -----------------------------------------------------------------------------

def test_out_of_bounds_integer_names_index_axis_and_size():
    x = ac.asarray(np.zeros((3, 4)))
    with pytest.raises(IndexError, match=r"index 5 is out of bounds for axis 1 with size 4"):
        x[0, 5]
    with pytest.raises(IndexError, match=r"index -4 is out of bounds for axis 0 with size 3"):
        x[-4]
    with pytest.raises(IndexError, match=r"index 7 is out of bounds for axis 1 with size 4"):
        x[:, [0, 7]]
    with pytest.raises(IndexError, match=r"index 3 is out of bounds for axis 0 with size 3"):
        x[[0, 3], [0, 1]] = 1.0
    with pytest.raises(IndexError, match=r"index 9 is out of bounds for axis 0 with size 3"):
        ac.take(x, [9], axis=0)
    with pytest.raises(IndexError, match=r"out of bounds for axis 0 with size 12"):
        ac.put(x, [12], 1.0)
    with pytest.raises(IndexError):
        ac.take_along_axis(x, np.full((3, 1), 4), axis=1)


def test_unsigned_index_arrays_past_int64_are_out_of_bounds():
    x = ac.asarray(np.arange(4.0))
    same(x[np.array([3, 0], np.uint64)], np.arange(4.0)[np.array([3, 0], np.uint64)])
    with pytest.raises(IndexError):
        x[np.array([2**64 - 1], np.uint64)]


def test_bad_scatter_index_writes_nothing():
    x = ac.asarray(np.arange(6.0))
    with pytest.raises(IndexError):
        x[[0, 1, 2, 10]] = -1.0
    np.testing.assert_array_equal(ac.asnumpy(x), np.arange(6.0))


def test_index_errors_match_numpy_types_and_say_why():
    x = ac.asarray(np.zeros((3, 4)))
    with pytest.raises(IndexError, match="too many indices for array: array is 2-dimensional, but 3 were indexed"):
        x[0, 0, 0]
    with pytest.raises(IndexError, match="single ellipsis"):
        x[..., ...]
    with pytest.raises(IndexError, match="boolean index did not match indexed array along axis 0; "
                                          "size of axis is 3 but size of corresponding boolean axis is 4"):
        x[np.ones(4, bool)]
    with pytest.raises(IndexError, match=r"could not be broadcast together with shapes \(2,\) \(3,\)"):
        x[[0, 1], [0, 1, 2]]
    with pytest.raises(IndexError, match="integer or boolean"):
        x[1.5]
    with pytest.raises(IndexError, match="integer"):
        x[np.array([0.0, 1.0])]
    with pytest.raises(IndexError):
        x["a"]
    with pytest.raises(ValueError, match="slice step cannot be zero"):
        x[::0]
    with pytest.raises(ValueError, match=r"\(3,\).*\(4,\)"):
        x[0] = [1, 2, 3]
    with pytest.raises(ValueError, match=r"value array of shape \(3,\) could not be broadcast to indexing result of shape \(2, 4\)"):
        x[[0, 1]] = [1, 2, 3]
    with pytest.raises(TypeError):
        ac.take(x, np.array([0.5]))
    with pytest.raises(ValueError):
        ac.take(x, [0], mode="bad")
    with pytest.raises(ValueError):
        ac.take_along_axis(x, np.zeros(3, np.int64), axis=0)


def test_read_only_arrays_refuse_setitem():
    n = np.arange(4.0)
    n.flags.writeable = False
    x = ac.asarray(n)
    with pytest.raises(ValueError, match="read-only"):
        x[0] = 1.0
    with pytest.raises(ValueError, match="read-only"):
        x[[0]] = 1.0
    same(x[[1, 2]], n[[1, 2]])


# ---------------------------------------------------------------- advanced indexing on every device
# Gathers and scatters of device views, repeated indices, take/put, masks, a large gather, the
# out-of-bounds errors (these were test_cuda_linalg_indexing.py's, now run on every device).

DEVICE_INDEX_DTYPES = ["bool", "uint8", "int16", "float32", "float64", "complex128"]


@pytest.mark.parametrize("dtype", DEVICE_INDEX_DTYPES)
def test_getitem_with_integer_arrays_matches_numpy(dtype, device):
    rng = np.random.default_rng(4)
    x = dev.random_array(rng, (6, 7, 8), dtype)
    d = dev.on_device(x, device)
    i = rng.integers(-6, 6, (3, 4))
    j = rng.integers(-8, 8, (4,))
    for key in [i, (slice(None), rng.integers(-7, 7, (5,))), (i, slice(None), j),
                (i[:, :1], slice(1, 5), j), (Ellipsis, j), (2, slice(None), j)]:
        dev.check_close(d[key], x[key])
    # transposed and sliced sources, and a reversed index array
    dev.check_close(dev.on_device(x, device, "transposed")[i], x[i])
    dev.check_close(dev.on_device(x, device, "sliced")[..., j[::-1]], x[..., j[::-1]])


@pytest.mark.parametrize("dtype", DEVICE_INDEX_DTYPES)
def test_setitem_with_integer_arrays_matches_numpy(dtype, device):
    rng = np.random.default_rng(5)
    x = dev.random_array(rng, (6, 7, 8), dtype)
    i = rng.integers(-6, 6, (3, 4))
    j = rng.integers(-8, 8, (4,))
    for key in [i, (i, slice(None), j), (Ellipsis, j), (slice(None), j[:2] % 7)]:
        want = x.copy()
        value = dev.random_array(rng, want[key].shape, dtype)
        want[key] = value
        d = dev.on_device(x, device)
        d[key] = dev.on_device(value, device)
        dev.check_close(d, want)


def test_setitem_with_repeated_indices_keeps_the_last_value(device):
    x = np.zeros(5, np.float64)
    idx = np.array([1, 3, 1, 1, -4, 3, 0], np.int64)
    values = np.arange(1, 8, dtype=np.float64)
    d = dev.on_device(x, device)
    d[idx] = dev.on_device(values, device)
    # NumPy assigns in order: each element keeps the value of its last occurrence (-4 is 1).
    want = x.copy()
    for k, v in zip(idx, values):
        want[k] = v
    dev.check_close(d, want)
    # Many repeats over few rows, with a block per row.
    rng = np.random.default_rng(6)
    rows = rng.integers(-4, 4, 5000)
    vals = rng.standard_normal((5000, 3))
    want = np.zeros((4, 3))
    for r, v in zip(rows, vals):
        want[r] = v
    d = dev.on_device(np.zeros((4, 3)), device)
    d[rows] = dev.on_device(vals, device)
    dev.check_close(d, want)


@pytest.mark.parametrize("dtype", ["int8", "float32", "complex64"])
def test_take_and_put_match_numpy(dtype, device):
    rng = np.random.default_rng(7)
    x = dev.random_array(rng, (5, 9), dtype)
    idx = rng.integers(-9, 9, (2, 3))
    dev.check_close(ac.take(dev.on_device(x, device), dev.on_device(idx, device), axis=1), np.take(x, idx, axis=1))
    flat = rng.integers(-45, 45, (7,))
    dev.check_close(ac.take(dev.on_device(x, device), dev.on_device(flat, device)), np.take(x, flat))
    want = x.copy()
    values = dev.random_array(rng, (7,), dtype)
    np.put(want, flat, values)
    d = dev.on_device(x, device)
    ac.put(d, dev.on_device(flat, device), dev.on_device(values, device))
    dev.check_close(d, want)


def test_boolean_masks_match_numpy(device):
    rng = np.random.default_rng(8)
    x = rng.standard_normal((6, 5)).astype(np.float32)
    mask = x > 0
    d = dev.on_device(x, device)
    dev.check_close(d[dev.on_device(mask, device)], x[mask])
    dev.check_close(d[dev.on_device(mask[:, 0], device)], x[mask[:, 0]])
    want = x.copy()
    want[mask] = np.arange(mask.sum(), dtype=np.float32)
    d[dev.on_device(mask, device)] = dev.on_device(np.arange(mask.sum(), dtype=np.float32), device)
    dev.check_close(d, want)


@pytest.mark.parametrize("key", [
    (slice(None), [0, 1], Ellipsis, [0, 1]),   # the ellipsis stands for no axis, yet separates
    (slice(None), [0, 1], [0, 1], Ellipsis),   # adjacent: the indexed axis stays in place
    (slice(None), [0, 1], Ellipsis, 0),        # an integer counts as an index array
    (slice(None), 0, Ellipsis, [0, 1]),
    (Ellipsis, [0, 1], [2, 0]),
    ([1, 0], Ellipsis, [2, 3]),
])
def test_an_ellipsis_between_index_arrays_moves_their_axis_first_as_numpy(device, key):
    x = np.arange(5 * 3 * 4, dtype=np.float32).reshape(5, 3, 4)
    k = tuple(np.array(i) if isinstance(i, list) else i for i in key)
    dk = tuple(dev.on_device(i, device) if isinstance(i, np.ndarray) else i for i in k)
    d = dev.on_device(x, device)
    dev.check_close(d[dk], x[k])
    want = x.copy()
    want[k] = -np.arange(x[k].size, dtype=np.float32).reshape(x[k].shape)
    d[dk] = dev.on_device(want[k], device)
    dev.check_close(d, want)
    # hypothesis found it: a boolean mask and a 0-d boolean on either side of an empty ellipsis
    z = np.zeros((0, 1, 0), bool)
    zk = (slice(-1, None, -2), np.array([True]), Ellipsis, np.True_, slice(0, -1))
    got = dev.on_device(z, device)[(zk[0], dev.on_device(zk[1], device), Ellipsis, zk[3], zk[4])]
    assert got.shape == z[zk].shape == (1, 0, 0)


@pytest.mark.parametrize("xs,ks", [((1,), (0,)), ((3,), (0,)), ((2, 3), (0, 3)), ((2, 3), (2, 0)),
                                   ((1, 2), (0,)), ((2, 3), (0,)), ((2, 0), (2, 0)), ((2, 3, 4), (0, 3))])
def test_empty_boolean_masks_match_any_axis_as_numpys(device, xs, ks):
    x = np.arange(np.prod(xs), dtype=np.float32).reshape(xs)
    key = np.zeros(ks, bool)
    d = dev.on_device(x, device)
    dev.check_close(d[dev.on_device(key, device)], x[key])
    d[dev.on_device(key, device)] = 5.0  # selects nothing
    dev.check_close(d, x)


@pytest.mark.parametrize("xs,ks", [((3,), (2,)), ((0,), (1,)), ((2, 3), (0, 2)), ((2, 3), (3, 0))])
def test_mismatched_boolean_masks_raise_as_numpys(device, xs, ks):
    x = np.ones(xs, np.float32)
    with pytest.raises(IndexError) as theirs:
        x[np.zeros(ks, bool)]
    axis = str(theirs.value).split("along axis ")[1].split(";")[0]
    with pytest.raises(IndexError, match=f"boolean index did not match indexed array along axis {axis};"):
        dev.on_device(x, device)[dev.on_device(np.zeros(ks, bool), device)]


def test_large_gather_matches_numpy(device):
    rng = np.random.default_rng(9)
    x = rng.standard_normal(1 << 20).astype(np.float32)
    idx = rng.integers(-(1 << 20), 1 << 20, 3_000_000)
    dev.check_close(dev.on_device(x, device)[dev.on_device(idx, device)], x[idx])


def test_out_of_bounds_indices_raise_index_error_naming_the_first(device):
    x = dev.on_device(np.arange(10.0).reshape(2, 5), device)
    with pytest.raises(IndexError, match=r"\[getitem\] index 7 is out of bounds for axis 1 with size 5"):
        x[:, np.array([0, 7, -9, 1])]
    with pytest.raises(IndexError, match=r"\[getitem\] index -3 is out of bounds for axis 0 with size 2"):
        x[np.array([[1, -3], [5, 0]])]
    with pytest.raises(IndexError, match=r"\[take\] index 12 is out of bounds"):
        ac.take(x, dev.on_device(np.array([3, 12, 40]), device))
    # A bad index in a setitem writes nothing.
    before = ac.asnumpy(x).copy()
    with pytest.raises(IndexError, match=r"\[setitem\] index 5 is out of bounds for axis 1 with size 5"):
        x[:, np.array([0, 1, 5])] = dev.on_device(np.full((2, 3), -1.0), device)
    np.testing.assert_array_equal(ac.asnumpy(x), before)
    # An empty broadcast of index arrays visits no index: NumPy (2.4) checks none of them, but
    # an integer beside them it checks (hypothesis found x[mask, mask, [-1]] raising).
    assert x[np.array([9])[:0:1], np.array([9])].shape == (0,)
    with pytest.raises(IndexError, match="index 9 is out of bounds"):
        x[np.array([1])[:0], 9]


@pytest.mark.parametrize("rows", [1, 7, 32766, 32767])  # 2 * rows + 3 indices: 65,535 and 65,537
def test_single_index_array_and_mask_over_axis_0_match_numpy(device, rows):
    # x[idx] and x[mask] have a planning shortcut (one index over axis 0), and small gathers of
    # contiguous rows a copy loop of their own: both sides of each size limit, rows that are
    # contiguous and rows that are not, reversed and strided index views, every item size.
    rng = np.random.default_rng(rows)
    for dtype in ["bool", "int16", "float32", "complex128"]:
        for shape in [(rows,), (rows, 3), (rows, 2, 2)]:
            x = dev.random_array(rng, shape, dtype)
            i = rng.integers(-rows, rows, 2 * rows + 3)
            mask = rng.random(rows) < 0.5
            for layout in ["contiguous", "sliced", "reversed"]:
                d = dev.on_device(x, device, layout)
                dev.check_close(d[dev.on_device(i, device)], x[i])
                dev.check_close(d[dev.on_device(i, device)[::-3]], x[i[::-3]])
                small = (i % min(rows, 256)).astype(np.uint8)
                dev.check_close(d[dev.on_device(small, device)], x[small])
                dev.check_close(d[dev.on_device(mask, device)], x[mask])
    x = dev.on_device(np.arange(rows, dtype=np.float64), device)
    with pytest.raises(IndexError, match=rf"\[getitem\] index {rows} is out of bounds for axis 0 with size {rows}"):
        x[dev.on_device(np.array([0, rows, -rows - 1]), device)]
    with pytest.raises(IndexError, match="boolean index did not match"):
        x[dev.on_device(np.ones(rows + 1, bool), device)]


def test_single_int_slice_and_none_keys_match_numpy_over_every_bound(device):
    """x[i], x[a:b:c] and x[None] (made directly, without the general index plan) against NumPy
    for every start, stop and step around and past the axis, huge and negative ones included,
    on contiguous, offset, strided and reversed views, 1-d and 2-d; keys NumPy refuses raise
    the same error types."""
    huge = [2**62, -(2**62), 2**70, -(2**70)]
    bounds = [None, 0, 1, 2, 4, 5, 6, -1, -2, -5, -6, -7] + huge
    steps = [None, 1, 2, 3, -1, -2, -4, 0, 2**63, -(2**63)]
    keys = list(range(-7, 7)) + huge + [None, np.int64(2), np.uint8(1), True, 1.0]
    keys += [slice(a, b, c) for a in bounds for b in bounds for c in steps]
    keys += [slice(np.int32(1), np.int64(-1)), slice(1.0, 3)]
    base = np.arange(60, dtype=np.float32).reshape(12, 5)
    x_base = ac.asarray(base, device=device)
    # Views with offsets, steps and reversed strides, made alike by NumPy and by accel.
    view_keys = [(slice(None, 5), 0), (slice(2, 7), 1), (slice(None, None, 2), 3),
                 (slice(None, None, -2), 2), slice(None, 5), (slice(1, 6), slice(None, None, -1))]
    for vk in view_keys:
        nv, x = base[vk], x_base[vk]
        if nv.ndim == 1:
            nv, x = nv[:5], x[:5]
        for k in keys:
            try:
                want = nv[k]
            except (IndexError, ValueError, TypeError) as e:
                with pytest.raises(type(e)):
                    x[k]
                continue
            got = x[k]
            assert got.shape == want.shape, (vk, k, got.shape, want.shape)
            np.testing.assert_array_equal(ac.asnumpy(got), want, err_msg=f"{vk} {k}")


def test_basic_index_tuples_are_views_laid_out_as_numpys(device):
    # Tuples of ints, slices, None and one Ellipsis take the bindings' one-pass view
    # (basic_tuple_getitem); their views must be NumPy's: values, shape, strides, memory.
    rng = np.random.default_rng(11)
    n = np.arange(3 * 4 * 5, dtype=np.float64).reshape(3, 4, 5)
    bases = {"C": n, "T": n.transpose(2, 0, 1), "strided": n[::-1, ::2]}
    entries = [0, 1, -1, 2, slice(None), slice(1, None), slice(None, None, -2), slice(-2, 0, -1),
               slice(5, 9), slice(None, None, 3), None, Ellipsis]
    for name, base in bases.items():
        x = ac.asarray(np.ascontiguousarray(n), device=device)
        x = x.transpose(2, 0, 1) if name == "T" else x[::-1, ::2] if name == "strided" else x
        for _ in range(300):
            key = tuple(entries[i] for i in rng.integers(0, len(entries), rng.integers(0, 5)))
            want, err = numpy_or_error(lambda: base[key])
            if err is not None:
                with pytest.raises(err):
                    x[key]
                continue
            got = x[key]
            if not isinstance(want, np.ndarray):  # NumPy's scalar: accel's 0-d view
                want = base[key + (Ellipsis,)] if Ellipsis not in key else np.asarray(want)
            assert got.shape == want.shape, (name, key)
            assert ac.shares_memory(got, x) or got.size == 0, (name, key)
            assert tuple(got.strides) == tuple(want.strides) or got.size <= 1, \
                (name, key, got.strides, want.strides)
            np.testing.assert_array_equal(ac.asnumpy(got.to_device("cpu")), want)
