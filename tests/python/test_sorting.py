"""sort, argsort, searchsorted, the unique_* family, unique, isin and diff against NumPy: random
shapes, dtypes, views and axes; NaN, inf and -0.0 ordering; stability; descending; empty and
0-d inputs; errors."""

import contextlib

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import accel as ac
import device_arrays as dev

DTYPES = dev.WITHOUT_FLOAT16  # float16: test_float16.py
SETTINGS = settings(max_examples=60, deadline=None)
SPECIALS = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0]


def make(shape, dtype, rng):
    """Few distinct values (ties matter for stability), with special values for floats."""
    if dtype == "bool":
        return np.asarray(rng.random(shape) < 0.5)
    if dtype.startswith(("int", "uint")):
        info = np.iinfo(dtype)
        return np.asarray(rng.integers(max(info.min, -4), min(info.max, 4), size=shape,
                                       endpoint=True), dtype=dtype)
    x = rng.choice(np.asarray(SPECIALS + [2.5, -3.0]), size=shape)
    if dtype.startswith("complex"):
        real, x = x, np.empty(shape, dtype=dtype)
        x.real, x.imag = real, rng.choice(np.asarray(SPECIALS), size=shape)
    return np.asarray(x, dtype=dtype)


@st.composite
def array_and_axis(draw, dtypes=DTYPES):
    ndim = draw(st.integers(1, 3))
    shape = tuple(draw(st.lists(st.integers(0, 7), min_size=ndim, max_size=ndim)))
    dtype = draw(st.sampled_from(dtypes))
    x = make(shape, dtype, np.random.default_rng(draw(st.integers(0, 2**32 - 1))))
    view = draw(st.sampled_from(["plain", "transpose", "reverse"]))
    if view == "transpose":
        x = x.T
    elif view == "reverse":
        x = x[::-1]
    return x, draw(st.integers(-ndim, ndim - 1))


def same_bits(got, want):
    """Equal values, NaNs in the same places and the same sign of zero (the order of -0.0 and
    0.0 shows whether a sort was stable)."""
    got = ac.asnumpy(got)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape, want.shape)
    np.testing.assert_array_equal(got, want)
    if want.dtype.kind in "fc":
        for part in (np.real, np.imag):
            np.testing.assert_array_equal(np.signbit(part(got)), np.signbit(part(want)))


def np_sort(x, axis, descending):
    if not descending:
        return np.sort(x, axis=axis, kind="stable")
    return np.flip(np.sort(np.flip(x, axis), axis=axis, kind="stable"), axis)


def np_argsort(x, axis, descending):
    if not descending:
        return np.argsort(x, axis=axis, kind="stable")
    n = x.shape[axis]
    return n - 1 - np.flip(np.argsort(np.flip(x, axis), axis=axis, kind="stable"), axis)


@contextlib.contextmanager
def pool_threads(n):
    """accel's pool at n threads for the block, then back to what it was."""
    old = ac.num_threads()
    ac.set_num_threads(n)
    try:
        yield
    finally:
        ac.set_num_threads(old)


def sorts_like_numpy(a, x, axis=0):
    """sort and argsort of a, both directions, bit for bit NumPy's stable ones of x."""
    for descending in (False, True):
        same_bits(ac.sort(a, axis=axis, descending=descending), np_sort(x, axis, descending))
        same_bits(ac.argsort(a, axis=axis, descending=descending), np_argsort(x, axis, descending))


RADIX_DTYPES = [d for d in dev.DTYPES if d not in dev.COMPLEX]


def full_range(shape, dtype, rng, specials):
    """Every bit pattern equally likely (each radix pass has work), as values; for reals with
    `specials` False, no NaN and no -0.0 (the keys alone give the values back)."""
    dt = np.dtype(dtype)
    if dt == np.bool_:
        return rng.random(shape) < 0.5
    x = rng.integers(0, 256, size=tuple(shape) + (dt.itemsize,), dtype=np.uint8).view(dt)[..., 0]
    if dt.kind == "f":
        if specials:
            x[rng.random(shape) < 0.05] = -0.0
            x[rng.random(shape) < 0.05] = np.inf
        else:
            x = np.where(np.isnan(x) | ((x == 0) & np.signbit(x)), dt.type(1.5), x)
    return x


