"""NumPy's ndarray attributes and methods on accel arrays, NumPy the oracle, on every device: the
parts x.real and x.imag as writable views, x.view(dtype), flags, flat, tolist/tobytes, fill, the
methods that forward to functions (clip, round, conj, dot, diagonal, trace, choose, partition),
`in`, divmod and pickling."""

import pickle

import numpy as np
import pytest

import accel as ac

COMPLEX = ["complex64", "complex128"]
REAL = ["float16", "float32", "float64", "int8", "uint16", "int32", "int64", "bool"]

# The same view of a 3-d array in NumPy and accel: C order, transposed, sliced, reversed.
VIEWS = {
    "C": lambda a: a,
    "T": lambda a: a.T,
    "sliced": lambda a: a[1:, ::2],
    "reversed T": lambda a: a[::-1, :, 1:].T,
    "0-d": lambda a: a[1, 2, 3],
    "empty": lambda a: a[:0],
}


def complex_values(dtype, shape=(3, 4, 5), seed=0):
    rng = np.random.default_rng(seed)
    z = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    z.flat[:6] = [complex(-0.0, 0.0), complex(0.0, -0.0), complex(np.nan, 1), complex(1, np.inf),
                  complex(-np.inf, np.nan), complex(3e38, -3e38)]
    return z


def same(got, want):
    """Values, signs of zeros, dtype, shape and strides (in bytes) equal to NumPy's."""
    want = np.asarray(want)
    assert got.dtype == ac.asarray(want).dtype and got.shape == want.shape
    g = ac.asnumpy(got)
    np.testing.assert_array_equal(g, want)
    if want.dtype.kind in "fc":
        assert (np.signbit(np.real(g)) == np.signbit(np.real(want))).all()
        assert (np.signbit(np.imag(g)) == np.signbit(np.imag(want))).all()
    if want.size > 1:
        assert tuple(s for s, n in zip(got.strides, got.shape) if n > 1) == \
            tuple(s for s, n in zip(want.strides, want.shape) if n > 1)


@pytest.mark.parametrize("dtype", COMPLEX)
@pytest.mark.parametrize("view", VIEWS)
def test_parts_of_a_complex_array_are_views_as_numpys(dtype, view, device):
    z = complex_values(dtype)
    n = VIEWS[view](z.copy())
    a = VIEWS[view](ac.asarray(z, device=device))
    same(a.real, n.real)
    same(a.imag, n.imag)
    if n.size:  # an empty view shares no memory, in NumPy either
        assert ac.shares_memory(a.real, a) and ac.shares_memory(a.imag, a)


@pytest.mark.parametrize("dtype", COMPLEX)
@pytest.mark.parametrize("view", [v for v in VIEWS if v != "0-d"])
def test_writes_into_the_parts_reach_the_complex_array(dtype, view, device):
    z = complex_values(dtype, seed=1)
    nbase, abase = z.copy(), ac.asarray(z, device=device)
    n, a = VIEWS[view](nbase), VIEWS[view](abase)
    n.imag[...] = -0.0
    a.imag[...] = -0.0
    with np.errstate(over="ignore"):  # 3e38 * 2 in complex64, as accel: inf
        n.real *= 2
    a.real *= 2
    n.real[..., :1] = 7
    a.real[..., :1] = 7
    same(abase, nbase)
    n.real, n.imag = n.imag, 3  # assignment to the attributes, NumPy's x.real = v
    a.real, a.imag = a.imag, 3
    same(abase, nbase)


def test_a_part_written_after_a_lazy_read_keeps_the_old_value(device):
    """A pending value that read x is computed before a write through x.real changes x."""
    z = complex_values("complex128", shape=(100, 100))
    a = ac.asarray(z, device=device, copy=True)  # not NumPy's memory: z stays the oracle
    before = ac.abs(a) + 1  # large enough to stay pending (recorded, fused later)
    assert before.is_pending
    a.real[...] = 0
    a.imag *= 2
    np.testing.assert_allclose(ac.asnumpy(before), np.abs(z) + 1, rtol=1e-15)  # hypot's rounding
    z.real[...] = 0
    z.imag *= 2
    same(a, z)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("view", VIEWS)
