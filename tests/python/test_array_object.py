"""The accel.ndarray Python object beyond arithmetic: repr/str/format, pickling, copy and
deepcopy, iteration, __array_namespace__ and the Array API inspection namespace, finfo/iinfo,
isdtype, can_cast and the constants."""

import copy
import math
import pickle

import numpy as np
import pytest

import accel as ac
from device_arrays import WITHOUT_FLOAT16

DTYPES = WITHOUT_FLOAT16  # float16: test_float16.py


def sample(dtype, shape=(2, 3)):
    return np.asarray(np.arange(int(np.prod(shape))).reshape(shape) % 5 - 1).astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(), (0,), (3,), (2, 3), (2, 1, 2)])
def test_repr_and_str_are_numpys(dtype, shape):
    a = sample(dtype, shape)
    x = ac.asarray(a)
    assert repr(x) == repr(a)
    assert str(x) == str(a)


def test_repr_of_views_pending_results_and_long_arrays():
    a = np.arange(12.0).reshape(3, 4)
    x = ac.asarray(a)
    assert repr(x.T) == repr(a.T)
    assert repr(x * 2 + 1) == repr(a * 2 + 1)
    big = np.arange(5000, dtype=np.float32)
    assert repr(ac.asarray(big)) == repr(big)
    assert "..." in repr(ac.asarray(big))


def test_format_of_zero_d_arrays_and_refusal_for_others():
    assert f"{ac.asarray(1.23456):.2f}" == "1.23"
    assert f"{ac.asarray(7, dtype='int32'):>4}" == "   7"
    assert f"{ac.asarray([1.0, 2.0])}" == "[1. 2.]"
    with pytest.raises(TypeError, match="only 0-d arrays take a format spec"):
        f"{ac.asarray([1.0, 2.0]):.2f}"


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("protocol", [2, pickle.HIGHEST_PROTOCOL])
def test_pickle_round_trips_dtype_shape_values_and_device(dtype, protocol):
    a = sample(dtype, (2, 3))
    x = ac.asarray(a)
    for v, want in ((x, a), (x.T, a.T), (x + x if dtype != "bool" else x, a + a if dtype != "bool" else a)):
        y = pickle.loads(pickle.dumps(v, protocol=protocol))
        assert isinstance(y, ac.ndarray)
        assert y.dtype == v.dtype and y.shape == v.shape and y.device == v.device
        np.testing.assert_array_equal(ac.asnumpy(y), want)
        assert not ac.shares_memory(y, v)


def test_pickle_of_zero_d_and_empty():
    for a in (np.array(3.5, np.float32), np.zeros((0, 4), np.int16)):
        y = pickle.loads(pickle.dumps(ac.asarray(a)))
        assert y.shape == a.shape and y.dtype == a.dtype.name


def test_unpickling_needs_the_device_it_came_from():
    payload = ac._array_api._rebuild
    with pytest.raises(ac.DeviceError, match=r"\[unpickle\] the array was saved from cuda:7"):
        payload(np.ones(2), "cuda:7")


def test_copy_and_deepcopy_make_independent_arrays():
    x = ac.asarray(np.arange(4.0))
    for y in (copy.copy(x), copy.deepcopy(x), copy.deepcopy([x, x])[0]):
        assert y is not x and not ac.shares_memory(x, y)
        np.testing.assert_array_equal(ac.asnumpy(y), np.arange(4.0))
    y = copy.copy(x)
    y += 1
    np.testing.assert_array_equal(ac.asnumpy(x), np.arange(4.0))


def test_iteration_yields_views_along_the_first_axis():
    a = np.arange(24).reshape(2, 3, 4)
    x = ac.asarray(a)
    rows = list(x)
    assert len(rows) == 2 and all(isinstance(r, ac.ndarray) for r in rows)
    for r, want in zip(rows, a):
        assert r.shape == (3, 4)
        np.testing.assert_array_equal(ac.asnumpy(r), want)
        assert ac.shares_memory(r, x)
    assert [float(v) for v in ac.asarray(np.array([1.5, 2.5]))] == [1.5, 2.5]
    assert list(ac.asarray(np.zeros((0, 2)))) == []
    np.testing.assert_array_equal([ac.asnumpy(c) for c in x.T], list(a.T))
    with pytest.raises(TypeError, match="iteration over a 0-d array"):
        iter(ac.asarray(1.0))
    it = iter(ac.asarray(np.array([3.0, 4.0])))
    assert iter(it) is it and float(next(it)) == 3.0 and float(next(it)) == 4.0
    for _ in range(2):  # an exhausted iterator stays exhausted
        with pytest.raises(StopIteration):
            next(it)


def test_array_namespace_is_accel():
    x = ac.asarray([1.0])
    assert x.__array_namespace__() is ac
    assert x.__array_namespace__(api_version="2023.12") is ac
    assert x.__array_namespace__(api_version="2025.12") is ac
    with pytest.raises(ValueError, match="unsupported api_version '2011.01'"):
        x.__array_namespace__(api_version="2011.01")
    assert ac.__array_api_version__ == "2025.12"


