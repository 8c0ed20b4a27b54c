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
        x.max(0, None, False, 1, True, 5)  # NumPy's max takes five: axis, out, keepdims, initial, where


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


def _registry_ops():
    return [(name, arity) for name, arity, *_ in ac._core._op_registry() if name != "cast"]


def test_every_elementwise_function_positional_call_is_the_full_paths(device):
    """add(a, b), sqrt(x): the positional call (fast path) gives the same values, dtype and
    shape as the full function (keywords) and as NumPy's ufunc where NumPy has one."""
    xn = np.array([0.5, -1.0, 2.0, 0.0, 3.5], dtype=np.float32)
    yn = np.array([1.5, 2.0, -0.5, 4.0, 1.0], dtype=np.float32)
    ints = np.array([3, 5, 12, 1, 7], dtype=np.int32)  # no 0: NumPy's int x // 0 is garbage
    for name, arity in _registry_ops():
        fn = getattr(ac, name)
        full = ac._core._full_functions[name]
        for first, second in ([xn, yn], [ints, ints[::-1]]):
            operands = [first > 1, first, second] if name == "where" else [first, second]
            args = [ac.asarray(o, device=device) for o in operands[:arity]]
            try:
                want = full(*args, out=None)
            except Exception as e:  # the op does not take these dtypes: same error both ways
                with pytest.raises(type(e)):
                    fn(*args)
                continue
            got = fn(*args)
            assert got.dtype == want.dtype and got.shape == want.shape, name
            np.testing.assert_array_equal(ac.asnumpy(got.to_device("cpu")),
                                          ac.asnumpy(want.to_device("cpu")), err_msg=name)
            ufunc = getattr(np, name, None)
            if isinstance(ufunc, np.ufunc) and ufunc.nin == arity and name not in ("ldexp",):
                with np.errstate(all="ignore"):
                    ref = ufunc(*[ac.asnumpy(a.to_device("cpu")) for a in args])
                np.testing.assert_allclose(ac.asnumpy(got.to_device("cpu")), ref, rtol=2e-6,
                                           equal_nan=True, err_msg=name)


def test_elementwise_fast_path_errors_and_mixed_operands_are_the_full_paths(device):
    a = ac.asarray([1.0, 2.0, 3.0], device=device)
    # Python scalars, lists and NumPy arrays as operands (converted as on the full path).
    np.testing.assert_array_equal(ac.asnumpy(ac.add(a, 1).to_device("cpu")), [2.0, 3.0, 4.0])
    np.testing.assert_array_equal(ac.asnumpy(ac.maximum([0, 5, 1], a).to_device("cpu")),
                                  [1.0, 5.0, 3.0])
    assert ac.multiply(a, 2).dtype == a.dtype  # a Python int stays weak (NEP 50)
    with pytest.raises(TypeError):
        ac.add(a)  # too few: the full path's signature error
    with pytest.raises(TypeError):
        ac.sqrt(a, a, a)  # too many (the second is out=, as NumPy's)
    with pytest.raises(ValueError, match="broadcast"):
        ac.add(a, ac.ones(4, device=device))
    with pytest.raises(TypeError):
        ac.bitwise_and(a, a)  # no float loop
    with pytest.raises(TypeError):
        ac.sin("abc")
    out = ac.empty(3, device=device)
    assert ac.add(a, a, out=out) is out  # keywords: the full path
    # accel.add is the ufunc around the binding (test_ufunc_methods.py), pickled as accel.add.
    assert "out" in ac.add.__doc__ and ac.add.__module__ == "accel"
    assert ac._core.add.__module__ == "accel._core"


def test_asarray_positional_call_is_the_full_paths():
    """asarray(x) of a NumPy array, a list, a tuple, a Python number or an accel array (the fast
    path) gives what asarray(x, copy=None) (the full function) gives: values, dtype, shape,
    device, and memory shared with a NumPy array as the full path shares it; other objects
    and errors go to the full path."""
    full = ac._core._full_functions["asarray"]
    an = np.arange(6, dtype=np.float32).reshape(2, 3)
    for obj in (an, an[:, ::2], [1.0, 2.0], (1, 2, 3), [[True], [False]], 2.5, 7, True, 1 + 2j,
                [], [1, 2.5], ac.ones(3), np.float32(4.0), np.arange(3)[0], range(4),
                memoryview(np.arange(3.0))):
        got, want = ac.asarray(obj), full(obj, copy=None)
        assert got.dtype == want.dtype and got.shape == want.shape and got.device == want.device
        np.testing.assert_array_equal(ac.asnumpy(got), ac.asnumpy(want))
    x = ac.asarray(an)
    an[0, 0] = 99.0  # zero copy: NumPy's write shows
    assert float(x[0, 0]) == 99.0
    for bad, error in (([1, "a"], (TypeError, ValueError)), ([[1, 2], [3]], ValueError),
                       (object(), TypeError)):
        with pytest.raises(error):
            ac.asarray(bad)
        with pytest.raises(error):
            full(bad)
    assert ac.asarray.__module__ == "accel._core" and "copy" in ac.asarray.__doc__