@pytest.mark.parametrize("dtype", RADIX_DTYPES)
@pytest.mark.parametrize("specials", [False, True])
def test_radix_sorted_rows_match_numpys_stable_order(dtype, specials):
    # Rows from 1023 (a comparison sort) to 5000 (radix sorts), one long row split across the
    # pool, a strided view; full-range keys, then NaN, inf and -0.0 among them.
    rng = np.random.default_rng(7)
    for shape, axis in [((3, 1023), 1), ((2, 1024), 1), ((5000, 3), 0), ((1, 200003), 1)]:
        x = full_range(shape, dtype, rng, specials)
        for view in (x, x[..., ::-1]):
            for descending in (False, True):
                a = ac.asarray(view)
                same_bits(ac.sort(a, axis=axis, descending=descending), np_sort(view, axis, descending))
                same_bits(ac.argsort(a, axis=axis, descending=descending),
                          np_argsort(view, axis, descending))


@pytest.mark.parametrize("dtype", RADIX_DTYPES)
def test_rows_side_by_side_sort_in_tiles_as_numpys_stable_order(dtype):
    # The sorted axis before a contiguous one: rows are read and written 16 at a time across
    # (sort_row_tiles), including a last partial tile, an outer axis, in-place sorts, and views
    # whose rows are not side by side (the row-at-a-time path).
    rng = np.random.default_rng(11)
    for shape, axis in [((300, 37), 0), ((2, 257, 20), 1), ((256, 3, 40), 0), ((300, 16), 0)]:
        x = full_range(shape, dtype, rng, True)
        for view in (x, x[..., ::2], x[::-1]):
            for descending in (False, True):
                a = ac.asarray(view)
                same_bits(ac.sort(a, axis=axis, descending=descending),
                          np_sort(view, axis, descending))
                same_bits(ac.argsort(a, axis=axis, descending=descending),
                          np_argsort(view, axis, descending))
        b = ac.asarray(x, copy=True)
        b.sort(axis=axis)
        same_bits(b, np_sort(x, axis, False))


@pytest.mark.parametrize("specials", [False, True])
def test_bfloat16_rows_sort_as_their_float32_values(specials):
    # bfloat16's keys have 8 exponent bits in 16 (not float16's 5): every bit pattern, sorted as
    # the same values in float32 (exact, NaN and -0.0 kept) are by NumPy.
    rng = np.random.default_rng(11)
    bits = rng.integers(0, 2**16, size=(2, 3000), dtype=np.uint16)
    f = (bits.astype(np.uint32) << 16).view(np.float32)
    if not specials:
        f = np.where(np.isnan(f) | ((f == 0) & np.signbit(f)), np.float32(1.5), f)
    a = ac.asarray(f).astype(ac.bfloat16)
    for descending in (False, True):
        same_bits(ac.astype(ac.sort(a, axis=1, descending=descending), ac.float32),
                  np_sort(f, 1, descending))
        same_bits(ac.argsort(a, axis=1, descending=descending), np_argsort(f, 1, descending))


@SETTINGS
@given(array_and_axis(), st.booleans())
def test_sort_and_argsort_match_numpys_stable_order(case, descending):
    x, axis = case
    a = ac.asarray(x)
    same_bits(ac.sort(a, axis=axis, descending=descending), np_sort(x, axis, descending))
    same_bits(ac.argsort(a, axis=axis, descending=descending), np_argsort(x, axis, descending))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "uint8", "complex64"])
