"""Core behaviour of accel arrays against NumPy: dtypes and promotion, asarray, zero-copy
interchange, devices, lazy evaluation and memory errors."""

import array as pyarray
import itertools
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import accel as ac
from device_arrays import DTYPES



@pytest.mark.parametrize("a,b", list(itertools.product(DTYPES, DTYPES)))
def test_promote_types_matches_numpy(a, b):
    assert ac.promote_types(a, b) == np.promote_types(a, b).name


def test_result_type_of_several_dtypes_matches_numpy():
    # NumPy's promotion of three or more dtypes is not a left fold of promote_types
    # (int8, uint16, float32 -> float32, not float64): every triple, and concat of three.
    for triple in itertools.product(DTYPES, repeat=3):
        assert ac.result_type(*triple) == np.result_type(*triple).name, triple
    for triple in [("int8", "uint16", "float32"), ("uint8", "int8", "float32"),
                   ("int16", "uint32", "complex64"), ("bool", "uint64", "int8")]:
        parts = [np.arange(2).astype(t) for t in triple]
        got = ac.concat([ac.asarray(p) for p in parts])
        assert got.dtype == np.concatenate(parts).dtype.name, triple


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("scalar", [True, 1, 1.5, 1j])
def test_python_scalars_promote_weakly_like_numpy(dtype, scalar):
    x = np.ones(3, dtype)
    want = (x + scalar).dtype
    got = (ac.asarray(x) + scalar).dtype
    assert got == want.name


@pytest.mark.parametrize("scalar", [np.float64(2.0), np.complex128(1j), np.float32(2.0),
                                    np.int64(3), np.uint8(3), np.bool_(True)])
@pytest.mark.parametrize("dtype", ["float32", "int8", "uint16", "complex64"])
def test_numpy_scalars_are_strong_like_numpy(dtype, scalar):
    # numpy.float64 and numpy.complex128 subclass Python's float and complex, but NumPy 2
    # promotes them as typed values (NEP 50), not as weak Python scalars.
    x = np.ones(3, dtype)
    assert (ac.asarray(x) + scalar).dtype == (x + scalar).dtype.name


def test_python_int_out_of_range_raises_overflow_error():
    with pytest.raises(OverflowError, match="300 out of bounds for int8"):
        ac.asarray(np.ones(2, np.int8)) + 300
    with pytest.raises(OverflowError):
        ac.asarray(np.ones(2, np.uint8)) + -1


@pytest.mark.parametrize("obj", [[1, 2, 3], [[1.5, 2], [3, 4]], (True, False), [1j, 2],
                                 3, 2.5, True, 1 + 2j, [], [[]]])
def test_asarray_infers_like_numpy(obj):
    got = ac.asarray(obj)
    want = np.asarray(obj)
    assert got.shape == want.shape
    assert got.dtype == want.dtype.name
    np.testing.assert_array_equal(np.asarray(got), want)


def test_asarray_numpy_is_zero_copy_and_writes_are_shared():
    n = np.arange(12, dtype=np.float32).reshape(3, 4)
    a = ac.asarray(n)
    assert np.shares_memory(np.asarray(a), n)
    n[0, 0] = 42
    assert np.asarray(a)[0, 0] == 42


def test_asarray_of_strided_numpy_view_keeps_values():
    n = np.arange(24, dtype=np.int64).reshape(4, 6)[::-1, ::2]
    np.testing.assert_array_equal(np.asarray(ac.asarray(n)), n)
    np.testing.assert_array_equal(np.asarray(ac.asarray(n) * 2), n * 2)


@pytest.mark.parametrize("dtype", ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
                                   "uint32", "uint64", "float16", "float32", "float64",
                                   "complex64", "complex128", "longlong", "ulonglong", ">f4",
                                   ">i8", "<f8"])
@pytest.mark.parametrize("make", [lambda n: n, lambda n: n[::-1, 1::2], lambda n: n.T,
                                  lambda n: n[:0], lambda n: np.array(n[1, 2]), lambda n: n[None, 1]],
                         ids=["contiguous", "reversed_strided", "transposed", "empty", "0d", "newaxis"])
def test_asarray_of_numpy_arrays_keeps_values_dtype_and_memory(dtype, make):
    n = make((np.arange(24) * 7 % 11 - 3).astype(dtype).reshape(4, 6))
    a = ac.asarray(n)
    assert a.shape == n.shape
    assert a.dtype == n.dtype.newbyteorder("=").name
    np.testing.assert_array_equal(np.asarray(a), n)
    if n.dtype.isnative:
        assert np.shares_memory(np.asarray(a), n) or n.size == 0


def test_asarray_of_numpy_array_with_a_field_dtype_raises():
    with pytest.raises(ac.DTypeError, match="void"):
        ac.asarray(np.zeros(3, dtype=[("x", "f4"), ("y", "i4")]))