def test_dlpack_keywords_fast_and_full_spellings_agree(device):
    # __dlpack__'s fast path reads interned keyword names; a name built at run time (not
    # interned) and unknown names take the full method, which must agree or raise the same way.
    x = ac.asarray(np.arange(6.0).reshape(2, 3), device=device)
    runtime_name = "".join(["max_", "version"])
    calls = [{}, {"max_version": (1, 0)}, {"max_version": None}, {runtime_name: (1, 0)},
             {"stream": None, "max_version": (1, 0), "dl_device": None, "copy": None}]
    if device == "cpu":
        calls.append({"max_version": (1, 0), "copy": True})
    for kwargs in calls:
        capsule = x.__dlpack__(**kwargs)
        versioned = kwargs.get("max_version", kwargs.get(runtime_name)) is not None
        assert ("dltensor_versioned" if versioned else "dltensor") in repr(capsule)
    if device == "cpu":  # NumPy's from_dlpack calls both methods with keywords
        np.testing.assert_array_equal(np.from_dlpack(x), np.arange(6.0).reshape(2, 3))
    with pytest.raises(TypeError):
        x.__dlpack__(bogus=1)
    with pytest.raises(TypeError, match="max_version"):
        x.__dlpack__(max_version=3)
    assert x.__dlpack_device__() == ((1, 0) if device == "cpu" else (2, 0))


def test_from_dlpack_positional_call_is_the_full_paths(device):
    """from_dlpack(x) of a NumPy or accel array (the fast path) gives what the full function
    gives, zero copy; other producers, keywords and errors go to the full function, and
    inspect.signature reads the Array API's signature."""
    import inspect
    full = ac._core._full_functions["from_dlpack"]
    an = np.arange(6, dtype=np.float32).reshape(2, 3)[:, ::2]
    x = ac.asarray(np.arange(4.0), device=device)
    sources = [x, x[::2]] + ([an, an.T] if device == "cpu" else [])
    for src in sources:
        got, want = ac.from_dlpack(src), full(src)
        assert got.dtype == want.dtype and got.shape == want.shape and got.device == want.device
        np.testing.assert_array_equal(ac.asnumpy(got.to_device("cpu")),
                                      ac.asnumpy(want.to_device("cpu")))
    if device == "cpu":
        y = ac.from_dlpack(an)
        an[0, 0] = 99.0  # zero copy: NumPy's write shows
        assert float(y[0, 0]) == 99.0
        z = ac.from_dlpack(an, copy=True)  # a keyword: the full function, a copy
        an[0, 0] = 5.0
        assert float(z[0, 0]) == 99.0
    with pytest.raises(AttributeError, match="does not implement __dlpack__"):
        ac.from_dlpack([1, 2])
    with pytest.raises(TypeError):
        ac.from_dlpack(x, x)
    sig = inspect.signature(ac.from_dlpack)
    assert str(sig) == "(x, /, *, device=None, copy=None)"
    assert "zero copy" in ac.from_dlpack.__doc__ and ac.from_dlpack.__module__ == "accel._core"


LIST_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
               "float16", "float32", "float64", "complex64", "complex128"]