@pytest.mark.parametrize("threads", [1, 2])
def test_long_rows_sort_in_parallel_chunks_and_stay_stable(dtype, threads):
    # Rows long enough to be cut into chunks and merged; few distinct values, so ties and the
    # merge's tie rule decide the indices.
    x = make((3, 70001), dtype, np.random.default_rng(1))
    old = ac.num_threads()
    try:
        ac.set_num_threads(threads)
        for a in (x[0], x, x.T):
            for descending in (False, True):
                same_bits(ac.sort(ac.asarray(a), axis=0, descending=descending),
                          np_sort(a, 0, descending))
                same_bits(ac.argsort(ac.asarray(a), axis=0, descending=descending),
                          np_argsort(a, 0, descending))
    finally:
        ac.set_num_threads(old)


def skewed_rows(dtype, rng, n):
    """Long rows whose keys crowd into a few values of their top bytes (the radix passes of a
    single row split across the pool): values in [0, 1) (half share one top byte), a small
    integer range, one value repeated with a few others between, and a row where every key but
    one is the same."""
    dt = np.dtype(dtype)
    if dt.kind == "f":
        unit = rng.random(n)
    else:
        info = np.iinfo(dt)
        unit = rng.integers(max(info.min, -10**6), min(info.max, 10**6), size=n)
    rows = [unit.astype(dt)]
    crowded = np.full(n, unit[0], dtype=dt)
    crowded[rng.random(n) < 0.01] = unit[1]
    rows.append(crowded)
    single = np.full(n, unit[2], dtype=dt)
    single[n // 2] = unit[3]
    rows.append(single)
    return rows


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64", "uint16", "int8"])
@pytest.mark.parametrize("threads", [1, 2])
def test_long_skewed_rows_sort_like_numpys_stable_order(dtype, threads):
    rng = np.random.default_rng(5)
    with pool_threads(threads):
        for x in skewed_rows(dtype, rng, 300_001):
            sorts_like_numpy(ac.asarray(x), x)


def rows_by_active_bytes(dtype, rng, n):
    """Long rows whose keys differ in no byte, in one, in two, and in every byte: the radix sort
    skips a pass whose byte is the same in every key, so these run zero, one, two and all of
    its passes (and of its position buffers)."""
    dt = np.dtype(dtype)
    bits = np.dtype(f"u{dt.itemsize}")
    base = np.asarray(rng.integers(0, 2**(8 * dt.itemsize - 2)), dtype=bits)
    rows = []
    for active in (0, 1, 2, dt.itemsize):
        mask = (1 << (8 * active)) - 1
        low = rng.integers(0, 2**62, size=n).astype(bits) & bits.type(mask)
        rows.append(((base & ~bits.type(mask)) | low).view(dt))
    return rows


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "uint64", "int16"])
@pytest.mark.parametrize("threads", [1, 3, 5])
def test_long_rows_with_few_varying_bytes_split_across_any_thread_count(dtype, threads):
    # A row's passes split it into one part per thread (3 and 5 do not divide its length);
    # float rows also hold NaNs of other payloads and -0.0, whose keys do not give the value
    # back, so the sort carries positions and gathers.
    rng = np.random.default_rng(9)
    with pool_threads(threads):
        for x in rows_by_active_bytes(dtype, rng, 200_003):
            variants = [x]
            if x.dtype.kind == "f":
                y = x.copy()
                y[rng.random(x.size) < 0.01] = np.nan
                y[rng.random(x.size) < 0.01] = -0.0
                y[rng.random(x.size) < 0.01] = 0.0
                variants.append(y)
            for v in variants:
                sorts_like_numpy(ac.asarray(v), v)


@pytest.mark.parametrize("dtype", DTYPES + ["float16"])
def test_sort_argsort_searchsorted_and_unique_on_each_device(device, dtype):
    # On CUDA these run the radix sort kernels: one long row, many short rows, rows of one and
    # none, a transposed and a reversed view, both directions; searchsorted on both sides.
    rng = np.random.default_rng(7)
    x = make((40, 37), dtype, rng)
    cases = [(make((5001,), dtype, rng), 0), (x, 1), (x.T, 0), (x[::-2], 0),
             (make((3, 1), dtype, rng), 1), (make((4, 0), dtype, rng), 1)]
    for a, axis in cases:
        for descending in (False, True):
            same_bits(ac.sort(ac.asarray(a, device=device), axis=axis, descending=descending),
                      np_sort(a, axis, descending))
            same_bits(ac.argsort(ac.asarray(a, device=device), axis=axis, descending=descending),
                      np_argsort(a, axis, descending))
    s = np.sort(make((300,), dtype, rng), kind="stable")
    v = make((6, 7), dtype, rng)
    for side in ("left", "right"):
        same_bits(ac.searchsorted(ac.asarray(s, device=device), ac.asarray(v, device=device),
                                  side=side), np.searchsorted(s, v, side=side))
    # (the sign of a zero that unique keeps depends on NumPy's unstable sort: values only)
    np.testing.assert_array_equal(ac.asnumpy(ac.unique_values(ac.asarray(x, device=device))),
                                  np.unique(x, equal_nan=False))


