"""The plainest calls of hot methods and creation functions take a fast path
(python/src/fast_methods.h) and every other call the full nanobind function: both give NumPy's
values, dtypes and shapes, and the full path's errors, on every device."""

import pickle

import numpy as np
import pytest

import accel as ac

RNG = np.random.default_rng(15)


def same(got, want):
    assert isinstance(got, ac.ndarray)
    assert got.shape == want.shape and got.dtype == ac.asarray(want).dtype
    np.testing.assert_array_equal(ac.asnumpy(got.to_device("cpu")), want)


@pytest.mark.parametrize("shape", [(2, 5), ((5, 2),), ([10],), (-1, 2), ((1, -1),), (10,),
                                   (np.int64(2), 5), ((np.int32(2), 5),)])
def test_reshape_fast_and_full_spellings_equal_numpy(device, shape):
    xn = RNG.random(10).astype(np.float32)
    x = ac.asarray(xn, device=device)
    same(x.reshape(*shape), xn.reshape(*shape))
    same(x.reshape(*shape, order="C"), xn.reshape(*shape, order="C"))  # keywords: full path
    same(x[::2].reshape(5, 1), xn[::2].reshape(5, 1))  # a strided view: a copy


def test_reshape_errors_are_the_full_paths(device):
    x = ac.arange(10.0, device=device)
    with pytest.raises(TypeError, match="cannot be interpreted as an integer"):
        x.reshape(2.0, 5)
    with pytest.raises(TypeError, match="needs a shape"):
        x.reshape()
    with pytest.raises(ValueError, match="cannot reshape"):
        x.reshape(3, 4)
    with pytest.raises(TypeError):
        x.reshape((2, 5), 1, 2)
    with pytest.raises(TypeError):
        ac.ndarray.reshape(np.arange(10), 2, 5)  # the descriptor checks self's type


@pytest.mark.parametrize("name", ["sum", "prod", "mean", "max", "min", "any", "all", "argmax",
                                  "argmin"])
@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "bool"])
def test_reductions_with_no_axis_a_positional_and_a_keyword_axis_equal_numpy(device, name, dtype):
    xn = (RNG.standard_normal((3, 4)) * 3).astype(dtype)
    xn[1, 2] = xn.max()  # a tie: arg* pick the first
    x = ac.asarray(xn, device=device)
    with np.errstate(all="ignore"):
        for args, kwargs in [((), {}), ((0,), {}), ((1,), {}), ((-1,), {}), ((), {"axis": 0}),
                             ((None,), {}), ((), {"keepdims": True})]:
            want = getattr(xn, name)(*args, **kwargs)
            got = getattr(x, name)(*args, **kwargs)
            assert got.dtype == ac.asarray(np.asarray(want)).dtype, (args, kwargs)
            np.testing.assert_allclose(ac.asnumpy(got.to_device("cpu")), want, rtol=1e-6)


def test_reduction_errors_are_the_full_paths(device):
    x = ac.asarray(np.arange(6.0).reshape(2, 3), device=device)
    with pytest.raises(ac.AxisError, match="out of bounds"):
        x.sum(2)
    with pytest.raises(TypeError):
        x.argmax((0, 1))  # argmax takes one axis
    with pytest.raises(ValueError, match="empty sequence"):
        ac.zeros(0, device=device).argmax()
    with pytest.raises(TypeError):
        x.max(0, None, False, 1)


def test_copy_and_transpose_equal_numpy(device):
    xn = RNG.random((3, 4))
    x = ac.asarray(xn, device=device)
    c = x.copy()
    same(c, xn)
    assert not ac.shares_memory(c, x)
    same(x.transpose(), xn.transpose())
    same(x.transpose(1, 0), xn.transpose(1, 0))
    same(x.transpose((1, 0)), xn.transpose((1, 0)))
    with pytest.raises(TypeError):
        x.copy(1)


@pytest.mark.parametrize("name", ["zeros", "ones", "empty"])
def test_creation_positional_and_keyword_forms(device, name):
    fn, np_fn = getattr(ac, name), getattr(np, name)
    # (accel's arguments, NumPy's): positional ones take the fast path, keywords the full one.
    for args, kwargs, np_args in [((4,), {}, (4,)), (((2, 3),), {}, ((2, 3),)),
                                  (([2, 3],), {}, ([2, 3],)), ((3, ac.int32), {}, (3, np.int32)),
                                  ((3,), {"dtype": ac.float32}, (3, np.float32)),
                                  (((),), {}, ((),)), ((0,), {}, (0,))]:
        got = fn(*args, **kwargs, device=device)
        want = np_fn(*np_args)
        assert got.shape == want.shape and got.dtype.name == want.dtype.name
        assert got.device == ac.Device(device)
        if name != "empty":
            np.testing.assert_array_equal(ac.asnumpy(got.to_device("cpu")), want)
        got = fn(*args, **kwargs)  # the default device
        assert got.shape == want.shape and got.dtype.name == want.dtype.name
    with pytest.raises(ValueError, match="negative dimensions"):
        fn(-1)
    with pytest.raises(TypeError, match="expected a shape"):
        fn("a")
    with pytest.raises(TypeError, match="cannot be interpreted as an integer"):
        fn([2, 2.0])
    with pytest.raises(TypeError):
        fn()


def test_fast_functions_keep_documentation_and_pickle():
    assert "reshape(" in ac.ndarray.reshape.__doc__ and "order" in ac.ndarray.reshape.__doc__
    assert "keepdims" in ac.ndarray.sum.__doc__
    assert "uninitialised" in ac.empty.__doc__.lower()
    assert pickle.loads(pickle.dumps(ac.zeros)) is ac.zeros  # Dask ships functions by name
    assert ac.zeros.__module__ == "accel._core"
