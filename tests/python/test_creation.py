"""Creation functions against NumPy: values (bit for bit), dtypes, shapes and errors."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import accel as ac
from device_arrays import DTYPES

SETTINGS = settings(max_examples=50, deadline=None)


def check_equal(got, want):
    got = ac.asnumpy(got)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_array_equal(got, want)


shapes = st.lists(st.integers(0, 4), min_size=0, max_size=4).map(tuple)


FILL_VALUES = {"bool": [True, False], "float16": [0.0, -0.0, 65504.0, np.nan, -np.inf],
               "float32": [0.0, -0.0, 1.5, np.nan, -np.inf], "float64": [0.0, -0.0, 1e300, np.nan],
               "complex64": [0, 1 - 2j, complex(np.nan, 1)], "complex128": [0, -0.5 + 3j],
               "int8": [0, -1, 127, -128], "uint8": [0, 255, 7], "int16": [0, -1, 258],
               "uint16": [0, 65535, 258], "int32": [0, -1, 7, -2**31],
               "uint32": [0, 2**32 - 1, 16843009], "int64": [0, -1, 2**62 + 5],
               "uint64": [0, 2**64 - 1, 3]}


@pytest.mark.parametrize("dtype", DTYPES)
def test_zeros_ones_full_every_dtype(dtype, device):
    # On a GPU more elements than one grid covers; on the CPU more than one thread's share.
    long = (1 << 20,) if device.startswith("cuda") else (1 << 15,)
    for shape in [(), (0,), (7,), (2, 3), (3, 1, 5), long]:
        check_equal(ac.zeros(shape, dtype=dtype, device=device), np.zeros(shape, dtype=dtype))
        check_equal(ac.ones(shape, dtype=dtype, device=device), np.ones(shape, dtype=dtype))
        for v in FILL_VALUES[dtype]:
            got = ac.full(shape, v, dtype=dtype, device=device)
            want = np.full(shape, v, dtype)
            check_equal(got, want)
            np.testing.assert_array_equal(np.signbit(ac.asnumpy(got).real), np.signbit(want.real))
    e = ac.empty((4, 0, 2), dtype=dtype, device=device)
    assert e.shape == (4, 0, 2) and e.dtype == dtype


def test_fill_into_views_and_eye(device):
    a = np.arange(40, dtype=np.float64).reshape(5, 8)
    x = ac.asarray(a, device=device)
    want = a.copy()
    x[::2] = 3
    want[::2] = 3
    x[:, 1] = -1.5
    want[:, 1] = -1.5
    x[1:, ::-3] = 0
    want[1:, ::-3] = 0
    check_equal(x, want)
    x[...] = 7
    check_equal(x, np.full((5, 8), 7.0))
    for dtype in ("int32", "float32", "complex128", "bool"):
        for k in (0, 2, -1):
            check_equal(ac.eye(5, 7, k=k, dtype=dtype, device=device),
                        np.eye(5, 7, k=k, dtype=dtype))
    y = ac.asarray(np.zeros((3, 4), np.int16), device=device)
    check_equal(ac.full_like(y, 9), np.full((3, 4), 9, np.int16))


@SETTINGS
@given(shape=shapes)
def test_default_dtype_is_float64_for_any_shape(shape):
    check_equal(ac.zeros(shape), np.zeros(shape))
    check_equal(ac.ones(shape), np.ones(shape))
    assert ac.empty(shape).shape == shape


@pytest.mark.parametrize("value", [True, 3, -7, 2.5, float("nan"), -0.0, float("inf"), 1 + 2j, 2**63])
def test_full_infers_dtype_from_python_scalar(value):
    check_equal(ac.full((2, 2), value), np.full((2, 2), value))


def test_full_with_dtype_converts_and_rejects_out_of_range_integers():
    check_equal(ac.full(3, 2.75, dtype="int32"), np.full(3, 2.75, dtype="int32"))
    check_equal(ac.full(3, 7, dtype="float32"), np.full(3, 7, dtype="float32"))
    with pytest.raises(OverflowError, match="300"):
        ac.full(3, 300, dtype="int8")


def test_full_broadcasts_array_fill_value_and_keeps_its_dtype():
    row = np.arange(3, dtype=np.int16)
    check_equal(ac.full((2, 3), row), np.full((2, 3), row))
    check_equal(ac.full((2,), np.float32(1.5)), np.full((2,), np.float32(1.5)))
    with pytest.raises(ValueError):
        ac.full((2, 4), row)


def test_like_functions_follow_x_and_take_overrides():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    a = ac.asarray(x)
    check_equal(ac.zeros_like(a), np.zeros_like(x))
    check_equal(ac.ones_like(a, dtype="int8"), np.ones_like(x, dtype="int8"))
    check_equal(ac.full_like(a, 4), np.full_like(x, 4))
    check_equal(ac.full_like(x, 2.5, dtype="float64"), np.full_like(x, 2.5, dtype="float64"))
    e = ac.empty_like(a, device="cpu")
    assert e.shape == (2, 3) and e.dtype == "float32" and str(e.device) == "cpu"


def test_negative_dimensions_raise_value_error():
    for fn in (ac.zeros, ac.ones, ac.empty):
        with pytest.raises(ValueError, match="negative"):
            fn((2, -1))
    with pytest.raises(ValueError, match="negative"):
        ac.full((-1,), 1.0)


@SETTINGS
@given(start=st.integers(-1000, 1000), stop=st.integers(-1000, 1000),
       step=st.integers(-50, 50).filter(lambda s: s != 0),
       dtype=st.sampled_from([None, "int64", "int32", "int16", "float64", "float32"]))
def test_arange_integers_match_numpy(start, stop, step, dtype):
    check_equal(ac.arange(start, stop, step, dtype=dtype), np.arange(start, stop, step, dtype=dtype))


@SETTINGS
@given(start=st.floats(-1e3, 1e3), span=st.floats(-1e3, 1e3),
       step=st.floats(0.01, 100.0), sign=st.sampled_from([1, -1]),
       dtype=st.sampled_from([None, "float32", "float64", "int64"]))
def test_arange_floats_match_numpy_bit_for_bit(start, span, step, sign, dtype):
    stop, step = start + span, step * sign
    check_equal(ac.arange(start, stop, step, dtype=dtype), np.arange(start, stop, step, dtype=dtype))


def test_arange_of_a_single_argument_counts_from_zero(device):
    check_equal(ac.arange(7, device=device), np.arange(7))
    check_equal(ac.arange(5.0, device=device), np.arange(5.0))


# (0.1, 3e5, 0.3, "float32"): a long float32 sequence; NumPy computes start + i * delta in float32.
@pytest.mark.parametrize("start,stop,step,dtype", [
    (0, 10, 1, None), (5, -7, -2, "int8"), (0, 300, 100, "int8"), (3, 1000003, 1, "int64"),
    (0, 70000, 7, "uint16"), (2**62, 2**62 + 50, 3, "uint64"), (0.1, 3e5, 0.3, "float32"),
    (-1.5, 2.5, 0.25, "float64"), (0, 5, 1, "complex128"), (1, 4, 0.5, "complex64"),
    (0, 2, 1, "bool"), (0, 1, 1, "bool"), (4, 4, 1, "int32"), (0, 1e6, 0.37, "float64"),
])
def test_arange_of_each_dtype_matches_numpy_bit_for_bit(start, stop, step, dtype, device):
    got = ac.arange(start, stop, step, dtype=dtype, device=device)
    assert str(got.device).startswith(device)
    check_equal(got, np.arange(start, stop, step, dtype=dtype))


# Python ints within int64 take a short path; bools, floats and ints past int64 the general one.
@pytest.mark.parametrize("args", [(True, 3, 1), (2, 7.0, 1), (-(2**63), -(2**63) + 3, 1),
                                  (2**63 - 3, 2**63 - 1, 1), (5, 0, -2), (2**63 - 1, 2**63 + 2, 1),
                                  (-3,), (0, 10, 2**62), (2**62, -(2**62), -(2**61))])
def test_arange_of_python_numbers_at_the_edges_matches_numpy(args):
    check_equal(ac.arange(*args), np.arange(*args))


# NumPy's arange types NumPy scalars by kind only (integers int64, floats float64), promoted
# with the default start and step.
@pytest.mark.parametrize("args", [(np.int32(3),), (np.int8(0), np.int8(5), np.int8(2)),
                                  (np.uint64(5),), (np.uint8(1), np.uint8(9), np.uint8(3)),
                                  (np.float16(3),), (np.float32(0.5), 3),
                                  (np.float32(0.5), np.float32(3), np.float32(0.5)),
                                  (np.bool_(True),), (0, np.int16(5), np.int16(2))])
def test_arange_of_numpy_scalars_matches_numpy(args, device):
    check_equal(ac.arange(*args, device=device), np.arange(*args))


def test_arange_with_only_stop_and_a_step_counts_from_zero():
    check_equal(ac.arange(5, step=2), np.arange(0, 5, 2))
    check_equal(ac.arange(5, step=2, dtype="float32"), np.arange(0, 5, 2, dtype="float32"))


def test_arange_length_of_an_underflowing_span_counts_like_numpy():
    for start, stop, step in [(0.0, -5e-324, -2.0), (0.0, 5e-324, -2.0), (1.0, 1.0 + 2.2e-16, 1e300),
                              (0.0, 1e-320, 1e10)]:
        check_equal(ac.arange(start, stop, step), np.arange(start, stop, step))


def test_arange_errors():
    with pytest.raises(ValueError, match="step"):
        ac.arange(0, 10, 0)
    with pytest.raises(ValueError, match="step"):
        ac.arange(0.0, 1.0, 0.0)
    with pytest.raises(TypeError, match="length 2"):
        ac.arange(3, dtype="bool")
    with pytest.raises(ValueError):
        ac.arange(0.0, float("nan"))
    with pytest.raises(TypeError):
        ac.arange(1j)


@SETTINGS
@given(start=st.floats(-1e6, 1e6), stop=st.floats(-1e6, 1e6), num=st.integers(0, 60),
       endpoint=st.booleans(), dtype=st.sampled_from([None, "float32", "float64", "int64", "int32"]))
def test_linspace_matches_numpy_bit_for_bit(start, stop, num, endpoint, dtype):
    check_equal(ac.linspace(start, stop, num, endpoint=endpoint, dtype=dtype),
                np.linspace(start, stop, num, endpoint=endpoint, dtype=dtype))


def test_linspace_complex_tiny_steps_and_errors():
    check_equal(ac.linspace(1 + 1j, 3 - 2j, 7), np.linspace(1 + 1j, 3 - 2j, 7))
    check_equal(ac.linspace(0, 5e-324, 4), np.linspace(0, 5e-324, 4))  # step underflows to 0
    check_equal(ac.linspace(2, 3, 1), np.linspace(2, 3, 1))
    check_equal(ac.linspace(0, 1), np.linspace(0, 1))
    # NumPy scalars keep their precision, as NumPy's (result_type of the ends and a float).
    check_equal(ac.linspace(np.float32(0.5), np.int64(3), 4), np.linspace(np.float32(0.5), np.int64(3), 4))
    check_equal(ac.linspace(np.complex64(1j), 2, 3), np.linspace(np.complex64(1j), 2, 3))
    check_equal(ac.linspace(np.float32(0.5), 2, 3), np.linspace(np.float32(0.5), 2, 3))
    check_equal(ac.linspace(np.float16(1), np.float16(2), 5), np.linspace(np.float16(1), np.float16(2), 5))
    with pytest.raises(ValueError, match="non-negative"):
        ac.linspace(0, 1, -1)


@SETTINGS
@given(n=st.integers(0, 7), m=st.one_of(st.none(), st.integers(0, 7)), k=st.integers(-8, 8),
       dtype=st.sampled_from(DTYPES))
def test_eye_matches_numpy(n, m, k, dtype):
    check_equal(ac.eye(n, m, k=k, dtype=dtype), np.eye(n, m, k=k, dtype=dtype))


@pytest.mark.parametrize("n, m", [(3, None), (2, 5), (0, None), (4, 1)])
@pytest.mark.parametrize("k", [2**63, -2**63 - 1, 2**70, -2**70, 5, -5])
def test_eye_takes_any_python_int_diagonal_as_numpy(device, n, m, k):
    # The Array API suite draws k from all integers: beyond int64 the diagonal has no ones.
    got = ac.eye(n, m, k=k, device=device)
    check_equal(got, np.eye(n, m, k=k))


def test_identity_and_eye_positional_arguments():
    check_equal(ac.eye(3, k=-2**63), np.zeros((3, 3)))
    check_equal(ac.eye(3, k=2**63 - 1), np.zeros((3, 3)))
    check_equal(ac.identity(4, dtype="int32"), np.identity(4, dtype="int32"))
    check_equal(ac.eye(3, 4, 1), np.eye(3, 4, 1))


@SETTINGS
@given(batch=st.lists(st.integers(0, 3), max_size=2).map(tuple), m=st.integers(0, 6),
       n=st.integers(0, 6), k=st.integers(-7, 7), transposed=st.booleans(),
       dtype=st.sampled_from(["bool", "int8", "int64", "float32", "complex128"]))
def test_tril_triu_batched_and_non_contiguous(batch, m, n, k, transposed, dtype):
    rng = np.random.default_rng(m * 31 + n)
    x = (rng.standard_normal(batch + (n, m) if transposed else batch + (m, n)) * 5).astype(dtype)
    if transposed:
        x = np.swapaxes(x, -1, -2)
    check_equal(ac.tril(x, k=k), np.tril(x, k=k))
    check_equal(ac.triu(ac.asarray(x), k), np.triu(x, k))


def test_tril_triu_with_k_far_outside_the_matrix():
    x = np.arange(12.0).reshape(3, 4)
    for k in (10**12, -10**12, 2**62, -2**62):
        check_equal(ac.tril(x, k), np.tril(x, k))
        check_equal(ac.triu(x, k), np.triu(x, k))


def test_tril_needs_two_dimensions():
    with pytest.raises(ValueError, match="2 dimensions"):
        ac.tril(ac.ones(3))


@SETTINGS
@given(sizes=st.lists(st.integers(0, 4), min_size=0, max_size=4),
       indexing=st.sampled_from(["xy", "ij"]), sparse=st.booleans())
def test_meshgrid_matches_numpy(sizes, indexing, sparse):
    xs = [np.arange(s, dtype=np.float32) * (i + 1) for i, s in enumerate(sizes)]
    got = ac.meshgrid(*[ac.asarray(x) for x in xs], indexing=indexing, sparse=sparse)
    want = np.meshgrid(*xs, indexing=indexing, sparse=sparse)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        check_equal(g, w)


def test_meshgrid_of_strided_views_and_errors():
    x = np.arange(10)[::3]
    y = np.arange(4)[::-1]
    for g, w in zip(ac.meshgrid(x, y), np.meshgrid(x, y)):
        check_equal(g, w)
    with pytest.raises(ValueError, match="indexing"):
        ac.meshgrid(ac.ones(2), indexing="yx")
    with pytest.raises(ValueError, match="1-d"):
        ac.meshgrid(ac.ones((2, 2)))


def test_device_keyword():
    for fn in (lambda d: ac.zeros(2, device=d), lambda d: ac.arange(3, device=d),
               lambda d: ac.linspace(0, 1, 3, device=d), lambda d: ac.eye(2, device=d),
               lambda d: ac.full(2, 1.0, device=d)):
        assert str(fn("cpu").device) == "cpu"
    with pytest.raises(ValueError, match="device"):
        ac.zeros(2, device="tpu")


@pytest.mark.parametrize("scalar", [np.float64(2.5), np.float32(-1.5), np.int8(7), np.uint64(3),
                                    np.bool_(True), np.complex64(1 - 2j)])
def test_asarray_of_numpy_scalar_is_a_writable_copy(scalar):
    # NumPy scalars export read-only memory; np.asarray gives a new writable 0-d array.
    before = scalar.item()
    a = ac.asarray(scalar)
    assert a.dtype == ac.asarray(np.asarray(scalar)).dtype and a.shape == ()
    a[...] = 1
    ac.expand_dims(a, 0)[:] = 0
    a += scalar.dtype.type(1)
    want = np.asarray(scalar).copy()
    want[...] = 1
    want[...] = 0
    want += scalar.dtype.type(1)
    np.testing.assert_array_equal(ac.asnumpy(a), want)
    assert scalar.item() == before  # the scalar's own memory is untouched


@pytest.mark.parametrize("value, dtype", [([300], "int8"), ([-1], "uint8"), (300, "int8"),
                                          ([True, 300], "uint8"), (-129, "int8"),
                                          ([[1, 2], [70000, 3]], "int16")])
def test_asarray_of_python_ints_out_of_range_raises_like_numpy(value, dtype, device):
    # Not a silent wrap (300 as int8 was 44): NumPy 2's OverflowError, with its message.
    with pytest.raises(OverflowError) as want:
        np.asarray(value, dtype=dtype)
    with pytest.raises(OverflowError, match="out of bounds") as got:
        ac.asarray(value, dtype=getattr(ac, dtype), device=device)
    assert str(got.value) == str(want.value)


@pytest.mark.parametrize("value, dtype", [([1.5, -2.7], "int8"), (1.5, "int8"), ([255], "uint8"),
                                          (2**63, "uint64"), ([1 + 2j], "complex64"),
                                          (True, "int16"), ([[1, 2], [3, 4]], "float32")])
def test_asarray_of_python_values_with_a_dtype_matches_numpy(value, dtype, device):
    want = np.asarray(value, dtype=dtype)
    got = ac.asarray(value, dtype=getattr(ac, dtype), device=device)
    assert got.dtype == getattr(ac, dtype) and got.shape == want.shape
    np.testing.assert_array_equal(ac.asnumpy(got), want)