def test_numpy_signatures_axis_none_kind_and_in_place_method():
    x = np.asarray([[3.0, np.nan, -1.0], [0.0, -0.0, 2.0]])
    same_bits(ac.sort(ac.asarray(x), axis=None), np.sort(x, axis=None, kind="stable"))
    same_bits(ac.argsort(ac.asarray(x), axis=None, kind="quicksort"),
              np.argsort(x, axis=None, kind="stable"))
    a = ac.asarray(x.copy())
    assert a.sort(axis=0) is None
    same_bits(a, np.sort(x, axis=0, kind="stable"))
    same_bits(ac.asarray(x).argsort(), np.argsort(x, kind="stable"))
    same_bits(ac.sort(ac.asarray(x), stable=False), np.sort(x, kind="stable"))


def test_sort_reads_pending_values():
    x = np.asarray([5, 1, 4, 1, 3], dtype=np.int16)
    a = ac.asarray(x) * 2 - 1
    same_bits(ac.sort(a), np.sort(x * 2 - 1))


def test_sort_errors_name_the_problem():
    with pytest.raises(ac.AxisError, match=r"\[sort\]"):
        ac.sort(ac.asarray(1.0))
    with pytest.raises(ac.AxisError, match=r"\[argsort\]"):
        ac.argsort(ac.asarray([1, 2]), axis=1)
    with pytest.raises(ValueError, match="kind"):
        ac.sort(ac.asarray([1, 2]), kind="bogo")
    with pytest.raises(TypeError, match="order"):
        ac.sort(ac.asarray([1, 2]), order="f")


@st.composite
def searchsorted_case(draw):
    dtype = draw(st.sampled_from(DTYPES))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    a = np.sort(make((draw(st.integers(0, 12)),), dtype, rng), kind="stable")
    vshape = tuple(draw(st.lists(st.integers(0, 4), max_size=2)))
    return a, make(vshape, dtype, rng)


@SETTINGS
@given(searchsorted_case(), st.sampled_from(["left", "right"]), st.booleans())
def test_searchsorted_matches_numpy(case, side, use_sorter):
    a, v = case
    if use_sorter:
        perm = np.random.default_rng(0).permutation(a.shape[0])
        shuffled = a[perm]
        sorter = np.argsort(shuffled, kind="stable")
        want = np.searchsorted(shuffled, v, side=side, sorter=sorter)
        got = ac.searchsorted(ac.asarray(shuffled), ac.asarray(v), side=side,
                              sorter=ac.asarray(sorter))
    else:
        want = np.searchsorted(a, v, side=side)
        got = ac.asarray(a).searchsorted(ac.asarray(v), side=side)
    same_bits(got, want.astype(np.int64))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int16", "uint8", "complex64", "bool"])
def test_searchsorted_of_many_values(device, dtype):
    # The CPU searches 8 values at a time: every remainder of 8, sorted arrays of every small
    # length (the same steps for all 8), NaNs, infinities and ties on both sides, and values
    # that are strided or many (every thread).
    rng = np.random.default_rng(8)
    for n in (0, 1, 2, 3, 8, 51, 300):
        s = np.sort(make((n,), dtype, rng), kind="stable")
        for count in (7, 8, 9, 17, 10_001):
            v = make((count,), dtype, rng)
            for side in ("left", "right"):
                same_bits(ac.searchsorted(ac.asarray(s, device=device), ac.asarray(v, device=device),
                                          side=side), np.searchsorted(s, v, side=side))
        v2 = make((9, 6), dtype, rng)
        same_bits(ac.searchsorted(ac.asarray(s, device=device), ac.asarray(v2, device=device).T,
                                  side="right"), np.searchsorted(s, v2.T, side="right"))