@pytest.mark.parametrize("buf,dtype", [(pyarray.array("d", [1.0, 2.0]), "float64"),
                                       (pyarray.array("i", [1, 2, 3]), "int32"),
                                       (b"\x01\x02", "uint8"),
                                       (memoryview(np.arange(3, dtype=np.uint16)), "uint16")])
def test_asarray_accepts_buffer_protocol_objects(buf, dtype):
    a = ac.asarray(buf)
    assert a.dtype == dtype
    np.testing.assert_array_equal(np.asarray(a), np.frombuffer(buf, dtype=dtype))


def test_asarray_copy_and_dtype_keywords():
    n = np.arange(4, dtype=np.int32)
    c = ac.asarray(n, copy=True)
    n[0] = 100
    assert int(np.asarray(c)[0]) == 0
    assert ac.asarray(n, dtype=ac.float64).dtype == "float64"
    with pytest.raises(ValueError, match="copy=False"):
        ac.asarray(n, dtype="float64", copy=False)
    # The standard and NumPy 2: copy=False never copies, so Python values raise.
    shared = ac.asarray(n, copy=False)
    n[1] = 7
    assert int(np.asarray(shared)[1]) == 7
    for obj in ([1, 2], (1.5,), 3.0, np.float32(2), [[1, 2], [3, 4]]):
        with pytest.raises(ValueError, match="copy"):
            ac.asarray(obj, copy=False)


def test_read_only_numpy_source_stays_read_only():
    n = np.arange(3.0)
    n.flags.writeable = False
    a = ac.asarray(n)
    assert not np.asarray(a).flags.writeable


def test_buffer_protocol_export_is_zero_copy():
    a = ac.asarray(np.arange(6, dtype=np.float64).reshape(2, 3))
    m = memoryview(a)
    assert m.shape == (2, 3) and m.format == "d"
    assert np.shares_memory(np.asarray(m), np.asarray(a))


@pytest.mark.parametrize("dtype", ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
                                   "uint32", "uint64", "float16", "float32", "float64",
                                   "complex64", "complex128"])
def test_numpy_views_have_numpys_own_types_and_keep_the_array_alive(dtype):
    rng = np.random.default_rng(2)
    n = (rng.random((4, 5)) * 100).astype(dtype)
    a = ac.asarray(n, copy=True)
    for view in (ac.asnumpy(a[::2, ::-1]), np.asarray(a[::2, ::-1]), a[::2, ::-1].__array__()):
        assert view.dtype.char == n.dtype.char  # 'l' for int64: NumPy's, not long long's 'q'
        assert view.strides == n[::2, ::-1].strides and view.flags.writeable
        np.testing.assert_array_equal(view, n[::2, ::-1])
    assert memoryview(a).format == memoryview(n).format
    view = ac.asnumpy(a)
    del a
    np.testing.assert_array_equal(view, n)  # its base holds the accel array
    b = ac.broadcast_to(ac.asarray(n[0], copy=True), (3, 5))
    assert not ac.asnumpy(b).flags.writeable and ac.asnumpy(b).strides == (0, n.itemsize)
    assert ac.asnumpy(ac.zeros((0, 3), dtype=dtype)).shape == (0, 3)


def test_array_dunder_copy_semantics():
    a = ac.asarray(np.arange(3.0))
    v = np.asarray(a)
    assert np.shares_memory(v, np.asarray(a))
    c = a.__array__(copy=True)
    assert not np.shares_memory(c, v)
    assert a.__array__(dtype=np.float32).dtype == np.float32


def test_python_scalar_conversions():
    assert float(ac.asarray(2.5)) == 2.5
    assert int(ac.asarray(7)) == 7
    assert bool(ac.asarray(True)) is True
    assert complex(ac.asarray(1 + 2j)) == 1 + 2j
    assert [10, 20][ac.asarray(1)] == 20
    with pytest.raises(ValueError, match="ambiguous"):
        bool(ac.asarray([1, 2]))
    with pytest.raises(TypeError):
        [1][ac.asarray(1.0)]


def test_shape_mismatch_raises_value_error_with_shapes():
    with pytest.raises(ValueError, match=r"\[add\].*\(2, 3\).*\(4,\)"):
        ac.asarray(np.ones((2, 3))) + ac.asarray(np.ones(4))
    assert issubclass(ac.ShapeError, ValueError)


def test_dtype_error_is_type_error_naming_op():
    with pytest.raises(TypeError, match=r"\[bitwise_and\].*float64"):
        ac.bitwise_and(ac.asarray([1.0]), ac.asarray([2.0]))


def test_unknown_device_raises_device_error():
    with pytest.raises(ac.DeviceError, match="unknown device 'tpu'"):
        ac.asarray([1], device="tpu")


