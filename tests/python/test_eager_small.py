"""Small elementwise ops on computed CPU arrays run at once (accel/eval/eager.h): the same values
as the lazy path and as NumPy (dtypes, broadcasting, 0-d, empty, NaN/inf/-0.0), NumPy's answer
to in-place writes made after the op, and the small-call fast paths that go with it (one-element
conversions, flat lists in asarray)."""

import operator

import numpy as np
import pytest

import accel as ac
import standard_special_values as standard
from accel._core import _eager_max_elements as EAGER_MAX

DTYPES = ["bool", "int8", "int32", "int64", "uint8", "uint64", "float16", "float32", "float64", "complex64",
          "complex128"]
UNARY = ["negative", "abs", "sqrt", "sin", "exp", "isnan", "floor", "logical_not", "square"]
BINARY = ["add", "subtract", "multiply", "divide", "floor_divide", "maximum", "fmin", "less",
          "equal", "logical_and", "bitwise_and", "pow", "atan2"]


@pytest.fixture
def eager_mode():
    """Runs a test with eager small ops on (the default), restoring it after."""
    ac.set_eager_small(True)
    yield
    ac.set_eager_small(True)


def sample(dtype, shape, seed):
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.random(shape) < 0.5
    if dtype.startswith(("int", "uint")):
        return rng.integers(0 if dtype.startswith("u") else -20, 20, shape).astype(dtype)
    x = (rng.standard_normal(shape) * 3).astype(dtype)
    if dtype.startswith("complex"):
        x = x + 1j * rng.standard_normal(shape).astype(dtype)
    flat = x.reshape(-1)
    for i, v in enumerate([np.nan, np.inf, -np.inf, -0.0][: flat.size]):
        flat[i] = v
    return x


def numpy_result(name, *arrays):
    """NumPy's answer (the standard's special values where accel follows the standard)."""
    with np.errstate(all="ignore"):
        return (standard.BY_NAME.get(name) or getattr(np, name))(*arrays)


def tolerance(dtypes):
    if "float16" in dtypes:
        return 1e-3
    return 1e-5 if "float32" in dtypes or "complex64" in dtypes else 1e-6


def lazy_and_eager(fn, *arrays):
    """fn's result computed on the eager path and, with eager off, on the lazy one."""
    ac.set_eager_small(True)
    eager = fn(*[ac.asarray(a, copy=True) for a in arrays])
    assert not eager.is_pending
    ac.set_eager_small(False)
    try:
        lazy = fn(*[ac.asarray(a, copy=True) for a in arrays])
        assert lazy.is_pending
        lazy = ac.asnumpy(lazy)
    finally:
        ac.set_eager_small(True)
    return ac.asnumpy(eager), lazy


def supported(name, *dtypes):
    """Whether NumPy runs the op on these dtypes (accel follows it: the lazy path decides)."""
    try:
        with np.errstate(all="ignore"):
            getattr(np, name)(*[np.ones(1, d) for d in dtypes])
        return True
    except TypeError:
        return False


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", UNARY)
def test_unary_ops_on_the_eager_path_equal_lazy_ones_and_numpy(name, dtype, eager_mode):
    if not supported(name, dtype):
        pytest.skip(f"NumPy has no {name} for {dtype}")
    x = sample(dtype, (3, 4), 1)
    fn = getattr(ac, name)
    eager, lazy = lazy_and_eager(fn, x)
    expected = numpy_result(name, x)
    np.testing.assert_array_equal(eager, lazy)
    assert eager.dtype == expected.dtype
    np.testing.assert_allclose(eager, expected, rtol=tolerance([dtype]))


@pytest.mark.parametrize("dtypes", [("float32", "float32"), ("int8", "float64"), ("uint8", "int32"),
                                    ("bool", "int64"), ("float32", "complex128"),
                                    ("uint64", "int64"), ("int32", "bool")])
@pytest.mark.parametrize("name", BINARY)
@pytest.mark.parametrize("shapes", [((3, 4), (3, 4)), ((3, 1), (1, 4)), ((), (5,)), ((0, 3), (3,)),
                                    ((), ())])
def test_binary_ops_on_the_eager_path_equal_lazy_ones_and_numpy(name, dtypes, shapes, eager_mode):
    if not supported(name, *dtypes):
        pytest.skip(f"NumPy has no {name} for {dtypes}")
    x, y = sample(dtypes[0], shapes[0], 2), sample(dtypes[1], shapes[1], 3)
    if name == "pow" and y.dtype.kind == "i":
        y = np.abs(y)  # NumPy raises for integers to negative integer powers
    fn = getattr(ac, name)
    eager, lazy = lazy_and_eager(fn, x, y)
    expected = numpy_result(name, x, y)
    np.testing.assert_array_equal(eager, lazy)
    assert eager.dtype == expected.dtype and eager.shape == expected.shape
    np.testing.assert_allclose(eager, expected, rtol=tolerance(dtypes))