def test_searchsorted_promotes_and_takes_scalars():
    a = np.asarray([1, 2, 2, 5], dtype=np.int8)
    for v in (2, 2.5, 300, -1.0):
        same_bits(ac.searchsorted(ac.asarray(a), v), np.asarray(np.searchsorted(a, v)))
    same_bits(ac.searchsorted(ac.asarray(a), ac.asarray([1.5, 2.0])),
              np.searchsorted(a, np.asarray([1.5, 2.0])))


def test_searchsorted_errors():
    with pytest.raises(ValueError, match="1-d"):
        ac.searchsorted(ac.asarray([[1, 2]]), 1)
    with pytest.raises(ValueError, match="side"):
        ac.searchsorted(ac.asarray([1, 2]), 1, side="middle")
    with pytest.raises(ValueError, match="sorter"):
        ac.searchsorted(ac.asarray([1, 2]), 1, sorter=ac.asarray([0]))


@st.composite
def any_array(draw):
    ndim = draw(st.integers(0, 3))
    shape = tuple(draw(st.lists(st.integers(0, 6), min_size=ndim, max_size=ndim)))
    dtype = draw(st.sampled_from(DTYPES))
    return make(shape, dtype, np.random.default_rng(draw(st.integers(0, 2**32 - 1))))


def equal_values(got, want):
    got = ac.asnumpy(got)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape, want.shape)
    np.testing.assert_array_equal(got, want)


@SETTINGS
@given(any_array())
def test_unique_family_matches_numpy(x):
    # NumPy 2's unique_* keep NaNs distinct (equal_nan=False) and return sorted values.
    values, index, inverse, counts = np.unique(x, return_index=True, return_inverse=True,
                                               return_counts=True, equal_nan=False)
    a = ac.asarray(x)
    equal_values(ac.unique_values(a), values)
    got = ac.unique_all(a)
    equal_values(got.values, values)
    equal_values(got.indices, index.astype(np.int64))
    equal_values(got.inverse_indices, inverse.reshape(x.shape).astype(np.int64))
    equal_values(got.counts, counts.astype(np.int64))
    got = ac.unique_counts(a)
    equal_values(got.counts, counts.astype(np.int64))
    got = ac.unique_inverse(a)
    equal_values(got.inverse_indices, inverse.reshape(x.shape).astype(np.int64))
    # NumPy's unique: NaNs as one value by default.
    for equal_nan in (True, False):
        want = np.unique(x, return_counts=True, equal_nan=equal_nan)
        got = ac.unique(a, return_counts=True, equal_nan=equal_nan)
        equal_values(got[0], want[0])
        equal_values(got[1], want[1].astype(np.int64))


def test_unique_index_is_the_first_occurrence_of_each_value():
    x = np.asarray([3, 1, 3, 2, 1, 3], dtype=np.int32)
    got = ac.unique_all(ac.asarray(x))
    equal_values(got.indices, np.asarray([1, 3, 0], dtype=np.int64))
    with pytest.raises(NotImplementedError, match="axis"):
        ac.unique(ac.asarray(x), axis=0)