def test_parts_of_a_real_array_as_numpys(dtype, view, device):
    """x.real is x itself (a view); x.imag is new read-only zeros, laid out as NumPy's."""
    x = np.arange(60).reshape(3, 4, 5).astype(dtype)
    n, a = VIEWS[view](x.copy()), VIEWS[view](ac.asarray(x, device=device))
    same(a.real, n.real)
    same(a.imag, n.imag)
    if n.size:
        assert ac.shares_memory(a.real, a) and not ac.shares_memory(a.imag, a)
    assert not a.imag.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        a.imag[...] = 1
    with pytest.raises(TypeError, match="no imaginary part"):
        a.imag = 1


VIEW_CASES = [
    ("int32", "float32", lambda a: a),
    ("float32", "uint32", lambda a: a.T),
    ("float64", "int8", lambda a: a),
    ("uint8", "int64", lambda a: a[1:, :, ::-1][:, :, ::-1]),
    ("complex64", "float32", lambda a: a[::2]),
    ("float32", "complex64", lambda a: a),
    ("int16", "uint16", lambda a: a[::-1, 1:]),
    ("int64", "int32", lambda a: a[:, 1:]),
]


@pytest.mark.parametrize("src,dst,make", VIEW_CASES)
def test_view_reads_the_memory_as_another_dtype(src, dst, make, device):
    x = np.arange(-40, 120).astype(src).reshape(4, 5, 8)
    n, a = make(x.copy()), make(ac.asarray(x, device=device))
    v = a.view(dst)
    same(v, n.view(dst))
    assert ac.shares_memory(v, a)
    v[...] = 0  # a write through the view is a write into x
    n.view(dst)[...] = 0
    same(a, n)
    same(a.view(), n.view())


def test_views_keep_bools_as_the_bytes_0_and_1(device):
    """Kernels read bools as the bytes 0 and 1: other memory is not viewed as bool, and bool
    memory viewed as numbers is read-only (a write of 255 would make a bool that adds as 255;
    fuzz seed 343). NumPy allows both; reading is unchanged."""
    b = ac.asarray([True, False, True], device=device)
    same(b.view(ac.int8), np.array([1, 0, 1], np.int8))
    with pytest.raises(ValueError, match="read-only"):
        b.view(ac.uint8)[0] = 255
    with pytest.raises(ValueError, match="bytes 0 and 1"):
        ac.asarray([0, 2], dtype=ac.int8, device=device).view(ac.bool)
    same(b.view(ac.bool), np.array([True, False, True]))


def test_views_of_empty_arrays(device):
    n = np.zeros((3, 0), np.int8)
    same(ac.asarray(n, device=device).view(ac.int16), n.view(np.int16))
    same(ac.asarray(n, device=device)[::2].view(ac.int16), n[::2].view(np.int16))
    with pytest.raises(ValueError, match="multiple of 2"):  # (0, 3): 3 bytes a row, as NumPy
        ac.asarray(n, device=device).T.view(ac.int16)


FIELD_CASES = [
    ("complex128", "float64", 8), ("complex64", "float32", 0), ("complex64", "float32", 4),
    ("int32", "int16", 2), ("int32", "uint8", 3), ("float64", "uint32", 4),
    ("uint64", "int64", 0), ("float32", "float16", 2), ("bool", "uint8", 0),
]


@pytest.mark.parametrize("src,dst,offset", FIELD_CASES)
@pytest.mark.parametrize("view", VIEWS)
def test_getfield_and_setfield_as_numpys(src, dst, offset, view, device):
    """x.getfield(dtype, offset) reads each item's bytes from offset as dtype, x's shape kept: a
    view whose writes reach x (but of bool memory: read-only, as x.view); setfield writes there."""
    rng = np.random.default_rng(3)
    x = rng.integers(0, 2, (3, 4, 5)).astype(src) if src == "bool" else \
        (rng.standard_normal((3, 4, 5, 2)) * 1e3).view(np.complex128)[..., 0].astype(src) \
        if src.startswith("complex") else (rng.standard_normal((3, 4, 5)) * 1e4).astype(src)
    n, a = VIEWS[view](x.copy()), VIEWS[view](ac.asarray(x, device=device))
    f = a.getfield(dst, offset)
    same(f, n.getfield(dst, offset))
    if src == "bool" or view == "0-d":  # (NumPy's x[1, 2, 3] is a scalar: nothing to write)
        return
    if n.size:
        assert ac.shares_memory(f, a)
    f[...] = 7
    n.getfield(dst, offset)[...] = 7
    same(a, n)
    a.setfield(3, dst, offset)
    n.setfield(3, dst, offset)
    same(a, n)