@pytest.mark.parametrize("scalar", [2, 2.0, -0.5, True, 1j, 2**62 + 1, -(2**40)])
@pytest.mark.parametrize("dtype", ["int64", "float32", "float64", "complex64", "uint8"])
def test_python_scalars_repeated_with_other_values_and_dtypes(scalar, dtype, eager_mode):
    # The converted-literal cache must tell 2 from 2.0, 2**62+1 from 2**62, float32 from float64.
    x = sample(dtype, (5,), 4)
    a = ac.asarray(x, copy=True)
    for s in (scalar, 2, scalar, 3.0, scalar):
        try:
            with np.errstate(all="ignore"):
                expected = x * s
        except OverflowError:
            with pytest.raises(OverflowError):
                a * s
            continue
        got = ac.asnumpy(a * s)
        assert got.dtype == expected.dtype
        np.testing.assert_array_equal(got, expected)


def test_where_and_astype_and_copy_on_the_eager_path(eager_mode):
    x = sample("float32", (10,), 5)
    y = sample("float32", (10,), 6)
    a, b = ac.asarray(x, copy=True), ac.asarray(y, copy=True)
    r = ac.where(a > 0, a, b)
    assert not r.is_pending
    np.testing.assert_array_equal(ac.asnumpy(r), np.where(x > 0, x, y))
    c = a.astype(ac.int16)
    assert not c.is_pending
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(ac.asnumpy(c), x.astype(np.int16))
    d = a.copy()
    assert not d.is_pending and not ac.shares_memory(d, a)


def test_only_small_computed_cpu_inputs_run_at_once(eager_mode):
    small = ac.ones(EAGER_MAX)
    assert not (small + 1).is_pending
    large = ac.ones(EAGER_MAX + 1)
    assert (large + 1).is_pending  # fusion may still pay here
    ac.set_eager_small(False)
    p = small + 1
    ac.set_eager_small(True)
    assert p.is_pending
    q = p * 2  # an input still pending: stays lazy, so it fuses with it
    assert q.is_pending
    np.testing.assert_array_equal(ac.asnumpy(q), np.full(EAGER_MAX, 4.0))


def test_value_computed_at_once_does_not_see_later_writes(eager_mode):
    x = ac.asarray(np.arange(6.0), copy=True)
    y = x * 2
    v = x[1:4]
    z = v + 1
    x += 10
    x[0] = -1
    np.testing.assert_array_equal(ac.asnumpy(y), np.arange(6.0) * 2)
    np.testing.assert_array_equal(ac.asnumpy(z), np.arange(1.0, 4.0) + 1)


def test_value_computed_at_once_from_numpy_memory_does_not_see_numpy_writes(eager_mode):
    xn = np.arange(5.0)
    x = ac.asarray(xn)  # zero copy: NumPy can write it
    y = x + 1
    xn[:] = 100
    np.testing.assert_array_equal(ac.asnumpy(y), np.arange(5.0) + 1)


def test_in_place_write_into_a_result_computed_at_once(eager_mode):
    x = ac.asarray(np.arange(4.0), copy=True)
    y = x * 2
    y += 1
    y[0] = 7
    np.testing.assert_array_equal(ac.asnumpy(y), [7.0, 3.0, 5.0, 7.0])
    np.testing.assert_array_equal(ac.asnumpy(x), np.arange(4.0))
    x += x[::-1]  # overlapping in-place write: NumPy's answer (it buffers the overlap)
    np.testing.assert_array_equal(ac.asnumpy(x), [3.0, 3.0, 3.0, 3.0])


def test_lazy_reader_of_a_buffer_is_still_computed_before_a_write(eager_mode):
    # A lazy value (eager off) reading x, then an eager op and an in-place write on x.
    x = ac.asarray(np.arange(4.0), copy=True)
    ac.set_eager_small(False)
    lazy = x + 1
    ac.set_eager_small(True)
    now = x * 3
    x[...] = 0
    np.testing.assert_array_equal(ac.asnumpy(lazy), np.arange(4.0) + 1)
    np.testing.assert_array_equal(ac.asnumpy(now), np.arange(4.0) * 3)