def test_lazy_results_see_values_from_before_in_place_writes():
    x = ac.asarray(np.arange(5.0))
    y = x * 2
    x += 1
    np.testing.assert_array_equal(np.asarray(y), np.arange(5.0) * 2)
    np.testing.assert_array_equal(np.asarray(x), np.arange(5.0) + 1)


def test_in_place_add_of_own_transpose_matches_numpy():
    n = np.arange(16.0).reshape(4, 4)
    a = ac.asarray(n.copy())
    a += a.T
    n += n.T.copy()
    np.testing.assert_array_equal(np.asarray(a), n)


def test_in_place_same_kind_rule():
    a = ac.asarray(np.arange(3))
    with pytest.raises(TypeError, match="same_kind"):
        a += 1.5


def test_allocation_failure_raises_memory_error_and_process_survives():
    # A 16 GiB result under a 4 GiB address-space limit: the allocator must raise, not abort.
    code = textwrap.dedent("""
        import resource
        import numpy as np
        import accel as ac
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
        big = ac.asarray(np.broadcast_to(np.float64(1.0), (1 << 31,)))
        try:
            (big + 1).eval()
        except MemoryError as e:
            print("MemoryError:", e)
        print("alive", (ac.asarray(1.0) + 1).item())
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "MemoryError: [allocate cpu] out of memory allocating 16.00 GiB" in out.stdout
    assert "alive 2.0" in out.stdout


def test_memory_stats_track_allocations_and_free_cached_empties_cache():
    before = ac.memory_stats()
    x = (ac.asarray([1.0, 2.0]) * 3).eval()
    during = ac.memory_stats()
    assert during["in_use"] > before["in_use"] - 1 and during["allocations"] > before["allocations"]
    del x
    ac.free_cached()
    assert ac.memory_stats()["cached"] == 0


def test_set_num_threads_rejects_zero():
    with pytest.raises(ValueError, match="at least 1"):
        ac.set_num_threads(0)
    n = ac.num_threads()
    ac.set_num_threads(1)
    np.testing.assert_array_equal(np.asarray(ac.asarray(np.arange(100000.0)) + 1), np.arange(100000.0) + 1)
    ac.set_num_threads(n)
    assert ac.num_threads() == n


def test_numpy_left_operand_defers_to_accel():
    n = np.arange(4.0).reshape(2, 2)
    x = ac.asarray(n)
    for r in (n + x, n * x, n @ x, n < x):
        assert isinstance(r, ac.ndarray)
    np.testing.assert_array_equal(np.asarray(n @ x), n @ n)
    # NumPy's functions on accel arrays run accel's (__array_ufunc__, test_numpy_protocols.py);
    # np.asarray converts.
    assert isinstance(np.sin(x), ac.ndarray) and isinstance(np.asarray(x), np.ndarray)


@pytest.mark.parametrize("other", [None, 3, 2.5, object(), [1], "not-a-dtype", ac.sum])
def test_dtype_compared_with_a_non_dtype_is_unequal_not_an_error(other):
    # Python's protocol: __eq__ returns NotImplemented, so == falls back to identity.
    assert (ac.float32 == other) is False
    assert (ac.float32 != other) is True
    assert (other == ac.int8) is False


@pytest.mark.parametrize("name", DTYPES)
def test_dtype_equals_numpy_dtypes_names_and_scalar_types(name):
    dt = getattr(ac, name)
    assert dt == np.dtype(name) and np.dtype(name) == dt
    assert dt == name and dt == getattr(np, name if name != "bool" else "bool_")
    assert dt != ("float64" if name != "float64" else "float32")
    assert {dt: 1}[getattr(ac, name)] == 1
    # hash and == come from the type's slots: consistent with the name they equal, and between
    # dtypes by identity (every other dtype unequal; < is not defined, as NumPy's)
    assert hash(dt) == hash(name) and {name: 1}[dt] == 1 and dt in {name} and name in {dt}
    for other in DTYPES:
        assert (dt == getattr(ac, other)) is (other == name)
        assert (dt != getattr(ac, other)) is (other != name)
    with pytest.raises(TypeError):
        dt < dt


def test_dtype_equals_python_types_as_numpy_does():
    for py in (bool, int, float, complex):
        assert (ac.asarray(np.array([py(1)])).dtype == py) == (np.dtype(np.array([py(1)]).dtype) == py)
    assert ac.float64 == float and ac.float32 != float


def test_device_compared_with_a_non_device_is_unequal_not_an_error():
    d = ac.ones(2, device="cpu").device
    assert d == "cpu" and d == ac.Device("cpu")
    assert (d == None) is False and (d != None) is True  # noqa: E711
    assert (d == 3) is False and (d == "no-such-device") is False