def test_getfield_refuses_what_it_cannot_describe(device):
    a = ac.asarray(np.arange(12, dtype=np.int32), device=device)
    with pytest.raises(ValueError, match="larger than the 4-byte items"):
        a.getfield(ac.int64)
    with pytest.raises(ValueError, match="offset <= 2"):
        a.getfield(ac.int16, 3)
    with pytest.raises(ValueError, match="offset <= 2"):
        a.getfield(ac.int16, -1)
    # NumPy reads unaligned fields; accel's kernels read whole items only.
    with pytest.raises(ValueError, match="whole item"):
        a.getfield(ac.int16, 1)
    with pytest.raises(ValueError, match="bytes 0 and 1"):
        a.getfield(ac.bool, 0)


def test_a_field_written_after_a_lazy_read_keeps_the_old_value(device):
    z = complex_values("complex128", shape=(100, 100))
    a = ac.asarray(z, device=device, copy=True)
    before = ac.abs(a) + 1
    assert before.is_pending
    a.setfield(0.5, ac.float64, 8)
    np.testing.assert_allclose(ac.asnumpy(before), np.abs(z) + 1, rtol=1e-15)
    z.setfield(0.5, np.float64, 8)
    same(a, z)


@pytest.mark.parametrize("make,match", [
    (lambda a: a[0, 0, 0], "0-d"),
    (lambda a: a.T, "contiguous"),
    (lambda a: a[..., :3], "multiple of 8"),
    (lambda a: a[..., 1:3], "whole item"),
])
def test_view_refuses_layouts_it_cannot_describe(make, match, device):
    """ValueError naming the layout: NumPy refuses the first three too; the last (a start between
    float64 items) NumPy allows unaligned, accel's kernels read whole items only."""
    a = make(ac.asarray(np.zeros((2, 3, 4), np.float32), device=device))
    with pytest.raises(ValueError, match=match):
        a.view(ac.float64)


@pytest.mark.parametrize("view", [v for v in VIEWS if v != "0-d"])  # NumPy's: a scalar
def test_flags_as_numpys(view, device):
    x = np.arange(60.0).reshape(3, 4, 5)
    n, a = VIEWS[view](x.copy()), VIEWS[view](ac.asarray(x, device=device))
    for key in ("C_CONTIGUOUS", "F_CONTIGUOUS", "WRITEABLE", "ALIGNED", "FNC", "FORC"):
        assert a.flags[key] == n.flags[key], key
    assert a.flags.c_contiguous == n.flags.c_contiguous
    assert a.flags.f_contiguous == n.flags.f_contiguous
    b = ac.broadcast_to(a, (2,) + a.shape)
    assert not b.flags.writeable and not np.broadcast_to(n, (2,) + n.shape).flags.writeable
    with pytest.raises(KeyError, match="unknown flag"):
        a.flags["OWNDATA?"]
    with pytest.raises(AttributeError, match="cannot be set"):
        a.flags.c_contiguous = False  # NumPy's: not writable either
    with pytest.raises(AttributeError, match="cannot be set"):
        a.flags["FORC"] = True
    lines = repr(a.flags).splitlines()  # NumPy's lines for the flags accel has
    assert len(lines) == 4 and set(lines) <= set(repr(n.flags).splitlines())


WRITES = {
    "setitem": lambda a: a.__setitem__(0, 7),
    "fill": lambda a: a.fill(7),
    "in place": lambda a: a.__iadd__(1),
    "out=": lambda a: ac.add(a, 1, out=a) if isinstance(a, ac.ndarray) else np.add(a, 1, out=a),
    "flat": lambda a: a.flat.__setitem__(0, 7),
    "partition": lambda a: a.partition(1),
}


