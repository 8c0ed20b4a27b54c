"""The operators bound as C slots of ndarray (python/src/operator_slots.cpp) behave as the
methods they stand for: NumPy's values and dtypes, reflected forms, NotImplemented for foreign
operands, and the same exceptions (raised through the method when the slot's call fails)."""

import operator

import numpy as np
import pytest

import accel as ac

BINARY = [operator.add, operator.sub, operator.mul, operator.truediv, operator.lt, operator.le,
          operator.eq, operator.ne, operator.gt, operator.ge]
UNARY = [operator.neg, operator.pos, abs]


@pytest.mark.parametrize("op", BINARY)
@pytest.mark.parametrize("other", ["array", "numpy", 2, 2.5, True, [1, 2, 3, 4]])
def test_binary_slots_both_ways_equal_numpy(op, other):
    xn = np.array([1.5, -2.0, 0.0, np.nan], np.float32)
    x = ac.asarray(xn, copy=True)
    named = {"array": np.array([2.0, 2.0, -1.0, 1.0], np.float32),
             "numpy": np.array([3, 1, 0, 2], np.int16)}
    on = named[other] if isinstance(other, str) else other
    o = ac.asarray(on, copy=True) if other == "array" else on
    with np.errstate(all="ignore"):
        for got, want in ((op(x, o), op(xn, on)), (op(o, x), op(on, xn))):
            assert isinstance(got, ac.ndarray)
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(ac.asnumpy(got), want)


@pytest.mark.parametrize("op", UNARY + [operator.invert])
def test_unary_slots_equal_numpy(op):
    xn = np.array([3, -1, 0], np.int32) if op is operator.invert else np.array([1.5, -0.0, -2.0])
    got = op(ac.asarray(xn, copy=True))
    want = op(xn)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(ac.asnumpy(got), want)
    assert np.signbit(ac.asnumpy(got)).tolist() == np.signbit(want).tolist()


def test_slot_errors_are_the_methods_errors():
    x = ac.asarray(np.arange(4.0), copy=True)
    with pytest.raises(ValueError, match=r"\[add\]"):
        x + ac.ones(3)
    with pytest.raises(TypeError, match="unsupported operand"):
        x + "a"
    with pytest.raises(TypeError):
        ~x  # no bitwise_invert for floats
    with pytest.raises(IndexError, match="out of bounds"):
        x[4]
    with pytest.raises(IndexError):
        x[0, 0]
    with pytest.raises(TypeError):
        x < "a"
    assert (x == None) is False and (x != None) is True  # noqa: E711


def test_getitem_slot_and_getters_equal_numpy():
    xn = np.arange(24.0).reshape(2, 3, 4)
    x = ac.asarray(xn, copy=True)
    for key in (1, -1, (1, 2), slice(None, None, -1), (Ellipsis, 1), (None, 0), [0, 1],
                xn > 10, (slice(1, 2), [2, 0])):
        np.testing.assert_array_equal(ac.asnumpy(x[key]), xn[key])
    assert x.shape == (2, 3, 4) and x.ndim == 3 and x.size == 24
    assert x.dtype == ac.float64 and x.dtype is x.dtype
    assert ac.ones((), dtype=ac.int8).shape == ()
    assert type(x).shape.__doc__