@pytest.mark.parametrize("dtype", LIST_DTYPES)
def test_asarray_and_array_of_flat_lists_with_a_dtype_equal_numpys(device, dtype):
    """asarray(list, dtype) reads flat lists of floats, ints or bools without NumPy: each value
    converted as NumPy converts it (through a double for float dtypes: ints past 2**53 and
    past float16's or float32's range round or overflow to inf as NumPy's); the lists NumPy
    refuses or converts otherwise (floats to ints, ints out of the dtype's range) are NumPy's."""
    big = 2**53 + 1  # not a double: rounds on the way to a float dtype
    lists = [[0.1, -2.5, 1e300, -0.0, float("nan"), float("inf")],
             [1, -7, 127, 0, big, -(2**62)], [3, 250, 65535], [True, False, True], [2.0]]
    for values in lists:
        try:
            with np.errstate(all="ignore"):
                want = np.asarray(values, dtype=dtype)
        except (OverflowError, ValueError) as e:
            with pytest.raises(type(e)):
                ac.asarray(values, dtype=dtype, device=device)
            continue
        for got in (ac.asarray(values, dtype=dtype, device=device),
                    ac.asarray(values, dtype) if device == "cpu" else None,
                    ac.asarray(values, dtype=getattr(np, dtype)) if device == "cpu" else None,
                    ac.array(values, dtype) if device == "cpu" else None):
            if got is None:
                continue
            assert got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_array_equal(ac.asnumpy(got.to_device("cpu")), want)
    with pytest.raises(OverflowError):  # past float64's range
        ac.asarray([10**400], dtype="float32", device=device)


def test_array_of_a_list_is_a_new_array_each_call():
    values = [1.0, 2.0]
    a, b = ac.array(values), ac.array(values)
    a[0] = 5.0
    assert float(b[0]) == 1.0 and values == [1.0, 2.0]
    assert ac.array(values, ndmin=2).shape == (1, 2)  # the other arguments: the full path
    assert ac.array([[1, 2]], dtype=ac.float32).dtype == ac.float32


def test_keyword_fast_paths_bind_as_the_full_functions(device):
    xn = np.arange(6.0)
    x = ac.asarray(xn, device=device)
    same(ac.zeros(shape=(2, 3), dtype="int16", device=device), np.zeros((2, 3), "int16"))
    same(ac.zeros((2, 3), dtype=np.float32), np.zeros((2, 3), np.float32))
    same(ac.empty(dtype=ac.int8, shape=4) * 0, np.zeros(4, np.int8))
    same(ac.concatenate(arrays=[x, x], axis=0), np.concatenate([xn, xn]))
    same(ac.concatenate([x, x], axis=None), np.concatenate([xn, xn], axis=None))
    same(ac.concat((x[None], x[None]), axis=-1), np.concatenate([xn[None], xn[None]], axis=-1))
    same(ac.asarray(a=[1, 2], dtype="uint8"), np.asarray([1, 2], "uint8"))
    for call in (lambda: ac.zeros(3, shape=3), lambda: ac.zeros(3, float, dtype=float),
                 lambda: ac.zeros(3, dtypes=float), lambda: ac.concatenate([x], axis=0, axes=1),
                 lambda: ac.asarray([1], dtype=float, a=[1])):
        with pytest.raises(TypeError):
            call()


def test_numpy_dtype_objects_convert_the_same_every_time():
    # Converted dtype objects are remembered (python/src/dtype_bindings.cpp): the same answer
    # the first time and after, for more objects than are remembered.
    objects = [np.float32, np.dtype("float32"), np.int8, np.dtype("uint16"), np.complex64,
               np.bool_, np.dtype(np.float16)]
    objects += [np.dtype(f"{k}{n}") for k in "iu" for n in (1, 2, 4, 8)] * 3
    objects += [type(f"float{n}", (), {}) for n in (16, 32, 64)]  # anything named as a dtype
    for _ in range(2):
        for o in objects:
            assert ac.zeros(2, dtype=o).dtype == np.dtype(getattr(o, "__name__", o))
    with pytest.raises(TypeError):
        ac.zeros(2, dtype=object())


def test_ravel_flatten_item_fast_paths(device):
    mn = np.arange(12.0).reshape(3, 4)
    m = ac.asarray(mn, device=device)
    r = m.ravel()
    same(r, mn.ravel())
    r[0] = -1.0  # a contiguous array's ravel is a view, as NumPy's
    assert float(m[0, 0]) == -1.0
    f = m.flatten()
    f[1] = -2.0  # flatten copies
    assert float(m[0, 1]) == 1.0
    same(m.T.ravel(), mn.T.ravel())
    same(m[:, ::2].ravel(), mn[:, ::2].ravel())
    same(ac.asarray(np.float32(2.5), device=device).ravel(), np.float32(2.5).reshape(1))
    same(ac.zeros((0, 3), device=device).ravel(), np.zeros(0))
    assert ac.asarray([7.5], device=device).item() == 7.5
    assert type(ac.asarray([3], device=device).item()) is int
    with pytest.raises(ValueError, match="size 1"):
        m.item()