@pytest.mark.parametrize("dtype", DTYPES)
def test_one_element_conversions_equal_numpys(dtype):
    for v in sample(dtype, (6,), 7):
        x = ac.asarray(np.array([v]), copy=True)[0]
        assert bool(x) == bool(v)
        if not dtype.startswith("complex"):
            f = float(x)
            assert f == float(v) or (np.isnan(f) and np.isnan(float(v)))
            if np.isfinite(float(v)):
                assert int(x) == int(v)
        item = x.item()
        assert type(item) is type(np.array(v).item())
        assert item == v.item() or (item != item and v != v)
        assert complex(x) == complex(v) or np.isnan(complex(v))


def test_conversions_of_views_and_pending_arrays():
    x = ac.asarray(np.arange(12.0).reshape(3, 4), copy=True)
    assert float(x[2, 1]) == 9.0
    assert float(x.T[1, 2]) == 9.0
    ac.set_eager_small(False)
    try:
        assert float((x * 2)[1, 1]) == 10.0
        assert float(x[1:2, 3:4] + 1) == 8.0
    finally:
        ac.set_eager_small(True)


@pytest.mark.parametrize("values", [[1.0] * 10, [1.5, -0.0, float("nan"), float("inf")], [1, 2, -3],
                                    [True, False], [2**63 - 1, -(2**63)], [2**63], [1, 2.5],
                                    [True, 2], [1j, 2.0], [[1.0, 2.0], [3.0, 4.0]], [], [1.0]])
def test_asarray_of_a_flat_list_equals_numpys(values):
    expected = np.asarray(values)
    got = ac.asarray(values)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(ac.asnumpy(got), expected)
    assert np.signbit(ac.asnumpy(got)).tolist() == np.signbit(expected).tolist() \
        if expected.dtype.kind == "f" else True


def test_asarray_of_a_list_with_a_dtype_takes_numpys_path():
    for values, dtype in (([1.5, 2.5], "float32"), ([1, 2], "uint16"), ([True], "float64")):
        got = ac.asarray(values, dtype=dtype)
        expected = np.asarray(values, dtype=dtype)
        assert got.dtype == expected.dtype
        np.testing.assert_array_equal(ac.asnumpy(got), expected)


def test_asarray_of_a_list_is_a_fresh_array():
    values = [1.0, 2.0]
    a = ac.asarray(values)
    values[0] = 5.0
    a += 1
    np.testing.assert_array_equal(ac.asnumpy(a), [2.0, 3.0])


@pytest.mark.parametrize("dtype", DTYPES + ["int16", "uint16", "uint32", "intc", "longlong"])
def test_asarray_of_numpy_views_is_zero_copy_with_numpys_values(dtype):
    base = sample(np.dtype(dtype).name, (4, 6), 8)
    for xn in (base, base[::2, ::-3], base.T, base[1:, 2:3], base[:0], base[2, 3, ...], base[::-1]):
        x = ac.asarray(xn)
        assert x.dtype == xn.dtype and x.shape == xn.shape
        np.testing.assert_array_equal(ac.asnumpy(x), xn)
        if xn.size:
            assert np.shares_memory(ac.asnumpy(x), xn)