def test_methods_remain_callable():
    x = ac.asarray(np.arange(3.0), copy=True)
    np.testing.assert_array_equal(ac.asnumpy(x.__add__(1)), [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(ac.asnumpy(x.__rsub__(1)), [1.0, 0.0, -1.0])
    np.testing.assert_array_equal(ac.asnumpy(x.__getitem__(2)), 2.0)
    np.testing.assert_array_equal(ac.asnumpy(x.__neg__()), [-0.0, -1.0, -2.0])


def test_len_bool_float_slots_and_their_errors():
    x = ac.asarray(np.arange(6.0).reshape(3, 2), copy=True)
    assert len(x) == 3 and len(x[0]) == 2
    with pytest.raises(TypeError, match="unsized"):
        len(ac.asarray(1.0))
    assert bool(ac.asarray([0.5])) is True and bool(ac.asarray(0)) is False
    assert bool(ac.asarray(np.nan)) is True
    with pytest.raises(ValueError, match="ambiguous"):
        bool(x)
    assert float(x[2, 1]) == 5.0 and float(ac.asarray([-0.0])) == 0.0
    assert np.signbit(float(ac.asarray(-0.0)))
    assert float(ac.asarray(7, dtype=ac.int8)) == 7.0
    with pytest.raises(TypeError):
        float(ac.asarray(1j))
    with pytest.raises(ValueError):
        float(x)
    assert bool(ac.asarray(1j)) is True


STORE_DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
                "float16", "float32", "float64", "complex64", "complex128"]
STORE_VALUES = [0, 1, -1, 127, 128, 255, 256, -129, 2**31, 2**53, 2**53 + 1, -(2**53) - 1,
                2**63 - 1, -(2**63), 2**64 - 1, 2**70, 0.0, -0.0, 1.5, -2.7, 1e-8, 65519.0,
                65520.0, 1e300, float("inf"), float("-inf"), float("nan"), True, False, 1 + 2j]


def _same_outcome(got, want):
    """No error on either side, or accel's error a kind of NumPy's (accel's DTypeError is a
    TypeError)."""
    return got is want or (got is not None and want is not None and issubclass(got, want))


def _store_outcome(x, key, value):
    try:
        with np.errstate(all="ignore"):
            x[key] = value
    except Exception as e:  # noqa: BLE001 - the error's type is what is compared
        return type(e)
    return None


@pytest.mark.parametrize("dtype", STORE_DTYPES)
def test_element_stores_equal_numpys(dtype, device):
    """x[i] = number and x[i, j] = number (written straight into the element on the CPU) store
    what NumPy stores, or raise NumPy's error, for every dtype and kind of Python number; on a
    strided view the store reaches the element of the base."""
    for value in STORE_VALUES:
        for shape, key in [((5,), 2), ((5,), -1), ((3, 4), (1, -2)), ((2, 3, 2), (1, 2, 0))]:
            n = np.zeros(shape, dtype)
            a = ac.zeros(shape, dtype=dtype, device=device)
            want, got = _store_outcome(n, key, value), _store_outcome(a, key, value)
            assert _same_outcome(got, want), (dtype, value, key, got, want)
            np.testing.assert_array_equal(ac.asnumpy(a.to_device("cpu")), n, err_msg=f"{dtype} {value}")
        base_n, base = np.zeros(8, dtype), ac.zeros(8, dtype=dtype, device=device)
        view_n, view = base_n[::-2], base[::-2]
        assert _same_outcome(_store_outcome(view, 1, value), _store_outcome(view_n, 1, value))
        np.testing.assert_array_equal(ac.asnumpy(base.to_device("cpu")), base_n)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int64", "uint64", "float16",
                                   "float32", "complex64"])
def test_view_stores_of_a_number_equal_numpys(dtype, device):
    """x[a:b] = number, x[...] = number, m[i] = number, m[:, j] = number and x.fill(number)
    (the view filled directly on the CPU): NumPy's values or NumPy's error, nothing written
    when it raises."""
    keys = [slice(None), Ellipsis, slice(1, 4), slice(None, None, -2), 1, (slice(None), 2),
            (Ellipsis, 1), (None, 1), (1, slice(0, 3, 2))]
    for value in STORE_VALUES:
        for key in keys:
            n = np.zeros((3, 4), dtype)
            a = ac.zeros((3, 4), dtype=dtype, device=device)
            want, got = _store_outcome(n, key, value), _store_outcome(a, key, value)
            assert _same_outcome(got, want), (dtype, value, key, got, want)
            np.testing.assert_array_equal(ac.asnumpy(a.to_device("cpu")), n,
                                          err_msg=f"{dtype} {value} {key}")
        n = np.zeros(5, dtype)[::2]
        a = ac.zeros(5, dtype=dtype, device=device)[::2]
        try:
            with np.errstate(all="ignore"):
                n.fill(value)
        except Exception as e:  # noqa: BLE001
            with pytest.raises(type(e)):
                a.fill(value)
        else:
            a.fill(value)
        np.testing.assert_array_equal(ac.asnumpy(a.to_device("cpu")), n)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint32", "int64", "float16", "float32",
                                   "complex128"])
def test_index_array_stores_of_a_number_equal_numpys(dtype, device):
    """a[idx] = number (1-d a, an int64 index array: written directly on the CPU) and the
    forms that take the general path (int32 or strided indices, masks, 2-d arrays): NumPy's
    values or NumPy's error, and nothing written when an index is out of range."""
    idx = np.array([3, -1, 0, 3, -7])
    keys = [idx, idx.reshape(5, 1), idx[::2], idx.astype(np.int32), np.array([], np.int64),
            np.arange(7) % 2 == 0, np.array([1, 7]), np.array([-8])]
    for value in STORE_VALUES:
        for key in keys:
            n = np.zeros(7, dtype)
            a = ac.zeros(7, dtype=dtype, device=device)
            want = _store_outcome(n, key, value)
            got = _store_outcome(a, ac.asarray(key, device=device), value)
            assert _same_outcome(got, want), (dtype, value, key, got, want)
            np.testing.assert_array_equal(ac.asnumpy(a.to_device("cpu")), n,
                                          err_msg=f"{dtype} {value} {key}")
        n = np.zeros((3, 2), dtype)
        a = ac.zeros((3, 2), dtype=dtype, device=device)
        assert _same_outcome(_store_outcome(a, ac.asarray([2, 0], device=device), value),
                             _store_outcome(n, np.array([2, 0]), value))
        np.testing.assert_array_equal(ac.asnumpy(a.to_device("cpu")), n)


