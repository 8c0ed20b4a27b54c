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