def test_asarray_of_read_only_and_unusual_numpy_arrays():
    ro = np.arange(5.0)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        ac.asarray(ro)[0] = 1
    swapped = np.arange(4, dtype=">i4")
    np.testing.assert_array_equal(ac.asnumpy(ac.asarray(swapped)), [0, 1, 2, 3])
    written = np.arange(3.0)
    x = ac.asarray(written)
    y = x + 1
    written[:] = 7  # NumPy writes its memory after the op: the op kept the old values
    np.testing.assert_array_equal(ac.asnumpy(y), [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(ac.asnumpy(x), [7.0, 7.0, 7.0])


def test_repeated_python_numbers_keep_their_own_values():
    # Weak scalars of recent Python numbers are shared between calls: matched by their bytes.
    n = np.array([1.5, -1.5], np.float32)
    x = ac.asarray(n, copy=True)
    big = ac.asarray(np.arange(100_000, dtype=np.float32), copy=True)
    pending = [big * v for v in (2.0, 3.0)]  # lazy results still holding their scalars
    for v in [0.0, -0.0, 0.0, float("nan"), 2.0, -0.0, 1, 1.0, True, 1j, 0.0]:
        got, want = ac.asnumpy(x * v), n * v
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(np.signbit(got.real), np.signbit(want.real))
    for i in range(20):  # more numbers than are kept
        assert float((x + i)[0]) == 1.5 + i
    np.testing.assert_array_equal(ac.asnumpy(pending[0])[:3], [0, 2, 4])
    np.testing.assert_array_equal(ac.asnumpy(pending[1])[:3], [0, 3, 6])


SCALAR_COMPARE_VALUES = [0.0, -0.0, 1.5, -2.0, np.nan, np.inf, -np.inf, 1e300, 1e-300,
                         16777217.0, 0.1]
SCALAR_COMPARE_NUMBERS = [0, 1, -2, 16777217, 2**62 + 1, -(2**63), 0.0, -0.0, 0.1, 1.5, 1e300,
                          -1e-300, float("nan"), float("inf"), float("-inf")]
COMPARISONS = [operator.lt, operator.le, operator.eq, operator.ne, operator.gt, operator.ge]
FUNCTIONS = {"lt": "less", "le": "less_equal", "eq": "equal", "ne": "not_equal", "gt": "greater",
             "ge": "greater_equal"}


@pytest.mark.filterwarnings("ignore:overflow encountered in cast")
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("number", SCALAR_COMPARE_NUMBERS, ids=repr)
def test_comparison_of_a_0d_float_array_with_a_python_number_equals_numpy_and_lazy(dtype, number,
                                                                                   eager_mode):
    # The 0-d fast paths (the comparison slot's eager_compare_with_number; ac.less(a, 1) and
    # the like through try_eager_scalar_compare) convert the number to the array's dtype as the
    # loop does: 16777217 and 0.1 round in float32, 1e300 becomes inf, NaN compares unequal.
    for value in SCALAR_COMPARE_VALUES:
        x = np.asarray(value, dtype=dtype)
        a = ac.asarray(x, copy=True)
        for op in COMPARISONS:
            for args, accel_args in (((x, number), (a, number)), ((number, x), (number, a))):
                expected = op(*args)
                ac.set_eager_small(True)
                fast = op(*accel_args)
                function = getattr(ac, FUNCTIONS[op.__name__])(*accel_args)
                ac.set_eager_small(False)
                lazy = op(*accel_args)
                ac.set_eager_small(True)
                assert fast.dtype == ac.bool and fast.shape == () and not fast.is_pending
                assert lazy.is_pending
                assert bool(fast) == bool(expected) == bool(lazy) == bool(function), (value, op, args)


ARITHMETIC = [operator.add, operator.sub, operator.mul, operator.truediv]


def _same_value(got, want, where):
    got = ac.asnumpy(got)
    assert got.dtype == want.dtype and got.shape == want.shape == (), where
    same_sign = np.signbit(np.real(got)) == np.signbit(np.real(want))
    assert (np.isnan(got) and np.isnan(want)) or (got == want and same_sign), (where, got, want)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("number", SCALAR_COMPARE_NUMBERS, ids=repr)
def test_arithmetic_of_a_0d_float_array_with_a_python_number_equals_numpy_and_lazy(dtype, number,
                                                                                   eager_mode):
    # Arithmetic of a computed 0-d array with a Python number at once (the eager path) and
    # lazily: the array's dtype kept (NEP 50), the number converted as the loop converts it, the
    # same bits as NumPy, -0.0, NaN, inf and overflow included.
    for value in SCALAR_COMPARE_VALUES:
        x = np.asarray(value, dtype=dtype)
        a = ac.asarray(x, copy=True)
        for op in ARITHMETIC:
            for args, accel_args in (((x, number), (a, number)), ((number, x), (number, a))):
                want = np.asarray(op(*args))
                ac.set_eager_small(True)
                fast = op(*accel_args)
                ac.set_eager_small(False)
                lazy = op(*accel_args)
                ac.set_eager_small(True)
                assert not fast.is_pending and lazy.is_pending
                _same_value(fast, want, (value, op.__name__, args))
                _same_value(lazy, want, (value, op.__name__, args))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_arithmetic_of_two_0d_float_arrays_equals_numpy_and_leaves_other_cases_alone(eager_mode):
    values = [0.0, -0.0, 1.5, -2.0, np.nan, np.inf, -np.inf, 3e38, 1e-45, 0.1]
    for dtype in ("float32", "float64"):
        for v in values:
            for w in values:
                x, y = np.asarray(v, dtype), np.asarray(w, dtype)
                a, b = ac.asarray(x, copy=True), ac.asarray(y, copy=True)
                for op in ARITHMETIC:
                    r = op(a, b)
                    assert not r.is_pending
                    _same_value(r, np.asarray(op(x, y)), (dtype, v, w, op.__name__))
    # Mixed dtypes, 0-d views at an offset, results written later, and pending operands: all as
    # NumPy (the general path where the fast one does not apply).
    x = np.array([0.5, -0.0, 3.0], np.float32)
    a = ac.asarray(x, copy=True)
    d = ac.asarray(np.float64(0.1), copy=True)
    _same_value(a[0] + d, x[0] + np.float64(0.1), "float32 + float64")
    _same_value(a[2] * a[1], np.asarray(x[2] * x[1]), "views")
    r = a[0] - 1
    r[()] = 7.0
    assert float(a[0]) == 0.5 and float(a[0] - 1) == -0.5  # a fresh array each time
    pending = a[0] * ac.asarray(np.float32(2.0), copy=True)
    ac.set_eager_small(False)
    lazy = a[0] * 2
    ac.set_eager_small(True)
    _same_value(lazy / 4, np.asarray(np.float32(0.25)), "pending")
    _same_value(pending - 1, np.asarray(np.float32(0.0)), "computed")
    for y in (np.asarray(3, "int32"), np.asarray(2, "float16"), np.asarray(1 + 2j)):
        _same_value(ac.asarray(np.float32(2.0), copy=True) * ac.asarray(y, copy=True),
                    np.asarray(np.float32(2.0) * y), ("other dtype", y.dtype))


def test_comparison_result_of_a_0d_array_is_a_fresh_writable_array(eager_mode):
    s = ac.asarray(np.float32(1.5), copy=True)
    r1, r2 = s > 0, s > 0
    r1[()] = False
    assert bool(r2) and not bool(r1) and bool(s > 0)
    assert bool(ac.asarray(np.float64(2.0), copy=True)[()] == 2)


def test_comparison_of_0d_views_and_other_dtypes_with_python_numbers_equals_numpy(eager_mode):
    # Views at an offset take the 0-d path; other dtypes (int, float16, bool, complex) and
    # pending values take the general one; all agree with NumPy.
    x = np.array([0.5, -0.0, np.nan, 3.0], np.float32)
    a = ac.asarray(x, copy=True)
    for i in range(4):
        for number in (0, 0.5, -0.0, 3):
            assert bool(a[i] >= number) == bool(x[i] >= number)
            assert bool(number == a[i]) == bool(number == x[i])
    for dtype in ("int8", "uint64", "float16", "bool", "complex64"):
        y = np.asarray(1, dtype=dtype)
        b = ac.asarray(y, copy=True)
        for number in (0, 1, 1.0, 300, -1):
            assert bool(b < number) == bool(y < number), (dtype, number)
            assert bool(b == number) == bool(y == number), (dtype, number)
    pending = ac.asarray(np.float32(2.0), copy=True) * ac.asarray(np.float32(1.0), copy=True)
    assert bool(pending > 1.5)


@pytest.mark.parametrize("dtype", DTYPES + ["int16", "uint32"])
def test_int_and_index_of_one_element_equal_numpys_answers_and_errors(dtype):
    # int() and operator.index() run in the type's slots (operator_slots.cpp): NumPy's answer or
    # its exception type for a 0-d array of every value (NaN, inf, -0.0, extremes), and the
    # methods' answer for one element in 1-d with int() (which NumPy 2 refuses; accel still
    # converts it). operator.index takes 0-d arrays only, as NumPy: NumPy's indexing reads any
    # object with __index__ as one integer (np_array[accel [[0]]] would be a scalar).
    values = list(sample(dtype, (6,), 8))
    if dtype.startswith(("int", "uint")):
        values += [np.iinfo(dtype).min, np.iinfo(dtype).max]
    if dtype.startswith("float"):
        values += [np.finfo(dtype).max, -2.75, 2.75]
    for v in values:
        x = ac.asarray(np.array([v], dtype=dtype), copy=True)
        for conversion, method in ((int, "__int__"), (operator.index, "__index__")):
            try:
                expected = conversion(np.array(v, dtype))
            except Exception as e:  # noqa: BLE001 - the type of NumPy's error is the oracle
                kind = next(k for k in (OverflowError, ValueError, TypeError) if isinstance(e, k))
                with pytest.raises(kind):
                    conversion(x[0])
                with pytest.raises(kind):
                    conversion(x)
                continue
            got = conversion(x[0])
            assert type(got) is int and got == expected, (dtype, v, conversion)
            if conversion is operator.index:
                for one in (x, x.reshape(1, 1)):
                    with pytest.raises(TypeError, match="0-d"):
                        conversion(one)
                    with pytest.raises(TypeError, match="0-d"):
                        one.__index__()
                continue
            assert conversion(x) == getattr(x, method)() == expected
    for conversion in (int, operator.index):
        with pytest.raises((TypeError, ValueError)):
            conversion(ac.asarray(np.zeros(2, dtype), copy=True))