@pytest.mark.parametrize("how", ["attribute", "key", "setflags"])
@pytest.mark.parametrize("write", list(WRITES))
def test_freeze_and_thaw_as_numpys(write, how, device):
    x = np.array([5.0, -1.0, 3.0, 2.0])

    def set_writeable(arr, value):
        if how == "attribute":
            arr.flags.writeable = value
        elif how == "key":
            arr.flags["WRITEABLE"] = value
        else:
            arr.setflags(write=value)

    n, a = x.copy(), ac.asarray(x, device=device)
    before_n, before_a = n[1:], a[1:]  # views made before the freeze stay writable (NumPy's)
    for arr in (n, a):
        set_writeable(arr, False)
        assert not arr.flags.writeable
        with pytest.raises(ValueError, match="read-only"):
            WRITES[write](arr)
        assert not arr[1:].flags.writeable  # views made after it are frozen too
    np.testing.assert_array_equal(ac.asnumpy(a), x)  # the refused writes wrote nothing
    assert not np.asarray(a).flags.writeable and not ac.asnumpy(a).flags.writeable
    assert before_n.flags.writeable and before_a.flags.writeable
    before_n[0] = before_a[0] = 4.0  # and write x's memory, frozen or not (NumPy's)
    for arr in (n, a):
        set_writeable(arr, True)
        assert arr.flags.writeable
        WRITES[write](arr)
    np.testing.assert_array_equal(ac.asnumpy(a), n)


def test_only_arrays_frozen_by_the_user_thaw_as_numpys(device):
    x = np.arange(6.0).reshape(2, 3)
    n, a = x.copy(), ac.asarray(x, device=device)
    n.flags.writeable = a.flags.writeable = False
    with pytest.raises(ValueError, match="WRITEABLE"):
        n[0].flags.writeable = True  # a view of a frozen array (NumPy: until its base thaws)
    with pytest.raises(ValueError, match="WRITEABLE"):
        a[0].flags.writeable = True
    # NumPy lets a broadcast view be thawed; accel does not: its threads would write one
    # element from many places at once.
    with pytest.raises(ValueError, match="WRITEABLE"):
        ac.broadcast_to(ac.asarray(x, device=device), (2, 2, 3)).flags.writeable = True
    r = ac.asarray(np.frombuffer(x.tobytes()), device=device)  # read-only memory, as NumPy's
    assert r.flags.writeable == np.frombuffer(x.tobytes()).flags.writeable
    c = a.copy()  # a copy of a frozen array is writable
    c[0, 0] = -1.0
    assert c.flags.writeable and a[0, 0] == 0.0
    with pytest.raises(ValueError, match="align"):
        a.setflags(align=False)


def test_freezing_keeps_lazy_values(device):
    a = ac.asarray(np.arange(4.0), device=device)
    later = a * 2  # pending while a is frozen and thawed: reads a's values of now
    p = a + 1  # a pending array frozen: computed, then read-only
    p.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        p[0] = 0
    a.flags.writeable = False
    a.flags.writeable = True
    a += 10
    np.testing.assert_array_equal(ac.asnumpy(later), [0.0, 2.0, 4.0, 6.0])
    np.testing.assert_array_equal(ac.asnumpy(p), [1.0, 2.0, 3.0, 4.0])
    np.testing.assert_array_equal(ac.asnumpy(a), [10.0, 11.0, 12.0, 13.0])