def test_namespace_info_follows_the_inspection_api():
    info = ac.__array_namespace_info__()
    caps = info.capabilities()
    assert set(caps) >= {"boolean indexing", "data-dependent shapes", "max dimensions"}
    assert caps["max dimensions"] is None
    assert info.default_device() == ac.default_device()
    assert info.default_dtypes() == {"real floating": ac.float64, "complex floating": ac.complex128,
                                     "integral": ac.int64, "indexing": ac.int64}
    assert list(info.dtypes()) == ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
                                   "uint32", "uint64", "float32", "float64", "complex64",
                                   "complex128"]
    assert list(info.dtypes(kind="real floating")) == ["float32", "float64"]
    assert list(info.dtypes(kind=("bool", "complex floating"))) == ["bool", "complex64",
                                                                    "complex128"]
    assert ac.Device("cpu") in info.devices()
    assert info.devices()[0] == "cpu"
    assert len(info.devices()) == 1 + ac.cuda.device_count()
    with pytest.raises(ValueError, match="not available"):
        info.dtypes(device="cuda:63")


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
def test_finfo_matches_numpy(dtype):
    f, n = ac.finfo(getattr(ac, dtype)), np.finfo(dtype)
    assert f.bits == n.bits and f.eps == n.eps and f.max == n.max and f.min == n.min
    assert f.smallest_normal == n.smallest_normal
    assert f.dtype == n.dtype.name
    assert ac.finfo(ac.asarray(np.ones(2, dtype))).eps == n.eps
    assert ac.finfo(dtype).bits == n.bits


@pytest.mark.parametrize("dtype", [d for d in DTYPES if d[0] in "iu"])
def test_iinfo_matches_numpy(dtype):
    i, n = ac.iinfo(getattr(ac, dtype)), np.iinfo(dtype)
    assert (i.bits, i.min, i.max) == (n.bits, int(n.min), int(n.max))
    assert i.dtype == dtype
    assert ac.iinfo(ac.asarray(np.ones(2, dtype))).max == n.max


def test_finfo_and_iinfo_refuse_the_wrong_kind():
    with pytest.raises(ValueError, match=r"\[finfo\] int32 is not a floating-point dtype"):
        ac.finfo(ac.int32)
    with pytest.raises(ValueError, match=r"\[iinfo\] float32 is not an integer dtype"):
        ac.iinfo(ac.float32)


@pytest.mark.parametrize("kind,members", [
    ("bool", ["bool"]), ("signed integer", ["int8", "int16", "int32", "int64"]),
    ("unsigned integer", ["uint8", "uint16", "uint32", "uint64"]),
    ("integral", ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]),
    ("real floating", ["float32", "float64"]), ("complex floating", ["complex64", "complex128"]),
    ("numeric", DTYPES[1:]),
])
def test_isdtype_kinds(kind, members):
    assert [d for d in DTYPES if ac.isdtype(getattr(ac, d), kind)] == members


def test_isdtype_with_dtypes_tuples_and_errors():
    assert ac.isdtype(ac.float32, ac.float32)
    assert not ac.isdtype(ac.float32, ac.float64)
    assert ac.isdtype(ac.int8, ("real floating", ac.int8))
    with pytest.raises(ValueError, match="unknown kind 'floating'"):
        ac.isdtype(ac.float32, "floating")
    with pytest.raises(TypeError):
        ac.isdtype("float32", "numeric")


@pytest.mark.parametrize("a", DTYPES)
def test_can_cast_is_numpys_safe_casting(a):
    for b in DTYPES:
        assert ac.can_cast(getattr(ac, a), getattr(ac, b)) == np.can_cast(a, b), (a, b)
    assert ac.can_cast(ac.asarray(np.ones(1, a)), a)


def test_constants():
    assert ac.e == math.e and ac.pi == math.pi and ac.inf == math.inf and math.isnan(ac.nan)
    assert ac.newaxis is None


def test_asnumpy_takes_any_array_like_as_cupy_does(device):
    """accel.asnumpy of an accel array copies or views it; of a NumPy array it is that array;
    of a list or scalar, numpy.asarray's result (cupy.asnumpy's contract)."""
    xn = np.arange(6.0).reshape(2, 3)
    x = ac.asarray(xn, device=device)
    np.testing.assert_array_equal(ac.asnumpy(x), xn)
    np.testing.assert_array_equal(ac.asnumpy(x[:, ::2]), xn[:, ::2])
    assert ac.asnumpy(xn) is xn
    assert ac.asnumpy([1, 2]).tolist() == [1, 2] and ac.asnumpy(2.5).shape == ()
    with pytest.raises(TypeError):
        ac.asnumpy()