def _value_forms(values):
    """The values of a store as NumPy and accel take them: as given, one element (0-d and 1-d),
    a reversed (strided) view, another dtype (a cast), too many (NumPy's error)."""
    one = values[:1]
    other = np.complex64 if values.dtype.kind == "c" else np.float64
    return [values, one.reshape(()), one, values[::-1], values.astype(other),
            np.concatenate([values, values])]


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint32", "int64", "float16", "float32",
                                   "complex128"])
def test_index_array_and_mask_stores_of_arrays_equal_numpys(dtype, device):
    """a[idx] = values and a[mask] = values (1-d a, an int64 index or a mask of a's shape, values
    of a's dtype: written directly on the CPU) and the forms that take the general path (casts,
    broadcasts, strided values or indices, wrong counts): NumPy's values or NumPy's error, and
    nothing written when it raises."""
    rng = np.random.default_rng(5)
    idx = np.array([3, -1, 0, 3, -7])
    keys = [idx, idx.reshape(5, 1), idx[::2], idx.astype(np.int32), np.array([], np.int64),
            np.array([1, 7]), np.arange(7) % 2 == 0, np.zeros(7, bool), np.ones(7, bool)]
    for key in keys:
        count = int(key.sum()) if key.dtype == bool else key.size
        source = (rng.integers(1, 100, max(count, 1)) * (1 + 1j)).astype(dtype, copy=False) \
            if dtype == "complex128" else rng.integers(1, 100, max(count, 1)).astype(dtype)
        if key.dtype != bool:
            source = source[:count].reshape(key.shape) if count else source[:0].reshape(key.shape)
        for value in _value_forms(source) if source.size else [source]:
            n = np.zeros(7, dtype)
            a = ac.zeros(7, dtype=dtype, device=device)
            want = _store_outcome(n, key, value)
            got = _store_outcome(a, ac.asarray(key, device=device), ac.asarray(value, device=device))
            assert _same_outcome(got, want), (dtype, key, value, got, want)
            np.testing.assert_array_equal(ac.asnumpy(a.to_device("cpu")), n,
                                          err_msg=f"{dtype} {key} {value}")
    # A mask of a 2-d array's shape; a mask of other shapes takes the general path.
    for mask in [np.arange(12).reshape(3, 4) % 3 == 0, np.array([True, False, True])]:
        n = np.zeros((3, 4), dtype)
        a = ac.zeros((3, 4), dtype=dtype, device=device)
        values = np.arange(1, 1 + int(mask.sum()) * (4 if mask.ndim == 1 else 1)).astype(dtype)
        values = values.reshape(-1, 4) if mask.ndim == 1 else values
        n[mask] = values
        a[ac.asarray(mask, device=device)] = ac.asarray(values, device=device)
        np.testing.assert_array_equal(ac.asnumpy(a.to_device("cpu")), n)
        n[mask] = 7
        a[ac.asarray(mask, device=device)] = 7
        np.testing.assert_array_equal(ac.asnumpy(a.to_device("cpu")), n)


def test_stores_through_an_index_or_values_in_the_targets_own_memory(device):
    """x[x] = v with x its own index (each index read before any store: a store would otherwise
    change indices still to be read, and write out of bounds), x[x] = v with x its own mask,
    x[idx] = a view of x (NumPy copies values overlapping their target first)."""
    n = np.array([1, 0, 3, 2])
    x = ac.asarray(n, device=device, copy=True)
    n[n] = 5
    x[x] = 5
    np.testing.assert_array_equal(ac.asnumpy(x.to_device("cpu")), n)
    n = np.array([3, 0, 1, 2])
    x = ac.asarray(n, device=device, copy=True)
    n[n] = n[::-1].copy()
    x[x] = x[::-1]
    np.testing.assert_array_equal(ac.asnumpy(x.to_device("cpu")), n)
    n = np.array([True, False, True, True])
    x = ac.asarray(n, device=device, copy=True)
    n[n] = False
    x[x] = False
    np.testing.assert_array_equal(ac.asnumpy(x.to_device("cpu")), n)
    n = np.arange(6.0)
    x = ac.asarray(n, device=device, copy=True)
    n[np.array([1, 2, 3])] = n[:3]
    x[ac.asarray([1, 2, 3], device=device)] = x[:3]
    np.testing.assert_array_equal(ac.asnumpy(x.to_device("cpu")), n)
    n = np.arange(6.0)
    x = ac.asarray(n, device=device, copy=True)
    n[n > 2] = n[:3]
    x[x > 2] = x[:3]
    np.testing.assert_array_equal(ac.asnumpy(x.to_device("cpu")), n)