@pytest.mark.parametrize("view", [v for v in VIEWS if v not in ("0-d", "empty")])
def test_item_with_indices_as_numpys(view, device):
    x = np.arange(60.0).reshape(3, 4, 5)
    n, a = VIEWS[view](x.copy()), VIEWS[view](ac.asarray(x, device=device))
    for args in [(0,), (-1,), (n.size // 2,), tuple(d - 1 for d in n.shape),
                 (tuple(d // 2 for d in n.shape),)]:
        assert a.item(*args) == n.item(*args), args
    with pytest.raises(IndexError, match="out of bounds"):
        a.item(n.size)
    with pytest.raises(ValueError, match="incorrect number of indices"):
        a.item(*((0,) * (n.ndim + 1)))


@pytest.mark.parametrize("view", [v for v in VIEWS if v != "0-d"])
def test_flat_reads_and_writes_in_c_order(view, device):
    x = np.arange(60.0).reshape(3, 4, 5)
    nbase, abase = x.copy(), ac.asarray(x, device=device)
    n, a = VIEWS[view](nbase), VIEWS[view](abase)
    assert len(a.flat) == len(n.flat)
    same(ac.asarray(np.asarray(a.flat)), np.asarray(n.flat))
    same(a.flat[1::3], n.flat[1::3])
    if n.size == 0:
        return
    got = a.flat[2:5]
    got[...] = -1  # a copy, as NumPy's: x is not written
    same(abase, nbase)
    a.flat[[0, 2, 3]] = ac.asarray([100.0, 200.0])  # repeated when shorter, as NumPy's
    n.flat[[0, 2, 3]] = [100.0, 200.0]
    a.flat[n.size - 1] = -5
    n.flat[n.size - 1] = -5
    a.flat[::7] = 0
    n.flat[::7] = 0
    same(abase, nbase)
    mask = ac.asarray(np.asarray(n.flat) > 30, device=device)
    a.flat[mask] = 9
    n.flat[np.asarray(n.flat) > 30] = 9
    same(abase, nbase)
    assert [float(v) for v in a.flat][:4] == [float(v) for v in n.flat][:4]


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint64", "float16", "float32", "complex128"])
@pytest.mark.parametrize("view", VIEWS)
def test_tolist_and_tobytes_as_numpys(dtype, view, device):
    x = (np.arange(60) - 20).reshape(3, 4, 5).astype(dtype)
    n, a = VIEWS[view](x), VIEWS[view](ac.asarray(x, device=device))
    got, want = a.tolist(), n.tolist()
    assert got == want and type(got) is type(want)
    if n.size:
        assert type(a.reshape(-1).tolist()[0]) is type(n.reshape(-1).tolist()[0])
    assert a.tobytes() == n.tobytes()
    assert a.tobytes("F") == n.tobytes("F")


@pytest.mark.parametrize("dtype,value", [("int32", 2.7), ("uint8", 255), ("float32", -0.0),
                                         ("float16", 1e5), ("complex64", 1 - 2j), ("bool", 3)])
def test_fill_as_numpys(dtype, value, device):
    n = np.zeros((3, 4), dtype)[:, ::2]
    a = ac.zeros((3, 4), dtype=dtype, device=device)[:, ::2]
    with np.errstate(over="ignore"):
        n.fill(value)
    a.fill(value)
    same(a, n)
    with pytest.raises(OverflowError, match="out of bounds"):
        ac.zeros(3, dtype=ac.uint8, device=device).fill(-1)


def test_forwarding_methods_match_numpys_functions(device):
    rng = np.random.default_rng(3)
    m = rng.standard_normal((5, 6))
    z = complex_values("complex128", shape=(4, 5))
    n, a = m, ac.asarray(m, device=device)
    same(a.clip(-0.5, 0.5), n.clip(-0.5, 0.5))
    same(a.clip(max=0.1), n.clip(max=0.1))
    same(a.T.round(2), n.T.round(2))
    same(ac.asarray(z, device=device).round(1), z.round(1))
    same(ac.asarray(z, device=device).conj(), z.conj())
    same(ac.asarray(z, device=device).conjugate(), z.conjugate())
    assert a.conj() is a and a.conjugate() is a  # NumPy's method returns a real x itself
    for lo, hi in ((-1, 1), (-1 + 1j, 1 - 2j), (None, 0)):  # lexicographic, as NumPy's
        same(ac.asarray(z, device=device).clip(lo, hi), z.clip(lo, hi))
    np.testing.assert_allclose(ac.asnumpy(a.dot(a.T)), n.dot(n.T), rtol=1e-12)
    same(a.diagonal(1), n.diagonal(1))  # NumPy's read-only view, strides included
    np.testing.assert_allclose(ac.asnumpy(a.trace(-1)), n.trace(-1), rtol=1e-12)
    idx = np.array([[0, 1, 2], [2, 1, 0]])
    same(ac.asarray(idx, device=device).choose([ac.asarray(c, device=device) for c in m[:3, :3]]),
         idx.choose(list(m[:3, :3])))
    out = ac.empty((5, 6), device=device)
    assert a.clip(0, 1, out) is out and a.round(1, out) is out


def test_partition_methods(device):
    rng = np.random.default_rng(4)
    m = rng.integers(-50, 50, (6, 9))
    a = ac.asarray(m, device=device)
    p = a.argpartition(4, axis=1)
    part = np.take_along_axis(m, ac.asnumpy(p), axis=1)
    assert (part[:, 4] == np.sort(m, axis=1)[:, 4]).all()
    assert (part[:, :4] <= part[:, 4:5]).all() and (part[:, 5:] >= part[:, 4:5]).all()
    b = a.copy()
    assert b.partition(2, axis=0) is None  # in place, as NumPy's method
    got = ac.asnumpy(b)
    assert (got[2] == np.sort(m, axis=0)[2]).all() and (got[:2] <= got[2]).all()
    assert (np.sort(got, axis=0) == np.sort(m, axis=0)).all()


def test_contains_and_divmod(device):
    m = np.array([[1.0, -2.5, np.nan], [4.0, 0.0, -0.0]])
    a = ac.asarray(m, device=device)
    for v in (4, -2.5, 0, 7, np.nan, 4.0 + 0j):
        assert (v in a) == (v in m), v
    for row in ([1.0, 2.0, 3.0], [7.0, 7.0, 7.0]):  # compared broadcast, any element equal
        assert (ac.asarray(row, device=device) in a) == (np.array(row) in m)
    q, r = divmod(a, 1.5)
    nq, nr = divmod(m, 1.5)
    same(q, nq)
    same(r, nr)
    q, r = divmod(7, ac.asarray([2, -3, 4], device=device))
    nq, nr = divmod(7, np.array([2, -3, 4]))
    same(q, nq)
    same(r, nr)


def test_builtin_round_of_a_0d_array_as_of_numpys_scalar(device):
    """x.sum() is a 0-d array in accel and a scalar in NumPy: round() works on both."""
    for v in (2.5, 3.5, -2.567, 7.0):
        n = np.float64(v)
        a = ac.asarray(v, device=device)
        assert round(a) == round(n) and type(round(a)) is int
        same(round(a, 1), round(n, 1))
    assert round(ac.asarray(np.arange(5, dtype=np.int32), device=device).sum()) == 10
    with pytest.raises(TypeError, match="accel.round"):
        round(ac.asarray([1.5, 2.5], device=device))


def test_pickling_round_trips(tmp_path, device):
    m = complex_values("complex64", shape=(3, 4))
    a = ac.asarray(m, device=device).T
    # NumPy pickles a Fortran-ordered array Fortran-ordered, and loads it so: the layout too.
    want = pickle.loads(m.T.dumps())
    same(pickle.loads(a.dumps()).to_device("cpu"), want)
    a.dump(tmp_path / "a.pkl")
    with open(tmp_path / "a.pkl", "rb") as f:
        same(pickle.load(f).to_device("cpu"), want)
    # Other layouts come back C-ordered, as NumPy's.
    s = ac.asarray(m, device=device)[:, ::2].T[::-1]
    same(pickle.loads(pickle.dumps(s)).to_device("cpu"), pickle.loads(pickle.dumps(m[:, ::2].T[::-1])))


def test_nan_to_num_and_round_keep_the_signs_of_complex_zeros(device):
    """Each part replaced or rounded in its own view, as NumPy: no -0.0 turned into 0.0."""
    z = complex_values("complex128", shape=(6, 7), seed=5)
    a = ac.asarray(z, device=device)
    same(ac.nan_to_num(a), np.nan_to_num(z))
    same(ac.nan_to_num(a, nan=-1.0, posinf=2.0), np.nan_to_num(z, nan=-1.0, posinf=2.0))
    for d in (-1, 1, 3):
        same(ac.round(a, d), np.round(z, d))
        same(ac.round(a.T, d), np.round(z.T, d))
    b = a.copy()
    assert ac.nan_to_num(b, copy=False) is b
    same(b, np.nan_to_num(z))


@pytest.mark.parametrize("dtype", ["int8", "uint16", "uint64"])
@pytest.mark.parametrize("lo,hi", [(-300, 50), (-3, 70000), (5, 2**64 - 1), (-3, None),
                                   (None, 2**70), (1000, 2000)])
def test_clip_drops_python_int_bounds_beyond_the_dtype_as_numpy(dtype, lo, hi, device):
    """NumPy's clip drops a Python int bound beyond the dtype's range (it limits nothing); one
    inside the range on the wrong side still raises NEP 50's OverflowError, in both."""
    n = np.array([1, 2, 100], dtype=dtype)
    a = ac.asarray(n, device=device)
    try:
        want = np.clip(n, lo, hi)
    except OverflowError:
        with pytest.raises(OverflowError, match="out of bounds"):
            a.clip(lo, hi)
        return
    same(a.clip(lo, hi), want)
    same(ac.clip(a, lo, hi), want)


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "int32", "int64", "uint64"])
def test_integer_round_to_tens_goes_through_float64_as_numpy(dtype, device):
    """NumPy rounds integers with decimals < 0 as float64 and casts back: past 2**53 (and at
    the dtype's edges, where the rounded value overflows) that differs from exact integer
    arithmetic, which accel used before (fuzz seed 1120240)."""
    info = np.iinfo(dtype)
    rng = np.random.default_rng(6)
    n = np.concatenate([rng.integers(info.min, info.max, 500, dtype=dtype, endpoint=True),
                        np.array([info.min, info.max, 5, 15, 25, 125], dtype=dtype)])
    if dtype == "int64":
        n[0] = -5478656164431047426  # the fuzz seed's value
    a = ac.asarray(n, device=device)
    for d in (-1, -2, -3):
        with np.errstate(all="ignore"):
            want = np.round(n, d)
        same(ac.round(a, d), want)
        same(a.round(d), want)


def test_ndarray_subscripts_in_annotations_as_numpys():
    import typing
    alias = ac.ndarray[typing.Any, ac.float32]
    assert typing.get_origin(alias) is ac.ndarray
    assert typing.get_args(alias) == (typing.Any, ac.float32)
    assert typing.get_origin(np.ndarray[typing.Any, np.float32]) is np.ndarray  # NumPy's alike


@pytest.mark.parametrize("dtype", COMPLEX + REAL)
@pytest.mark.parametrize("view", [v for v in VIEWS if v != "0-d"])
def test_byteswap_as_numpys(dtype, view, device):
    """Every element's bytes reversed (each part of a complex number), bit for bit: random bytes,
    NaN payloads included."""
    rng = np.random.default_rng(3)
    itemsize = np.dtype(dtype).itemsize
    if dtype == "bool":
        x = rng.random((3, 4, 5)) < 0.5
    else:
        x = rng.integers(0, 256, (3, 4, 5, itemsize), dtype=np.uint8).view(dtype)[..., 0]
    n, a = VIEWS[view](x.copy()), VIEWS[view](ac.asarray(x, device=device))
    got, want = a.byteswap(), n.byteswap()
    assert got.dtype == a.dtype and got.shape == want.shape
    assert ac.asnumpy(got).tobytes() == np.ascontiguousarray(want).tobytes()
    assert ac.asnumpy(a).tobytes() == np.ascontiguousarray(n).tobytes()  # x untouched
    assert a.byteswap(inplace=True) is a
    n.byteswap(inplace=True)
    assert ac.asnumpy(a).tobytes() == np.ascontiguousarray(n).tobytes()


def test_data_is_a_memoryview_as_numpys(device):
    n = np.arange(6.0).reshape(2, 3)
    a = ac.asarray(n, device=device)
    if device != "cpu":
        with pytest.raises(TypeError, match="host memoryview"):
            a.data
        return
    m, mn = a.data, n.data
    assert isinstance(m, memoryview)
    assert (m.shape, m.strides, m.format, m.tolist()) == (mn.shape, mn.strides, mn.format,
                                                          mn.tolist())
    m[0, 1] = 9.0  # writes reach the array, as NumPy's
    assert float(a[0, 1]) == 9.0


@pytest.mark.parametrize("dtype", ["float32", "int16", "complex128", "bool"])
@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("new_shape", [(2, 3), (7,), (4, 5), (0,), (2, 0, 3), ()])
def test_resize_in_place_as_numpys(dtype, order, new_shape, device):
    """x.resize(shape): memory order kept, zeros after (NumPy's realloc); the Python object
    changes, so every name bound to it sees the new shape."""
    n = np.asarray(np.arange(1, 7).reshape(2, 3), dtype=dtype, order=order)
    a = ac.asarray(n, device=device, copy=True)
    if order == "F":
        a = ac.asfortranarray(a)
    same = a
    assert a.resize(new_shape) is None
    n.resize(new_shape)
    assert same is a and a.shape == n.shape and a.dtype == n.dtype
    np.testing.assert_array_equal(ac.asnumpy(a), n)
    a[...] = 1  # the resized array is writable, its own memory
    assert ac.asnumpy(a).sum() == a.size


def test_resize_argument_forms_and_refusals_as_numpys(device):
    a = ac.asarray(np.arange(4.0), device=device, copy=True)
    a.resize(2, 3)
    assert a.shape == (2, 3)
    a.resize([6])
    a.resize(8)
    np.testing.assert_array_equal(ac.asnumpy(a), [0, 1, 2, 3, 0, 0, 0, 0])
    a.resize()  # no shape: nothing changes, as NumPy's
    assert a.shape == (8,)
    with pytest.raises(ValueError, match="negative dimensions"):
        a.resize(-1)
    with pytest.raises(ac.ShapeError, match="too big"):  # 2^80 elements: no wrapped size
        a.resize(2**40, 2**40)
    assert a.shape == (8,)
    with pytest.raises(ValueError, match="single-segment"):
        a[::2].resize(2)
    with pytest.raises(ValueError, match="does not own its data"):
        a[2:].resize(3)
    a[2:].resize(6)  # the same size: a reshape of the view's memory, as NumPy's
    # Another array viewing x's memory refuses it (NumPy's refcheck); refcheck=False gives x new
    # memory and leaves the view on the old one.
    view = a[:3]
    with pytest.raises(ValueError, match="referenced by another array"):
        a.resize(10)
    a.resize(10, refcheck=False)
    a[0] = 42
    assert a.shape == (10,) and float(view[0]) == 0.0 and view.shape == (3,)
    # A value computed lazily from x keeps x's old values.
    b = ac.asarray(np.arange(3.0), device=device, copy=True)
    doubled = b * 2
    b.resize(5)
    b[0] = 7
    np.testing.assert_array_equal(ac.asnumpy(doubled), [0, 2, 4])
    np.testing.assert_array_equal(ac.asnumpy(b), [7, 1, 2, 0, 0])


def test_resize_keeps_a_frozen_array_frozen(device):
    a = ac.asarray(np.arange(3.0), device=device, copy=True)
    a.flags.writeable = False
    a.resize(5)
    np.testing.assert_array_equal(ac.asnumpy(a), [0, 1, 2, 0, 0])
    assert not a.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        a[0] = 1


@pytest.mark.parametrize("view", [v for v in VIEWS if v != "empty"])
def test_array_interface_and_ctypes_as_numpys(view, device):
    n = VIEWS[view](np.arange(60.0).reshape(3, 4, 5))
    a = VIEWS[view](ac.asarray(np.arange(60.0).reshape(3, 4, 5), device=device))
    if device != "cpu":
        assert not hasattr(a, "__array_interface__")
        with pytest.raises(TypeError, match="host pointer"):
            a.ctypes
        return
    got, want = a.__array_interface__, n.__array_interface__
    assert {k: got[k] for k in ("shape", "typestr", "strides", "version")} == \
        {k: want[k] for k in ("shape", "typestr", "strides", "version")}
    assert got["data"][1] is False
    # A consumer of the protocol reads (and writes) x's memory.
    holder = type("Holder", (), {"__array_interface__": got})()
    np.testing.assert_array_equal(np.asarray(holder), n)
    c = a.ctypes
    assert c.data == got["data"][0]
    if view != "0-d":
        assert tuple(c.shape) == n.shape and tuple(c.strides) == n.strides
        import ctypes
        first = c.data_as(ctypes.POINTER(ctypes.c_double))[0]
        assert first == n.flat[0]


def test_view_as_a_numpy_type_shares_memory_as_numpys(device):
    """x.view(np.ndarray) (and type=): NumPy's view of x's memory, as NumPy's of a subclass."""
    a = ac.asarray(np.arange(6.0).reshape(2, 3), device=device)
    if device != "cpu":
        with pytest.raises(TypeError, match="host memory"):
            a.view(np.ndarray)
        return
    v = a.view(np.ndarray)
    assert type(v) is np.ndarray and v.shape == (2, 3) and v.flags.writeable
    v[0, 0] = 7.0  # a view: writes reach x
    assert float(a[0, 0]) == 7.0
    both = a.view(dtype=np.int64, type=np.ndarray)
    np.testing.assert_array_equal(both, np.asarray(a).view(np.int64))
    assert type(a.view(ac.ndarray)) is ac.ndarray and a.view(np.float32).dtype == ac.float32
    with pytest.raises(TypeError, match="ndarray type"):
        a.view(type=list)