@SETTINGS
@given(any_array(), any_array(), st.booleans())
def test_isin_matches_numpy(x, t, invert):
    got = ac.isin(ac.asarray(x), ac.asarray(t), invert=invert)
    equal_values(got, np.isin(x, t, invert=invert))


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int32", "int64", "uint64"])
@pytest.mark.parametrize("kind", [None, "sort", "table"])
def test_isin_by_table_and_by_sort_match_numpy(dtype, kind):
    # Small ranges take the table; wide ones (NumPy's rule: range above 6x the sizes) the sort;
    # the extremes of each dtype, on both sides of the test elements' range.
    rng = np.random.default_rng(3)
    info = np.iinfo(dtype) if dtype != "bool" else None
    for spread in (10, 10**6):
        if dtype == "bool":
            x, t = rng.random(50) < 0.5, np.asarray([True])
        else:
            base = int(info.max) - spread if info.max - info.min > spread else int(info.min)
            x = np.concatenate([rng.integers(base, base + min(spread, int(info.max) - base),
                                             size=200, endpoint=True, dtype=dtype),
                                np.asarray([info.min, info.max], dtype=dtype)])
            t = x[rng.integers(0, x.size, 7)]
        if kind == "table" and dtype != "bool" and spread == 10**6 and info.bits >= 32:
            continue  # a table of a million flags: fine, but not the point of this case
        for invert in (False, True):
            # (NumPy's table refuses spans past its dtype's maximum; accel's does not.)
            want = np.isin(x, t, invert=invert)
            got = ac.isin(ac.asarray(x), ac.asarray(t), invert=invert, kind=kind)
            np.testing.assert_array_equal(ac.asnumpy(got), want)


def test_isin_table_refuses_reals():
    with pytest.raises(ValueError, match="table"):
        ac.isin(ac.asarray([1.5]), ac.asarray([1.5]), kind="table")


def test_isin_scalars_and_lists():
    equal_values(ac.isin(2, [1, 2, 3]), np.isin(2, [1, 2, 3]))
    equal_values(ac.isin(ac.asarray([1.5, np.nan, 3.0]), [3, np.nan]),
                 np.isin([1.5, np.nan, 3.0], [3, np.nan]))


@st.composite
def diff_case(draw):
    ndim = draw(st.integers(1, 3))
    shape = tuple(draw(st.lists(st.integers(0, 5), min_size=ndim, max_size=ndim)))
    dtype = draw(st.sampled_from(DTYPES))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    x = make(shape, dtype, rng)
    axis = draw(st.integers(-ndim, ndim - 1))
    n = draw(st.integers(0, 3))
    edge_shape = list(shape)
    edge_shape[axis] = draw(st.integers(1, 2))

    def edge():
        kind = draw(st.sampled_from(["none", "scalar", "array"]))
        if kind == "none":
            return None
        if kind == "scalar":
            return make((), dtype, rng)[()]
        return make(tuple(edge_shape), dtype, rng)

    return x, n, axis, edge(), edge()


@SETTINGS
@given(diff_case())
def test_diff_matches_numpy(case):
    x, n, axis, prepend, append = case
    kw = {}
    if prepend is not None:
        kw["prepend"] = prepend
    if append is not None:
        kw["append"] = append
    with np.errstate(all="ignore"):
        want = np.diff(x, n=n, axis=axis, **kw)
    got = ac.diff(ac.asarray(x), n=n, axis=axis,
                  **{k: ac.asarray(v) if isinstance(v, np.ndarray) else v for k, v in kw.items()})
    equal_values(got, want)


def test_diff_errors():
    with pytest.raises(ValueError, match="at least one dimensional"):
        ac.diff(ac.asarray(1.0))
    with pytest.raises(ValueError, match="non-negative"):
        ac.diff(ac.asarray([1, 2]), n=-1)
    with pytest.raises(ac.AxisError, match="axis"):
        ac.diff(ac.asarray([1, 2]), axis=1)


def test_from_dlpack_shares_memory_and_devices_is_a_tuple():
    x = np.arange(6, dtype=np.float32)
    a = ac.from_dlpack(x)
    x[2] = 42.0
    assert ac.asnumpy(a)[2] == 42.0
    b = ac.from_dlpack(x, copy=True)
    x[3] = -1.0
    assert ac.asnumpy(b)[3] == 3.0
    with pytest.raises(AttributeError, match="__dlpack__"):  # the standard's error
        ac.from_dlpack([1, 2])
    devices = ac.__array_namespace_info__().devices()
    assert isinstance(devices, tuple) and ac.Device("cpu") in devices