def test_array_stores_join_pending_values_and_readers():
    """Arrays still to be computed from the target's memory keep its old values (the direct
    stores compute them first); a pending value is computed before it is stored."""
    ac.set_eager_small(False)
    try:
        x = ac.asarray(np.arange(6.0), copy=True)
        idx, values = ac.asarray([0, 5]), ac.asarray([10.0, 20.0])
        old = x * 2  # pending, reads x
        x[idx] = values
        mask = (x > 15).eval()
        older = x + 1  # pending, reads x
        x[mask] = ac.asarray([-1.0])
        oldest = x - 1
        x[mask] = 3.0
        x[ac.asarray([1])] = ac.asarray([7.0]) + 1  # a pending value
        np.testing.assert_array_equal(ac.asnumpy(x), [10, 8, 2, 3, 4, 3])
        np.testing.assert_array_equal(ac.asnumpy(old), np.arange(6.0) * 2)
        np.testing.assert_array_equal(ac.asnumpy(older), [11, 2, 3, 4, 5, 21])
        np.testing.assert_array_equal(ac.asnumpy(oldest), [9, 0, 1, 2, 3, -2])
    finally:
        ac.set_eager_small(True)


def test_element_store_errors(device):
    a = ac.zeros((3, 4), device=device)
    with pytest.raises(IndexError):
        a[3, 0] = 1.0
    with pytest.raises(IndexError):
        a[0, -5] = 1.0
    with pytest.raises(IndexError):
        a[0, 0, 0] = 1.0
    with pytest.raises(ValueError, match="read-only"):
        ac.broadcast_to(ac.zeros(4, device=device), (3, 4))[1, 1] = 2.0
    with pytest.raises(ValueError, match="cannot delete"):
        del a[0, 0]
    assert float(ac.asnumpy(a.to_device("cpu")).sum()) == 0.0  # nothing was written
    a[1] = 5.0  # a row: the general path
    a[2, 1:3] = 7  # a tuple with a slice
    n = np.zeros((3, 4))
    n[1] = 5.0
    n[2, 1:3] = 7
    np.testing.assert_array_equal(ac.asnumpy(a.to_device("cpu")), n)


def test_element_store_into_pending_and_while_profiling():
    x = ac.asarray(np.arange(6.0), copy=True) * 2  # may still be pending
    x[1] = -1.0
    np.testing.assert_array_equal(ac.asnumpy(x), [0, -1, 4, 6, 8, 10])
    with ac.profile() as prof:  # the general path: the profiler sees the store
        x[0] = 9
    np.testing.assert_array_equal(ac.asnumpy(x), [9, -1, 4, 6, 8, 10])
    assert prof is not None


@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "complex64"])
def test_real_view_squeeze_and_out_as_numpys(dtype, device):
    """x.real of a real x is x (NumPy's), a view of a complex one; x.view() and x.squeeze() of
    their fast paths share x's memory; op(a, b, out) and op(a, b, out=y) write into out and
    return it, as NumPy's ufuncs."""
    n = (np.arange(6) + (1j if dtype == "complex64" else 0)).astype(dtype).reshape(1, 6)
    x = ac.asarray(n, device=device, copy=True)
    assert (x.real is x) == (n.real is n)
    x.real[0, 1] = 9
    n.real[0, 1] = 9
    v, s = x.view(), x.squeeze()
    v[0, 2] = 7
    s[3] = 5
    n[0, 2], n[0, 3] = 7, 5
    np.testing.assert_array_equal(ac.asnumpy(x.to_device("cpu")), n)
    assert s.shape == n.squeeze().shape
    y = ac.empty_like(x)
    assert ac.add(x, x, y) is y and ac.multiply(x, 2, out=y) is y
    np.testing.assert_array_equal(ac.asnumpy(y.to_device("cpu")), n * 2)
    assert ac.add(x, 1, out=x) is x
    np.testing.assert_array_equal(ac.asnumpy(x.to_device("cpu")), n + 1)
